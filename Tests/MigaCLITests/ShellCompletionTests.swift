import Foundation
import MigaTestSupport
import XCTest

/// Tab completion as a person uses it: the scripts `miga --generate-completion-script` writes
/// (what `make install` installs), loaded by real interactive bash, zsh and fish in tmux, and
/// Tab pressed. The custom completions ask the built `miga` for the configured apps and sites,
/// so this also checks that it finds the person's config from their HOME.
final class ShellCompletionTests: XCTestCase {
    var home: MigaHome!
    /// The folder holding the built `miga`, first on PATH as an installed one would be.
    var binaryFolder: String { (home.binary as NSString).deletingLastPathComponent }

    override func setUpWithError() throws {
        home = try MigaHome()
        for app in ["zulipchat", "signalapp"] {
            let added = try home.miga(["config", "apps", "add", app, "--command", "/bin/true"])
            XCTAssertEqual(added.status, 0, added.stderr)
        }
        XCTAssertEqual(try home.miga(["config", "sites", "add", "news.example.com"]).status, 0)
        for shell in ["bash", "zsh", "fish"] {
            let script = try home.miga(["--generate-completion-script", shell])
            XCTAssertEqual(script.status, 0, script.stderr)
            try home.writeFile("completions/\(shell == "zsh" ? "_miga" : "miga.\(shell)")", script.stdout)
        }
    }

    /// A terminal running `shell` with the completion script loaded by `setup`, ready for input.
    func terminal(_ shell: String, _ setup: String) throws -> TmuxTerminal {
        let environment = home.environment(["PATH": "\(binaryFolder):/usr/bin:/bin", "PS1": "$ ", "PROMPT": "$ "])
        let terminal = try TmuxTerminal(home: home, command: "exec \(shell)", environment: environment, columns: 120)
        terminal.waitForPrompt("$ ")
        // The marker is split in the typed line so only the command's output matches.
        try terminal.enter(setup + "; echo RE\"\"ADY")
        terminal.waitFor("READY")
        terminal.waitForPrompt("$ ")
        return terminal
    }

    /// One app completes in place; with several, a second Tab lists them; sites too.
    func assertCompletes(_ terminal: TmuxTerminal, listKeys: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        try terminal.type("miga config apps remove zul")
        try terminal.press("Tab")
        terminal.waitFor("miga config apps remove zulipchat", file: file, line: line)
        try terminal.press("C-u")
        try terminal.type("miga config apps remove ")
        try terminal.press(listKeys.first!)
        // No pause between the keys: readline takes a second Tab as "list" because the last
        // command was a completion, not by timing, and reads the keys in order.
        for key in listKeys.dropFirst() { try terminal.press(key) }
        let screen = terminal.waitFor("signalapp", file: file, line: line)
        XCTAssertTrue(screen.contains("zulipchat"), "both apps offered:\n\(screen)", file: file, line: line)
        // Ctrl-C ends the line; the next is typed at the fresh prompt, never into the gap
        // where the shell is not reading yet.
        try terminal.press("C-c")
        terminal.waitForPrompt("$ ", file: file, line: line)
        try terminal.type("miga config sites remove ne")
        try terminal.press("Tab")
        terminal.waitFor("miga config sites remove news.example.com", file: file, line: line)
        try terminal.press("C-c")
        terminal.waitForPrompt("$ ", file: file, line: line)
        try terminal.type("miga doc")
        try terminal.press("Tab")
        terminal.waitFor("miga doctor", file: file, line: line)
    }

    func testBash() throws {
        let terminal = try terminal("bash --norc --noprofile -i", "source \(shellQuote(home.root + "/completions/miga.bash"))")
        try assertCompletes(terminal, listKeys: ["Tab", "Tab"])
    }

    func testZsh() throws {
        let folder = shellQuote(home.root + "/completions")
        let terminal = try terminal("zsh -f -i", "fpath=(\(folder) $fpath); autoload -Uz compinit; compinit -u -d \(folder)/zcompdump")
        try assertCompletes(terminal, listKeys: ["Tab"])
    }

    func testFish() throws {
        // fish draws its prompt with a function, not PS1: this one matches the other shells'.
        let terminal = try terminal("fish --no-config -C \"function fish_prompt; echo -n '\\$ '; end\" -i",
                                    "source \(shellQuote(home.root + "/completions/miga.fish"))")
        try assertCompletes(terminal, listKeys: ["Tab"])
    }
}
