import Foundation
import MigaTestSupport
import XCTest

/// Two real Syncthing instances on this machine, as two people's machines sharing one folder
/// (id "miga"), talking over 127.0.0.1 only: no discovery, relays, NAT, STUN, usage or crash
/// reports, upgrades or browser, so a test never reaches the internet or a real Syncthing.
/// `init` returns once each sees the other connected; `stop()` (also on deinit) ends both.
final class SyncthingPair {
    static let folderID = "miga"
    let a: Instance
    let b: Instance

    /// `folderA` and `folderB` are the shared folder on each "machine" (created if missing);
    /// `scratch` holds both instances' config, database, logs and HOME.
    init(folderA: String, folderB: String, scratch: String, timeout: Double = 60) throws {
        let executable = try Self.executable()
        let ports = try Self.freeLoopbackPorts(4)
        a = try Instance(name: "A", executable: executable, folder: folderA, directory: scratch + "/A", guiPort: ports[0], listenPort: ports[1])
        b = try Instance(name: "B", executable: executable, folder: folderB, directory: scratch + "/B", guiPort: ports[2], listenPort: ports[3])
        do {
            try a.configure(peer: b, dials: true)
            try b.configure(peer: a, dials: false)
            // B listens before A, the dialer, starts: a first dial that finds no listener is
            // retried only after reconnectionIntervalS, at least 5 s.
            try b.start()
            try waitFor("B to listen", timeout: timeout) { try b.isListening() }
            try a.start()
            try waitFor("A and B to connect", timeout: timeout) { try a.isConnected(to: b) && b.isConnected(to: a) }
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// Ends both, leaving no process behind; safe to call twice. Both are asked at once: each
    /// takes about a second to shut down.
    func stop() {
        a.terminate()
        b.terminate()
        a.reap()
        b.reap()
    }

    /// Scans the folder on both now (each call returns once its scan is done), so a test need
    /// not wait for the file watcher.
    func rescan() throws {
        try a.post("/rest/db/scan?folder=\(Self.folderID)")
        try b.post("/rest/db/scan?folder=\(Self.folderID)")
    }

    /// Waits until whatever is on disk in either folder is on both: scans both first (a file
    /// not scanned yet is invisible to Syncthing), then waits until each is idle, needs
    /// nothing, and has seen the other's newest index.
    func waitUntilInSync(timeout: Double = 30) throws {
        try rescan()
        try waitFor("A and B to be in sync", timeout: timeout) { try a.isInSync(with: b) && b.isInSync(with: a) }
    }

    /// The last lines each instance logged, for a failure message.
    func logTails(lines: Int = 30) -> String { a.logTail(lines: lines) + "\n" + b.logTail(lines: lines) }

    /// Syncthing on PATH. Absent, the test is skipped, unless MIGA_REQUIRE_SYNCTHING=1 (CI
    /// that ran scripts/deps.sh), where a missing Syncthing must fail rather than pass as a skip.
    static func executable() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        let directories = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        if let found = directories.map({ $0 + "/syncthing" }).first(where: FileManager.default.isExecutableFile) { return found }
        if environment["MIGA_REQUIRE_SYNCTHING"] == "1" {
            throw Failure("syncthing is not on PATH and MIGA_REQUIRE_SYNCTHING=1 (scripts/deps.sh installs it)")
        }
        throw XCTSkip("syncthing is not installed (scripts/deps.sh installs it)")
    }

    /// Ports the kernel says are free on 127.0.0.1 (bound to port 0). All are held until all are
    /// chosen, so no two are the same; another program could still take one before Syncthing.
    static func freeLoopbackPorts(_ count: Int) throws -> [UInt16] {
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        return try (0..<count).map { _ in
            let fd = try loopbackSocket()
            sockets.append(fd)
            var address = loopbackAddress(port: 0), length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
            }
            guard bound else { throw Failure("cannot bind 127.0.0.1:0: \(String(cString: strerror(errno)))") }
            return UInt16(bigEndian: address.sin_port)
        }
    }

