import Foundation
import PackagePlugin

/// Compiles the bundled content packs in `quotes/` and the shell snippets in `shell/` into the
/// MigaCore module, so an installed `miga` binary works with no data file beside it.
@main
struct EmbedContentPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let quotes = context.package.directoryURL.appending(path: "quotes")
        let shell = context.package.directoryURL.appending(path: "shell")
        func files(in folder: URL) throws -> [URL] {
            try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                .filter { !$0.lastPathComponent.hasPrefix(".") }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
        }
        let packs = try files(in: quotes).filter { $0.pathExtension == "toml" }
        let snippets = try files(in: shell)
        let output = context.pluginWorkDirectoryURL.appending(path: "BundledFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(packs.count) content packs and \(snippets.count) shell files",
                executable: try context.tool(named: "EmbedContent").url,
                // The tool lists the folders itself; the folders are inputs too, so adding or
                // removing a file (which changes the folder's mtime) re-runs the command.
                arguments: [output.path, quotes.path, shell.path],
                inputFiles: [quotes, shell] + packs + snippets,
                outputFiles: [output]
            )
        ]
    }
}
