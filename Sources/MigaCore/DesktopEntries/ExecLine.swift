/// An `Exec` value parsed by the Desktop Entry Specification's rules: string escapes first,
/// then arguments split on spaces, double quotes with `\"`, `` \` ``, `\$`, `\\` inside, and
/// field codes recognised only as whole unquoted arguments.
public struct ExecLine: Equatable {
    public enum Argument: Equatable {
        case literal(String)
        /// A field code standing alone, like `%U`: the letter.
        case field(Character)
        /// A field code inside a literal argument, like `--url=%u`: parts around it.
        case embedded(prefix: String, field: Character, suffix: String)
    }

    public var arguments: [Argument]

    /// The program to run (the first argument), as written.
    public var program: String? {
        if case .literal(let program)? = arguments.first { return program }
        return nil
    }

    public init(rawValue: String) throws {
        let text = DesktopEntry.unescape(rawValue)
        var arguments: [Argument] = []
        var current = ""
        var quoted = false
        var started = false
        var iterator = text.makeIterator()
        func finish() {
            guard started else { return }
            arguments.append(Self.classify(current, wasQuoted: quoted))
            current = ""
            started = false
            quoted = false
        }
        var inQuotes = false
        while let character = iterator.next() {
            if inQuotes {
                switch character {
                case "\"": inQuotes = false
                case "\\":
                    guard let next = iterator.next() else { throw ExecLineError.danglingBackslash }
                    guard "\"`$\\".contains(next) else { throw ExecLineError.badEscape(next) }
                    current.append(next)
                default: current.append(character)
                }
            } else {
                switch character {
                case " ", "\t", "\n": finish()
                case "\"":
                    inQuotes = true
                    quoted = true
                    started = true
                default:
                    current.append(character)
                    started = true
                }
            }
        }
        guard !inQuotes else { throw ExecLineError.unterminatedQuote }
        finish()
        guard !arguments.isEmpty else { throw ExecLineError.empty }
        self.arguments = arguments
    }

    private static func classify(_ text: String, wasQuoted: Bool) -> Argument {
        guard !wasQuoted else { return .literal(text) } // "%u" in quotes is literal text
        if text.count == 2, text.first == "%", let letter = text.last, letter != "%" { return .field(letter) }
        if let percent = text.firstIndex(of: "%"), text.index(after: percent) < text.endIndex {
            let letter = text[text.index(after: percent)]
            if letter != "%" {
                return .embedded(prefix: String(text[..<percent]), field: letter,
                                 suffix: String(text[text.index(percent, offsetBy: 2)...]))
            }
        }
        return .literal(text.replacingEvery("%%", with: "%"))
    }

    /// Whether any argument holds one of these field codes.
    public func uses(_ letters: Set<Character>) -> Bool {
        arguments.contains { argument in
            switch argument {
            case .field(let letter), .embedded(_, let letter, _): return letters.contains(letter)
            case .literal: return false
            }
        }
    }

    /// The command lines a launcher runs to open `urls`: one for `%U`/`%F`, one per URL for
    /// `%u`/`%f`, and for an Exec without either, one with the URLs appended (as GLib does).
    public func invocations(urls: [String], icon: String?, name: String?, location: String?) -> [[String]] {
        if uses(["U", "F"]) || urls.isEmpty {
            return [expand(urls: urls, icon: icon, name: name, location: location)]
        }
        if uses(["u", "f"]) {
            return urls.map { expand(urls: [$0], icon: icon, name: name, location: location) }
        }
        return [expand(urls: [], icon: icon, name: name, location: location) + urls]
    }

    /// What a launcher would run for `urls` (or files): `%u`/`%f` take the first, `%U`/`%F`
    /// all of them, `%i` the icon as two arguments, `%c` the name, `%k` the entry's location;
    /// deprecated codes are dropped.
    public func expand(urls: [String], icon: String?, name: String?, location: String?) -> [String] {
        var argv: [String] = []
        for argument in arguments {
            switch argument {
            case .literal(let text):
                argv.append(text)
            case .field(let letter):
                argv += expansion(of: letter, urls: urls, icon: icon, name: name, location: location)
            case .embedded(let prefix, let letter, let suffix):
                let values = expansion(of: letter, urls: urls, icon: icon, name: name, location: location)
                argv.append(prefix + (values.last ?? "") + suffix)
            }
        }
        return argv
    }

    private func expansion(of letter: Character, urls: [String], icon: String?, name: String?, location: String?) -> [String] {
        switch letter {
        case "u", "f": return urls.first.map { [$0] } ?? []
        case "U", "F": return urls
        case "i": return icon.map { ["--icon", $0] } ?? []
        case "c": return name.map { [$0] } ?? []
        case "k": return location.map { [$0] } ?? []
        default: return [] // %d %D %n %N %v %m are deprecated: removed
        }
    }
}

public enum ExecLineError: Error, Equatable, CustomStringConvertible {
    case empty
    case unterminatedQuote
    case danglingBackslash
    case badEscape(Character)

    public var description: String {
        switch self {
        case .empty: return "Exec is empty"
        case .unterminatedQuote: return "Exec has an unterminated quote"
        case .danglingBackslash: return "Exec ends in a backslash"
        case .badEscape(let character): return "Exec quotes an unexpected \\\(character)"
        }
    }
}
