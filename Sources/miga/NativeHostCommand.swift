import ArgumentParser
import FoundationEssentials
import MigaCore

struct NativeHostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "native-host",
        abstract: "The browser extension's native messaging host (started by the browser, not by you).",
        discussion: """
            Chromium-based browsers and Firefox start this through `miga-native-host`, the \
            name their host manifests give (`miga install` writes one for each browser it \
            finds). It reads length-prefixed JSON on standard input, answers on standard \
            output, and ends when the browser closes the pipe. Chromium passes the \
            extension's origin as its argument; Firefox passes the manifest path and the \
            extension's id. Check the set-up with `miga doctor`.

            Example (what Chromium runs):
              ~/.local/share/miga/bin/miga-native-host chrome-extension://\(BrowserExtension.chromiumID)/
            """
    )

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("What the browser passes (origin, or manifest path and extension id).",
                                                                  valueName: "browser-argument"))
    var browserArguments: [String] = []

    func run() throws {
        // Passthrough parsing takes every argument as the browser's, `--help` too; browsers
        // never pass an option, so one is a person asking.
        if browserArguments.contains(where: { $0 == "--help" || $0 == "-h" }) { throw CleanExit.helpRequest(self) }
        let status = LauncherArguments.nativeHost(browserArguments).run()
        if status != 0 { throw ExitCode(status) }
    }
}
