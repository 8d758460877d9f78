// What the extension and miga's native host say to each other: the mirror of
// Sources/MigaCore/Browser/BrowserProtocol.swift (`ExtensionToHost`) and
// BrowserProtocol+Host.swift (`HostToExtension`), one JSON object per message, `type` naming
// it and `id` pairing a reply with its request.
// Tests/MigaCoreTests/BrowserProtocolTests.swift reads the table between the two markers as
// JSON and checks it against the Swift enums both ways: every Swift message and field is
// here, and nothing here is not in Swift. A new message is a case in Swift, a line here.
//
// `toHost`: each message the extension sends, with the fields it may carry (besides `type`
// and `id`). `fromHost`: each message the host sends, with every field it may carry.
// `records`: the objects inside those (a timebox, a site's rule, a budget's soft end and its
// choices).
export const PROTOCOL = /* protocol-table */ {
  "toHost": {
    "hello": [],
    "state": [],
    "gate": ["url", "reentry"],
    "resume": ["session", "url"],
    "next": ["session"],
    "completed": ["session"],
    "exit": ["session", "alternative"],
    "open": ["session", "challenge", "intention", "minutes"],
    "timebox_end": ["session", "choice"],
    "abandon": ["session"],
    "grace_pass": ["url"],
    "schedule_pass": ["url"],
    "stats": [],
    "reentry": ["url", "away_seconds"],
    "focus": ["url", "seconds"],
    "budget_end": ["url", "choice"]
  },
  "fromHost": {
    "state": ["protocol", "version", "gating", "reason", "message", "grace", "ungated", "timeboxes", "site_rules",
              "idle_seconds", "timer_seconds", "grace_minutes", "breathing", "animations", "sites"],
    "gate": ["action", "reason", "message", "site", "grace_until", "session", "app", "timer_seconds", "breathing",
             "animations", "item", "notes", "intention", "open_label", "minutes", "alternatives", "challenge", "waited_ms"],
    "resume": ["action", "session", "site", "app", "timer_seconds", "breathing", "animations", "item", "notes", "intention",
               "open_label", "minutes", "alternatives", "challenge", "waited_ms"],
    "next": ["item"],
    "completed": [],
    "exit": ["message", "alternative"],
    "open": ["site", "grace_until", "timebox"],
    "timebox_end": ["recorded", "grace_until", "timebox"],
    "abandon": [],
    "grace_pass": ["recorded"],
    "schedule_pass": ["recorded"],
    "stats": ["exits", "opens", "reads", "streak", "gating", "reason", "message", "snooze", "focus_minutes"],
    "error": ["error", "seconds_left", "challenge_failed"],
    "reentry": ["action", "site"],
    "focus": ["site", "minutes_today", "budget_end"],
    "budget_end": ["recorded"]
  },
  "records": {
    "timebox": ["session", "site", "domain", "addresses", "minutes", "end", "extended", "notice_at", "notice_until", "declared_minutes",
                "choices", "extend_label"],
    "site_rule": ["site", "domain", "addresses", "path"],
    "budget_end": ["site", "minutes", "message", "choices"],
    "budget_choice": ["choice", "label"]
  }
} /* end-protocol-table */;

// A message to the host: its type and, of `fields`, only those the protocol lists for it.
export function request(type, fields = {}) {
  const names = PROTOCOL.toHost[type];
  if (!names) throw new Error(`miga has no message "${type}"`);
  const message = { type };
  for (const name of names) if (fields[name] !== undefined) message[name] = fields[name];
  return message;
}
