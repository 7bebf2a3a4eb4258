import SystemCalls

/// One version of the note kept in the versions folder, as a listing sees it.
///
/// Its file name is `<sequence>-<seconds>`: a sequence number of ten digits,
/// one more than the largest in the folder when it was kept (so the newest
/// is the largest, whatever the clock says), and the second it was kept, in
/// seconds since the epoch. Only names of exactly that form are versions;
/// anything else in the folder was not written by filenote and is left alone.
struct KeptVersion: Equatable, Sendable {
  /// The file's name in the versions folder.
  let name: String
  /// Its place in the order of keeping: larger is newer.
  let sequence: UInt64
  /// Its size in bytes.
  let size: Int64
  /// When its text was saved (the file's modification time), in seconds
  /// since the epoch: a hard link keeps the replaced note's own time.
  let saved: Int64
  /// The file, so that the current note (the same file between keeping and
  /// replacing, after a kill) is never listed as a version of itself.
  let device: UInt64
  let inode: UInt64

  init(name: String, sequence: UInt64, status: FileStatus) {
    self.name = name
    self.sequence = sequence
    size = status.size
    saved = status.modified.seconds
    device = status.device
    inode = status.inode
  }

  static let sequenceDigits = 10

  /// The file name of the version kept `sequence`-th, at `seconds`.
  static func name(sequence: UInt64, keptAt seconds: Int64) -> String {
    let digits = String(sequence)
    return String(repeating: "0", count: max(0, sequenceDigits - digits.count)) + digits + "-"
      + String(max(0, seconds))
  }

  /// The sequence number in `name`, or nil when filenote does not write
  /// such a name.
  static func sequence(ofName name: String) -> UInt64? {
    let utf8 = Array(name.utf8)
    guard utf8.count > sequenceDigits + 1, utf8.count <= sequenceDigits + 21,
      utf8[sequenceDigits] == UInt8(ascii: "-")
    else { return nil }
    let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    guard utf8[..<sequenceDigits].allSatisfy(isDigit),
      utf8[(sequenceDigits + 1)...].allSatisfy(isDigit)
    else { return nil }
    return UInt64(String(decoding: utf8[..<sequenceDigits], as: UTF8.self))
  }

  /// `versions` sorted newest first (largest sequence first).
  ///
  /// A merge sort of its own, because the standard library's sort of more
  /// than 20 elements keeps its runs in a `[Range<Int>]`, whose first use
  /// makes the runtime prove `Int: Comparable` by walking every protocol
  /// conformance in the executable: on every save of a note with more than
  /// 20 versions. See CONTRIBUTING.md, Hot path.
  static func newestFirst(_ versions: [KeptVersion]) -> [KeptVersion] {
    guard versions.count > 1 else { return versions }
    let middle = versions.count / 2
    let newer = newestFirst(Array(versions[..<middle]))
    let older = newestFirst(Array(versions[middle...]))
    var merged: [KeptVersion] = []
    merged.reserveCapacity(versions.count)
    var (i, j) = (0, 0)
    while i < newer.count && j < older.count {
      if older[j].sequence > newer[i].sequence {
        merged.append(older[j])
        j += 1
      } else {
        merged.append(newer[i])
        i += 1
      }
    }
    merged.append(contentsOf: newer[i...])
    merged.append(contentsOf: older[j...])
    return merged
  }

  /// The prefix of the names of copies still being written (where a hard
  /// link is impossible), `.copy.<pid>.<random>`: they become versions by a
  /// rename, so no listing ever sees half of one.
  static let copyPrefix = ".copy."

  /// Whether filenote writes names like `name` (a version or a copy in progress).
  static func isWrittenByFilenote(_ name: String) -> Bool {
    sequence(ofName: name) != nil || isCopy(name)
  }

  static func isCopy(_ name: String) -> Bool {
    guard name.hasPrefix(copyPrefix) else { return false }
    let fields = name.dropFirst(copyPrefix.count).split(
      separator: ".", omittingEmptySubsequences: false)
    return fields.count == 2 && Int32(fields[0]) != nil && UInt32(fields[1]) != nil
  }
}
