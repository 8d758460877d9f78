import Foundation

/// `Tests/Fixtures`: the files tests read (Debian's desktop entries, hand-computed stats, kept
/// fuzz inputs, the test signing key), found from this checkout whatever the working folder.
public enum Fixtures {
    /// The checkout's root.
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// A fixture by its path under `Tests/Fixtures`.
    public static func path(_ relative: String) -> String { repository + "/Tests/Fixtures/" + relative }

    public static func url(_ relative: String) -> URL { URL(fileURLWithPath: path(relative)) }
}
