import FoundationEssentials

/// Where miga keeps its files, per the XDG Base Directory specification.
public struct MigaPaths: Sendable, Equatable {
    public var configDirectory: String
    public var dataDirectory: String
    public var stateDirectory: String
    /// `$XDG_RUNTIME_DIR`: this login's own, in memory (a tmpfs), so usable when the disk is full.
    public var runtimeDirectory: String?

    public var configFile: String { configDirectory + "/config.toml" }
    public var database: String { dataDirectory + "/miga.sqlite3" }
    public var shimDirectory: String { dataDirectory + "/bin" }
    /// The person's own content packs, added to the bundled ones.
    public var userContentDirectory: String { dataDirectory + "/quotes" }
    /// Whether `name`, an entry of the data folder, is one miga makes there: what `uninstall
    /// --purge` may delete. With `make install PREFIX=~/.local` the data folder is also
    /// PREFIX/share/miga, a program folder, so anything else there is left alone.
    public static func isOwnDataEntry(_ name: String) -> Bool {
        let database = "miga.sqlite3"
        return ["bin", "shell", "quotes", "spool", database].contains(name)
            || ["-wal", "-shm", "-journal"].contains { name == database + $0 }
            || (name.hasPrefix(".") && name.contains(".miga-")) // an atomic write's leftover
    }

    /// Where events wait when even the spool beside the database cannot be written (a full
    /// disk): one folder per database, since one login may use several data directories.
    public var overflowSpool: String? {
        runtimeDirectory.map { $0 + "/miga/spool-" + Self.hexHash(dataDirectory) }
    }

    /// FNV-1a of `text`, 16 hex digits: a stable name, not a secret.
    public static func hexHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    public init(configDirectory: String, dataDirectory: String, stateDirectory: String, runtimeDirectory: String? = nil) {
        self.configDirectory = configDirectory
        self.dataDirectory = dataDirectory
        self.stateDirectory = stateDirectory
        self.runtimeDirectory = runtimeDirectory
    }

    /// Derives the paths from `XDG_*_HOME`, falling back to `$HOME`. The spec says relative
    /// values are invalid and must be ignored, so they are.
    public init(environment: [String: String]) throws {
        func xdg(_ variable: String, _ fallback: String) throws -> String {
            if let value = environment[variable], value.hasPrefix("/") {
                return value
            }
            guard let home = environment["HOME"], home.hasPrefix("/") else {
                throw MigaPathsError.noHome(variable: variable)
            }
            return home + "/" + fallback
        }
        self.init(
            configDirectory: try xdg("XDG_CONFIG_HOME", ".config") + "/miga",
            dataDirectory: try xdg("XDG_DATA_HOME", ".local/share") + "/miga",
            stateDirectory: try xdg("XDG_STATE_HOME", ".local/state") + "/miga",
            runtimeDirectory: environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        )
    }
}

public enum MigaPathsError: Error, CustomStringConvertible, Equatable {
    case noHome(variable: String)

    public var description: String {
        switch self {
        case .noHome(let variable):
            return "neither $\(variable) nor $HOME is set to an absolute path; set HOME and try again"
        }
    }
}
