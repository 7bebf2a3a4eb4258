/// Whether a text holds the markers git leaves in a file when a merge
/// conflicts: a line `<<<<<<<` (then a space and a name, or nothing), later
/// a line `=======`, later a line `>>>>>>>` (the same way), in that order
/// (doc/SYNC.md, "A note in a git work tree"). `show` and the prompt say so
/// on a terminal, and `history --json` marks a version that holds them;
/// nothing else changes.
///
/// One pass over the bytes, looking only at the first bytes of each line:
/// `show` reads the whole note anyway, so this costs it no more reading.
enum MergeMarkers {
  /// The marker lines, in the order they must come.
  private static let markers: [UInt8] = [
    UInt8(ascii: "<"), UInt8(ascii: "="), UInt8(ascii: ">"),
  ]
  /// How many times a marker's character starts its line.
  private static let length = 7

  /// Whether `bytes` hold the three marker lines, in order.
  static func found(in bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { found(in: $0) }
  }

  static func found(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let lineFeed = UInt8(ascii: "\n")
    var next = 0
    var start = 0
    let count = bytes.count
    while start < count {
      if bytes[start] == markers[next], isMarker(bytes, at: start, next == 1) {
        next += 1
        if next == markers.count { return true }
      }
      // On to the next line.
      var index = start
      while index < count && bytes[index] != lineFeed { index += 1 }
      start = index + 1
    }
    return false
  }

  /// Whether the line at `start` is a marker line: `length` of its first
  /// character, then the line's end (`=======` must end there), or a
  /// space and a name.
  private static func isMarker(
    _ bytes: UnsafeBufferPointer<UInt8>, at start: Int, _ alone: Bool
  ) -> Bool {
    let end = start + length
    guard end <= bytes.count else { return false }
    for index in start + 1..<end where bytes[index] != bytes[start] { return false }
    guard end < bytes.count else { return true }
    let after = bytes[end]
    if after == UInt8(ascii: "\n") { return true }
    if after == UInt8(ascii: "\r") {
      return end + 1 == bytes.count || bytes[end + 1] == UInt8(ascii: "\n")
    }
    return !alone && after == UInt8(ascii: " ")
  }

  /// The line `show` prints on standard error on a terminal.
  static let showLine =
    "the note holds merge markers (<<<<<<< ======= >>>>>>>) that git left: "
    + "a merge that conflicted is not finished"

  /// The prompt's piece of its hint, shortest last.
  static let hintForms = ["the note holds merge markers (<<<<<<<)", "merge markers"]
}
