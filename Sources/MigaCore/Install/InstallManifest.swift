import FoundationEssentials
import JSON

/// `installed.json`: every file miga created or changed outside its own folders, written
/// *before* each change (with the hash of what is about to be written), so an interrupted
/// install can still be undone and a shim whose original a package update changed is noticed.
public struct InstallManifest: Codable, Equatable {
    public static let currentVersion = 1

    public enum Kind: String, Codable {
        case pathShim = "path-shim"
        case desktopShim = "desktop-shim"
        case urlHandler = "url-handler"
        case shellSnippet = "shell-snippet"
        case environment
        /// A native messaging host manifest for one browser.
        case browserHost = "browser-host"
        /// The `miga-native-host` link a manifest names (sha256 is of "link:" + its target).
        case hostLink = "host-link"
        /// The XDG autostart entry that starts `miga watch` at login.
        case autostart
    }

    /// A file miga wrote whole.
    public struct File: Codable, Equatable {
        public var kind: Kind
        public var path: String
        public var app: String?
        /// What miga wrote (or is about to write). A file with other content is not miga's
        /// any more and is left alone.
        public var sha256: String
        /// For a desktop shim: the entry it shadows, and that file's hash when the shim was made.
        public var source: String?
        public var sourceSHA256: String?
        /// Where the person's own file at `path` was saved before miga replaced it.
        public var backup: String?

        public init(kind: Kind, path: String, app: String? = nil, sha256: String, source: String? = nil,
                    sourceSHA256: String? = nil, backup: String? = nil) {
            self.kind = kind
            self.path = path
            self.app = app
            self.sha256 = sha256
            self.source = source
            self.sourceSHA256 = sourceSHA256
            self.backup = backup
        }
    }

    /// One line miga added to a file it does not own (an rc file).
    public struct AddedLine: Codable, Equatable {
        public var path: String
        public var line: String
        /// The file did not exist; it goes again once the line is removed and it is empty.
        public var createdFile: Bool
        /// The file did not end in a newline, so one was added before the line.
        public var addedNewline: Bool
    }

    public struct MimeApps: Codable, Equatable {
        public var path: String
        public var createdFile: Bool
        public var change: MimeAppsList.Change
    }

    public var version = InstallManifest.currentVersion
    public var files: [File] = []
    public var lines: [AddedLine] = []
    public var mimeApps: MimeApps?
    /// The default browser before miga's URL handler took its place.
    public var previousBrowser: String?
    /// Folders miga had to create, outermost first.
    public var createdDirectories: [String] = []
    /// Whether `mimeinfo.cache` existed in the user's applications folder before miga first
    /// ran update-desktop-database there (if not, uninstall removes it again).
    public var mimeinfoCacheExisted: Bool?
    /// `install` added miga's GNOME Shell extension to the shell's enabled ones (uninstall
    /// takes it out again; one the person enabled stays).
    public var shellExtensionEnabled: Bool?

    public init() {}

    public func file(at path: String) -> File? { files.first { $0.path == path } }

    public mutating func record(_ file: File) {
        if let index = files.firstIndex(where: { $0.path == file.path }) {
            files[index] = file
        } else {
            files.append(file)
        }
    }

    public mutating func forget(path: String) {
        files.removeAll { $0.path == path }
    }

    public func files(of kind: Kind, app: String? = nil) -> [File] {
        files.filter { $0.kind == kind && (app == nil || $0.app == app) }
    }

    public var isEmpty: Bool {
        files.isEmpty && lines.isEmpty && mimeApps == nil && createdDirectories.isEmpty
    }

    // MARK: - On disk

    public static func load(path: String) throws -> InstallManifest {
        guard let data = AtomicFile.read(path) else {
            if AtomicFile.exists(path) { throw InstallError.unreadableManifest(path: path, problem: "cannot be read") }
            return InstallManifest()
        }
        do {
            let manifest = try JSONDecoder().decode(InstallManifest.self, from: data)
            guard manifest.version <= currentVersion else {
                throw InstallError.unreadableManifest(path: path, problem: "written by a newer miga (format \(manifest.version))")
            }
            return manifest
        } catch let error as InstallError {
            throw error
        } catch {
            throw InstallError.unreadableManifest(path: path, problem: "not a miga manifest (\(error))")
        }
    }

    /// Only the browser miga's link handler took the place of, for `open-url`, which runs
    /// before every link opens: read with `JSONValue` rather than the Codable decode, whose
    /// generic machinery the runtime builds on first use (some 2M instructions, half a
    /// millisecond of every link). nil where `load` would fail: no file, not a manifest, or a
    /// newer format.
    public static func previousBrowser(recordedAt path: String) -> String? {
        guard let data = AtomicFile.read(path), let manifest = try? JSONValue.parse(data),
              let version = manifest["version"]?.integer, version <= currentVersion,
              case .array = manifest["files"] else { return nil }
        return manifest["previousBrowser"]?.string
    }

    public func save(path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        try AtomicFile.write(data, to: path, mode: 0o600)
    }
}
