/// A name in the note's folder that a sync engine gave to a conflicting copy
/// of the note, and what that name tells.
///
/// When two machines change the note while apart, the engine that keeps
/// their folders alike keeps one text under the note's name and writes the
/// other beside it under a name of its own making. Each engine's form is
/// taken from its source code or its documentation (doc/SYNC.md gives them
/// with their sources):
///
/// - Syncthing: `STEM.sync-conflict-YYYYMMDD-HHMMSS-DEVICE.EXT`, the tag
///   before the last extension, a name's leading dot counting as one (so the
///   tag comes before the whole name of `.note`); DEVICE is the first seven
///   characters of the device ID of the device that made the change, empty
///   when that device is unknown.
/// - Dropbox: `STEM (NAME's conflicted copy YYYY-MM-DD).EXT`, the tag where
///   Syncthing puts its own, and its German and Portuguese forms, whose fixed
///   words come before NAME.
/// - Nextcloud's and ownCloud's desktop clients:
///   `STEM (conflicted copy [USER ]YYYY-MM-DD HHMMSS).EXT`, and before 2018
///   `STEM_conflict-YYYYMMDD-HHMMSS.EXT`; a leading dot is no extension.
/// - OneDrive's Linux client: `STEM-HOST-safeBackup-NNNN.EXT`.
/// - Unison with `copyonconflict`: `STEM (conflict[ #N]_on_YYYY-MM-DD).EXT`,
///   `_was_deleted` before the `)` when the other side deleted the note, and
///   its older forms `(conflict[ #N] on …)` and `(copy: conflict[ #N] on …)`.
/// - rclone bisync: `NAME.conflictN`, and before 1.66 `NAME..path1` and
///   `NAME..path2`.
///
/// Names are read as bytes, as the kernel stores them, without allocating
/// anything until a name matches.
///
/// A name is a copy of this note only when it is exactly the note's name
/// with an engine's tag where that engine puts it, so `datafile2.sync-conflict-…`
/// is never `datafile.dat`'s. Where the tag holds free text (a Dropbox user,
/// a Nextcloud user, a OneDrive host), a name can also read as the copy of
/// a second note whose name starts like this one's: `datafile-2-host-…` is
/// `datafile.dat`'s copy from host `2-host` or `datafile-2.dat`'s from host
/// `host`. `belongsToLongerNote(among:)` settles that against the folder's
/// other names.
struct ConflictCopyName: Equatable, Sendable {
  /// The sync engine whose form the name has.
  enum Engine: Equatable, Sendable {
    case syncthing
    case dropbox
    /// Nextcloud's or ownCloud's desktop client: the same code names both.
    case nextcloud
    /// The OneDrive client for Linux (abraunegg/onedrive).
    case oneDrive
    case unison
    case rcloneBisync

    /// Every engine, in the order of the list above.
    static let all: [Engine] = [
      .syncthing, .dropbox, .nextcloud, .oneDrive, .unison, .rcloneBisync,
    ]

    /// One lowercase word for the engine, as a settled copy's version name
    /// keeps it (`VersionName`).
    var word: String {
      switch self {
      case .syncthing: "syncthing"
      case .dropbox: "dropbox"
      case .nextcloud: "nextcloud"
      case .oneDrive: "onedrive"
      case .unison: "unison"
      case .rcloneBisync: "rclone"
      }
    }

    /// The engine whose `word` is `word`.
    init?(word: String) {
      guard let engine = Self.all.first(where: { $0.word == word }) else { return nil }
      self = engine
    }

    /// Its name as its makers write it, for people.
    var displayName: String {
      switch self {
      case .syncthing: "Syncthing"
      case .dropbox: "Dropbox"
      case .nextcloud: "Nextcloud"
      case .oneDrive: "OneDrive"
      case .unison: "Unison"
      case .rcloneBisync: "rclone bisync"
      }
    }

    /// The word before an `origin` when it is shown: the device
    /// (Syncthing), the account or computer (Dropbox), the user
    /// (Nextcloud), the host (OneDrive).
    var originWord: String {
      switch self {
      case .syncthing: "device"
      case .dropbox: "from"
      case .nextcloud: "user"
      case .oneDrive: "host"
      case .unison, .rcloneBisync: "from"
      }
    }
  }

  /// A calendar day as the name writes it (the local time of the machine
  /// that made the copy).
  struct Day: Equatable, Sendable {
    let year: Int
    let month: Int
    let day: Int
  }

  /// A time of day as the name writes it (local time, like `Day`).
  struct TimeOfDay: Equatable, Sendable {
    let hour: Int
    let minute: Int
    let second: Int
  }

