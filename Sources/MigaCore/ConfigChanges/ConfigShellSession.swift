import FoundationEssentials

/// The interactive `miga config`: GNU readline for line editing, tab completion and a history
/// kept in the XDG state folder (without libreadline, the terminal's own line editing);
/// `ConfigShell` does the work.
public final class ConfigShellSession {
    let context: MigaContext
    private var reader: LineReader!
    var historyFile: String { context.paths.stateDirectory + "/config_history" }

    public init(context: MigaContext) {
        self.context = context
    }

    /// The signal (SIGTERM, SIGHUP) that ended the last `run`, if one did: the caller ends the
    /// process by it, as the gate does, once history is saved and the terminal restored.
    public private(set) var stoppedBy: Int32?

    /// Runs until `quit`, Ctrl-D or a signal that stops it (see `stoppedBy`); returns the exit status.
    public func run() -> Int32 {
        do {
            reader = LineReader(signals: try SignalPipe())
        } catch {
            say("miga: \(error)")
            return 1
        }
        let installer = try? Installer(context: Self.quiet(context))
        guard let loaded = loadShell(installer: installer) else { return 1 }
        let shell = loaded.shell
        var original = loaded.original
        shell.inForce = (try? ConfigInForce.load(context: context))?.config
        let keepsHistory = startLineEditing(shell: shell, installer: installer)
        defer {
            // Checked again: the file may have been replaced while the editor ran.
            if keepsHistory, historyFileIsUsable() { reader.editing?.writeHistory(to: historyFile) }
            reader.editing?.complete(with: nil)
        }
        say("miga config: \(context.paths.configFile). Type help for the commands" + (reader.editing == nil ? "." : "; Tab completes."))
        // What waits out loosen_delay_minutes, before anything is changed, and on `pending`.
        ConfigInForce.waitingNote(context: context).forEach { say("  waiting: " + $0) }
        stoppedBy = nil
        while let line = nextLine(shell) {
            if !line.trimming(.whitespaces).isEmpty { reader.editing?.addHistory(line) }
            if line.trimming(.whitespaces).lowercased() == "pending" {
                let waiting = ConfigInForce.waitingNote(context: context)
                say(waiting.isEmpty ? "Nothing is waiting." : waiting.map { "  waiting: " + $0 }.joined(separator: "\n"))
                continue
            }
            switch shell.execute(line) {
            case .say(let text):
                if !text.isEmpty { say(text) }
            case .save:
                do {
                    try save(shell, original: original)
                    original = shell.editor.text
                } catch {
                    say("miga: \(error)")
                }
            case .quit:
                return 0
            case .confirmQuit:
                if confirm("Discard unsaved changes? [y/N] ", defaultYes: false) { return 0 }
            }
        }
        return 0
    }

    /// The config as the editor's shell, with the text it was read from (nil: no file yet).
    /// A file the person broke is theirs to mend: their editor is offered, never an overwrite.
    private func loadShell(installer: Installer?) -> (shell: ConfigShell, original: String?)? {
        let path = context.paths.configFile
        let resolver = context.commandResolver
        while true {
            let original: String?
            do {
                original = try ConfigLoader.text(of: path)
            } catch {
                say("miga: \(error)")
                return nil
            }
            do {
                let shell = try ConfigShell(text: original ?? ConfigFile.newFileText, path: path, commandExists: { name in
                    resolver.lookUp(name) != nil || !(installer?.desktopEntries(running: name).isEmpty ?? true)
                })
                return (shell, original)
            } catch {
                say("miga: \(error)")
                guard confirm("Open it in \(editorCommand.joined(separator: " "))? [Y/n] ", defaultYes: true) else { return nil }
                openEditor(on: path)
            }
        }
    }

    /// History and Tab completion, when readline could be loaded; whether history is kept.
    private func startLineEditing(shell: ConfigShell, installer: Installer?) -> Bool {
        try? context.files.makeDirectories(context.paths.stateDirectory, mode: 0o700)
        let editing = reader.editing
        var keepsHistory = false
        if let editing {
            keepsHistory = historyFileIsUsable()
            if keepsHistory { editing.readHistory(from: historyFile) }
            editing.limitHistory(to: 1000)
        } else if let problem = LineReader.readlineProblem {
            say("miga config: no line editing, history or Tab completion (\(problem)); install libreadline8 for them")
        }
        let searchPath = context.commandResolver.searchPath, shimDirectory = context.paths.shimDirectory, files = context.files
        var installedNames: [String]? // looked up once, at the first Tab that needs them
        editing?.complete { before, word in
            shell.completions(before: before, word: word, installedNames: {
                if installedNames == nil {
                    installedNames = AppNameSuggestions(searchPath: searchPath, skipping: shimDirectory,
                                                        entries: installer?.installedEntries ?? [], files: files).candidates.sorted()
                }
                return installedNames ?? []
            })
        }
        return keepsHistory
    }

