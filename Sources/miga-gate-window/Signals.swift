import CGtk

// `g_signal_connect` is a C macro, so Swift calls `g_signal_connect_data` itself. Handlers are
// `@convention(c)` closures (they cannot capture), and what they need travels as the signal's
// user data: the one `GateWindow`, passed unretained because it lives until the process ends.

/// Connects a C handler of any signature to `signal` on `instance`; returns the handler id.
@discardableResult
func connectSignal<Handler>(_ instance: UnsafeMutableRawPointer, _ signal: String,
                            _ handler: Handler, _ context: UnsafeMutableRawPointer?) -> gulong {
    g_signal_connect_data(instance, signal, unsafeBitCast(handler, to: GCallback.self), context, nil, GConnectFlags(rawValue: 0))
}

extension GateWindow {
    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ context: UnsafeMutableRawPointer?) -> GateWindow {
        Unmanaged<GateWindow>.fromOpaque(context!).takeUnretainedValue()
    }
}
