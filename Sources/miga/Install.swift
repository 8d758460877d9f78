import ArgumentParser
import MigaCore

struct Install: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Put miga in front of your apps and links: shells, launchers, the link handler, browsers.",
        discussion: """
            Adds one marked line to ~/.bashrc (and ~/.zshrc, ~/.profile when you have them), a fish \
            conf.d file and ~/.config/environment.d/60-miga.conf so the shim folder comes first on \
            PATH; makes every gated app's shims; and makes miga the handler for web links, \
            remembering your browser for every link that is not gated. For each browser found \
            (Firefox, LibreWolf, Chromium, Chrome, Brave, Vivaldi, Edge) it writes the native \
            messaging host manifest that lets miga's browser extension (.build/browser/FAMILY \
            after make, share/webext/miga/FAMILY once installed) pause listed sites in it. \
            Running it again only \
            refreshes what drifted (a package update, a browser taking the default back). \
            Everything is recorded in ~/.local/state/miga/installed.json for `miga uninstall`.

            Examples:
              miga setup      # choose what to pause first; it installs too
              miga install
              miga doctor
            """
    )

    func run(_ context: MigaContext) throws {
        let loaded = try ConfigInForce.load(context: context)
        // An app whose table cannot be used (a name that is no file name, a command that is
        // no program) is left out of the install: each says so in one line, the rest install.
        loaded.warnings.forEach { CommandSupport.warn($0, context) }
        let installer = try Installer(context: context)
        try installer.install(config: loaded.config)
        // Apps whose removal waited out loosen_delay_minutes lose their shims now.
        let retired = try GatedApps(context: context).removeRetiredShims()?.changes ?? []
        if installer.changes.isEmpty && retired.isEmpty {
            try context.output.line("miga is installed; nothing needed changing.")
        } else {
            try context.output.lines(installer.changes + retired)
            // A new shell only for a changed PATH: said after every refresh, it was noise.
            try context.output.line(installer.shellStartupChanged
                ? "Done. Open a new shell (or log in again) for the PATH change; `miga doctor` checks everything."
                : "Done; `miga doctor` checks everything.")
            // With the report of a change, so an install that changed nothing still says only that.
            if WelcomeSetup.nothingChosen(loaded.config) { try context.output.line(WelcomeSetup.nothingChosenLine) }
        }
    }
}
