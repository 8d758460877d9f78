#if canImport(Glibc)
import Glibc
#endif
import CGtk
import GateWindowProtocol

// miga-gate-window: the gate as a small GTK 4 window for desktop launches (DESIGN "The gate
// window"). `miga gate` starts it, owns the session and talks to it over stdin/stdout
// (GateWindowProtocol); this program only draws and forwards keys. A separate executable so
// the `miga` binary never links GTK.
//
//   miga-gate-window           the window (exit 2 at once when no display is reachable)
//   miga-gate-window --check   exit 0 if a display is reachable, else 2 (`miga doctor`)

let noDisplay: Int32 = 2
let usage: Int32 = 64

let arguments = CommandLine.arguments.dropFirst()
let checkOnly = arguments.first == "--check" && arguments.count == 1
if !arguments.isEmpty && !checkOnly {
    sayOnStandardError("miga-gate-window: takes no arguments but --check (it is started by `miga gate`)\n")
    exit(usage)
}

// GL in software costs 190+ ms and 170 MB before the first frame; cairo draws this window in
// a few ms. An explicit GSK_RENDERER still wins. With cairo chosen here, GL is switched off
// altogether: GDK 4.8 otherwise sets up EGL when it opens the display whatever the renderer
// (Mesa's llvmpipe: 50 ms and 60 MB of the start-up here, for nothing).
if getenv("GSK_RENDERER") == nil {
    setenv("GSK_RENDERER", "cairo", 1)
    if let debug = getenv("GDK_DEBUG"), debug.pointee != 0 {
        setenv("GDK_DEBUG", String(cString: debug) + ",gl-disable", 1)
    } else {
        setenv("GDK_DEBUG", "gl-disable", 1)
    }
}

// The desktop's name for this window (X11 WM_CLASS, Wayland app_id) even where GtkApplication
// cannot say it (no session bus): docks and Alt-Tab show "miga" from app.miga.Gate.desktop.
g_set_prgname(GateApplication.id)
guard gtk_init_check() != 0 else { exit(noDisplay) }
if checkOnly { exit(0) }

GateApplication.takeLaunchersToken()
ColorScheme.followDesktop()
Style.install()
exit(GateApplication().run())
