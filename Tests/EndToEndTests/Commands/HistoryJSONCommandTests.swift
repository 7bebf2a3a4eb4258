import Foundation
import Testing

@Suite("filenote history --json")
struct HistoryJSONCommand {
  /// The objects `history --json` prints, each line parsed on its own.
  private func objects(_ result: FilenoteProcess.Result) throws -> [[String: Any]] {
    try result.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      .map { line in
        try #require(
          try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
      }
  }

  @Test("prints one object a version, as history lists them, in the user's time zone")
  func linesInTimeZone() throws {
    let home = try TemporaryHome()
    for text in ["one", "two\nlines", "three"] { try home.run("save", text).expectSuccess() }
    for (zone, offset) in [
      ("UTC", "+00:00"), ("Asia/Kolkata", "+05:30"), ("America/St_Johns", "-03:30"),
    ] {
      let result = try home.run("history", "--json", environment: ["TZ": zone])
      result.expectSuccess()
      let versions = try objects(result)
      #expect(versions.map { $0["number"] as? Int } == [1, 2])
      #expect(versions.map { $0["first_line"] as? String } == ["two", "one"])
      #expect(versions.map { $0["size"] as? Int } == [9, 3])
      for version in versions {
        let saved = try #require(version["saved"] as? String)
        let epoch = try #require(version["saved_epoch"] as? Int)
        #expect(saved.dropFirst(19).hasPrefix(offset), "\(zone): \(saved)")
        let moment = try #require(ISO8601DateFormatter().date(from: saved))
        #expect(Int(moment.timeIntervalSince1970) == epoch)
        #expect(version["conflict"] as? Bool == false)
      }
    }
  }

  @Test("says the same time as history does")
  func sameTimeAsHistory() throws {
    let home = try TemporaryHome()
    try home.run("save", "one").expectSuccess()
    try home.run("save", "two").expectSuccess()
    let plain = try home.run("history", environment: ["TZ": "Europe/Paris"]).stdoutText
    let json = try objects(try home.run("history", "--json", environment: ["TZ": "Europe/Paris"]))
    let saved = try #require(json.first?["saved"] as? String)
    // `1  2026-12-01 09:15:02  3  one` and `2026-12-01T09:15:02+01:00`.
    #expect(plain.contains(saved.prefix(19).replacingOccurrences(of: "T", with: " ")))
  }

  @Test("with no versions prints nothing, says nothing, and succeeds")
  func noVersions() throws {
    let home = try TemporaryHome()
    try home.run("history", "--json").expectSuccess()
    try home.run("save", "only").expectSuccess()
    let result = try home.run("history", "--json")
    result.expectSuccess()
    #expect(result.stdout.isEmpty)
  }
}
