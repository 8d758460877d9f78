'use strict';
// The channel to `miga watch --shell`: one JSON object per line each way (the watcher's
// protocol). The extension sends what the shell sees and does what the watcher answers;
// every rule is the watcher's.
// @imports-begin (scripts/build-gnome-extension.sh turns these lines into ES module imports)
const Gio = imports.gi.Gio;
const GLib = imports.gi.GLib;
// @imports-end

// The protocol's bound on a line; a longer one is ignored.
const MAX_LINE = 64 * 1024;
// Lines waiting for the watcher to read them; past this a stuck watcher loses focus lines
// rather than the shell growing without end.
const MAX_QUEUED = 256;
// A watcher that does not leave this long after its end of file is sent SIGTERM.
const LEAVE_SECONDS = 5;
// A watcher that keeps dying is started again at most this often a minute.
const RESTARTS_PER_MINUTE = 3;

/** The miga to run: $MIGA_BIN (tests), else `miga` on the shell's PATH, else the one
 * `make install PREFIX=~/.local` puts in ~/.local/bin (a session's PATH may lack it); null
 * when there is none. */
var migaBinary = function () {
    const named = GLib.getenv('MIGA_BIN');
    if (named && GLib.file_test(named, GLib.FileTest.IS_EXECUTABLE))
        return named;
    const local = GLib.build_filenamev([GLib.get_home_dir(), '.local', 'bin', 'miga']);
    return GLib.find_program_in_path('miga') ||
        (GLib.file_test(local, GLib.FileTest.IS_EXECUTABLE) ? local : null);
};

/** Runs `miga watch --shell`, writes lines to it without ever blocking the shell, reads its
 * lines, and starts it again (at most three times a minute) when it dies. */
var WatcherProcess = class WatcherProcess {
    constructor(binary, handlers) {
        this._binary = binary;
        this._handlers = handlers; // {onStart(), onMessage(object), onExit()}
        this._run = null;
        this._restarts = []; // when it was started again (monotonic seconds)
        this._queue = [];
        this._retryId = 0;
        this._stopped = true;
        this._warned = false;
    }

    start() {
        this._stopped = false;
        this._spawn();
    }

    stop() {
        this._stopped = true;
        if (this._retryId) {
            GLib.source_remove(this._retryId);
            this._retryId = 0;
        }
        this._end(this._run);
    }

    /** Queues one message for the watcher (dropped while none runs: it asks afresh on start). */
    send(message) {
        if (!this._run || this._queue.length >= MAX_QUEUED)
            return;
        this._queue.push(new TextEncoder().encode(`${JSON.stringify(message)}\n`));
        this._flush();
    }

    /** Starts it again, at once unless it was restarted three times in the last minute. */
    _restart() {
        const now = GLib.get_monotonic_time() / 1e6;
        this._restarts = this._restarts.filter(time => now - time < 60);
        if (this._restarts.length >= RESTARTS_PER_MINUTE) {
            this._retryLater(Math.max(1, Math.ceil(60 - (now - this._restarts[0]))));
            return;
        }
        this._restarts.push(now);
        this._spawn();
    }

    _spawn() {
        if (this._stopped || !this._binary)
            return;
        let process;
        try {
            const launcher = new Gio.SubprocessLauncher({
                flags: Gio.SubprocessFlags.STDIN_PIPE | Gio.SubprocessFlags.STDOUT_PIPE,
            });
            process = launcher.spawnv([this._binary, 'watch', '--shell']);
        } catch (error) {
            log(`miga: could not start ${this._binary} watch --shell: ${error.message}`);
            this._retryLater(20);
            return;
        }
        const run = {
            process,
            stdin: process.get_stdin_pipe(),
            stdout: new Gio.DataInputStream({base_stream: process.get_stdout_pipe(), close_base_stream: true}),
            cancellable: new Gio.Cancellable(),
            writing: false, // a write is in flight (the stream takes one at a time)
            ended: false,
        };
        this._run = run;
        this._queue = [];
        this._readLine(run);
        process.wait_async(run.cancellable, () => this._died(run));
        this._handlers.onStart();
    }

    _retryLater(seconds) {
        if (this._retryId)
            return;
        this._retryId = GLib.timeout_add_seconds(GLib.PRIORITY_DEFAULT, seconds, () => {
            this._retryId = 0;
            this._restart();
            return GLib.SOURCE_REMOVE;
        });
    }

    _died(run) {
        if (run !== this._run)
            return;
        this._end(run);
        this._handlers.onExit();
        this._restart();
    }

    /** Ends a run by its end of file, on which the watcher writes the focused time it holds
     * and leaves; one that has not left LEAVE_SECONDS later is sent SIGTERM. */
    _end(run) {
        if (!run || run.ended)
            return;
        if (run === this._run)
            this._run = null;
        run.ended = true;
        run.cancellable.cancel(); // a write in flight ends, and its callback closes the pipe
        if (!run.writing)
            this._closeInput(run);
        let termID = GLib.timeout_add_seconds(GLib.PRIORITY_DEFAULT, LEAVE_SECONDS, () => {
            termID = 0;
            run.process.send_signal(15);
            return GLib.SOURCE_REMOVE;
        });
        run.process.wait_async(null, () => {
            if (termID)
                GLib.source_remove(termID);
            termID = 0;
        });
    }

    _closeInput(run) {
        try {
            run.stdin.close(null);
        } catch (_error) {
            // already closed: the watcher is gone
        }
    }

    _readLine(run) {
        run.stdout.read_line_async(GLib.PRIORITY_DEFAULT, run.cancellable, (stream, result) => {
            let bytes;
            try {
                [bytes] = stream.read_line_finish(result);
            } catch (_error) {
                return; // cancelled, or the pipe failed: the process's end follows
            }
            if (bytes === null || run !== this._run)
                return; // end of file
            this._receive(bytes);
            this._readLine(run);
        });
    }

    _receive(bytes) {
        let message = null;
        if (bytes.length <= MAX_LINE) {
            try {
                message = JSON.parse(new TextDecoder().decode(bytes));
            } catch (_error) {
                message = null;
            }
        }
        if (message === null || typeof message !== 'object' || typeof message.type !== 'string') {
            if (!this._warned)
                log('miga: ignored a line from miga watch that is not a message');
            this._warned = true;
            return;
        }
        this._handlers.onMessage(message);
    }

    _flush() {
        const run = this._run;
        if (!run || run.writing || this._queue.length === 0)
            return;
        const data = this._queue[0];
        run.writing = true;
        run.stdin.write_bytes_async(new GLib.Bytes(data), GLib.PRIORITY_DEFAULT, run.cancellable, (stream, result) => {
            run.writing = false;
            let written = -1;
            try {
                written = stream.write_bytes_finish(result);
            } catch (_error) {
                written = -1; // cancelled, or the watcher is gone (its end restarts it)
            }
            if (run.ended)
                this._closeInput(run);
            if (written < 0 || run !== this._run)
                return;
            if (written < data.length)
                this._queue[0] = data.slice(written);
            else
                this._queue.shift();
            this._flush();
        });
    }
};
