import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// DESIGN "Never in the way, never a way in", through the built binary: gates that never wait
/// on another process and lose no event, numbers and times from outside checked before
/// arithmetic, a foreign database never given miga's log, and words that say what happened.
/// The cases that need no process of their own run in-process in MigaCommandTests' NeverInTheWayCommandTests.
final class NeverInTheWayTests: XCTestCase {
    var home: MigaHome!

    override func setUpWithError() throws {
        home = try MigaHome()
        try home.writeConfig("timer_seconds = 15\nsites = []\n")
    }

    var spool: String { home.home + "/.local/share/miga/spool" }

    /// A gate without a terminal or a display fails open at once and records why: quick to
    /// run many of, and each writes one event.
    func quickGate(_ app: String) throws -> MigaHome.Output {
        try home.miga(["gate", "--app", app, "--", "/bin/true"], environment: home.environment(["TERM": ""]))
    }

    /// While sqlite3 holds the write lock, ten gates each end without waiting for it (all
    /// done while it is still held), say nothing about failing to record, and once the lock
    /// is gone the next miga folds every one of their events in, exactly once.
    func testGatesUnderAnotherProgramsWriteLockLoseNothing() throws {
        XCTAssertEqual(try quickGate("first").status, 0) // creates the database
        let (locker, released) = try home.lockDatabase("BEGIN IMMEDIATE; INSERT INTO rotation_shown (content_id) VALUES ('held');", for: 120)
        defer { kill(-locker.pid, SIGKILL); _ = locker.wait() }
        for index in 0..<10 {
            let gate = try quickGate("chat\(index)")
            XCTAssertEqual(gate.status, 0, gate.stderr)
            XCTAssertFalse(gate.stderr.contains("could not record"), gate.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: released), "a gate waited for the lock")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: spool).filter { $0.hasPrefix("events-") }.count, 10)
        kill(-locker.pid, SIGKILL)
        _ = locker.wait()
        let status = try home.miga(["status"])
        XCTAssertEqual(status.status, 0, status.stderr)
        let skipped = try home.events().filter { $0.type == .gatewaySkipped }.map(\.app)
        XCTAssertEqual(skipped.sorted(), (["first"] + (0..<10).map { "chat\($0)" }).sorted())
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: spool), [])
        _ = try home.miga(["status"])
        XCTAssertEqual(try home.events().count, 11, "folded once, never twice")
    }

    /// Gates started while a large import runs lose nothing, and the import itself completes.
    func testGatesDuringAnImportLoseNothing() throws {
        XCTAssertEqual(try quickGate("first").status, 0)
        let file = home.root + "/big.jsonl"
        let count = 100_000
        _ = try home.run("/usr/bin/python3", ["-c", """
            import sys
            with open(sys.argv[1], "w") as out:
                for i in range(\(count)):
                    out.write('{"ts":"2025-01-01T%02d:%02d:%02d.%03d+00:00","type":"content_read","app":"imported","session":"s%d","content_id":null,"wait_ms":null,"detail":null}\\n' % (i // 3600000 % 24, i // 60000 % 60, i // 1000 % 60, i % 1000, i))
            """, file])
        let importer = try home.start(home.binary, ["events", "import", file])
        var gates = 0
        // Gates one after another while the import runs (at least three, at most a hundred).
        while (!processEnded(importer.pid) || gates < 3) && gates < 100 {
            let gate = try quickGate("during\(gates)")
            XCTAssertEqual(gate.status, 0, gate.stderr)
            XCTAssertFalse(gate.stderr.contains("could not record"), gate.stderr)
            gates += 1
        }
        let imported = importer.wait()
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let events = try home.events()
        XCTAssertEqual(events.filter { $0.app == "imported" }.count, count)
        XCTAssertEqual(Set(events.filter { $0.type == .gatewaySkipped }.map(\.app)),
                       Set(["first"] + (0..<gates).map { "during\($0)" }), "every gate's event arrived")
    }

    /// A full disk is not waited out as a lock would be: the gate opens the app at once and
    /// says in one line why it could not use the database (it cannot even be made). Its event
    /// waits in the overflow spool in `$XDG_RUNTIME_DIR` (memory) and arrives once the disk has
    /// room. (Run in a private mount namespace, on a small tmpfs; skipped where this user
    /// cannot mount one.)
    func testAFullDiskIsNotRetriedTheAppOpensAtOnceAndItsEventArrivesLater() throws {
        let data = home.home + "/.local/share"
        let runtime = home.root + "/run"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let script = try home.writeFile("full-disk.sh", mode: 0o755, """
            #!/bin/sh
            mount -t tmpfs -o size=1m tmpfs \(shellQuote(data)) || exit 77
            mkdir -p \(shellQuote(data))/miga
            dd if=/dev/zero of=\(shellQuote(data))/filler bs=4k 2>/dev/null
            start=$(date +%s%N)
            \(shellQuote(home.binary)) gate --app chat -- \(shellQuote(home.recorder)) opens 2>\(shellQuote(home.root))/gate.err
            status=$?
            echo "status=$status ms=$(( ($(date +%s%N) - start) / 1000000 ))"
            """)
        let run = try home.run("/usr/bin/unshare", ["-m", script], environment: home.environment(["TERM": "", "XDG_RUNTIME_DIR": runtime]))
        if run.status == 77 || run.stderr.contains("unshare failed") { throw XCTSkip("cannot mount a tmpfs here: \(run.stderr)") }
        let stderr = (try? String(contentsOfFile: home.root + "/gate.err", encoding: .utf8)) ?? ""
        XCTAssertTrue(run.stdout.hasPrefix("status=0 "), "exit \(run.status) out [\(run.stdout)] err [\(run.stderr)] gate [\(stderr)]")
        XCTAssertEqual(home.recordedArguments(), ["opens"])
        let milliseconds = Int(run.stdout.split(separator: "=").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? .max
        // Retried as a lock is, it took 5 s for each write; a generous bound for a slow machine.
        XCTAssertLessThan(milliseconds, 2_500, stderr)
        XCTAssertTrue(stderr.contains("opening chat without a pause"), stderr)
        XCTAssertFalse(stderr.contains("could not record"), "the event was kept: \(stderr)")
        XCTAssertTrue(stderr.split(separator: "\n").allSatisfy { $0.count < 400 }, stderr)
        // Outside the namespace the disk has room: the next command folds the event in.
        XCTAssertEqual(try home.miga(["events", "export"], environment: home.environment(["XDG_RUNTIME_DIR": ""])).stdout, "",
                       "another login's overflow is not this one's")
        let export = try home.miga(["events", "export"], environment: home.environment(["XDG_RUNTIME_DIR": runtime]))
        let events = export.stdout.split(separator: "\n").compactMap { try? EventLine.parse(Data($0.utf8)) }
        XCTAssertEqual(events.map(\.type), [.gatewaySkipped], export.stdout + export.stderr)
        XCTAssertEqual(events.first?.app, "chat")
        XCTAssertTrue(events.first?.detail?.contains("database_error") ?? false, export.stdout)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: runtime + "/miga").flatMap {
            try FileManager.default.contentsOfDirectory(atPath: runtime + "/miga/" + $0)
        }, [], "folded and removed")
    }

    /// An event that cannot be written at all (the database is not miga's) waits in the spool
    /// and arrives once the file is moved aside.
    func testAForeignDatabaseGivenMigasOwnLogIsLeftByteForByte() throws {
        // miga's database, with its log kept (a gate that exec'd its app leaves it there).
        XCTAssertEqual(try quickGate("first").status, 0)
        let log = home.database + "-wal"
        _ = try home.run("/usr/bin/python3", ["-c", """
            import sqlite3, shutil, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("INSERT INTO events (ts, utc_offset_min, session, type, app) VALUES (1, 0, 'x', 'abandoned', 'x')")
            db.commit()
            shutil.copy(sys.argv[1] + "-wal", sys.argv[2])
            """, home.database, home.root + "/saved-wal"])
        // Another program's database put at miga's path, with miga's log beside it.
        try FileManager.default.removeItem(atPath: home.database)
        try? FileManager.default.removeItem(atPath: log)
        try? FileManager.default.removeItem(atPath: home.database + "-shm")
        _ = try home.run("/usr/bin/sqlite3", [home.database, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');"])
        try FileManager.default.copyItem(atPath: home.root + "/saved-wal", toPath: log)
        let before = try XCTUnwrap(FileManager.default.contents(atPath: home.database))
        let gate = try home.miga(["gate", "--app", "chat", "--", home.recorder, "opens"], environment: home.environment(["TERM": ""]))
        XCTAssertEqual(gate.status, 0, gate.stderr)
        XCTAssertEqual(home.recordedArguments(), ["opens"])
        XCTAssertTrue(gate.stderr.contains("another program's SQLite database, not miga's"), gate.stderr)
        let stats = try home.miga(["stats"])
        XCTAssertEqual(stats.status, 1)
        XCTAssertEqual(stats.stderr.split(separator: "\n").count, 1, stats.stderr)
        XCTAssertEqual(FileManager.default.contents(atPath: home.database), before, "left byte for byte")
        // Only now, with miga's log set aside, may anything read the file as SQLite would.
        try FileManager.default.moveItem(atPath: log, toPath: home.root + "/set-aside-wal")
        XCTAssertEqual(try home.sqlite("SELECT group_concat(body) FROM notes"), "mine")
        // Moved aside, as the message says: a new database, and the spooled event arrives.
        try FileManager.default.moveItem(atPath: home.database, toPath: home.root + "/notes.sqlite3")
        XCTAssertEqual(try quickGate("next").status, 0)
        XCTAssertEqual(try home.events().filter { $0.type == .gatewaySkipped }.map(\.app).sorted(), ["chat", "next"])
    }

    /// A grace pass in the spool whose mtime is far beyond any date, and an entitlement whose
    /// trial starts in the future but whose file is dated before 1970's far past: neither
    /// traps; the pass counts as now, the trial from now.
    func testTimesFarOutOfRangeAreTreatedAsAbsentNeverATrap() throws {
        XCTAssertEqual(try quickGate("first").status, 0)
        let pass = spool + "/grace-1.0-42"
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
        try "chat\n".write(toFile: pass, atomically: false, encoding: .utf8)
        for stamp in ["9200000000000000", "-9200000000000000"] {
            _ = try home.run("/usr/bin/python3", ["-c", "import os,sys; os.utime(sys.argv[1], (0, int(sys.argv[2])))", pass, stamp])
        }
        let status = try home.miga(["status"])
        XCTAssertEqual(status.status, 0, status.stderr)
        let folded = try XCTUnwrap(try home.events().first { $0.type == .gracePass })
        XCTAssertEqual(Double(folded.timestamp) / 1000, Date().timeIntervalSince1970, accuracy: 600)

        let entitlement = home.home + "/.config/miga/entitlement.json"
        try #"{"kind":"trial","trial_started":"2999-01-01T00:00:00Z"}"#.write(toFile: entitlement, atomically: false, encoding: .utf8)
        _ = try home.run("/usr/bin/python3", ["-c", "import os,sys; os.utime(sys.argv[1], (0, -40000000000000))", entitlement])
        let license = try home.miga(["license"])
        XCTAssertEqual(license.status, 0, license.stderr)
        XCTAssertTrue(license.stdout.contains("trial — 2 days 23 hours left") || license.stdout.contains("trial — 3 days"), license.stdout)
        let gate = try home.miga(["gate", "--app", "chat", "--", home.recorder, "opens"], environment: home.environment(["TERM": ""]))
        XCTAssertEqual(gate.status, 0, gate.stderr)
        XCTAssertEqual(home.recordedArguments(), ["opens"])

        try #"{"kind":"trial","trial_started":"1600-01-01T00:00:00Z"}"#.write(toFile: entitlement, atomically: false, encoding: .utf8)
        let old = try home.miga(["license"])
        XCTAssertNil(old.stdout.range(of: #" -\d+-"#, options: .regularExpression), "no negative year: \(old.stdout)")
        XCTAssertTrue(old.stdout.contains("no readable trial_started"), old.stdout)
    }

    /// The Exit celebration counts this week's Exits, not rows dated in the future.
    func testTheCelebrationCountsNoExitFromTheFuture() throws {
        XCTAssertEqual(try quickGate("first").status, 0)
        let future = Int64((Date().timeIntervalSince1970 + 30 * 86_400) * 1000)
        _ = try home.sqlite((0..<30).map { "INSERT INTO events (ts, utc_offset_min, session, type, app) VALUES (\(future + Int64($0)), 0, 'f\($0)', 'exit_selected', 'x');" }.joined())
        let terminal = try TmuxTerminal(home: home, command: "\(shellQuote(home.binary)) gate --app chat -- /bin/true",
                                        environment: home.environment())
        terminal.waitFor("[e] Exit")
        try terminal.press("e")
        terminal.waitFor("STATUS=0")
        let screen = terminal.screen()
        XCTAssertTrue(screen.contains("your first exit in the last 7 days"), screen)
        XCTAssertFalse(screen.contains("31st"), screen)
    }

    /// `--app İnstagram` suggests a name that `--app` accepts.
    func testTheSuggestedAppNameIsOneThatWorks() throws {
        let refused = try home.miga(["gate", "--app", "İnstagram", "--", "/bin/true"])
        XCTAssertEqual(refused.status, 64)
        XCTAssertTrue(refused.stderr.contains("try --app Instagram"), refused.stderr)
        let suggested = try home.miga(["gate", "--app", "Instagram", "--", home.recorder, "ok"], environment: home.environment(["TERM": ""]))
        XCTAssertEqual(suggested.status, 0, suggested.stderr)
        let dashed = try home.miga(["gate", "--app", "–chat", "--", "/bin/true"])
        XCTAssertTrue(dashed.stderr.contains("try --app chat)"), dashed.stderr)
    }
}
