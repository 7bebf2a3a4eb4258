/// The name of a file filenote keeps in the versions folder, and what it says.
///
/// - `<seconds>.<nanoseconds>-<16 hex digits>`, such as
///   `1764580502.123456789-5f3a9c2d01b7e4a6`: a version. The time is when
///   it was kept (when its text stopped being the note), which orders the
///   versions, so that version 1 is always what the note replaced; the hex
///   digits are a random number. Two machines whose versions folder a sync
///   engine keeps alike therefore never give two versions one name, which
///   a per-machine counter would (doc/SYNC.md): the engine never has to
///   choose between them, and every version reaches both.
/// - The same followed by `-<engine>` or `-<engine>-<origin>`, such as
///   `1764580502.123456789-5f3a9c2d01b7e4a6-syncthing-Y6OAA4V`: a conflict
///   copy that was settled, with the engine and the device, user or host
///   its name gave, so `history` still marks it. Its time is the copy's
///   (when its text was saved, where `history` listed it before), and its
///   hex digits come from the copy itself, so two machines settling the
///   same copy give it the same name.
/// - `<10 digits>-<digits>`, such as `0000000042-1764580502`: what filenote
///   wrote before (a per-machine sequence number and the second it was
///   kept). Still a version, ordered by its file's modification time.
///
/// Names are read as bytes, without allocating unless one matches.
struct VersionName: Equatable {
  /// Which of the forms above.
  enum Form: Equatable {
    case legacy
    case kept
    /// A settled conflict copy: the engine, and the origin when its name had one.
    case settled(ConflictCopyName.Engine, origin: String?)
  }

  let form: Form
  /// Its place in time, as the name says (nil for `legacy`, whose time is
  /// its file's).
  let keptSeconds: Int64?
  let keptNanoseconds: Int64

  /// The digits of the legacy sequence number.
  private static let legacyDigits = 10
  /// The hex digits after the time.
  private static let hexDigits = 16
  /// The longest name the file system takes.
  private static let maximumLength = 255

  /// What `name` is, or nil when filenote does not write such a name.
  init?(_ name: String) {
    var name = name
    guard let parsed = name.withUTF8({ Self.read($0[...]) }) else { return nil }
    self = parsed
  }

  private init(form: Form, kept: (seconds: Int64, nanoseconds: Int64)?) {
    self.form = form
    keptSeconds = kept?.seconds
    keptNanoseconds = kept?.nanoseconds ?? 0
  }

  /// The name of a version kept at `time`, told apart from every other by
  /// `random`.
  static func kept(at time: (seconds: Int64, nanoseconds: Int64), random: UInt64) -> String {
    let nanoseconds = UInt64(max(0, min(time.nanoseconds, 999_999_999)))
    return String(max(0, time.seconds)) + "." + digits(nanoseconds, count: 9, radix: 10) + "-"
      + digits(random, count: hexDigits, radix: 16)
  }

  /// The last `count` digits of `value` in `radix` (lowercase), zero-padded.
  /// Every value takes the same code path: the function order `make
  /// release` traces must not depend on the clock or a random number, or
  /// two builds of one commit would differ (packaging/README.md).
  static func digits(_ value: UInt64, count: Int, radix: UInt64) -> String {
    var bytes = [UInt8](repeating: UInt8(ascii: "0"), count: count)
    var rest = value
    for index in stride(from: count - 1, through: 0, by: -1) {
      let digit = UInt8(truncatingIfNeeded: rest % radix)
      bytes[index] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
      rest /= radix
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The name a settled conflict copy gets: its text's time, digits made
  /// from the copy's own name, size and time (so that two machines
  /// settling the same copy agree), and what its name said of engine and
  /// origin, the origin shortened by whole characters to fit the file
  /// system's 255 bytes.
  static func settled(
    _ copy: ConflictCopyName, copyName: String, size: Int64,
    saved: (seconds: Int64, nanoseconds: Int64)
  ) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix(_ bytes: some Sequence<UInt8>) {
      for byte in bytes {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
      }
    }
    mix(copyName.utf8)
    mix(String(size).utf8)
    mix(String(saved.seconds).utf8)
    mix(String(saved.nanoseconds).utf8)
    var name = kept(at: saved, random: hash) + "-" + copy.engine.word
    if let origin = copy.origin, !origin.isEmpty {
      let shortened = origin.prefix(maxUTF8Count: maximumLength - name.utf8.count - 1)
      if !shortened.isEmpty { name += "-" + shortened }
    }
    return name
  }

  private typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    DecimalNumber.isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
  }

  /// The value of digits already checked; `Int64.max` past it.
  private static func value(_ digits: Bytes) -> Int64 {
    Int64(DecimalNumber.value(of: digits) ?? 0)
  }

  private static func read(_ name: Bytes) -> VersionName? {
    let dash = UInt8(ascii: "-")
    let dot = UInt8(ascii: ".")
    // `<10 digits>-<1 to 20 digits>`
    if name.count > legacyDigits + 1, name.count <= legacyDigits + 21,
      name[name.startIndex + legacyDigits] == dash,
      name.prefix(legacyDigits).allSatisfy(DecimalNumber.isDigit),
      name.dropFirst(legacyDigits + 1).allSatisfy(DecimalNumber.isDigit)
    {
      return VersionName(form: .legacy, kept: nil)
    }
    // `<1 to 19 digits>.<9 digits>-<16 hex digits>[-<engine>[-<origin>]]`
    let seconds = name.prefix(while: DecimalNumber.isDigit)
    guard (1...19).contains(seconds.count) else { return nil }
    var rest = name[seconds.endIndex...]
    guard rest.first == dot else { return nil }
    rest = rest.dropFirst()
    let nanoseconds = rest.prefix(9)
    guard nanoseconds.count == 9, nanoseconds.allSatisfy(DecimalNumber.isDigit) else { return nil }
    rest = rest.dropFirst(9)
    guard rest.first == dash else { return nil }
    rest = rest.dropFirst()
    let hex = rest.prefix(hexDigits)
    guard hex.count == hexDigits, hex.allSatisfy(isHexDigit) else { return nil }
    rest = rest.dropFirst(hexDigits)
    let time = (seconds: value(seconds), nanoseconds: value(nanoseconds))
    if rest.isEmpty { return VersionName(form: .kept, kept: time) }
    guard rest.first == dash else { return nil }
    rest = rest.dropFirst()
    let word = rest.prefix { $0 != dash }
    guard let engine = ConflictCopyName.Engine(word: String(decoding: word, as: UTF8.self))
    else { return nil }
    rest = rest[word.endIndex...]
    if rest.isEmpty { return VersionName(form: .settled(engine, origin: nil), kept: time) }
    guard rest.count > 1 else { return nil }
    let origin = String(decoding: rest.dropFirst(), as: UTF8.self)
    return VersionName(form: .settled(engine, origin: origin), kept: time)
  }
}
