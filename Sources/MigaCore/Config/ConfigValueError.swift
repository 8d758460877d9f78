import FoundationEssentials

/// A value `miga config set` (or the editor) will not write. Each names the key and the rule.
public enum ConfigValueError: Error, CustomStringConvertible, Equatable {
    case unknownKey(String, suggestion: String?)
    case unknownApp(String, configured: [String])
    case unknownSite(String, configured: [String])
    case outOfRange(String, ClosedRange<Int>)
    case wrongType(String, expected: String)
    case badChoice(String, choices: [String])
    case badSite(String)
    case badCommand(String, problem: String)
    /// An alternative needs exactly one of a command and a link.
    case alternativeTarget
    case badAlternative(String)
    case unknownAlternative(String, labels: [String])

    /// The same, said inside `miga config`'s editor, where `show` is a command of its own.
    public var descriptionInEditor: String {
        if case .unknownKey(let key, nil) = self { return "unknown key \"\(key)\"; type `show` for the keys" }
        return description
    }

    public var description: String {
        switch self {
        case .unknownKey(let key, let suggestion):
            return "unknown key \"\(key)\"" + (suggestion.map { "; did you mean \"\($0)\"?" } ?? "; see `miga config show` for the keys")
        case .unknownApp(let app, let configured):
            return "no app \"\(app)\" in the config (" + (configured.isEmpty ? "none yet" : configured.joined(separator: ", "))
                + "); add it with `miga config apps add \(app)`"
        case .unknownSite(let site, let configured):
            return "no site \"\(site)\" in sites (" + (configured.isEmpty ? "none yet" : configured.joined(separator: ", "))
                + "); add it with `miga config sites add \(site)`"
        case .outOfRange(let key, let range):
            return "\(key) must be between \(range.lowerBound) and \(range.upperBound)"
        case .wrongType(let key, let expected):
            return "\(key) must be \(expected)"
        case .badChoice(let key, let choices):
            return "\(key) must be one of \(choices.map { "\"\($0)\"" }.joined(separator: ", "))"
        case .badSite(let site):
            return SiteMatcher.problem(with: site) + "; give sites like reddit.com"
        case .badCommand(let key, let problem):
            return "\(key): \(problem); \(AppCheck.commandAdvice)"
        case .alternativeTarget:
            return "an alternative opens a command or a link: give --command CMD or --url URL (one of them)"
        case .badAlternative(let problem):
            return "alternative: \(problem)"
        case .unknownAlternative(let name, let labels):
            return "no alternative \"\(name)\" (" + (labels.isEmpty ? "none yet" : labels.joined(separator: ", "))
                + "); `miga config alternatives list` numbers them"
        }
    }
}
