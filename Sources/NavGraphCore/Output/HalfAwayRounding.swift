/// `x.rounded()` (halves away from zero) as an integer without libm's `round`, for the numbers the writers print:
/// the truncation, moved by one when the fraction reaches a half (x − trunc(x) is exact, since it keeps x's own low
/// bits). Stateless; any thread.
enum HalfAwayRounding {
    /// `Int64(x.rounded())` for finite |x| < 2^52.
    @inline(__always)
    static func rounded(_ x: Double) -> Int64 {
        let whole = Int64(x), fraction = x - Double(whole)
        return fraction >= 0.5 ? whole + 1 : fraction <= -0.5 ? whole - 1 : whole
    }
}
