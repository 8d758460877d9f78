import Foundation
import XCTest
import MigaCore
import MigaTestSupport

/// Whether `pid` has ended (gone, or a zombie its parent has not reaped yet).
func processEnded(_ pid: pid_t) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return true }
    return stat[stat.index(close, offsetBy: 2)] == "Z"
}

/// Polls `condition` until it holds or `timeout` seconds pass. The default is generous: a
/// condition that holds returns at once, and on a machine whose cores are busy with other
/// work (CI runs beside other jobs) a debug-built miga can take seconds to start.
func eventually(timeout: Double = 30, _ what: @autoclosure () -> String = "condition",
                file: StaticString = #filePath, line: UInt = #line, _ condition: () throws -> Bool) rethrows {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return }
        usleep(50_000)
    }
    if try condition() { return }
    XCTFail("timed out after \(timeout) s waiting for \(what())", file: file, line: line)
}

/// A throwaway HOME (see `TestHome`) with the built `miga`, and a fake app that records
/// exactly the argv it was given. Nothing here touches the real $HOME.
final class MigaHome: TestHome, MigaRunning {
    let binary: String

    init() throws {
        let built = Self.builtBinary
        guard FileManager.default.isExecutableFile(atPath: built) else {
            throw XCTSkip("miga binary not found at \(built); run `swift build` first")
        }
        binary = built
        try super.init(prefix: "miga-cli-")
        try writeFile("bin/recorder", mode: 0o755, """
            #!/bin/sh
            # Records argv NUL-separated, plus what the app inherited, then optionally lingers.
            # Each file appears whole (temp + rename): tests poll for them while this runs.
            out="$(dirname "$0")/../recorded"
            : > "$out.argv.tmp"
            for a in "$@"; do printf '%s\\0' "$a" >> "$out.argv.tmp"; done
            mv "$out.argv.tmp" "$out.argv"
            sid=$(cut -d' ' -f6 /proc/$$/stat)
            ignored=$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/$$/status)
            echo "gated=$MIGA_GATED pid=$$ sid=$sid stdin=$(readlink /proc/$$/fd/0) stdout=$(readlink /proc/$$/fd/1) ignored=$ignored" > "$out.info.tmp"
            mv "$out.info.tmp" "$out.info"
            [ -n "$RECORDER_SLEEP" ] && sleep "$RECORDER_SLEEP"
            exit 0
            """)
    }

    /// The argv the fake app received, or nil if it never ran.
    func recordedArguments() -> [String]? {
        guard let data = FileManager.default.contents(atPath: root + "/recorded.argv") else { return nil }
        var arguments = data.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        arguments.removeLast() // every argument ends in NUL
        return arguments
    }

    /// The fake app's ignored signals (SigIgn, hexadecimal), from its recorded info.
    func recordedIgnoredSignals() -> String? {
        recordedInfo()?.split(separator: " ").first { $0.hasPrefix("ignored=") }.map { String($0.dropFirst("ignored=".count)) }
    }

    func recordedInfo() -> String? {
        (try? String(contentsOfFile: root + "/recorded.info", encoding: .utf8))?.trimmingCharacters(in: .newlines)
    }

    /// `run`, but started inside the throwaway folder, where a relative HOME or XDG path then
    /// points (and whatever a program creates there is thrown away with it).
    @discardableResult
    func runInRoot(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Output {
        try run("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", root, executable] + arguments, environment: environment)
    }

    /// sqlite3 holding miga's database locked: `sql` takes the lock, held for `seconds`, then
    /// committed. Returns once the lock is held, so no test races sqlite3's start. The file
    /// `released` appears just before the commit: whatever had to wait for the lock must find
    /// it there. End it early with `kill(-locker.pid, SIGKILL)` (its own process group).
    func lockDatabase(_ sql: String, for seconds: Double) throws -> (locker: Child, released: String) {
        let held = root + "/lock-held", released = root + "/lock-released"
        let commands = [sql, ".shell touch \(held)", ".shell sleep \(seconds)", ".shell touch \(released)", "COMMIT;"]
        let script = try writeFile("lock.sql", commands.joined(separator: "\n") + "\n")
        let locker = try start("/usr/bin/sqlite3", [database, ".read \(script)"], ownGroup: true)
        eventually("sqlite3 to take the lock") { FileManager.default.fileExists(atPath: held) }
        return (locker, released)
    }

