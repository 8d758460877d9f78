#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLinuxShims

/// A deadline on the wall clock as a descriptor (timerfd, CLOCK_REALTIME, absolute): it
/// becomes readable when the time comes — time suspended counts, as on the wall — or when
/// the wall clock is set (TFD_TIMER_CANCEL_ON_SET), so a waiter that measures by the wall
/// clock looks again at once rather than polling for a clock that moved. One timer armed
/// for a known deadline: nothing fires in between.
///
/// `descriptor` is -1 when no timerfd could be made; the caller then sleeps on a timer.
public final class WallClockAlarm {
    public let descriptor: Int32

    public init() {
        descriptor = miga_wall_clock_timerfd()
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Rings `milliseconds` from now (at least 1), by the wall clock; false when it could not
    /// be armed.
    @discardableResult
    public func arm(inMilliseconds milliseconds: Int64) -> Bool {
        guard descriptor >= 0 else { return false }
        drain()
        let delay = max(1, min(milliseconds, Int64(Int32.max) * 1000))
        return miga_wall_clock_timerfd_arm(descriptor, delay) == 0
    }

    /// Reads what the timer says (a ring, or the clock set: ECANCELED); either way, look again.
    public func drain() {
        guard descriptor >= 0 else { return }
        var expirations: UInt64 = 0
        _ = read(descriptor, &expirations, 8)
    }
}
