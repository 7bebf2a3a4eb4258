/// How long ago a text was saved, as `history` shows it on a terminal:
/// `12 s ago`, `5 min ago`, `2 h ago`, `3 days ago`, `4 months ago`,
/// `2 years ago`, in the largest unit that is at least 1 (hours up to two
/// days, days up to two months, months up to two years), rounded down.
struct Age {
  /// Seconds from the save to now; negative when the save is in the
  /// future (a clock set back since).
  let seconds: Int64

  var text: String {
    guard seconds >= 0 else { return "in the future" }
    let minute: Int64 = 60
    let hour = 60 * minute
    let day = 24 * hour
    // A month and a year as the calendar averages them.
    let month = 2_629_746 as Int64
    let year = 12 * month
    func count(_ unit: Int64, _ name: String, plural: String? = nil) -> String {
      let number = seconds / unit
      return "\(number) \(number == 1 ? name : plural ?? name) ago"
    }
    switch seconds {
    case ..<minute: return count(1, "s")
    case ..<hour: return count(minute, "min")
    case ..<(2 * day): return count(hour, "h")
    case ..<(2 * month): return count(day, "day", plural: "days")
    case ..<(2 * year): return count(month, "month", plural: "months")
    default: return count(year, "year", plural: "years")
    }
  }
}
