// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "miga",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "miga", targets: ["miga"]),
        .executable(name: "miga-gate-window", targets: ["miga-gate-window"]),
        .executable(name: "miga-app", targets: ["miga-app"]),
        .library(name: "MigaCore", targets: ["MigaCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.6.0"),
        // 4.x: its Swift imports only FoundationEssentials, so miga carries no ICU data.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    ],
    targets: [
        // GNU readline, loaded with dlopen on first use (see its header): needs libreadline-dev's
        // headers to build, and libreadline8 only where `miga config` or plain mode asks.
        .target(name: "CReadline"),
        // libxcb and its screensaver extension, loaded with dlopen by `miga watch` on X11 only
        // (see its header): no X headers or libraries to build, none linked.
        .target(name: "CX11"),
        .target(name: "CLinuxShims"),
        // SQLite's C API: the event store's own small layer over it (Store/SQLite.swift).
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // libidn2's header: UTS #46 processing of internationalised domain names, for
        // WHATWGURL, which loads the library itself when a host needs it.
        .systemLibrary(
            name: "CIDN2",
            providers: [.apt(["libidn2-dev"])]
        ),
        // TOML 1.0, pure Swift: every malformed file is an error with its line and column,
        // never a crash (TOMLKit's toml++ 3.4.0 asserted on a lone `[`).
        .target(name: "TOML"),
        // The strict JSON reader every part uses on what others hand miga, and its writers.
        .target(name: "JSON"),
        // The WHATWG URL Standard's parser: hosts read exactly as a browser reads them.
        .target(name: "WHATWGURL", dependencies: ["CIDN2"]),
        // What `miga gate` and its window say to each other (pure Swift, no Foundation).
        .target(name: "GateWindowProtocol"),
        // GTK 4, for the gate window only: the `miga` binary never links it.
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev"])]
        ),
        // The gate as a small window for desktop launches; `miga gate` runs it as a child and
        // owns the session (see GateWindowProtocol).
        .executableTarget(name: "miga-gate-window", dependencies: ["CGtk", "GateWindowProtocol"]),
        // libadwaita 1.2 (and GTK 4 under it), for the miga app only: neither `miga` nor the
        // gate window links it.
        .systemLibrary(
            name: "CAdw",
            pkgConfig: "libadwaita-1",
            providers: [.apt(["libadwaita-1-dev"])]
        ),
        // The miga app: Welcome, Hub, Stats and Settings over MigaCore (it decides nothing).
        .executableTarget(name: "miga-app", dependencies: ["CAdw", "MigaCore"]),
        // What a terminal must never be sent raw (`TerminalText`): below both the pack format,
        // which applies it, and MigaSystem, whose messages apply it.
        .target(name: "ControlCharacters"),
        // The content pack format (items, the pack checker and the control-character rules it
        // applies): MigaCore reads people's own packs with it, EmbedContent the bundled ones.
        .target(name: "MigaContent", dependencies: ["TOML", "ControlCharacters"]),
        // Checks quotes/*.toml at build time and writes their items as Swift values (a broken
        // bundled pack fails the build; a gate parses nothing), and shell/* as string literals,
        // so the binary needs no file beside it.
        .executableTarget(name: "EmbedContent", dependencies: ["MigaContent"], path: "Sources/EmbedContent"),
        .plugin(
            name: "EmbedContentPlugin",
            capability: .buildTool(),
            dependencies: ["EmbedContent"]
        ),
        // The Linux layer under MigaCore: files, processes, signals, termios, exec, XDG paths,
        // and the context protocols (clock, paths, terminal, launcher) that tests replace.
        // Nothing above it calls Glibc (scripts/check-layers.py holds MigaCore to that).
        .target(
            name: "MigaSystem",
            dependencies: [
                "CReadline",
                "CX11",
                "CLinuxShims",
                "JSON",
                "GateWindowProtocol",
                "ControlCharacters",
            ]
        ),
        .target(
            name: "MigaCore",
            dependencies: [
                "MigaSystem",
                "WHATWGURL",
                "CSQLite",
                "TOML",
                "JSON",
                "MigaContent",
                "GateWindowProtocol",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            plugins: ["EmbedContentPlugin"]
        ),
        .executableTarget(
            name: "miga",
            dependencies: [
                "MigaCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The seller's tool: signing keys and licences. Not installed with miga.
        .executableTarget(
            name: "miga-license",
            dependencies: [
                "MigaCore",
                "JSON",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // What every test target shares: a test context (fake clock, launcher and home; output
        // and messages kept), temporary folders, a seeded generator.
        // MigaCore for the homes' helpers (a home's events, fixtures of exported events).
        .target(name: "MigaTestSupport", dependencies: ["MigaCore", "MigaSystem", "MigaContent"], path: "Tests/MigaTestSupport"),
        .testTarget(name: "MigaCoreTests", dependencies: [
            "MigaCore", "MigaSystem", "JSON", "GateWindowProtocol", "MigaTestSupport", .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // The Linux layer alone, on real files, pipes, processes and folders.
        .testTarget(name: "MigaSystemTests", dependencies: ["MigaSystem", "MigaTestSupport"]),
        .testTarget(name: "MigaCLITests", dependencies: ["MigaCore", "MigaTestSupport", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "WHATWGURLTests", dependencies: ["WHATWGURL", "MigaTestSupport"]),
        .testTarget(name: "TOMLTests", dependencies: ["TOML", "MigaTestSupport"]),
        // `make bench`: TOML.parse of a typical config, in µs.
        .executableTarget(name: "toml-bench", dependencies: ["TOML"]),
        // The commands in-process (parsed by ArgumentParser, run on a test context), and their
        // argument parsing against ArgumentParser itself.
        .testTarget(name: "MigaCommandTests", dependencies: [
            "miga", "MigaCore", "MigaTestSupport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
