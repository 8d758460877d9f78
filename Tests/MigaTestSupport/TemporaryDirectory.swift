import Foundation

/// A temporary folder removed when the test ends: tests never touch the real home.
public final class TemporaryDirectory {
    public let path: String

    public init() throws {
        path = NSTemporaryDirectory() + "miga-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    public func write(_ text: String, to relative: String, mode: Int = 0o644) throws -> String {
        let file = path + "/" + relative
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file)
        return file
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Runs a short-lived tool (a validator, gio) and returns its status and combined output.
public func runProgram(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
