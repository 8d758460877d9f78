import ArgumentParser
import FoundationEssentials
import MigaCore

@main
struct Miga: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "miga",
        abstract: "A calm, short pause before the apps you open on autopilot.",
        discussion: """
            miga shows a quote or a short read and a 15–45 s countdown before an app opens, \
            then lets you choose: Exit (the win), Read Next, or Open. Everything stays on \
            this machine.

            Examples:
              miga config apps add discord      # gate an app
              miga install                      # route shells, menus and links
              miga doctor                       # check that everything is in place
              miga gate --app discord -- discord
              miga gate --plain -- /usr/bin/env printf '%s\\n' one "two words"
            """,
        version: MigaVersion.current,
        // Every command names itself: otherwise ArgumentParser derives names with
        // String(describing:), a conformance scan that costs milliseconds on the gate's path.
        subcommands: [Gate.self, OpenURL.self, Config.self, StatsCommand.self, StatusCommand.self, EventsCommand.self, DataCommand.self, LicenseCommand.self, ContentCommand.self,
                      SnoozeCommand.self, Install.self, Uninstall.self, DoctorCommand.self, NativeHostCommand.self,
                      TimeboxWatchCommand.self, SyncCommand.self, WatchCommand.self,
                      WelcomeTryCommand.self]
    )

    static func main() {
        SignalDispositions.ignoreBrokenPipes()
        LinuxSystem.checkStandardOutputAtExit()
        // What the shims and the link handler run skips ArgumentParser (see LauncherArguments).
        // Browsers start the host by a manifest's `path`, which takes no arguments of its own:
        // a link named miga-native-host stands for `miga native-host`.
        if CommandLine.arguments.first.map({ $0.split(separator: "/").last == Substring(BrowserExtension.hostLinkName) }) == true {
            LinuxSystem.exit(LauncherArguments.nativeHost(Array(CommandLine.arguments.dropFirst())).run())
        }
        if let launch = LauncherArguments(Array(CommandLine.arguments.dropFirst())) {
            LinuxSystem.exit(launch.run())
        }
        main(nil)
    }
}
