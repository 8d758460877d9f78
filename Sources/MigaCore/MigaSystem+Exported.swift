// MigaCore's files and its clients (the commands, the tests) see the system layer as if it
// were MigaCore's own: it is the one way down to Linux, so every file would import it anyway.
@_exported import MigaSystem
