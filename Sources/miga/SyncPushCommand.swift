import ArgumentParser
import FoundationEssentials
import MigaCore

/// `miga sync push`: started by gates and the browser's host, never by a person (hidden).
struct SyncPushCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Fold the other machines' events in and write this machine's to the sync folder (what gates start in the background).",
        shouldDisplay: false
    )

    func run(_ context: MigaContext) throws {
        // The config as it is here: the shared copy is brought level under the journal's lock.
        try EventStore.pushInBackground(config: ConfigInForce.load(context: context, inFrontOfApp: true).config, context: context)
    }
}