  /// The engine that made the copy.
  let engine: Engine
  /// Who or what made it, as the name says: the device (Syncthing), the
  /// account or computer (Dropbox), the user (Nextcloud), the host
  /// (OneDrive); nil when the name says nothing of it.
  let origin: String?
  /// The day the name carries, if any.
  let day: Day?
  /// The time of day the name carries, if any.
  let time: TimeOfDay?
  /// The number that tells copies of one day apart (Unison's `#N`,
  /// OneDrive's `NNNN`, Dropbox's `(N)`, rclone's `conflictN` and
  /// `pathN`), if any.
  let counter: Int?

  init(
    engine: Engine, origin: String? = nil, day: Day? = nil, time: TimeOfDay? = nil,
    counter: Int? = nil
  ) {
    self.engine = engine
    self.origin = origin
    self.day = day
    self.time = time
    self.counter = counter
  }

  /// Where the copy came from, as its name says: `Syncthing, device
  /// Y6OAA4V`, `Dropbox, from Ann`, `Unison`.
  var source: String {
    guard let origin else { return engine.displayName }
    return engine.displayName + ", " + engine.originWord + " " + origin
  }

  /// The conflict copy that `name` is of the note named `note` (a file name,
  /// no folder), or nil when `name` is not one.
  init?(_ name: String, copyOf note: String) {
    var name = name
    var note = note
    let found = name.withUTF8 { name in
      note.withUTF8 { note in Self.read(name[...], note: note[...]) }
    }
    guard let found else { return nil }
    self = found
  }

  /// Whether `name`, a copy of this note, reads as well as the copy of
  /// another, longer note among `names` (the folder's other regular files):
  /// then it is that note's, the one whose name explains more of it.
  static func belongsToLongerNote(
    _ name: String, copyOf note: String, among names: [String]
  ) -> Bool {
    let length = note.utf8.count
    for other in names where other.utf8.count > length && other != name {
      if ConflictCopyName(name, copyOf: other) != nil { return true }
    }
    return false
  }

  // MARK: - Reading

  private typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

  private static func read(_ name: Bytes, note: Bytes) -> ConflictCopyName? {
    // Every form adds to the note's name; most names in a folder are not
    // even as long as the note's name plus the shortest tag.
    guard name.count > note.count, !note.isEmpty else { return nil }
    if name.starts(with: note),
      let copy = rcloneBisync(Reader(name[(name.startIndex + note.count)...]))
    {
      return copy
    }
    // Go's filepath.Ext (Syncthing) and Unison's Path.addToFinalName take
    // the last dot, even the one a dotfile's name starts with; so does
    // Dropbox, whose copy of `.gitignore` is ` (… conflicted copy …).gitignore`.
    if let tag = tag(of: name, note: note, leadingDotIsExtension: true),
      let copy = syncthing(Reader(tag)) ?? unison(Reader(tag)) ?? dropbox(Reader(tag))
    {
      return copy
    }
    // Qt's makeConflictFileName (Nextcloud, ownCloud) and D's
    // std.path.extension (OneDrive) leave a leading dot to the name.
    if let tag = tag(of: name, note: note, leadingDotIsExtension: false) {
      return nextcloud(Reader(tag)) ?? oneDrive(Reader(tag))
    }
    return nil
  }

  /// What `name` has between the note's stem and its extension, when it
  /// starts with the one and ends with the other.
  private static func tag(of name: Bytes, note: Bytes, leadingDotIsExtension: Bool) -> Bytes? {
    let dot = UInt8(ascii: ".")
    var split = note.endIndex
    if let last = note.lastIndex(of: dot), last > note.startIndex || leadingDotIsExtension {
      split = last
    }
    let stem = note[..<split]
    let suffix = note[split...]
    guard name.count > note.count, name.starts(with: stem),
      name.reversed().starts(with: suffix.reversed())
    else { return nil }
    return name[(name.startIndex + stem.count)..<(name.endIndex - suffix.count)]
  }

