import XCTest
@testable import MigaSystem

/// The typed descriptors and errno values the services speak, and the live services on a
/// context built without them.
final class SystemServicesTests: XCTestCase {
    func testStandardDescriptorsAreTheCLibrarysNumbersAndSayWhatTheyAre() {
        XCTAssertEqual(FileDescriptor.standardInput.rawValue, 0)
        XCTAssertEqual(FileDescriptor.standardOutput.rawValue, 1)
        XCTAssertEqual(FileDescriptor.standardError.rawValue, 2)
        XCTAssertEqual("\(FileDescriptor.standardInput)", "standard input")
        XCTAssertEqual("\(FileDescriptor(rawValue: 7))", "descriptor 7")
        XCTAssertEqual(FileDescriptor(rawValue: 1), .standardOutput)
    }

    func testErrnoNamesAndWordsComeFromTheCLibrary() {
        XCTAssertEqual(Errno.noSuchFile.rawValue, ErrorCode.noSuchFile)
        XCTAssertEqual(Errno.noSuchFile.description, "No such file or directory")
        XCTAssertNotEqual(Errno.brokenPipe, Errno.wouldBlock)
    }

    func testALinuxErrorCarriesItsOperationAndNamedErrno() {
        let error = LinuxError(operation: "open /nowhere", errno: .noSuchFile)
        XCTAssertEqual(error.errno, .noSuchFile)
        XCTAssertEqual(error.code, ErrorCode.noSuchFile)
        XCTAssertEqual(error.description, "open /nowhere: No such file or directory")
        XCTAssertFalse(error.wouldBlock)
        XCTAssertTrue(LinuxError(operation: "read", errno: .wouldBlock).wouldBlock)
    }

    func testAFailedCallThroughTheFileServiceThrowsItsErrno() {
        let folder = NSTemporaryDirectory() + "miga-services-\(UUID().uuidString)"
        defer { SystemFiles().removeFile(folder) }
        XCTAssertTrue(SystemFiles().createFileIfAbsent(folder, mode: 0o600))
        XCTAssertThrowsError(try SystemFiles().makeDirectories(folder + "/below", mode: 0o700)) { error in
            XCTAssertEqual((error as? LinuxError)?.errno, .notDirectory)
            XCTAssertEqual((error as? LinuxError)?.operation, "mkdir \(folder)/below")
        }
    }

    func testAContextBuiltWithoutServicesGetsTheLiveOnes() throws {
        let context = MigaContext(clock: SystemClock(), environment: [:], paths: try MigaPaths(environment: ["HOME": "/nonexistent"]),
                                  launcher: SystemLauncher(), executablePath: "/bin/true", messages: StandardErrorSink(), hasTerminal: false)
        XCTAssertTrue(context.files is SystemFiles)
        XCTAssertTrue(context.terminal is SystemTerminal)
        XCTAssertEqual(context.processes.id, SystemProcesses().id)
        XCTAssertTrue(context.signals is SystemSignals)
        XCTAssertTrue(context.notifications is NotifySend)
    }

    func testNotificationsGoThroughTheContextsService() throws {
        final class Recorder: NotificationService, @unchecked Sendable {
            var shown: [String] = []
            func notifier(in context: MigaContext) -> String? { "recorder" }
            func notify(title: String, _ body: String, in context: MigaContext) -> Bool { shown.append(title + ": " + body); return true }
        }
        let recorder = Recorder()
        let context = MigaContext(clock: SystemClock(), environment: [:], paths: try MigaPaths(environment: ["HOME": "/nonexistent"]),
                                  launcher: SystemLauncher(), executablePath: "/bin/true", messages: StandardErrorSink(), hasTerminal: false,
                                  notifications: recorder)
        XCTAssertTrue(context.notifyDesktop("hello"))
        XCTAssertEqual(context.desktopNotifier, "recorder")
        XCTAssertEqual(recorder.shown, ["miga: hello"])
    }
}
