'use strict';
// miga in GNOME Shell: tells `miga watch --shell` which window has focus (and, while it
// asks, whether the person is idle), and does what it answers — raise, minimise or close a
// window. It decides nothing itself; the gate service behind `miga watch` does. Nothing
// here runs on a timer: only the shell's signals and the watcher's lines wake it.
// This is the GNOME Shell 43–44 source; scripts/build-gnome-extension.sh makes the 45+ ES
// module variant from it.
// @imports-begin (scripts/build-gnome-extension.sh turns these lines into ES module imports)
const Meta = imports.gi.Meta;
const Shell = imports.gi.Shell;
const Main = imports.ui.main;
const ExtensionUtils = imports.misc.extensionUtils;
const Me = ExtensionUtils.getCurrentExtension();
const Watcher = Me.imports.watcher;
const Indicator = Me.imports.indicator;
// @imports-end

// miga's own gate window (its Wayland app_id and X11 WM_CLASS).
const GATE_WINDOW_CLASS = 'app.miga.Gate';
// The watcher's idleness threshold when it names none (seconds).
const DEFAULT_IDLE_SECONDS = 300;

/** The facts the watcher maps to a gated app, for the focus line (null fields when unknown). */
function focusMessage(window) {
    if (!window)
        return {type: 'focus'};
    const app = Shell.WindowTracker.get_default().get_window_app(window);
    const desktopID = app ? app.get_id() : null;
    const wayland = window.get_client_type() === Meta.WindowClientType.WAYLAND;
    const pid = window.get_pid();
    return {
        type: 'focus',
        window: String(window.get_stable_sequence()),
        // a window the shell ties to no desktop entry gets an id such as "window:12"
        desktop_id: desktopID && desktopID.endsWith('.desktop') ? desktopID : null,
        app_id: window.get_gtk_application_id() || window.get_sandboxed_app_id() ||
            (wayland ? window.get_wm_class() : null) || null,
        wm_class: [window.get_wm_class_instance() || null, window.get_wm_class() || null],
        pid: pid > 0 ? pid : null,
    };
}

/** The window with the stable sequence number the watcher names, or null. */
function windowNamed(id) {
    const actor = global.get_window_actors().find(a => String(a.meta_window.get_stable_sequence()) === String(id));
    return actor ? actor.meta_window : null;
}

/** GNOME's idle monitor, watched only while the watcher asks (a gated window in front). */
class IdleWatch {
    constructor(send) {
        this._send = send;
        this._idleID = 0;
        this._activeID = 0;
        this.on = false;
    }

    set(on, seconds) {
        this.clear();
        this.on = on;
        if (!on)
            return;
        const monitor = global.backend.get_core_idle_monitor();
        const valid = Number.isInteger(seconds) && seconds >= 1 && seconds <= 86400;
        this._idleID = monitor.add_idle_watch((valid ? seconds : DEFAULT_IDLE_SECONDS) * 1000, () => {
            this._send({type: 'idle', idle: true});
            this._activeID = monitor.add_user_active_watch(() => {
                this._activeID = 0;
                this._send({type: 'idle', idle: false});
            });
        });
    }

    clear() {
        const monitor = global.backend.get_core_idle_monitor();
        if (this._idleID)
            monitor.remove_watch(this._idleID);
        if (this._activeID)
            monitor.remove_watch(this._activeID);
        this._idleID = this._activeID = 0;
        this.on = false;
    }
}

var MigaShell = class MigaShell {
    enable() {
        const binary = Watcher.migaBinary();
        this._idle = new IdleWatch(message => this._watcher.send(message));
        this._watcher = new Watcher.WatcherProcess(binary, {
            onStart: () => this._sendFocus(),
            onMessage: message => this._handle(message),
            onExit: () => this._idle.clear(),
        });
        this._indicator = new Indicator.MigaIndicator(binary);
        Main.panel.addToStatusArea('miga', this._indicator);
        this._signals = [];
        this._connect(global.display, 'notify::focus-window', () => this._sendFocus());
        this._connect(global.display, 'window-created', (_display, window) => this._raiseGateWhenShown(window));
        // Enabled on the lock screen too ("unlock-dialog" in metadata.json): a watcher ended at
        // every lock would meet each window afresh, as seen for the first time, and gate it at
        // every unlock. Locked, the watcher hears "nothing in front" and idleness; the
        // indicator hides.
        if (Main.screenShield)
            this._connect(Main.screenShield, 'locked-changed', () => this._lockChanged());
        this._connect(Main.sessionMode, 'updated', () => this._showIndicator());
        this._showIndicator();
        this._watcher.start();
    }

    disable() {
        this._signals.forEach(([object, id]) => object.disconnect(id));
        this._signals = [];
        this._idle.clear();
        this._watcher.stop();
        this._watcher = null;
        this._indicator.destroy();
        this._indicator = null;
    }

    _showIndicator() {
        this._indicator.container.visible = !Main.sessionMode.isLocked;
    }

    _connect(object, signal, callback) {
        this._signals.push([object, object.connect(signal, callback)]);
    }

    _sendFocus() {
        const locked = Main.screenShield && Main.screenShield.locked;
        this._watcher.send(focusMessage(locked ? null : global.display.focus_window));
    }

    /** The screen lock is time away: idle while the watcher watches idleness. */
    _lockChanged() {
        if (this._idle.on)
            this._watcher.send({type: 'idle', idle: Main.screenShield.locked});
        this._sendFocus();
    }

    _handle(message) {
        switch (message.type) {
        case 'watch_idle':
            this._idle.set(message.on === true, message.idle_seconds);
            break;
        case 'raise':
        case 'minimise':
        case 'close':
            this._act(message.type, message.window);
            break;
        default:
            break; // hello, and anything newer than this extension
        }
    }

    _act(action, id) {
        const window = typeof id === 'string' ? windowNamed(id) : null;
        if (!window)
            return;
        if (action === 'raise')
            Main.activateWindow(window);
        else if (action === 'minimise')
            window.minimize();
        else
            window.delete(global.get_current_time()); // asks the window to close; never a signal
    }

    /** miga's gate window comes above the app it pauses, focused, once it has drawn. */
    _raiseGateWhenShown(window) {
        const actor = window.get_compositor_private();
        if (!actor)
            return;
        const id = actor.connect('first-frame', () => {
            actor.disconnect(id);
            if (window.get_wm_class() === GATE_WINDOW_CLASS)
                Main.activateWindow(window);
        });
    }
};

// @entry-begin (the 45+ build replaces this with an Extension subclass)
/* exported init */
function init() {
    return new MigaShell();
}
// @entry-end
