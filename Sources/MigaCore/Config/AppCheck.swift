/// The one check of an app's name and command, made wherever either enters miga: `apps add`,
/// `config set`, the editor, a hand-edited config.toml, desktop entries and their actions,
/// `miga install` (DESIGN "Never in the way, never a way in"). A name becomes a file name (its
/// PATH shim, its grace stamps) and a command is what every launch runs; the shims hold both
/// in quotes only, and this keeps out what no quoting makes a file name or a program.
/// Needs nothing but TerminalText, so the shim fuzz target builds it alone.
public enum AppCheck {
    /// Why `name` cannot name an app, or nil when it can. Names keep to a small alphabet
    /// (so never a `/` or a control character) and are never `.` or `..`, which name folders.
    public static func problem(withName name: String) -> String? {
        if name == "." || name == ".." { return "app name \"\(name)\" is not a file name (. and .. are folders)" }
        guard !name.isEmpty, name.unicodeScalars.allSatisfy(isNameScalar) else {
            return "app name \"\(shown(name))\" may only use letters, digits and . _ + -"
        }
        return nil
    }

    /// Why `command` cannot be what an app's shims run, or nil when it can: a program's name or
    /// path is one line, so a line break (or any other C0 or C1 control character) in it can
    /// only be a way to run something else. Callers add what to do (`commandAdvice`).
    public static func problem(withCommand command: String) -> String? {
        if command.isEmpty { return "the command is empty" }
        if let control = TerminalText.firstControl(in: command, allowing: []) {
            return "the command \"\(shown(command))\" holds a control character (\(TerminalText.name(control)))"
        }
        return nil
    }

    /// What a person does about a command `problem(withCommand:)` refused.
    public static let commandAdvice = "give the program's name or path on one line"

    /// A valid name made from any text (a program's file name, a site): every other character
    /// becomes `-`, so `My App` is `My-App`; what is still no name (`.`, `..`, nothing) is `app`.
    /// A Latin letter with a mark (`İ`, `é`) becomes the plain letter, so `İnstagram` is
    /// `Instagram`; the name never starts with `-` (it would read as an option) or `.`.
    public static func name(derivedFrom text: String) -> String {
        let cleaned = String(text.map { $0.unicodeScalars.allSatisfy(isNameScalar) ? $0 : plainLatinLetter($0) ?? "-" })
        let trimmed = String(cleaned.drop(while: { $0 == "-" || $0 == "." }))
        return problem(withName: trimmed) == nil ? trimmed : "app"
    }

    /// The letter a Latin letter with marks is written with, from its Unicode name
    /// ("LATIN CAPITAL LETTER I WITH DOT ABOVE" is I).
    static func plainLatinLetter(_ character: Character) -> Character? {
        guard character.unicodeScalars.count == 1, let name = character.unicodeScalars.first?.properties.name else { return nil }
        for (prefix, capital) in [("LATIN CAPITAL LETTER ", true), ("LATIN SMALL LETTER ", false)] where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let letter = rest.first, ("A"..."Z").contains(letter), rest.dropFirst().isEmpty || rest.dropFirst().hasPrefix(" WITH ") else {
                return nil
            }
            return capital ? letter : Character(letter.lowercased())
        }
        return nil
    }

    static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
            || "._+-".unicodeScalars.contains(scalar)
    }

    /// Text quoted in a message: control characters visible, at most a line's worth.
    static func shown(_ text: String) -> String { TerminalText.excerpt(text) }
}