    func miga(_ arguments: [String], environment: [String: String]? = nil) throws -> Output {
        try run(binary, arguments, environment: environment)
    }
}

/// A real terminal: a private tmux server running one script, read with capture-pane and
/// typed into with send-keys, as a person at a keyboard would.
final class TmuxTerminal {
    let socket = "miga-test-" + UUID().uuidString.prefix(8)
    let home: MigaHome

    /// Runs `command` (shell text) in a fresh terminal with `environment` only; afterwards the
    /// script prints the exit status and the terminal's settings, and keeps the pane open.
    init(home: MigaHome, command: String, environment: [String: String], columns: Int = 100, rows: Int = 30) throws {
        self.home = home
        let inner = try home.writeFile("tmux-\(socket).sh", mode: 0o755, """
            \(command)
            echo "STATUS=$?"
            echo "STTY: $(stty -a | tr '\\n' ' ')"
            exec sleep 600
            """)
        let assignments = environment.sorted { $0.key < $1.key }.map { shellQuote("\($0.key)=\($0.value)") }.joined(separator: " ")
        let outer = try home.writeFile("tmux-\(socket)-env.sh", mode: 0o755, "#!/bin/sh\nexec env -i \(assignments) /bin/sh \(shellQuote(inner))\n")
        // Keep a pane whose program ended, so its last screen can still be read.
        let config = try home.writeFile("tmux-\(socket).conf", "set -g remain-on-exit on\n")
        try tmux(["-f", config, "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "-s", "t", outer])
    }

    deinit { _ = try? tmux(["kill-server"]) }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        try home.run("/usr/bin/tmux", ["-L", socket] + arguments, environment: ["PATH": "/usr/bin:/bin", "TMUX": ""]).stdout
    }

    /// The visible screen; `-J` joins lines the terminal wrapped, so long messages match whole.
    func screen() -> String { (try? tmux(["capture-pane", "-p", "-J", "-t", "t"])) ?? "" }

    /// Everything the program writes from now on (escape sequences included), for what was
    /// drawn and then cleared, such as the celebration on the alternate screen.
    func recordOutput() throws -> () -> String {
        let path = home.root + "/tmux-\(socket).out"
        try tmux(["pipe-pane", "-t", "t", "cat > \(shellQuote(path))"])
        return { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
    }

    /// Keys by tmux name (`Enter`, `C-c`, `Escape`) or literal characters.
    func press(_ keys: String...) throws { try tmux(["send-keys", "-t", "t"] + keys) }

    /// Types `text` and waits until it shows before the cursor, as a person watches what they
    /// type. At a prompt (see `waitForPrompt`) that means the program has read it: readline
    /// echoes what it reads. Text the program has not read yet sits in the terminal's input
    /// queue, and a signal key sent next (Ctrl-C, Ctrl-Z) makes the kernel discard that queue.
    func type(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try tmux(["send-keys", "-t", "t", "-l", text])
        waitForInput(endingWith: text, mayWrap: true, file: file, line: line)
    }

    /// Types a line and presses Enter, as at a shell or readline prompt.
    func enter(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try type(text, file: file, line: line)
        try press("Enter")
    }

    /// At `prompt`, started from an interactive bash: types `typed`, suspends with Ctrl-Z (the
    /// shell says "Stopped" and prompts) and brings the program back with `fg`, which must
    /// draw its prompt again with the half-typed line. Ctrl-Z only once `typed` was read
    /// (echoed): the kernel discards unread input with it.
    func suspendAndResume(at prompt: String, typed: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try type(typed, file: file, line: line)
        try press("C-z")
        waitFor("Stopped", file: file, line: line)
        waitForPrompt("$ ", file: file, line: line)
        try enter("fg", file: file, line: line)
        waitForInput(endingWith: prompt + typed, file: file, line: line)
    }

    /// An interactive bash (no rc files, prompt "$ ") ready for input.
    static func interactiveBash(home: MigaHome, environment extra: [String: String] = [:]) throws -> TmuxTerminal {
        let terminal = try TmuxTerminal(home: home, command: "exec bash --norc --noprofile -i",
                                        environment: home.environment(["PS1": "$ "].merging(extra) { $1 }))
        terminal.waitForPrompt("$ ")
        return terminal
    }

    /// The cursor's row, left of the cursor: a prompt and what has been typed at it.
    func rowBeforeCursor() -> String {
        let position = display("#{cursor_x} #{cursor_y}").split(separator: " ").compactMap { Int($0) }
        // -N keeps trailing spaces, such as the one that ends a prompt.
        guard position.count == 2,
              let captured = try? tmux(["capture-pane", "-p", "-N", "-S", "\(position[1])", "-E", "\(position[1])", "-t", "t"])
        else { return "" }
        let row = captured.hasSuffix("\n") ? String(captured.dropLast()) : captured
        // By cell width: a wide character takes two columns.
        var width = 0
        let before = row.prefix { character in
            width += DisplayWidth.of(String(character))
            return width <= position[0]
        }
        return String(before) + String(repeating: " ", count: max(0, position[0] - width))
    }

    /// Waits until the cursor stands right after `text` on its row. With `mayWrap`, typed text
    /// longer than the row left of the cursor has wrapped, or scrolled sideways (readline then
    /// marks the row's start with `<`): the row must end with as much of it as it holds, less
    /// that one column. Echo comes in order, so the rest was shown before.
    func waitForInput(endingWith text: String, mayWrap: Bool = false, timeout: Double = 30,
                      file: StaticString = #filePath, line: UInt = #line) {
        var last = ""
        eventually(timeout: timeout, "\"\(text)\" before the cursor; the row reads \"\(last)\"; the screen:\n\(screen())",
                   file: file, line: line) {
            last = rowBeforeCursor()
            guard mayWrap, last.count < text.count else { return last.hasSuffix(text) }
            return last.count >= 2 && last.hasSuffix(text.suffix(last.count - 1))
        }
    }

    /// Waits until `prompt` is shown with nothing typed after it. A line editor sets up the
    /// terminal before it draws its prompt, so from then on it reads each key as it comes;
    /// before, typed text waits in the terminal driver (echoed, line-buffered), where the
    /// next signal key would discard it, or an end-of-file key would not reach the editor.
    func waitForPrompt(_ prompt: String, timeout: Double = 30, file: StaticString = #filePath, line: UInt = #line) {
        waitForInput(endingWith: prompt, timeout: timeout, file: file, line: line)
    }

    /// Waits until `text` is on screen `count` times (a prompt asked again, say).
    func waitFor(_ text: String, count: Int, timeout: Double = 30, file: StaticString = #filePath, line: UInt = #line) {
        var last = ""
        eventually(timeout: timeout, "\(count) × \"\(text)\" on screen; last screen:\n\(last)", file: file, line: line) {
            last = screen()
            return last.components(separatedBy: text).count - 1 >= count
        }
    }

    func display(_ format: String) -> String {
        ((try? tmux(["display-message", "-p", "-t", "t", format])) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @discardableResult
    func waitFor(_ text: String, timeout: Double = 30, file: StaticString = #filePath, line: UInt = #line) -> String {
        var last = ""
        eventually(timeout: timeout, "\"\(text)\" on screen; last screen:\n\(last)", file: file, line: line) {
            last = screen()
            return last.contains(text)
        }
        return last
    }

    /// At a shell prompt: prints the terminal's settings the way the wrapper script does after
    /// its command, for `assertTerminalRestored`. The marker is split in the typed line so only
    /// the output matches.
    func printSettings() throws {
        try enter("echo \"ST\"\"TY: $(stty -a | tr '\\n' ' ')\"")
    }

    /// After the command ended: the terminal must be back to normal for the person.
    func assertTerminalRestored(file: StaticString = #filePath, line: UInt = #line) {
        let settings = waitFor("STTY:", file: file, line: line)
        XCTAssertTrue(settings.contains(" echo ") && settings.contains(" icanon ") && settings.contains(" isig "),
                      "echo/canonical/signals not restored:\n\(settings)", file: file, line: line)
        XCTAssertFalse(settings.contains("-echo ") || settings.contains("-icanon"), settings, file: file, line: line)
        XCTAssertEqual(display("#{alternate_on} #{cursor_flag}"), "0 1", "main screen with a visible cursor", file: file, line: line)
    }
}