    /// The next line to run; nil when the session ends (Ctrl-D with nothing to lose, or a
    /// hang-up, which discards what was not saved: `stoppedBy` says which signal).
    private func nextLine(_ shell: ConfigShell) -> String? {
        while true {
            switch read(prompt: shell.prompt) {
            case .line(let text):
                return text
            case .endOfInput: // Ctrl-D
                say("")
                if !shell.dirty || confirm("Discard unsaved changes? [y/N] ", defaultYes: false) { return nil }
            case .interrupted: // Ctrl-C: a fresh line, as in a shell; changes stay
                continue
            case .hungUp(let signal):
                let signal = signal ?? Signal.hangUp // input that hangs up is the terminal going away
                stoppedBy = signal
                if shell.dirty {
                    context.terminal.say("miga config: stopped by \(Signal.name(signal)); unsaved changes were discarded\n")
                }
                return nil
            }
        }
    }

    /// Whether readline may have the history file. It opens the file by name with a blocking
    /// open, so a FIFO there would hang the editor before its first prompt, where no signal
    /// reaches it; and it writes through a symlink to whatever file the link names. Anything
    /// but a regular file (or none yet) turns history off, with one line saying why.
    private func historyFileIsUsable() -> Bool {
        do {
            try BoundedFile.checkBeforeOpening(historyFile, limit: BoundedFile.readlineFileLimit, followingLinks: false)
            return true
        } catch {
            say("miga config: history is off: \(historyFile): \(error)")
            return false
        }
    }

    private func save(_ shell: ConfigShell, original: String?) throws {
        try Installer(context: context).prepareConfigFolder()
        try ConfigFile(path: context.paths.configFile, files: context.files).replace(with: shell.editor.text, original: original)
        say("Saved \(context.paths.configFile).")
        let changed = shell.commandChanged.compactMap { shell.config.apps[$0] }
        // A removal that waits out `loosen_delay_minutes` keeps its shims until it applies.
        let inForce = (try? ConfigInForce.load(context: context))?.config
        let removed = shell.removed.filter { inForce?.apps[$0] == nil }
        if !shell.added.isEmpty || !removed.isEmpty || !changed.isEmpty {
            let installer = try Installer(context: context)
            for app in shell.added.map({ shell.config.apps[$0.name] ?? $0 }) + changed { try installer.sync(app) }
            for name in removed { try installer.remove(app: name) }
            try installer.finishDesktopChanges()
            installer.changes.forEach { say("  " + $0) }
        }
        ConfigInForce.waitingNote(context: context).forEach { say("  waiting: " + $0) }
        // Sync turned on (or moved): this machine's history goes to the folder now, as with
        // `config set sync_folder`.
        let before = (try? ConfigLoader().parse(original ?? ConfigFile.newFileText, path: context.paths.configFile))?.config ?? MigaConfig()
        if before.syncFolder != shell.config.syncFolder || before.syncConfig != shell.config.syncConfig {
            do {
                try EventStore.shareHistory(config: shell.config, context: context).forEach { say("  " + $0) }
            } catch {
                say("  sync: \(error)")
            }
        }
        shell.saved()
        shell.inForce = (try? ConfigInForce.load(context: context))?.config
    }

    private var editorCommand: [String] {
        for variable in ["VISUAL", "EDITOR"] {
            let words = (context.environment[variable] ?? "").split(separator: " ").map(String.init)
            if !words.isEmpty { return words }
        }
        return ["editor"]
    }

    private func openEditor(on path: String) {
        var words = editorCommand
        let resolver = context.commandResolver // miga's own editor, not a gated app's shim
        if words == ["editor"], resolver.lookUp("editor") == nil { words = ["vi"] }
        do {
            let command = try resolver.resolve(words + [path])
            _ = try reader.handOver { try context.processes.runInTerminal(command, environment: context.environment) }
        } catch {
            say("miga: \(error)")
        }
    }

    /// Ctrl-C or a lost terminal is never a yes.
    private func confirm(_ prompt: String, defaultYes: Bool) -> Bool {
        switch read(prompt: prompt) {
        case .line(let text):
            let answer = text.trimming(.whitespaces).lowercased()
            return answer.isEmpty ? defaultYes : (answer == "y" || answer == "yes")
        case .endOfInput:
            return defaultYes
        case .interrupted, .hungUp:
            return false
        }
    }

    /// The next input. An end of input from a terminal that is gone (its window closed
    /// without a hang-up reaching miga) is a hang-up: no answer can follow it, and taken as
    /// Ctrl-D it made "Discard unsaved changes?" ask again for ever, at full speed.
    private func read(prompt: String) -> LineInput {
        let input = reader.read(prompt: prompt)
        if case .endOfInput = input {
            // isatty asks tcgetattr, which fails once the terminal is gone.
            if !context.terminal.isTerminal(.standardInput) { return .hungUp(signal: nil) }
        }
        return input
    }

    private func say(_ text: String) {
        context.terminal.say(text + "\n", to: .standardOutput)
    }

    /// Unusable desktop entries are reported by `apps add` and `install`; not at every Tab.
    static func quiet(_ context: MigaContext) -> MigaContext {
        var quiet = context
        quiet.messages = SilentSink()
        return quiet
    }
}

private struct SilentSink: MessageSink {
    func say(_ line: String) {}
}
