#if canImport(Glibc)
import Glibc
#endif
import XCTest
@testable import MigaSystem
import MigaTestSupport

/// The APIs MigaSystem gives MigaCore in place of the C library, on real files, pipes and
/// folders in a temporary folder.
final class FileStatusTests: XCTestCase {
    func testRegularFile() throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("hello", to: "a.txt", mode: 0o640)
        let status = try FileStatus(path: file)
        XCTAssertEqual(status.kind, .regularFile)
        XCTAssertTrue(status.isRegularFile)
        XCTAssertFalse(status.isDirectory)
        XCTAssertEqual(status.size, 5)
        XCTAssertEqual(status.permissions, 0o640)
        XCTAssertNotEqual(status.inode, 0)
        XCTAssertEqual(status, FileStatus.at(file))
    }

    func testSymbolicLinkWithAndWithoutFollowing() throws {
        let folder = try TemporaryDirectory()
        let target = try folder.write("0123456789", to: "target")
        let link = folder.path + "/link"
        XCTAssertEqual(symlink(target, link), 0)
        let followed = try FileStatus(path: link)
        XCTAssertEqual(followed.kind, .regularFile)
        XCTAssertEqual(followed.size, 10)
        XCTAssertEqual(followed.inode, try FileStatus(path: target).inode)
        let itself = try FileStatus(path: link, followingLinks: false)
        XCTAssertEqual(itself.kind, .symbolicLink)
        XCTAssertNotEqual(itself.inode, followed.inode)
    }

    func testDanglingLinkExistsOnlyWithoutFollowing() throws {
        let folder = try TemporaryDirectory()
        let link = folder.path + "/dangling"
        XCTAssertEqual(symlink(folder.path + "/nowhere", link), 0)
        XCTAssertNil(FileStatus.at(link))
        XCTAssertEqual(FileStatus.at(link, followingLinks: false)?.kind, .symbolicLink)
    }

    func testFIFOAndFolder() throws {
        let folder = try TemporaryDirectory()
        let fifo = folder.path + "/fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertEqual(FileStatus.at(fifo)?.kind, .fifo) // stat never opens it, so never blocks
        XCTAssertEqual(FileStatus.at(folder.path)?.kind, .directory)
        XCTAssertEqual(FileStatus.at("/dev/null")?.kind, .device)
    }

    func testMissingPathThrowsItsErrno() throws {
        let folder = try TemporaryDirectory()
        XCTAssertThrowsError(try FileStatus(path: folder.path + "/missing")) { error in
            XCTAssertEqual((error as? LinuxError)?.code, ENOENT)
        }
        XCTAssertThrowsError(try FileStatus(path: folder.path + "/missing/below", followingLinks: false)) { error in
            XCTAssertEqual((error as? LinuxError)?.code, ENOENT)
        }
        XCTAssertNil(FileStatus.at(folder.path + "/missing"))
    }

    func testTouchSetsTheModificationTime() throws {
        let folder = try TemporaryDirectory()
        let file = folder.path + "/stamp"
        let time = FileTime(seconds: 1_700_000_000, nanoseconds: 250_000_000)
        XCTAssertTrue(LinuxSystem.touch(file, mode: 0o600, modified: time))
        let status = try FileStatus(path: file)
        XCTAssertEqual(status.modified, time)
        XCTAssertEqual(status.size, 0)
        XCTAssertEqual(status.permissions, 0o600)
    }

    func testTouchNeverFollowsALink() throws {
        let folder = try TemporaryDirectory()
        let target = try folder.write("kept", to: "target")
        let link = folder.path + "/link"
        XCTAssertEqual(symlink(target, link), 0)
        XCTAssertFalse(LinuxSystem.touch(link, mode: 0o600, modified: nil))
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "kept")
    }
}

final class LinuxSystemFileTests: XCTestCase {
    func testCreateFileIfAbsentLeavesWhatIsThere() throws {
        let folder = try TemporaryDirectory()
        let file = folder.path + "/new"
        XCTAssertTrue(LinuxSystem.createFileIfAbsent(file, mode: 0o600))
        XCTAssertEqual(FileStatus.at(file)?.permissions, 0o600)
        let existing = try folder.write("data", to: "existing", mode: 0o644)
        XCTAssertFalse(LinuxSystem.createFileIfAbsent(existing, mode: 0o600))
        XCTAssertEqual(FileStatus.at(existing)?.size, 4)
        let link = folder.path + "/dangling"
        XCTAssertEqual(symlink(folder.path + "/target", link), 0)
        XCTAssertFalse(LinuxSystem.createFileIfAbsent(link, mode: 0o600))
        XCTAssertNil(FileStatus.at(folder.path + "/target"), "a link is never followed")
    }

