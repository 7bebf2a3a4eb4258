import Foundation
import TestSupport
import Testing

@testable import FilenoteCore

/// `filenote history --json` (the man page, VERSIONS): one JSON object a
/// version, newest first, with fixed keys in a fixed order.
@Suite struct VersionHistoryJSONTests {
  let folder = TemporaryFolder()
  var store: FileStore { FileStore(path: folder.file("notes/datafile.dat"), createsFolder: true) }

  private func objects() throws -> [String] {
    let output = try VersionHistory(store: store.versionStore()).jsonLines()
    let text = String(decoding: try #require(output), as: UTF8.self)
    #expect(text.hasSuffix("\n"))
    return text.split(separator: "\n").map(String.init)
  }

  @Test func eachVersionIsOneObjectWithTheDocumentedKeysInOrder() throws {
    try store.save(bytes: Array("buy milk".utf8))
    try store.save(bytes: Array("buy milk and eggs\nand bread".utf8))
    try store.save(bytes: Array("call mom".utf8))
    let lines = try objects()
    #expect(lines.count == 2)
    for (index, line) in lines.enumerated() {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect(object["number"] as? Int == index + 1)
      #expect(object["conflict"] as? Bool == false)
      let epoch = try #require(object["saved_epoch"] as? Int)
      let saved = try #require(object["saved"] as? String)
      let parsed = try #require(ISO8601DateFormatter().date(from: saved))
      #expect(Int(parsed.timeIntervalSince1970) == epoch)
      let keys = [
        "number", "saved", "saved_epoch", "size", "conflict", "first_line", "engine", "origin",
        "unsettled", "merge_markers",
      ]
      let positions = keys.map { line.range(of: "\"\($0)\":")!.lowerBound }
      #expect(positions == positions.sorted(), "keys in the documented order: \(line)")
    }
    let first = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
    #expect(first?["first_line"] as? String == "buy milk and eggs")
    #expect(first?["size"] as? Int == "buy milk and eggs\nand bread".utf8.count)
    let second = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any]
    #expect(second?["first_line"] as? String == "buy milk")
  }

  @Test func controlCharactersAreEscapedNotShown() throws {
    try store.save(bytes: Array("\u{1B}]0;title\u{07}\t\u{1B}[2J".utf8))
    try store.save(bytes: Array("next".utf8))
    let line = try #require(try objects().first)
    #expect(!line.unicodeScalars.contains { $0.value < 0x20 })
    let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    #expect(object?["first_line"] as? String == "\u{1B}]0;title\u{07}\t\u{1B}[2J")
  }

  @Test func aLongFirstLineIsCutBeforeACharacterTheLimitWouldBreak() throws {
    // 255 bytes of ASCII, then characters of two bytes: the limit falls
    // inside the first of them.
    try store.save(
      bytes: Array((String(repeating: "a", count: 255) + String(repeating: "é", count: 10)).utf8))
    try store.save(bytes: Array("next".utf8))
    let line = try #require(try objects().first)
    let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    #expect(object?["first_line"] as? String == String(repeating: "a", count: 255))
  }

  @Test func aConflictCopyIsMarkedWithItsEngineAndOriginUntilSettled() throws {
    try store.save(bytes: Array("base".utf8))
    try store.save(bytes: Array("mine".utf8))
    folder.write("notes/datafile.sync-conflict-20261201-202437-Y6OAA4V.dat", "theirs")
    let unsettled = try objects().compactMap {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    let copy = try #require(unsettled.first { $0["first_line"] as? String == "theirs" })
    #expect(copy["conflict"] as? Bool == true && copy["unsettled"] as? Bool == true)
    #expect(copy["engine"] as? String == "Syncthing" && copy["origin"] as? String == "Y6OAA4V")
    let version = try #require(unsettled.first { $0["first_line"] as? String == "base" })
    #expect(version["conflict"] as? Bool == false && version["engine"] is NSNull)
    try store.settleConflictCopies()
    let settled = try objects().compactMap {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    let kept = try #require(settled.first { $0["first_line"] as? String == "theirs" })
    #expect(kept["conflict"] as? Bool == true && kept["unsettled"] as? Bool == false)
  }

  @Test func aVersionHoldingGitsMergeMarkersIsMarked() throws {
    try store.save(bytes: Array("list\n<<<<<<< HEAD\nmilk\n=======\neggs\n>>>>>>> other".utf8))
    try store.save(bytes: Array("list\nmilk and eggs".utf8))
    try store.save(bytes: Array("done".utf8))
    let marks = try objects().map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])[
        "merge_markers"] as? Bool
    }
    #expect(marks == [false, true])
  }

  @Test func noVersionsIsNothing() throws {
    #expect(try VersionHistory(store: store.versionStore()).jsonLines() == nil)
    try store.save(bytes: Array("only".utf8))
    #expect(try VersionHistory(store: store.versionStore()).jsonLines() == nil)
  }
}
