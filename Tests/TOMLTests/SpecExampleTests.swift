import Foundation
import TOML
import MigaTestSupport
import XCTest

/// Whole documents: the TOML 1.0.0 README example and a miga-style config.
final class SpecExampleTests: XCTestCase {
    func testReadmeExample() {
        let toml = """
            # This is a TOML document

            title = "TOML Example"

            [owner]
            name = "Tom Preston-Werner"
            dob = 1979-05-27T07:32:00-08:00

            [database]
            enabled = true
            ports = [ 8000, 8001, 8002 ]
            data = [ ["delta", "phi"], [3.14] ]
            temp_targets = { cpu = 79.5, case = 72.0 }

            [servers]

            [servers.alpha]
            ip = "10.0.0.1"
            role = "frontend"

            [servers.beta]
            ip = "10.0.0.2"
            role = "backend"
            """
        let dob = TOMLValue.offsetDateTime(TOMLDateTime(date: date(1979, 5, 27), time: time(7, 32, 0), offsetMinutes: -480))
        assertParses(toml, [
            "title": "TOML Example",
            "owner": ["name": "Tom Preston-Werner", "dob": dob],
            "database": ["enabled": true, "ports": [8000, 8001, 8002], "data": [["delta", "phi"], [3.14]],
                         "temp_targets": ["cpu": 79.5, "case": 72.0]],
            "servers": ["alpha": ["ip": "10.0.0.1", "role": "frontend"], "beta": ["ip": "10.0.0.2", "role": "backend"]],
        ])
    }

    /// miga's typical config.toml, as `make bench` (toml-bench) times it.
    static let migaConfig: String = {
        let url = Fixtures.url("toml/typical-config.toml")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    func testMigaConfig() {
        assertParses(Self.migaConfig, [
            "timer_seconds": 30,
            "grace_minutes": 5,
            "categories": ["quotes", "affirmations", "articles"],
            "breathing": "box",
            "animations": true,
            "terminal": "",
            "sites": ["reddit.com", "x.com", "twitter.com", "instagram.com", "facebook.com", "tiktok.com", "youtube.com"],
            "apps": [
                "discord": ["command": "discord", "timer_seconds": 20],
                "signal": ["command": ["flatpak", "run", "org.signal.Signal"]],
            ],
        ])
        let t = parsed(Self.migaConfig)
        XCTAssertEqual(t["apps"]?.table?["discord"]?.table?["timer_seconds"]?.int, 20)
        XCTAssertEqual(t["apps"]?.table?.keys, ["discord", "signal"])
    }

    func testMigaConfigDuplicateMessage() {
        assertFails("# miga\ntimer_seconds = 30\ngrace_minutes = 5\ntimer_seconds = 10", line: 4, column: 1,
                    "duplicate key \"timer_seconds\" (first defined on line 2)")
    }

    func testKeyValuePairsCanHaveAnyWhitespace() {
        assertParses("key = \"value\"\n  key2=\"v\"\nkey3\t=\t'v'  \n\t\t[t]\n\t x = 1", ["key": "value", "key2": "v", "key3": "v", "t": ["x": 1]])
    }
}
