import SystemCalls

/// One text `history` lists: a version in the versions folder (its name is
/// a `VersionName`), or a sync engine's conflict copy of the note beside
/// it, not settled yet (`ConflictCopyName`).
///
/// They are listed newest first, as their place in time says: a version's
/// is when it was kept, which its name says (an older filenote's name does
/// not: its file's modification time stands in), so version 1 is always
/// what the note replaced; a conflict copy's (a settled one's too) is when
/// its text was saved on its machine, which its file keeps, and it comes
/// before the first version whose text is older (`interleaving`). (Not the
/// time a version's text was saved: `restore N` puts a text back with its
/// own time, so a text restored and replaced again would sink, and a text
/// restored on one machine would be a new time with the same bytes to a
/// sync engine, which Syncthing 1.19 mishandles: doc/SYNC.md.)
struct KeptVersion: Equatable, Sendable {
  /// Which folder holds its file.
  enum Place: Equatable, Sendable {
    /// The versions folder.
    case versions
    /// The note's own folder: a conflict copy nobody has settled yet.
    case noteFolder
  }

  /// The file's name in its folder.
  let name: String
  /// The folder it is in.
  let place: Place
  /// What the name of a conflict copy says (a settled one's too); nil for
  /// a version of a save.
  let conflict: ConflictCopyName?
  /// Its size in bytes.
  let size: Int64
  /// When its text was saved (its file's modification time: a hard link
  /// keeps the replaced note's own time, and a copy is given it), in
  /// seconds since the epoch.
  let saved: Int64
  /// The nanoseconds after `saved`.
  let savedNanoseconds: Int64
  /// Its place in the listing (see above), in seconds since the epoch.
  let kept: Int64
  /// The nanoseconds after `kept`.
  let keptNanoseconds: Int64
  /// The file, so that the current note (the same file between keeping and
  /// replacing, after a kill) is never listed as a version of itself, and
  /// a file under two names (a copy being settled) is listed once.
  let device: UInt64
  let inode: UInt64

  init(
    name: String, place: Place = .versions, conflict: ConflictCopyName? = nil,
    status: FileStatus, kept: (seconds: Int64, nanoseconds: Int64)? = nil
  ) {
    self.name = name
    self.place = place
    self.conflict = conflict
    size = status.size
    saved = status.modified.seconds
    savedNanoseconds = status.modified.nanoseconds
    let time = kept ?? status.modified
    self.kept = time.seconds
    keptNanoseconds = time.nanoseconds
    device = status.device
    inode = status.inode
  }

  /// An unsettled conflict copy, beside the note.
  var isUnsettledCopy: Bool { place == .noteFolder }

  /// Whether this version is the file `info` describes.
  func isFile(_ info: FileStatus) -> Bool {
    inode == info.inode && device == info.device
  }

  /// Whether `other` is the same file.
  func isSameFile(as other: KeptVersion) -> Bool {
    inode == other.inode && device == other.device
  }

  /// Whether this comes before `other` in the listing (a later place in
  /// time, or the same and a larger name, so that every machine orders
  /// them alike).
  func isNewer(than other: KeptVersion) -> Bool {
    if kept != other.kept { return kept > other.kept }
    if keptNanoseconds != other.keptNanoseconds {
      return keptNanoseconds > other.keptNanoseconds
    }
    // Bytes, not String's <, which would bring in Unicode's ordering code
    // (see CONTRIBUTING.md, Hot path).
    return other.name.utf8.lexicographicallyPrecedes(name.utf8)
  }

  /// `versions` (newest first) with `copies` (newest first) among them,
  /// each copy before the first version whose text was saved before the
  /// copy's: by the time their texts were saved, as far as the versions'
  /// own order (by keeping) allows.
  static func interleaving(_ copies: [KeptVersion], into versions: [KeptVersion]) -> [KeptVersion] {
    var merged: [KeptVersion] = []
    merged.reserveCapacity(copies.count + versions.count)
    var next = 0
    for version in versions {
      while next < copies.count && copies[next].isNewer(thanTextOf: version) {
        merged.append(copies[next])
        next += 1
      }
      merged.append(version)
    }
    merged.append(contentsOf: copies[next...])
    return merged
  }

  /// Whether this copy's text was saved after `version`'s.
  private func isNewer(thanTextOf version: KeptVersion) -> Bool {
    kept != version.saved ? kept > version.saved : keptNanoseconds > version.savedNanoseconds
  }

  /// `versions` sorted newest first.
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
      if older[j].isNewer(than: newer[i]) {
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
    VersionName(name) != nil || isCopy(name)
  }

  static func isCopy(_ name: String) -> Bool {
    ProcessFileName(name, prefix: copyPrefix) != nil
  }
}
