import SystemCalls

extension VersionHistory {
  /// What `filenote history --json` prints: JSON Lines, one object a
  /// version, newest first, in the order and numbering of `history`:
  ///
  ///     {"number":1,"saved":"2026-12-01T09:15:02+01:00","saved_epoch":1796112902,
  ///      "size":17,"conflict":false,"first_line":"buy milk and eggs",
  ///      "engine":null,"origin":null,"unsettled":false}
  ///
  /// (one line each). The keys are always these, in this order, and a new
  /// key would only ever be added after them: `saved` is when the text was
  /// saved, on the user's clock with its offset, `saved_epoch` the same in
  /// seconds since the epoch, `size` in bytes, `conflict` whether the
  /// version is a sync engine's conflict copy (doc/SYNC.md), `first_line`
  /// the text up to its first line break, at most its first
  /// `beginningLimit` bytes (cut before a character the limit would break),
  /// with JSON's escapes; for a conflict copy, `engine` is the engine that
  /// made it (`Syncthing`, `Dropbox`, …) and `origin` the device, account,
  /// user or host its name gave (else null), and `unsettled` is true while
  /// it is beside the note, not settled yet; `merge_markers` whether its
  /// text holds the markers of a git merge that conflicted (`MergeMarkers`,
  /// in its first `markerLimit` bytes). Nil when no version is kept.
  func jsonLines() throws(FilenoteError) -> [UInt8]? {
    guard let store else { return nil }
    _ = try store.regularNoteStatus()
    let folder = try store.open()
    defer { folder?.close() }
    // As `lines(width:)`: a version removed since the listing is not listed.
    let versions = try store.listed(in: folder).compactMap { version in
      store.beginning(of: version, in: folder, limit: Self.markerLimit).map { (version, $0) }
    }
    guard !versions.isEmpty else { return nil }
    var output: [UInt8] = []
    output.reserveCapacity(versions.count * 160)
    for (index, (version, read)) in versions.enumerated() {
      let beginning = Array(read.prefix(Self.beginningLimit))
      let firstLine = Self.rawFirstLine(
        of: beginning, isCut: beginning.count == Self.beginningLimit)
      let saved = ISO8601Time(secondsSinceEpoch: version.saved).text
      var object = "{\"number\":\(index + 1),\"saved\":\"\(saved)\","
      object += "\"saved_epoch\":\(version.saved),\"size\":\(version.size),"
      object += "\"conflict\":\(version.conflict != nil),\"first_line\":"
      object += JSONText.quoted(firstLine) + ",\"engine\":"
      object += version.conflict.map { JSONText.quoted($0.engine.displayName) } ?? "null"
      object += ",\"origin\":" + (version.conflict?.origin.map(JSONText.quoted) ?? "null")
      object += ",\"unsettled\":\(version.isUnsettledCopy)"
      object += ",\"merge_markers\":\(MergeMarkers.found(in: read))}\n"
      output.append(contentsOf: object.utf8)
    }
    return output
  }

  /// How much of each version `jsonLines` reads for `merge_markers`: a
  /// note is short, and a large one costs no more than this.
  static let markerLimit = 64 << 10

  /// The text of `bytes` up to their first line feed, as it is (no
  /// stand-ins: JSON escapes what needs it). When `bytes` are only the
  /// beginning of the version (`isCut`) and hold no line feed, the
  /// character the cut broke is left out.
  static func rawFirstLine(of bytes: [UInt8], isCut: Bool) -> String {
    guard let lineFeed = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
      var end = bytes.count
      if isCut {
        // Back to the first byte of the last character, then keep it only
        // when all its bytes are there.
        var lead = end
        while lead > 0 && bytes[lead - 1] & 0xC0 == 0x80 { lead -= 1 }
        if lead > 0 {
          let first = bytes[lead - 1]
          let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
          if end - (lead - 1) < length { end = lead - 1 }
        }
      }
      return String(decoding: bytes[..<end], as: UTF8.self)
    }
    return String(decoding: bytes[..<lineFeed], as: UTF8.self)
  }
}
