'use strict';
// miga in the top bar: today's exits and opens, a running snooze or timebox, Snooze… and
// Open miga. It asks `miga status --json` only when its menu opens, never otherwise.
// @imports-begin (scripts/build-gnome-extension.sh turns these lines into ES module imports)
const Gio = imports.gi.Gio;
const GLib = imports.gi.GLib;
const GObject = imports.gi.GObject;
const Shell = imports.gi.Shell;
const St = imports.gi.St;
const PanelMenu = imports.ui.panelMenu;
const PopupMenu = imports.ui.popupMenu;
// @imports-end

const APP_DESKTOP_ID = 'app.miga.Miga.desktop';
const SNOOZES = [['15 min', '15m'], ['30 min', '30m'], ['1 hour', '1h']];

function plural(count, word) {
    return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** "HH:MM" of an ISO 8601 time as status prints it (in the person's own offset). */
function clock(text) {
    const match = typeof text === 'string' ? /T(\d\d:\d\d)/.exec(text) : null;
    return match ? match[1] : '?';
}

function count(value) {
    return Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

/** The menu's lines for `miga status --json`'s object: [counts, running or ''] */
function statusLines(status) {
    let counts = `${plural(count(status.exits), 'exit')} · ${plural(count(status.opens), 'open')} today`;
    const minutes = Math.floor(Number(status.focus_minutes) || 0);
    if (minutes >= 1 && minutes < 100000)
        counts += ` · ${minutes} min`;
    const running = [];
    if (status.snooze && typeof status.snooze === 'object') {
        const apps = Array.isArray(status.snooze.apps) ? status.snooze.apps.filter(a => typeof a === 'string') : [];
        running.push(`Snoozed ${apps.length ? `${apps.join(', ')} ` : ''}until ${clock(status.snooze.until)}`);
    }
    for (const box of Array.isArray(status.timeboxes) ? status.timeboxes : []) {
        if (box && typeof box.app === 'string')
            running.push(`${box.app}: ${count(box.minutes)} min until ${clock(box.until)}`);
    }
    return [counts, running.join('\n')];
}

var MigaIndicator = GObject.registerClass(
class MigaIndicator extends PanelMenu.Button {
    _init(binary) {
        super._init(0.0, 'miga');
        this._binary = binary;
        this.accessible_name = 'miga';
        this.add_child(new St.Icon({icon_name: 'media-playback-pause-symbolic', style_class: 'system-status-icon'}));
        this._counts = new PopupMenu.PopupMenuItem('miga', {reactive: false});
        this._running = new PopupMenu.PopupMenuItem('', {reactive: false});
        this._running.visible = false;
        this.menu.addMenuItem(this._counts);
        this.menu.addMenuItem(this._running);
        this.menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());
        const snooze = new PopupMenu.PopupSubMenuMenuItem('Snooze…');
        for (const [label, duration] of SNOOZES)
            snooze.menu.addAction(label, () => this._runMiga(['snooze', duration]));
        this.menu.addMenuItem(snooze);
        this.menu.addAction('Open miga', () => this._openMiga());
        this.menu.connect('open-state-changed', (_menu, open) => {
            if (open)
                this._refresh();
        });
    }

    /** Today's lines, from miga itself (async: the shell never waits for it). */
    _refresh() {
        if (!this._binary) {
            this._counts.label.text = 'miga is not installed';
            return;
        }
        const process = this._runMiga(['status', '--json'], Gio.SubprocessFlags.STDOUT_PIPE);
        if (!process)
            return;
        process.communicate_utf8_async(null, null, (_process, result) => {
            let status = null;
            try {
                const [, stdout] = process.communicate_utf8_finish(result);
                status = JSON.parse(stdout);
            } catch (_error) {
                status = null;
            }
            if (!status || typeof status !== 'object' || !this._counts)
                return;
            const [counts, running] = statusLines(status);
            this._counts.label.text = counts;
            this._running.label.text = running;
            this._running.visible = running !== '';
        });
    }

    /** Runs miga with args (no terminal: a gate shows in miga's window), or null. */
    _runMiga(args, flags = Gio.SubprocessFlags.NONE) {
        if (!this._binary)
            return null;
        try {
            return Gio.Subprocess.new([this._binary, ...args], flags);
        } catch (error) {
            log(`miga: could not run ${this._binary} ${args.join(' ')}: ${error.message}`);
            return null;
        }
    }

    /** miga's own app when installed, else this week's stats in a terminal. */
    _openMiga() {
        const app = Shell.AppSystem.get_default().lookup_app(APP_DESKTOP_ID);
        if (app) {
            app.activate();
            return;
        }
        if (!this._binary)
            return;
        const script = `${GLib.shell_quote(this._binary)} stats --week; printf '\\nPress Enter to close. '; read answer`;
        try {
            const info = Gio.AppInfo.create_from_commandline(`sh -c ${GLib.shell_quote(script)}`, 'miga',
                Gio.AppInfoCreateFlags.NEEDS_TERMINAL);
            info.launch([], global.create_app_launch_context(0, -1));
        } catch (error) {
            log(`miga: could not open a terminal: ${error.message}`);
        }
    }

    destroy() {
        this._counts = null;
        super.destroy();
    }
});