    /// Polls `condition` (a REST call that fails counts as "not yet": the GUI may still be
    /// starting); on timeout, or when an instance has died, throws with both logs' tails.
    private func waitFor(_ what: String, timeout: Double, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            var lastError = ""
            do { if try condition() { return } } catch { lastError = "\nlast error: \(error)" }
            if let dead = [a, b].first(where: { $0.hasEnded }) {
                throw Failure("syncthing \(dead.name) exited while waiting for \(what)\(lastError)\n\(logTails())")
            }
            if Date() > deadline { throw Failure("timed out after \(timeout) s waiting for \(what)\(lastError)\n\(logTails())") }
            usleep(100_000)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// One instance: its own config and database directory, HOME, ports, API key and process.
    final class Instance {
        let name, executable, folder, directory: String
        let guiPort, listenPort: UInt16
        let apiKey = "miga-test-" + UUID().uuidString
        let deviceID: String
        private var pid: pid_t = 0

        /// Syncthing's --home: keys, config.xml and database.
        var configDirectory: String { directory + "/config" }
        var log: String { directory + "/syncthing.log" }

        init(name: String, executable: String, folder: String, directory: String, guiPort: UInt16, listenPort: UInt16) throws {
            (self.name, self.executable, self.folder, self.directory) = (name, executable, folder, directory)
            (self.guiPort, self.listenPort) = (guiPort, listenPort)
            try FileManager.default.createDirectory(atPath: directory + "/home", withIntermediateDirectories: true)
            // generate makes the keys (the device id) and a config that `configure` replaces.
            _ = try Self.run(executable, ["generate", "--home", directory + "/config", "--no-default-folder", "--skip-port-probing"], directory: directory)
            let output = try Self.run(executable, ["serve", "--device-id", "--home", directory + "/config"], directory: directory)
            guard let id = output.range(of: "[A-Z2-7]{7}(-[A-Z2-7]{7}){7}", options: .regularExpression) else {
                throw Failure("no device id from `syncthing serve --device-id`: \(output)")
            }
            deviceID = String(output[id])
        }

        /// The whole config.xml, over generate's: Syncthing fills in its defaults for most of
        /// what is left out, so only what differs from them (or must never vary) is here; not
        /// for `maxConflicts`, which left out is 0 (no conflict copies), so it is set to
        /// Syncthing's usual 10. The watcher
        /// reports a change after 1 s; the 3 s rescan covers a machine whose inotify is out of
        /// watches. Only one side `dials`: Syncthing dials from its own listening port, so two
        /// instances dialing each other at once on 127.0.0.1 meet in one TCP connection
        /// (simultaneous open), both ends wait as TLS clients, and they connect only after a
        /// 20 s Hello timeout. The other side has the dialer as "dynamic": with discovery off,
        /// no address at all.
        func configure(peer: Instance, dials: Bool) throws {
            try FileManager.default.createDirectory(atPath: folder + "/.stfolder", withIntermediateDirectories: true)
            let path = folder.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
                .replacingOccurrences(of: "<", with: "&lt;")
            let config = """
                <configuration version="36">
                    <folder id="\(SyncthingPair.folderID)" label="miga" path="\(path)" type="sendreceive" rescanIntervalS="3" fsWatcherEnabled="true" fsWatcherDelayS="1">
                        <device id="\(deviceID)"></device>
                        <device id="\(peer.deviceID)"></device>
                        <minDiskFree unit="%">0</minDiskFree>
                        <maxConflicts>10</maxConflicts>
                    </folder>
                    <device id="\(deviceID)" name="\(name)"><address>dynamic</address></device>
                    <device id="\(peer.deviceID)" name="\(peer.name)">
                        <address>\(dials ? "tcp://127.0.0.1:\(peer.listenPort)" : "dynamic")</address>
                        <autoAcceptFolders>false</autoAcceptFolders>
                    </device>
                    <gui enabled="true" tls="false"><address>127.0.0.1:\(guiPort)</address><apikey>\(apiKey)</apikey></gui>
                    <options>
                        <listenAddress>tcp://127.0.0.1:\(listenPort)</listenAddress>
                        <globalAnnounceServer></globalAnnounceServer>
                        <globalAnnounceEnabled>false</globalAnnounceEnabled>
                        <localAnnounceEnabled>false</localAnnounceEnabled>
                        <announceLANAddresses>false</announceLANAddresses>
                        <relaysEnabled>false</relaysEnabled>
                        <natEnabled>false</natEnabled>
                        <stunKeepaliveStartS>0</stunKeepaliveStartS>
                        <stunServer></stunServer>
                        <startBrowser>false</startBrowser>
                        <urAccepted>-1</urAccepted>
                        <crashReportingEnabled>false</crashReportingEnabled>
                        <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
                        <reconnectionIntervalS>5</reconnectionIntervalS>
                        <setLowPriority>false</setLowPriority>
                        <minHomeDiskFree unit="%">0</minHomeDiskFree>
                    </options>
                </configuration>
                """
            try config.write(toFile: configDirectory + "/config.xml", atomically: true, encoding: .utf8)
        }

        /// `syncthing serve` in a process group of its own, its output to `log`.
        func start() throws {
            pid = try Self.spawn(executable, ["serve", "--home", configDirectory, "--no-browser", "--no-restart", "--no-upgrade", "--logflags=3"],
                                 output: log, directory: directory)
        }

        var hasEnded: Bool { pid != 0 && processEnded(pid) }

        func terminate() {
            if pid > 0 { kill(-pid, SIGTERM) }
        }

        /// Waits for the end `terminate` asked for: SIGKILL to the group if it lingers.
        func reap() {
            guard pid > 0 else { return }
            let deadline = Date().addingTimeInterval(5)
            var status: Int32 = 0
            while waitpid(pid, &status, WNOHANG) == 0 && Date() < deadline { usleep(20_000) }
            if waitpid(pid, &status, WNOHANG) == 0 {
                kill(-pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            }
            pid = 0
        }

        func isListening() throws -> Bool {
            let listeners = try get("/rest/system/status")["connectionServiceStatus"] as? [String: Any]
            guard let listener = listeners?["tcp://127.0.0.1:\(listenPort)"] as? [String: Any] else { return false }
            return listener["error"] == nil || listener["error"] is NSNull
        }

        func isConnected(to peer: Instance) throws -> Bool {
            let connections = try get("/rest/system/connections")["connections"] as? [String: Any]
            return (connections?[peer.deviceID] as? [String: Any])?["connected"] as? Bool == true
        }

        /// Idle, with nothing to pull, having seen `peer`'s newest index: then it has all `peer`
        /// has. (1.19's completion for a remote device is no test: it reads 100% while the
        /// other has yet to hear of a file.) `peer`'s sequence is read last: read earlier, it
        /// could match an index this side had not yet seen.
        func isInSync(with peer: Instance) throws -> Bool {
            let status = try get("/rest/db/status?folder=\(SyncthingPair.folderID)")
            let seen = try get("/rest/db/completion?folder=\(SyncthingPair.folderID)&device=\(peer.deviceID)")["sequence"] as? Int
            let newest = try peer.get("/rest/db/status?folder=\(SyncthingPair.folderID)")["sequence"] as? Int
            return status["state"] as? String == "idle" && status["needTotalItems"] as? Int == 0 && seen != nil && seen == newest
        }

        func get(_ path: String) throws -> [String: Any] {
            let body = try request("GET", path)
            guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
                throw Failure("\(name) GET \(path): not a JSON object: \(String(decoding: body, as: UTF8.self))")
            }
            return object
        }

        func post(_ path: String) throws { _ = try request("POST", path) }

        /// One HTTP/1.0 request to the REST API over a plain socket: no client library to rely
        /// on, and HTTP/1.0 has the server send the body whole, then close (no chunks to decode).
        func request(_ method: String, _ path: String) throws -> Data {
            let fd = try loopbackSocket()
            defer { close(fd) }
            var limit = timeval(tv_sec: 60, tv_usec: 0) // a scan answers once it has finished
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            var address = loopbackAddress(port: guiPort)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw Failure("\(name): cannot connect to 127.0.0.1:\(guiPort): \(String(cString: strerror(errno)))") }
            let head = Array("\(method) \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(guiPort)\r\nX-API-Key: \(apiKey)\r\nContent-Length: 0\r\n\r\n".utf8)
            guard send(fd, head, head.count, Int32(MSG_NOSIGNAL)) == head.count else { throw Failure("\(name): cannot send \(method) \(path)") }
            var response = Data(), buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count < 0 && errno == EINTR { continue }
                guard count >= 0 else { throw Failure("\(name) \(method) \(path): \(String(cString: strerror(errno)))") }
                if count == 0 { break }
                response.append(contentsOf: buffer[0..<count])
            }
            guard let split = response.range(of: Data("\r\n\r\n".utf8)) else { throw Failure("\(name) \(method) \(path): no HTTP response") }
            let statusLine = String(decoding: response[..<split.lowerBound], as: UTF8.self).prefix { $0 != "\r" }
            let body = Data(response[split.upperBound...])
            guard statusLine.split(separator: " ").dropFirst().first == "200" else {
                throw Failure("\(name) \(method) \(path): \(statusLine): \(String(decoding: body, as: UTF8.self))")
            }
            return body
        }

