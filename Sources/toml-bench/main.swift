// Times TOML.parse on a typical miga config. Run a release build:
//   make bench (or: swift build -c release --product toml-bench && .build/release/toml-bench)
import Foundation
import TOML

// The same file TOMLTests.SpecExampleTests checks the parse of (run from the package's folder).
let path = CommandLine.arguments.dropFirst().first ?? "Tests/Fixtures/toml/typical-config.toml"
guard let config = try? String(contentsOfFile: path, encoding: .utf8) else {
    print("toml-bench: cannot read \(path); run it from miga's folder or give the file")
    exit(66)
}

let iterations = 10_000
var checksum = 0
do {
    // Warm up (page in code, size allocator caches) before timing.
    for _ in 0..<100 { checksum &+= try TOML.parse(config).count }
    let clock = ContinuousClock()
    var best = Duration.seconds(1_000)
    for _ in 0..<5 {
        let elapsed = try clock.measure {
            for _ in 0..<iterations { checksum &+= try TOML.parse(config).count }
        }
        best = min(best, elapsed)
    }
    let (seconds, attoseconds) = best.components
    let micros = (Double(seconds) * 1e6 + Double(attoseconds) / 1e12) / Double(iterations)
    let rounded = Double(Int(micros * 100)) / 100
    print("TOML.parse of the typical config: \(rounded) µs per parse (best of 5 runs of \(iterations); checksum \(checksum))")
} catch {
    print("parse failed: \(error)")
}
