import FoundationEssentials
import MigaCore

/// The argument lists miga writes into its own launchers — PATH shims
/// (`gate --app NAME -- COMMAND…`), desktop shims and the terminal it opens
/// (`gate --app NAME --detach [--plain] -- COMMAND…`), the link handler (`open-url URL…`) and
/// its Open (`open-url --forward -- URL…`) — read directly instead of through ArgumentParser.
///
/// These run every time a gated app or a link is opened, and ArgumentParser's parse costs
/// 3–4 ms there (it reflects over the command types and, for its completion-script check,
/// two more), a third of the pass-through's budget. Only these exact shapes are accepted: any
/// other token (`--help`, `--app=x`, a repeated option, a link that looks like an option) gives
/// nil and the full parser, so errors and help read the same as ever. MigaCommandTests checks
/// that whatever this accepts, ArgumentParser reads the same way.
enum LauncherArguments: Equatable {
    case gate(GateRequest)
    case openURL(urls: [String], forward: Bool)
    /// `native-host ARG…` as a browser starts it (through the `miga-native-host` link).
    case nativeHost([String])

    /// `arguments` without the program name.
    init?(_ arguments: [String]) {
        guard let verb = arguments.first else { return nil }
        let rest = arguments.dropFirst()
        switch verb {
        case "gate":
            guard let request = Self.gate(rest) else { return nil }
            self = .gate(request)
        case "open-url":
            if rest.first == "--forward" {
                guard rest.dropFirst().first == "--" else { return nil }
                let urls = Array(rest.dropFirst(2))
                guard !urls.isEmpty else { return nil }
                self = .openURL(urls: urls, forward: true)
            } else {
                guard !rest.isEmpty, !rest.contains(where: { $0.hasPrefix("-") }) else { return nil }
                self = .openURL(urls: Array(rest), forward: false)
            }
        case "native-host":
            // What browsers pass: an origin, or a manifest path and an extension id.
            guard !rest.contains(where: { $0.hasPrefix("-") }) else { return nil }
            self = .nativeHost(Array(rest))
        default:
            return nil
        }
    }

    private static func gate(_ arguments: ArraySlice<String>) -> GateRequest? {
        var request = GateRequest(command: [])
        var index = arguments.startIndex
        while index < arguments.endIndex {
            switch arguments[index] {
            case "--":
                request.command = Array(arguments[(index + 1)...])
                return request.command.isEmpty ? nil : request
            case "--app" where request.app == nil:
                index += 1
                guard index < arguments.endIndex, !arguments[index].hasPrefix("-") else { return nil }
                request.app = arguments[index]
            case "--detach" where !request.detach: request.detach = true
            case "--plain" where !request.plain: request.plain = true
            default: return nil // anything else, or an option given twice
            }
            index += 1
        }
        return nil // no `--`: not a form miga writes
    }

    /// Runs it as `miga gate` / `miga open-url` would; the exit status. Without a live context
    /// (no usable home) a gate still opens its app; a link fails with the usual one line.
    func run() -> Int32 {
        let context: MigaContext
        do {
            context = try MigaContext.live()
        } catch {
            switch self {
            case .gate(let request):
                return GateWithoutHome.run(request, problem: "\(error)", environment: LinuxSystem.processEnvironment())
            case .openURL, .nativeHost:
                return CommandSupport.fail(error, messages: StandardErrorSink())
            }
        }
        switch self {
        case .gate(let request):
            return Gatekeeper(context: context).run(request)
        case .openURL(let urls, let forward):
            return URLRouter(context: context).open(urls, forward: forward)
        case .nativeHost:
            guard !context.terminal.isTerminal(.standardInput) else {
                context.messages.say("miga native-host: this is started by your browser's miga extension, not by hand; run `miga install` to register it, then `miga doctor` to check it")
                return 64
            }
            return NativeHost(context: context).run()
        }
    }
}
