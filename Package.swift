// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "miga",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "miga", targets: ["miga"]),
        .library(name: "MigaCore", targets: ["MigaCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        .systemLibrary(
            name: "CReadline",
            providers: [.apt(["libreadline-dev"])]
        ),
        .target(name: "CLinuxShims"),
        // Turns quotes/*.toml and shell/* into Swift string literals so the binary needs no file beside it.
        .executableTarget(name: "EmbedContent", path: "Sources/EmbedContent"),
        .plugin(
            name: "EmbedContentPlugin",
            capability: .buildTool(),
            dependencies: ["EmbedContent"]
        ),
        .target(
            name: "MigaCore",
            dependencies: [
                "CReadline",
                "CLinuxShims",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "TOMLKit", package: "TOMLKit"),
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
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(name: "MigaCoreTests", dependencies: [
            "MigaCore", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .testTarget(name: "MigaCLITests", dependencies: ["MigaCore"]),
        // The commands' argument parsing, against ArgumentParser itself.
        .testTarget(name: "MigaCommandTests", dependencies: [
            "miga", "MigaCore", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
    ],
    swiftLanguageModes: [.v5]
)
