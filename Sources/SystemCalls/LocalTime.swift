import Glibc

/// A moment as the user's clock shows it (the time zone from `TZ` or
/// /etc/localtime, as `date` uses).
public struct LocalTime: Sendable {
  public let year: Int
  public let month: Int
  public let day: Int
  public let hour: Int
  public let minute: Int
  public let second: Int

  /// The local time of `seconds` since the epoch (localtime_r(3)).
  public init(secondsSinceEpoch seconds: Int64) {
    var time = time_t(seconds)
    var parts = tm()
    localtime_r(&time, &parts)
    year = Int(parts.tm_year) + 1900
    month = Int(parts.tm_mon) + 1
    day = Int(parts.tm_mday)
    hour = Int(parts.tm_hour)
    minute = Int(parts.tm_min)
    second = Int(parts.tm_sec)
  }

  /// The time now, in whole seconds since the epoch (time(2)).
  public static var secondsSinceEpochNow: Int64 { Int64(time(nil)) }

  /// The time now, since the epoch, to the nanosecond the clock gives
  /// (clock_gettime(2), CLOCK_REALTIME: the clock file times are set by).
  public static var now: (seconds: Int64, nanoseconds: Int64) {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return (Int64(now.tv_sec), Int64(now.tv_nsec))
  }

  /// `YYYY-MM-DD HH:MM:SS`, as `date '+%F %T'` prints it.
  public var text: String {
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(year)-\(two(month))-\(two(day)) \(two(hour)):\(two(minute)):\(two(second))"
  }
}
