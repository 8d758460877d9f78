#if canImport(Glibc)
import Glibc
#endif

// The miga app (DESIGN "Welcome, hub, stats and settings"): the desktop face of the same model
// the command line has. Every rule it shows or changes is MigaCore's.
exit(MigaApp().run())
