import FoundationEssentials

/// Where miga keeps its files, per the XDG Base Directory specification.
public struct MigaPaths: Sendable, Equatable {
    public var configDirectory: String
    public var dataDirectory: String
    public var stateDirectory: String

    public var configFile: String { configDirectory + "/config.toml" }
    public var database: String { dataDirectory + "/miga.sqlite3" }
    public var shimDirectory: String { dataDirectory + "/bin" }
    /// The person's own content packs, added to the bundled ones.
    public var userContentDirectory: String { dataDirectory + "/quotes" }

    public init(configDirectory: String, dataDirectory: String, stateDirectory: String) {
        self.configDirectory = configDirectory
        self.dataDirectory = dataDirectory
        self.stateDirectory = stateDirectory
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
            stateDirectory: try xdg("XDG_STATE_HOME", ".local/state") + "/miga"
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
