import Glibc

extension LocalTime {
  /// How far the user's clock is ahead of UTC at `seconds` since the epoch,
  /// in seconds (`tm_gmtoff` of localtime_r(3)): 3600 for 10:00 when UTC is
  /// 09:00, negative west of Greenwich. The same time zone as
  /// `init(secondsSinceEpoch:)` uses.
  public static func offsetFromUTC(atSecondsSinceEpoch seconds: Int64) -> Int {
    var time = time_t(seconds)
    var parts = tm()
    localtime_r(&time, &parts)
    return Int(parts.tm_gmtoff)
  }
}
