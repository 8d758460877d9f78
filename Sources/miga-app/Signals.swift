import CAdw

// `g_signal_connect` is a C macro, so Swift calls `g_signal_connect_data` itself. Handlers are
// `@convention(c)` closures (they cannot capture); what they need travels as the signal's user
// data. `Callback` boxes a Swift closure for that, kept alive as long as the widget is.

/// Connects a C handler of any signature to `signal` on `instance`; returns the handler id.
@discardableResult
func connectSignal<Handler>(_ instance: UnsafeMutableRawPointer, _ signal: String,
                            _ handler: Handler, _ context: UnsafeMutableRawPointer?) -> gulong {
    g_signal_connect_data(instance, signal, unsafeBitCast(handler, to: GCallback.self), context, nil, GConnectFlags(rawValue: 0))
}

/// A Swift closure as a signal's user data, released when the instance is finalised.
final class Callback {
    let action: () -> Void
    init(_ action: @escaping () -> Void) { self.action = action }
}

/// Runs `action` whenever `instance` emits `signal` (a signal whose handler takes only the
/// instance and the user data, such as "clicked", "activated", "notify::active").
func onSignal(_ instance: UnsafeMutableRawPointer, _ signal: String, _ action: @escaping () -> Void) {
    let handler: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
        Unmanaged<Callback>.fromOpaque(data!).takeUnretainedValue().action()
    }
    let release: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
        Unmanaged<Callback>.fromOpaque(data!).release()
    }
    let box = Unmanaged.passRetained(Callback(action)).toOpaque()
    g_signal_connect_data(instance, signal, unsafeBitCast(handler, to: GCallback.self), box,
                          release, GConnectFlags(rawValue: 0))
}

/// Runs `action` whenever `instance` emits a signal whose handler takes one pointer argument
/// between the instance and the user data (GtkFlowBox "child-activated", GtkListBox
/// "row-activated"); the argument is passed on.
func onSignal(_ instance: UnsafeMutableRawPointer, _ signal: String, with action: @escaping (UnsafeMutableRawPointer?) -> Void) {
    final class Box { let action: (UnsafeMutableRawPointer?) -> Void; init(_ a: @escaping (UnsafeMutableRawPointer?) -> Void) { action = a } }
    let handler: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, argument, data in
        Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue().action(argument)
    }
    let release: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
        Unmanaged<Box>.fromOpaque(data!).release()
    }
    let box = Unmanaged.passRetained(Box(action)).toOpaque()
    g_signal_connect_data(instance, signal, unsafeBitCast(handler, to: GCallback.self), box,
                          release, GConnectFlags(rawValue: 0))
}
