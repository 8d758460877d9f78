import Foundation
import PackagePlugin

/// Compiles the bundled content packs in `quotes/` into the MigaCore module, so an installed
/// `miga` binary works with no data file beside it.
@main
struct EmbedContentPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let quotes = context.package.directoryURL.appending(path: "quotes")
        let packs = try FileManager.default
            .contentsOfDirectory(at: quotes, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "toml" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "BundledPacks.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(packs.count) content packs",
                executable: try context.tool(named: "EmbedContent").url,
                // The tool lists the folder itself; the folder is an input too, so adding or
                // removing a pack (which changes its mtime) re-runs the command.
                arguments: [output.path, quotes.path],
                inputFiles: [quotes] + packs,
                outputFiles: [output]
            )
        ]
    }
}