  /// `.sync-conflict-YYYYMMDD-HHMMSS-DEVICE`, DEVICE seven characters of
  /// base32 (the device's short ID) or none at all (doc/SYNC.md, "How each
  /// engine names a conflict copy", has where each engine writes its names).
  private static func syncthing(_ tag: Reader) -> ConflictCopyName? {
    var tag = tag
    guard tag.take(".sync-conflict-"), let day = tag.takeCompactDay(), tag.take("-"),
      let time = tag.takeCompactTime(), tag.take("-")
    else { return nil }
    let device = tag.rest
    let isBase32 = { (byte: UInt8) in
      (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || (byte >= UInt8(ascii: "2") && byte <= UInt8(ascii: "7"))
    }
    guard device.isEmpty || (device.count == 7 && device.allSatisfy(isBase32)) else { return nil }
    return ConflictCopyName(
      engine: .syncthing, origin: device.isEmpty ? nil : Reader.text(device), day: day,
      time: time)
  }

  /// ` (conflict[ #N]_on_YYYY-MM-DD[_was_deleted])` since Unison 2.51.3,
  /// ` (conflict[ #N] on YYYY-MM-DD)` in 2.51.0 to 2.51.2 and
  /// ` (copy: conflict[ #N] on YYYY-MM-DD)` before.
  private static func unison(_ tag: Reader) -> ConflictCopyName? {
    var tag = tag
    guard tag.take(" (") else { return nil }
    let isOldest = tag.take("copy: ")
    guard tag.take("conflict") else { return nil }
    var counter: Int? = nil
    if tag.take(" #") {
      guard let number = tag.takeNumber() else { return nil }
      counter = number
    }
    let isCurrent = !isOldest && tag.take("_on_")
    guard isCurrent || tag.take(" on "), let day = tag.takeDay() else { return nil }
    if isCurrent { _ = tag.take("_was_deleted") }
    guard tag.take(")"), tag.isAtEnd else { return nil }
    return ConflictCopyName(engine: .unison, day: day, counter: counter)
  }

  /// ` (conflicted copy [USER ]YYYY-MM-DD HHMMSS)`, the user's parentheses
  /// made `_`, and before 2018 `_conflict-YYYYMMDD-HHMMSS`.
  private static func nextcloud(_ tag: Reader) -> ConflictCopyName? {
    var old = tag
    if old.take("_conflict-"), let day = old.takeCompactDay(), old.take("-"),
      let time = old.takeCompactTime(), old.isAtEnd
    {
      return ConflictCopyName(engine: .nextcloud, day: day, time: time)
    }
    var tag = tag
    guard tag.take(" (conflicted copy "), tag.takeLast(")"), let time = tag.takeLastCompactTime(),
      tag.takeLast(" "), let day = tag.takeLastDay()
    else { return nil }
    if tag.isAtEnd { return ConflictCopyName(engine: .nextcloud, day: day, time: time) }
    guard tag.takeLast(" "), let user = tag.takeFreeText() else { return nil }
    return ConflictCopyName(engine: .nextcloud, origin: user, day: day, time: time)
  }

  /// ` (NAME's conflicted copy YYYY-MM-DD)`, ` (N)` after the day for a
  /// further copy of that day, and the German and Portuguese forms: Dropbox
  /// publishes no source, so these are the forms of its help pages and of
  /// real copies (doc/SYNC.md).
  private static func dropbox(_ tag: Reader) -> ConflictCopyName? {
    var tag = tag
    guard tag.take(" ("), tag.takeLast(")") else { return nil }
    var counter: Int? = nil
    if tag.takeLast(")") {
      guard let number = tag.takeLastNumber(), tag.takeLast(" (") else { return nil }
      counter = number
    }
    guard let day = tag.takeLastDay(), tag.takeLast(" ") else { return nil }
    let isEnglish = tag.takeLast("'s conflicted copy")
    guard
      isEnglish || tag.take("in Konflikt stehende Kopie von ")
        || tag.take("In Konflikt stehende Kopie von ") || tag.take("Cópia em conflito de "),
      let origin = tag.takeFreeText()
    else { return nil }
    return ConflictCopyName(engine: .dropbox, origin: origin, day: day, counter: counter)
  }

  /// `-HOST-safeBackup-NNNN`, NNNN from 0001 to 1000.
  private static func oneDrive(_ tag: Reader) -> ConflictCopyName? {
    var tag = tag
    guard tag.take("-"), let counter = tag.takeLastDigits(4), (1...1000).contains(counter),
      tag.takeLast("-safeBackup-"), !tag.isAtEnd
    else { return nil }
    let isHostByte = { (byte: UInt8) in
      (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || DecimalNumber.isDigit(byte)
        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
    }
    guard tag.rest.allSatisfy(isHostByte) else { return nil }
    return ConflictCopyName(engine: .oneDrive, origin: Reader.text(tag.rest), counter: counter)
  }

  /// `.conflictN` after the whole name (bisync's default `--conflict-loser
  /// num` and `--conflict-suffix conflict`), and `..path1`, `..path2` before
  /// rclone 1.66.
  private static func rcloneBisync(_ suffix: Reader) -> ConflictCopyName? {
    var suffix = suffix
    if suffix.take(".conflict"), let number = suffix.takeNumber(), suffix.isAtEnd {
      return ConflictCopyName(engine: .rcloneBisync, counter: number)
    }
    suffix = Reader(suffix.whole)
    guard suffix.take("..path") else { return nil }
    let side = suffix.take("1") ? 1 : suffix.take("2") ? 2 : 0
    guard side != 0, suffix.isAtEnd else { return nil }
    return ConflictCopyName(engine: .rcloneBisync, counter: side)
  }

  /// Takes fixed text and fields off either end of a tag.
  private struct Reader {
    let whole: Bytes
    private(set) var rest: Bytes

    init(_ bytes: Bytes) {
      whole = bytes
      rest = bytes
    }

    var isAtEnd: Bool { rest.isEmpty }

    static func text(_ bytes: Bytes) -> String { String(decoding: bytes, as: UTF8.self) }

    private static func matches(_ bytes: Bytes, _ literal: StaticString) -> Bool {
      literal.withUTF8Buffer { bytes.elementsEqual($0) }
    }

    mutating func take(_ literal: StaticString) -> Bool {
      let count = literal.utf8CodeUnitCount
      guard rest.count >= count, Self.matches(rest.prefix(count), literal) else { return false }
      rest = rest.dropFirst(count)
      return true
    }

    mutating func takeLast(_ literal: StaticString) -> Bool {
      let count = literal.utf8CodeUnitCount
      guard rest.count >= count, Self.matches(rest.suffix(count), literal) else { return false }
      rest = rest.dropLast(count)
      return true
    }

    mutating func takeDigits(_ count: Int) -> Int? {
      guard rest.count >= count, let value = DecimalNumber.value(of: rest.prefix(count)) else {
        return nil
      }
      rest = rest.dropFirst(count)
      return value
    }

    mutating func takeLastDigits(_ count: Int) -> Int? {
      guard rest.count >= count, let value = DecimalNumber.value(of: rest.suffix(count)) else {
        return nil
      }
      rest = rest.dropLast(count)
      return value
    }

    /// A counter as engines print integers: 1 or more, no leading zero, at
    /// most nine digits.
    private static func counter(_ digits: Bytes) -> Int? {
      guard (1...9).contains(digits.count), digits.first != UInt8(ascii: "0") else { return nil }
      return DecimalNumber.value(of: digits)
    }

    mutating func takeNumber() -> Int? {
      let digits = rest.prefix(while: DecimalNumber.isDigit)
      guard let number = Self.counter(digits) else { return nil }
      rest = rest.dropFirst(digits.count)
      return number
    }

    mutating func takeLastNumber() -> Int? {
      let count = rest.reversed().prefix(while: DecimalNumber.isDigit).count
      guard let number = Self.counter(rest.suffix(count)) else { return nil }
      rest = rest.dropLast(count)
      return number
    }

    /// What is left, as a user or computer name: not empty, and without
    /// parentheses, which would make another note's copy
    /// (`plan (draft) (Ann's conflicted copy …)`) read as this one's.
    mutating func takeFreeText() -> String? {
      guard !rest.isEmpty, !rest.contains(UInt8(ascii: "(")), !rest.contains(UInt8(ascii: ")"))
      else { return nil }
      defer { rest = rest.dropFirst(rest.count) }
      return Self.text(rest)
    }

    private static func day(_ year: Int?, _ month: Int?, _ day: Int?) -> Day? {
      guard let year, let month, let day, (1...12).contains(month), (1...31).contains(day)
      else { return nil }
      return Day(year: year, month: month, day: day)
    }

    private static func time(_ hour: Int?, _ minute: Int?, _ second: Int?) -> TimeOfDay? {
      guard let hour, let minute, let second, hour < 24, minute < 60, second < 60 else {
        return nil
      }
      return TimeOfDay(hour: hour, minute: minute, second: second)
    }

    /// `YYYYMMDD`.
    mutating func takeCompactDay() -> Day? {
      Self.day(takeDigits(4), takeDigits(2), takeDigits(2))
    }

    /// `HHMMSS`.
    mutating func takeCompactTime() -> TimeOfDay? {
      Self.time(takeDigits(2), takeDigits(2), takeDigits(2))
    }

    /// `HHMMSS`, at the end.
    mutating func takeLastCompactTime() -> TimeOfDay? {
      let second = takeLastDigits(2)
      let minute = takeLastDigits(2)
      return Self.time(takeLastDigits(2), minute, second)
    }

    /// `YYYY-MM-DD`.
    mutating func takeDay() -> Day? {
      let year = takeDigits(4)
      guard take("-") else { return nil }
      let month = takeDigits(2)
      guard take("-") else { return nil }
      return Self.day(year, month, takeDigits(2))
    }

    /// `YYYY-MM-DD`, at the end.
    mutating func takeLastDay() -> Day? {
      let day = takeLastDigits(2)
      guard takeLast("-") else { return nil }
      let month = takeLastDigits(2)
      guard takeLast("-") else { return nil }
      return Self.day(takeLastDigits(4), month, day)
    }
  }
}