    func testOverwriteExistingNeverCreates() throws {
        let folder = try TemporaryDirectory()
        XCTAssertFalse(LinuxSystem.overwriteExisting(folder.path + "/gone", with: Array("1\n".utf8)))
        XCTAssertNil(FileStatus.at(folder.path + "/gone"))
        let file = try folder.write("a longer text", to: "report")
        XCTAssertTrue(LinuxSystem.overwriteExisting(file, with: Array("42\n".utf8)))
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "42\n")
    }

    func testRemoveFileAndEmptyDirectoryOnly() throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("x", to: "sub/file")
        XCTAssertFalse(LinuxSystem.removeDirectory(folder.path + "/sub"), "not empty")
        XCTAssertTrue(LinuxSystem.removeFile(file))
        XCTAssertFalse(LinuxSystem.removeFile(file))
        XCTAssertTrue(LinuxSystem.removeDirectory(folder.path + "/sub"))
        XCTAssertNil(FileStatus.at(folder.path + "/sub"))
    }

    func testSetPermissions() throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("x", to: "file", mode: 0o644)
        XCTAssertTrue(LinuxSystem.setPermissions(file, 0o600))
        XCTAssertEqual(FileStatus.at(file)?.permissions, 0o600)
        XCTAssertFalse(LinuxSystem.setPermissions(folder.path + "/missing", 0o600))
    }

    func testCreateUniqueFile() throws {
        let folder = try TemporaryDirectory()
        let first = try LinuxSystem.createUniqueFile(in: folder.path, prefix: "handoff-")
        let second = try LinuxSystem.createUniqueFile(in: folder.path, prefix: "handoff-")
        XCTAssertNotEqual(first, second)
        XCTAssertTrue(first.hasPrefix(folder.path + "/handoff-"))
        XCTAssertEqual(FileStatus.at(first)?.size, 0)
        XCTAssertThrowsError(try LinuxSystem.createUniqueFile(in: folder.path + "/missing", prefix: "x")) { error in
            XCTAssertEqual("\(error)", "create a file in \(folder.path)/missing: No such file or directory")
        }
    }

    func testDirectoryNamesFiltersAndStopsAtTheLimit() throws {
        let folder = try TemporaryDirectory()
        for name in ["events-1", "events-2", "events-3", "grace-1", "other"] { _ = try folder.write("", to: name) }
        XCTAssertEqual(Set(LinuxSystem.directoryNames(in: folder.path) { $0.hasPrefix("events-") }),
                       ["events-1", "events-2", "events-3"])
        XCTAssertEqual(LinuxSystem.directoryNames(in: folder.path, limit: 2) { $0.hasPrefix("events-") }.count, 2)
        XCTAssertEqual(Set(LinuxSystem.directoryNames(in: folder.path) { _ in true }),
                       [".", "..", "events-1", "events-2", "events-3", "grace-1", "other"])
        XCTAssertEqual(LinuxSystem.directoryNames(in: folder.path + "/missing") { _ in true }, [])
    }
}

final class ScratchFileTests: XCTestCase {
    func testWritesAndReadsBackWithoutAName() throws {
        let folder = try TemporaryDirectory()
        let file = try ScratchFile(in: folder.path, prefix: ".import-", name: "the scratch file")
        XCTAssertEqual(LinuxSystem.directoryNames(in: folder.path) { $0.hasPrefix(".import-") }, [], "nameless at once")
        try Array("hello ".utf8).withUnsafeBytes { try file.write($0, at: 0) }
        try Array("world".utf8).withUnsafeBytes { try file.write($0, at: 6) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = try buffer.withUnsafeMutableBytes { try file.read(into: $0, at: 0) }
        XCTAssertEqual(String(decoding: buffer[..<count], as: UTF8.self), "hello world")
        let tail = try buffer.withUnsafeMutableBytes { try file.read(into: $0, at: 6) }
        XCTAssertEqual(String(decoding: buffer[..<tail], as: UTF8.self), "world")
    }

    func testReadingPastWhatWasWrittenIsAnIOError() throws {
        let folder = try TemporaryDirectory()
        let file = try ScratchFile(in: folder.path, prefix: ".import-", name: "the scratch file")
        var buffer = [UInt8](repeating: 0, count: 8)
        XCTAssertThrowsError(try buffer.withUnsafeMutableBytes { try file.read(into: $0, at: 0) }) { error in
            XCTAssertEqual(error as? LinuxError, LinuxError(operation: "read the scratch file", code: EIO))
        }
        XCTAssertEqual(file.damaged(), LinuxError(operation: "read the scratch file", code: EIO))
    }

    func testAFolderThatCannotHoldItSaysWhere() throws {
        let folder = try TemporaryDirectory()
        XCTAssertThrowsError(try ScratchFile(in: folder.path + "/missing", prefix: ".import-", name: "x")) { error in
            XCTAssertEqual(error as? LinuxError, LinuxError(operation: "make a temporary file in \(folder.path)/missing", code: ENOENT))
        }
    }
}

final class DirectoryLockTests: XCTestCase {
    func testASecondHolderWaitsThenGivesUp() throws {
        let folder = try TemporaryDirectory()
        let first = try DirectoryLock(folder.path, patience: 0)
        let start = LinuxSystem.monotonicNanoseconds()
        XCTAssertThrowsError(try DirectoryLock(folder.path, patience: 50_000_000)) { error in
            XCTAssertEqual(error as? DirectoryLock.Failure, .timedOut)
        }
        XCTAssertGreaterThanOrEqual(LinuxSystem.monotonicNanoseconds() - start, 50_000_000)
        first.unlock()
        first.unlock() // twice is harmless
        let second = try DirectoryLock(folder.path, patience: 0)
        second.unlock()
    }

