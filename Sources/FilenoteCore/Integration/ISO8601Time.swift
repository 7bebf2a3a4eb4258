import SystemCalls

/// A moment written as ISO 8601 with its offset from UTC,
/// `2026-12-01T09:15:02+01:00`, on the user's clock (the time zone `date`
/// uses), as `date --iso-8601=seconds` writes it, except that UTC is
/// `+00:00` rather than `Z`, so every time has the same shape.
struct ISO8601Time {
  let text: String

  /// The moment `seconds` after the epoch, in the user's time zone.
  init(secondsSinceEpoch seconds: Int64) {
    // An offset of odd seconds (a zone's local mean time before 1900)
    // cannot be written in ISO 8601: such a moment is written at the whole
    // minute below it, with the clock moved to match, so it stays the same
    // moment give or take those seconds.
    let offset = LocalTime.offsetFromUTC(atSecondsSinceEpoch: seconds)
    let minutes = Int64(offset).floorDivided(by: 60)
    self.init(secondsSinceEpoch: seconds, offsetMinutes: Int(minutes))
  }

  /// The moment `seconds` after the epoch on a clock `offsetMinutes` ahead of UTC.
  init(secondsSinceEpoch seconds: Int64, offsetMinutes: Int) {
    let local = seconds + Int64(offsetMinutes) * 60
    let days = local.floorDivided(by: 86_400)
    let second = Int(local - days * 86_400)
    let (year, month, day) = Self.civilDate(daysSinceEpoch: days)
    let sign = offsetMinutes < 0 ? "-" : "+"
    let offset = abs(offsetMinutes)
    text =
      Self.digits(year, 4) + "-" + Self.digits(month, 2) + "-" + Self.digits(day, 2) + "T"
      + Self.digits(second / 3600, 2) + ":" + Self.digits(second / 60 % 60, 2) + ":"
      + Self.digits(second % 60, 2) + sign + Self.digits(offset / 60, 2) + ":"
      + Self.digits(offset % 60, 2)
  }

  /// The proleptic Gregorian date `days` after 1970-01-01 (Howard
  /// Hinnant's `civil_from_days`).
  static func civilDate(daysSinceEpoch days: Int64) -> (year: Int, month: Int, day: Int) {
    let shifted = days + 719_468  // days since 0000-03-01
    let era = shifted.floorDivided(by: 146_097)
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
    let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (Int(year), Int(month), Int(day))
  }

  /// `value` with zeros before it up to `count` digits (a minus sign first).
  private static func digits(_ value: Int, _ count: Int) -> String {
    let text = String(abs(value))
    return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, count - text.count))
      + text
  }
}

extension Int64 {
  /// The quotient rounded toward minus infinity, as the calendar needs for
  /// moments before the epoch.
  fileprivate func floorDivided(by divisor: Int64) -> Int64 {
    let quotient = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }
}
