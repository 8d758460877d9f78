import FoundationEssentials

/// The chat and social apps the welcome knows by sight (DESIGN "Welcome, hub, stats and
/// settings"): a desktop entry is one of them when its desktop id, its Flatpak app id, its
/// Snap's name or the program its Exec runs is listed here. Entries whose `Categories` say
/// chat are offered too; this list finds the ones that say only `Network` (Discord, Steam…).
public struct KnownClient: Equatable, Sendable {
    /// The name it is gated under.
    public var name: String
    /// Desktop ids without `.desktop`, Flatpak app ids and Snap names, lowercase.
    public var ids: [String]
    /// The programs its Exec runs, by file name, lowercase.
    public var programs: [String]

    public init(_ name: String, ids: [String], programs: [String]) {
        self.name = name
        self.ids = ids.map { $0.lowercased() }
        self.programs = programs.map { $0.lowercased() }
    }
}

public enum KnownClients {
    public static let all: [KnownClient] = [
        .init("discord", ids: ["discord", "com.discordapp.Discord"], programs: ["discord"]),
        .init("discord-canary", ids: ["discord-canary", "com.discordapp.DiscordCanary"], programs: ["discord-canary", "discordcanary"]),
        .init("discord-ptb", ids: ["discord-ptb", "com.discordapp.DiscordPTB"], programs: ["discord-ptb", "discordptb"]),
        .init("vesktop", ids: ["vesktop", "dev.vencord.Vesktop"], programs: ["vesktop"]),
        .init("webcord", ids: ["webcord", "io.github.spacingbat3.webcord"], programs: ["webcord"]),
        .init("slack", ids: ["slack", "com.slack.Slack"], programs: ["slack"]),
        .init("telegram", ids: ["telegram-desktop", "telegramdesktop", "org.telegram.desktop", "telegram"],
              programs: ["telegram-desktop", "telegram"]),
        .init("signal", ids: ["signal-desktop", "org.signal.Signal", "signal"], programs: ["signal-desktop"]),
        .init("element", ids: ["element-desktop", "im.riot.Riot", "io.element.Element", "element"], programs: ["element-desktop"]),
        .init("whatsapp", ids: ["whatsapp-for-linux", "com.github.eneshecan.WhatsAppForLinux", "wasistlos",
                                "com.github.xeco23.WasIstLos", "whatsapp-desktop-linux", "io.github.mimbrero.WhatsAppDesktop"],
              programs: ["whatsapp-for-linux", "wasistlos", "whatsapp-desktop-linux"]),
        .init("zapzap", ids: ["zapzap", "com.rtosta.zapzap"], programs: ["zapzap"]),
        .init("whatsie", ids: ["whatsie", "com.ktechpit.whatsie"], programs: ["whatsie"]),
        .init("teams", ids: ["teams-for-linux", "com.github.IsmaelMartinez.teams_for_linux", "teams", "com.microsoft.Teams"],
              programs: ["teams-for-linux", "teams"]),
        .init("steam", ids: ["steam", "com.valvesoftware.Steam"], programs: ["steam"]),
        .init("tuba", ids: ["dev.geopjr.Tuba", "tuba"], programs: ["dev.geopjr.Tuba", "tuba"]),
        .init("tokodon", ids: ["org.kde.tokodon", "tokodon"], programs: ["tokodon"]),
        .init("whalebird", ids: ["whalebird", "social.whalebird.WhalebirdDesktop"], programs: ["whalebird"]),
        .init("bluesky", ids: ["bluesky", "bsky"], programs: ["bluesky", "bsky"]),
        .init("zulip", ids: ["zulip", "org.zulip.Zulip"], programs: ["zulip"]),
        .init("mattermost", ids: ["mattermost-desktop", "com.mattermost.Desktop"], programs: ["mattermost-desktop"]),
        .init("rocketchat", ids: ["rocketchat-desktop", "rocketchat", "chat.rocket.RocketChat"], programs: ["rocketchat-desktop"]),
        .init("skype", ids: ["skypeforlinux", "com.skype.Client", "skype"], programs: ["skypeforlinux"]),
        .init("viber", ids: ["viber", "com.viber.Viber"], programs: ["viber"]),
        .init("caprine", ids: ["caprine", "com.sindresorhus.Caprine"], programs: ["caprine"]),
        .init("ferdium", ids: ["ferdium", "org.ferdium.Ferdium"], programs: ["ferdium"]),
        .init("franz", ids: ["franz", "com.meetfranz.Franz"], programs: ["franz"]),
        .init("rambox", ids: ["rambox", "com.rambox.Rambox"], programs: ["rambox"]),
        .init("beeper", ids: ["beeper", "com.beeper.Beeper"], programs: ["beeper"]),
        .init("revolt", ids: ["revolt-desktop", "chat.revolt.RevoltDesktop", "revolt"], programs: ["revolt-desktop"]),
        .init("guilded", ids: ["guilded", "gg.guilded.Guilded"], programs: ["guilded"]),
        .init("wire", ids: ["wire-desktop", "com.wire.WireDesktop", "wire"], programs: ["wire-desktop"]),
    ]

    /// The `Categories` that make an entry a chat app.
    public static let chatCategories: Set<String> = ["Chat", "InstantMessaging", "IRCClient"]

    /// The client these names point to: a desktop id's stem, a Flatpak app id, a Snap's name,
    /// or a program's file name.
    public static func client(ids: [String], programs: [String]) -> KnownClient? {
        let ids = ids.map { $0.lowercased() }
        let programs = programs.map { $0.lowercased() }
        return all.first { client in
            ids.contains(where: client.ids.contains) || programs.contains(where: client.programs.contains)
        }
    }
}