        func logTail(lines: Int) -> String {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? "(no log)"
            return "--- syncthing \(name) (\(log)):\n" + text.split(separator: "\n").suffix(lines).joined(separator: "\n")
        }

        /// A short syncthing command run to its end: its output, or a Failure with it.
        static func run(_ executable: String, _ arguments: [String], directory: String) throws -> String {
            let output = directory + "/command-" + UUID().uuidString
            defer { unlink(output) }
            let pid = try spawn(executable, arguments, output: output, directory: directory)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            guard status == 0 else { throw Failure("syncthing \(arguments.joined(separator: " ")) failed (\(status)): \(text)") }
            return text
        }

        /// posix_spawn, as Harness.swift's `start` (Process on Linux can lose track of a child),
        /// in a process group of its own, stdout and stderr to `output`. The environment is
        /// only this: a HOME in the scratch folder, never the real one, and no proxy variable.
        static func spawn(_ executable: String, _ arguments: [String], output: String, directory: String) throws -> pid_t {
            let attributes = SpawnAttributes(ownGroup: true)
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            let environment = ["HOME": directory + "/home", "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
                               "STNOUPGRADE": "1", "STNORESTART": "1", "STNODEFAULTFOLDER": "1",
                               // One SHA-256 implementation, not the ~1 s benchmark that picks one.
                               "STHASHING": "standard"]
            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (argv + envp).forEach { free($0) } }
            var pid = pid_t()
            let status = posix_spawn(&pid, executable, &actions, &attributes.raw, argv, envp)
            guard status == 0 else { throw Failure("cannot run \(executable): \(String(cString: strerror(status)))") }
            return pid
        }
    }
}

