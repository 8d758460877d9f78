import ArgumentParser
import MigaCore

struct OpenURL: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open-url",
        abstract: "The web link handler: pause before listed sites, pass every other link to your browser.",
        discussion: """
            `miga install` registers this for http and https links. A link whose host is a \
            listed site (or a subdomain of one) opens the gate, in a terminal when there is \
            none; on Open your browser gets the link. Every other link goes to your browser at \
            once.

            Examples:
              miga open-url https://old.reddit.com/r/linux
              miga open-url https://www.debian.org/
            """
    )

    @Flag(help: .hidden) // after the gate's Open: straight to the browser
    var forward = false

    @Argument(help: ArgumentHelp("The links to open.", valueName: "url"))
    var urls: [String]

    func run() throws {
        let status = LauncherArguments.openURL(urls: urls, forward: forward).run()
        if status != 0 { throw ExitCode(status) }
    }
}