    func testAMissingFolderFailsWithItsErrno() throws {
        let folder = try TemporaryDirectory()
        XCTAssertThrowsError(try DirectoryLock(folder.path + "/missing", patience: 0)) { error in
            XCTAssertEqual(error as? DirectoryLock.Failure, .failed(code: ENOENT))
        }
    }
}

final class WaitForInputTests: XCTestCase {
    private func makePipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&fds), 0)
        return (fds[0], fds[1])
    }

    func testTimesOutWithNothingReported() {
        let (first, firstWriter) = makePipe(), (second, secondWriter) = makePipe()
        defer { [first, firstWriter, second, secondWriter].forEach { close($0) } }
        let start = LinuxSystem.monotonicNanoseconds()
        XCTAssertEqual(LinuxSystem.waitForInput([first, second], milliseconds: 50), [[], []])
        XCTAssertGreaterThanOrEqual(LinuxSystem.monotonicNanoseconds() - start, 45_000_000)
    }

    func testReportsWhichDescriptorIsReadable() {
        let (first, firstWriter) = makePipe(), (second, secondWriter) = makePipe()
        defer { [first, firstWriter, second, secondWriter].forEach { close($0) } }
        var byte: UInt8 = 1
        XCTAssertEqual(write(secondWriter, &byte, 1), 1)
        let events = LinuxSystem.waitForInput([first, second], milliseconds: 1000)
        XCTAssertEqual(events[0], [])
        XCTAssertEqual(events[1], .input)
    }

    func testAClosedWriterIsAHangUpAndABadDescriptorIsInvalid() {
        let (reader, writer) = makePipe()
        defer { close(reader) }
        close(writer)
        let events = LinuxSystem.waitForInput([reader], milliseconds: 1000)
        XCTAssertTrue(events[0].contains(.hangUp))
        XCTAssertFalse(events[0].isDisjoint(with: .gone))
        XCTAssertEqual(LinuxSystem.waitForInput([4095], milliseconds: 1000), [.invalid])
    }

    func testReadGivesBytesThenEndOfInput() throws {
        let (reader, writer) = makePipe()
        defer { close(reader) }
        var buffer = [UInt8](repeating: 0, count: 16)
        XCTAssertEqual(write(writer, "abc", 3), 3)
        close(writer)
        XCTAssertEqual(try buffer.withUnsafeMutableBytes { try LinuxSystem.read(from: reader, into: $0, name: "the pipe") }, 3)
        XCTAssertEqual(Array(buffer[..<3]), Array("abc".utf8))
        XCTAssertEqual(try buffer.withUnsafeMutableBytes { try LinuxSystem.read(from: reader, into: $0, name: "the pipe") }, 0)
    }

    func testReadFromAnEmptyNonBlockingPipeWouldBlock() throws {
        let (reader, writer) = makePipe()
        defer { close(reader); close(writer) }
        XCTAssertEqual(fcntl(reader, F_SETFL, O_NONBLOCK), 0)
        var buffer = [UInt8](repeating: 0, count: 16)
        XCTAssertThrowsError(try buffer.withUnsafeMutableBytes { try LinuxSystem.read(from: reader, into: $0, name: "the pipe") }) { error in
            XCTAssertEqual((error as? LinuxError)?.wouldBlock, true)
            XCTAssertEqual((error as? LinuxError)?.operation, "read the pipe")
        }
    }
}