private func loopbackSocket() throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw SyncthingPair.Failure("socket: \(String(cString: strerror(errno)))") }
    return fd
}

private func loopbackAddress(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return address
}

/// The helper itself, against the real Syncthing: a file written on one "machine" reaches the
/// other through the file watcher alone, both ways. Prints the times, a baseline for the sync
/// tests' timeouts.
final class SyncthingHarnessTests: XCTestCase {
    func testAFileWrittenOnEitherSideAppearsOnTheOther() throws {
        let root = NSTemporaryDirectory() + "miga-syncthing-" + UUID().uuidString.prefix(8)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folderA = root + "/homeA/Sync/miga", folderB = root + "/homeB/Sync/miga"
        var clock = Date()
        let pair = try SyncthingPair(folderA: folderA, folderB: folderB, scratch: root + "/syncthing")
        defer { pair.stop() }
        print("syncthing: generate → connected " + String(format: "%.1f s", Date().timeIntervalSince(clock)))

        for (from, to, way) in [(folderA, folderB, "A→B"), (folderB, folderA, "B→A")] {
            let file = "/from-\(way.prefix(1)).txt", text = "written on \(way.prefix(1))\n"
            clock = Date()
            try text.write(toFile: from + file, atomically: true, encoding: .utf8)
            eventually(timeout: 30, "\(file) on the other side\n\(pair.logTails())") {
                (try? String(contentsOfFile: to + file, encoding: .utf8)) == text
            }
            print("syncthing: \(way) " + String(format: "%.1f s", Date().timeIntervalSince(clock)))
        }
        // Without the watcher's second: waitUntilInSync scans, then waits for the other side.
        clock = Date()
        try "scanned on A\n".write(toFile: folderA + "/scanned.txt", atomically: true, encoding: .utf8)
        try pair.waitUntilInSync()
        XCTAssertEqual(try? String(contentsOfFile: folderB + "/scanned.txt", encoding: .utf8), "scanned on A\n")
        print("syncthing: A→B by waitUntilInSync " + String(format: "%.1f s", Date().timeIntervalSince(clock)))
    }
}
