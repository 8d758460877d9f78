// The pack checker's control-character rules are `TerminalText`'s, which live below both this
// module and MigaSystem; whoever reads packs sees them as the pack format's own.
@_exported import ControlCharacters