final class ByteSearchTests: XCTestCase {
    func testFindsBytesAndCompares() {
        Array("ab\ncd\n".utf8).withUnsafeBytes { bytes in
            XCTAssertEqual(ByteSearch.firstIndex(of: 0x0A, in: bytes), 2)
            XCTAssertEqual(ByteSearch.firstIndex(of: 0x0A, in: bytes, from: 3), 5)
            XCTAssertNil(ByteSearch.firstIndex(of: 0x0A, in: bytes, from: 6))
            XCTAssertNil(ByteSearch.firstIndex(of: UInt8(ascii: "z"), in: bytes))
            XCTAssertTrue(ByteSearch.has("cd", in: bytes, at: 3))
            XCTAssertFalse(ByteSearch.has("cd\n!", in: bytes, at: 3), "longer than what is left")
            XCTAssertTrue(ByteSearch.equal(UnsafeRawBufferPointer(rebasing: bytes[0..<2]), UnsafeRawBufferPointer(rebasing: bytes[0..<2])))
            XCTAssertFalse(ByteSearch.equal(UnsafeRawBufferPointer(rebasing: bytes[0..<2]), UnsafeRawBufferPointer(rebasing: bytes[3..<5])))
            XCTAssertFalse(ByteSearch.equal(UnsafeRawBufferPointer(rebasing: bytes[0..<2]), UnsafeRawBufferPointer(rebasing: bytes[0..<3])))
        }
        XCTAssertTrue(ByteSearch.equal(UnsafeRawBufferPointer(start: nil, count: 0), UnsafeRawBufferPointer(start: nil, count: 0)))
        XCTAssertNil(ByteSearch.firstIndex(of: 0, in: UnsafeRawBufferPointer(start: nil, count: 0)))
    }

    func testSignalNames() {
        XCTAssertEqual(Signal.name(Signal.terminate), "SIGTERM")
        XCTAssertEqual(Signal.name(Signal.hangUp), "SIGHUP")
        XCTAssertEqual(Signal.name(Signal.quit), "SIGQUIT")
        XCTAssertEqual(Signal.name(SIGUSR1), "signal \(SIGUSR1)")
    }
}

/// `AppProcessGroup`: `timebox-watch` signals the app's group, never whatever has its number
/// once the app is gone.
final class AppProcessGroupTests: XCTestCase {
    /// `command` run by sh in a process group of its own; its pid (the group's number).
    func startInOwnGroup(_ command: String) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let words: [String] = ["/bin/sh", "-c", command]
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) }
        argv.append(nil)
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        XCTAssertEqual(posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, environ), 0)
        return pid
    }

    func testTheStartTimeNamesOneProcess() {
        XCTAssertNotNil(LinuxSystem.processStartTime(getpid()))
        XCTAssertEqual(LinuxSystem.processStartTime(getpid()), LinuxSystem.processStartTime(getpid()))
        XCTAssertNil(LinuxSystem.processStartTime(0))
        XCTAssertNil(LinuxSystem.processStartTime(Int32.max))
    }

    func testANumberThatNamesAnotherProcessIsNotTheAppAndGetsNoSignal() throws {
        let pid = try startInOwnGroup("exec sleep 30")
        defer { kill(-pid, SIGKILL); var status: Int32 = 0; waitpid(pid, &status, 0) }
        let app = AppProcessGroup.now(pid)
        XCTAssertNotNil(app.leaderStart)
        XCTAssertTrue(app.isStillTheApp)
        // The app gone and its number taken by another process: another start time.
        let reused = AppProcessGroup(group: pid, leaderStart: app.leaderStart! + 1)
        XCTAssertFalse(reused.isStillTheApp)
        XCTAssertFalse(reused.terminate(), "nothing sent")
        // A leader already gone when first seen: a process with the number now is a stranger.
        XCTAssertFalse(AppProcessGroup(group: pid, leaderStart: nil).terminate())
        usleep(100_000)
        var status: Int32 = 0
        XCTAssertEqual(waitpid(pid, &status, WNOHANG), 0, "still running")

        XCTAssertTrue(app.terminate())
        XCTAssertEqual(waitpid(pid, &status, 0), pid)
        XCTAssertEqual(status & 0x7F, SIGTERM)
        XCTAssertFalse(app.isStillTheApp)
    }

    /// A launcher that starts the app and ends: the group (the app) is still the app's.
    func testAGroupWhoseLeaderEndedIsStillTheApps() throws {
        let pid = try startInOwnGroup("sleep 30 & exit 0")
        let app = AppProcessGroup(group: pid, leaderStart: LinuxSystem.processStartTime(pid))
        var status: Int32 = 0
        XCTAssertEqual(waitpid(pid, &status, 0), pid, "the leader ends")
        defer { kill(-pid, SIGKILL) }
        XCTAssertNil(LinuxSystem.processStartTime(pid))
        XCTAssertTrue(LinuxSystem.processGroupAlive(pid), "its sleep lives on in the group")
        XCTAssertTrue(app.isStillTheApp)
        XCTAssertTrue(app.terminate())
        let deadline = Date().addingTimeInterval(10)
        while LinuxSystem.processGroupAlive(pid), Date() < deadline { usleep(20_000) }
        XCTAssertFalse(app.isStillTheApp)
    }
}

