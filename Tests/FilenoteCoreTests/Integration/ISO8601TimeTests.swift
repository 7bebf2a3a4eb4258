import Foundation
import Testing

@testable import FilenoteCore

/// `history --json` writes when a version was saved as ISO 8601 with its offset.
@Suite struct ISO8601TimeTests {
  @Test func theEpochAndAKnownMomentAreWrittenWithTheirOffset() {
    #expect(ISO8601Time(secondsSinceEpoch: 0, offsetMinutes: 0).text == "1970-01-01T00:00:00+00:00")
    #expect(
      ISO8601Time(secondsSinceEpoch: 1_764_580_502, offsetMinutes: 60).text
        == "2025-12-01T10:15:02+01:00")
    #expect(
      ISO8601Time(secondsSinceEpoch: 1_764_580_502, offsetMinutes: -570).text
        == "2025-11-30T23:45:02-09:30")
    #expect(
      ISO8601Time(secondsSinceEpoch: -1, offsetMinutes: 0).text == "1969-12-31T23:59:59+00:00")
  }

  @Test func itAgreesWithFoundationOnAnyMomentAndOffset() {
    var generator = SystemRandomNumberGenerator()
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.calendar = Calendar(identifier: .gregorian)
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxx"
    for _ in 0..<500 {
      let seconds = Int64.random(in: -2_000_000_000...8_000_000_000, using: &generator)
      let minutes = Int.random(in: -14 * 60...14 * 60, using: &generator)
      formatter.timeZone = TimeZone(secondsFromGMT: minutes * 60)
      let expected = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
      #expect(
        ISO8601Time(secondsSinceEpoch: seconds, offsetMinutes: minutes).text == expected,
        "\(seconds) at \(minutes) minutes")
    }
  }

  @Test func leapDaysAndCenturiesFallOnTheirDates() {
    func date(_ days: Int64) -> String {
      let (year, month, day) = ISO8601Time.civilDate(daysSinceEpoch: days)
      return "\(year)-\(month)-\(day)"
    }
    #expect(date(11_016) == "2000-2-29")
    #expect(date(-25_508) == "1900-3-1")
    #expect(date(47_541) == "2100-3-1")
  }
}