/// `SharedFolder`: the only way into the sync folder. Links are never followed below it,
/// files are replaced by rename, and this machine's own folder must be its own.
final class SharedFolderTests: XCTestCase {
    func testALinkBelowTheFolderIsNeverFollowedReadOrWrittenThrough() throws {
        let root = try TemporaryDirectory()
        let shared = root.path + "/shared", victim = root.path + "/victim"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: true)
        try "secret\n".write(toFile: victim + "/file", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: shared + "/folder", withDestinationPath: victim)
        try FileManager.default.createSymbolicLink(atPath: shared + "/file", withDestinationPath: victim + "/file")
        let folder = try SharedFolder(opening: shared)
        XCTAssertThrowsError(try folder.subfolder("folder"), "a link is no folder")
        XCTAssertThrowsError(try folder.subfolder("folder", creating: true, own: true))
        XCTAssertThrowsError(try folder.read("file", from: 0, limit: 100)) { error in
            XCTAssertEqual(error as? FileReadError, .notRegular(kind: "a symbolic link"))
        }
        XCTAssertThrowsError(try folder.append(Data("x\n".utf8), to: "file", header: Data()))
        XCTAssertTrue(folder.status(of: "file")?.isSymbolicLink == true, "the link itself, not its target")
        XCTAssertThrowsError(try folder.subfolder("../victim"), "one name, never a path")
        // Replacing puts a new file where the link was; the link's target is untouched.
        try folder.replace("file", with: Data("mine\n".utf8))
        XCTAssertEqual(try String(contentsOfFile: victim + "/file", encoding: .utf8), "secret\n")
        XCTAssertEqual(try String(contentsOfFile: shared + "/file", encoding: .utf8), "mine\n")
        XCTAssertTrue(folder.status(of: "file")?.isRegularFile == true)
        // Removing removes the link, never what it leads to.
        XCTAssertTrue(folder.remove("folder"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: victim + "/file"))
    }

    func testOwnFolderIsMadePrivateAndAppendsMakeTheFileWithItsHeader() throws {
        let root = try TemporaryDirectory()
        let folder = try SharedFolder(opening: root.path)
        let own = try folder.subfolder("mine", creating: true, own: true)
        XCTAssertEqual(FileStatus.at(root.path + "/mine")?.permissions, 0o700)
        try own.append(Data("one\n".utf8), to: "log", header: Data("head\n".utf8))
        try own.append(Data("two\n".utf8), to: "log", header: Data("head\n".utf8))
        XCTAssertEqual(try String(contentsOfFile: root.path + "/mine/log", encoding: .utf8), "head\none\ntwo\n")
        // A sync tool that widened it: set back, since this machine writes there.
        XCTAssertEqual(chmod(root.path + "/mine", 0o777), 0)
        _ = try folder.subfolder("mine", own: true)
        XCTAssertEqual(FileStatus.at(root.path + "/mine")?.permissions, 0o700)
        // A second name for a file (a hard link) is not a file of this machine's own journal.
        XCTAssertEqual(link(root.path + "/mine/log", root.path + "/mine/other"), 0)
        XCTAssertThrowsError(try own.append(Data("three\n".utf8), to: "log", header: Data()))
    }

    func testAListingLooksAtABoundedNumberOfEntriesWhateverMatches() throws {
        let root = try TemporaryDirectory()
        for index in 0..<300 { XCTAssertTrue(FileManager.default.createFile(atPath: root.path + "/other-\(index)", contents: nil)) }
        let folder = try SharedFolder(opening: root.path)
        let bounded = folder.names(lookingAt: 100) { $0.hasPrefix("match") }
        XCTAssertEqual(bounded.looked, 100)
        XCTAssertFalse(bounded.complete)
        let whole = folder.names(lookingAt: 1_000) { $0.hasPrefix("other-1") }
        XCTAssertTrue(whole.complete)
        XCTAssertEqual(whole.looked, 300)
        XCTAssertEqual(whole.names.count, 111) // other-1, other-10…19, other-100…199
    }
}
