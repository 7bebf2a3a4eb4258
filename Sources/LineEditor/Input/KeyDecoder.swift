/// Turns the bytes a terminal in raw mode sends into `Key` values.
///
/// Reads from a terminal end wherever they end, so one key may be split over
/// several calls to `decode`. The decoder holds back what it cannot decide yet
/// (a lone ESC, part of a UTF-8 character, part of an escape sequence, a paste
/// whose end has not come) and the terminal layer calls `flush()` when the
/// input goes quiet, which is the only way to tell the Esc key from the start
/// of a sequence, and `flushPaste()` when a paste has been quiet for longer,
/// so a paste whose end marker never comes does not swallow every key after
/// it.
///
/// What it understands:
/// - UTF-8 text, merged into one `.text` key per call; ill-formed bytes and C1
///   controls are dropped.
/// - C0 controls: CR (the Enter key) is `.enter`, DEL is `.backspace`, the
///   others are `.control` named by their Ctrl key, LF (Ctrl-J) among them,
///   so that Ctrl-V Ctrl-J can type a line feed.
/// - Arrows, Home, End and Delete in their CSI (`ESC [`) and SS3 (`ESC O`)
///   forms, with xterm modifiers (`ESC [ 1 ; 5 C`) and rxvt's `ESC O a`…`d`
///   (Ctrl) and `ESC [ a`…`d` (Shift).
/// - Alt-keys: ESC followed by a printable character or DEL. An Esc that comes
///   alone (flushed after a pause) is `.escape`; `EditState` pairs it with the
///   next key, so Esc then F is Alt-F however slowly it is typed.
/// - Bracketed paste, `ESC [ 2 0 0 ~` … `ESC [ 2 0 1 ~`, as one `.paste` key.
/// - Cursor position reports, `ESC [ row ; column R`, which are no key: only
///   while the session awaits one (`expectCursorReport()`), kept apart for
///   `takeCursorReports()`. The same bytes are Ctrl-F3 and the like in some
///   terminals, so when no report is awaited they are swallowed as a key the
///   line editor does not know.
///
/// Any other sequence is swallowed whole, so a terminal's reply or a key the
/// line editor does not know never leaks into the text: other CSI and SS3 keys, the
/// Linux console's `ESC [ [ A`…`E`, and OSC, DCS and APC strings up to their
/// BEL or `ESC \`. The cost is that Alt-[, Alt-O, Alt-], Alt-P and Alt-_ are
/// not Alt-keys: their ESC begins a sequence.
public struct KeyDecoder: Sendable {
  private enum State: Sendable {
    /// Between keys.
    case ground
    /// After ESC: the Esc key, an Alt-key or the start of a sequence.
    case escape
    /// After ESC and the first bytes of a multi-byte character (an Alt-key).
    case escapedCharacter
    /// Inside a CSI (`ESC [`) or SS3 (`ESC O`) sequence; `introducer` is its
    /// second byte, the parameter bytes so far are in `sequence`.
    case sequence(introducer: UInt8)
    /// After `ESC [ [`: a Linux console function key, which has one byte to go.
    case linuxFunctionKey
    /// Inside an OSC, DCS or APC string, which ends at BEL or `ESC \`.
    case controlString(afterEscape: Bool)
    /// Inside a bracketed paste, with the first `endMarkerMatched` bytes of
    /// `pasteEndMarker` held back.
    case paste(endMarkerMatched: Int)
  }

  /// ESC [ 2 0 1 ~, which ends a bracketed paste.
  private static let pasteEndMarker: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]
  /// Longer than any key a terminal sends, short enough that a runaway
  /// sequence cannot grow without bound.
  private static let maximumSequenceLength = 64
  /// C1 controls (U+0080–U+009F) have no key, and must not reach the text.
  private static let c1Controls: ClosedRange<UInt32> = 0x80...0x9F

  private var state = State.ground
  /// Text and paste bodies both go through it, so either may split a character.
  private var utf8 = UTF8StreamDecoder()
  /// The parameter and intermediate bytes of the CSI or SS3 sequence being read.
  private var sequence: [UInt8] = []
  /// Set when the sequence outgrew `maximumSequenceLength`; it is dropped when it ends.
  private var sequenceIsTooLong = false
  /// The paste read so far, as well-formed UTF-8.
  private var pasteBody: [UInt8] = []
  /// Text read in this call and not yet emitted, as well-formed UTF-8.
  private var text: [UInt8] = []
  /// The keys completed in this call.
  private var keys: [Key] = []
  /// How many cursor position reports were asked for and not read yet.
  private var awaitedReports = 0
  /// Cursor position reports read and not taken yet, oldest first.
  private var reports: [CursorReport] = []

  /// Where the terminal says its cursor is, 1-based as it reports it.
  public struct CursorReport: Equatable, Sendable {
    public let row: Int
    public let column: Int

    public init(row: Int, column: Int) {
      self.row = row
      self.column = column
    }
  }

  /// Creates a decoder that holds nothing back.
  public init() {}

  /// Feeds bytes as they were read; returns every key they complete, in order.
  public mutating func decode<Bytes: Sequence>(_ bytes: Bytes) -> [Key]
  where Bytes.Element == UInt8 {
    // Contiguous bytes (the usual read buffer) skip the generic iterator, a
    // cost per byte that dominates a paste of megabytes.
    let readContiguously: Void? = bytes.withContiguousStorageIfAvailable { buffer in
      for byte in buffer {
        consume(byte)
      }
    }
    if readContiguously == nil {
      for byte in bytes {
        consume(byte)
      }
    }
    endText()
    let completed = keys
    keys = []
    return completed
  }

  /// True while bytes are held back waiting for more (a lone ESC that may start a sequence,
  /// a partial UTF-8 character, a partial escape sequence, or an unterminated paste).
  public var isWaitingForMoreInput: Bool {
    if case .ground = state { return utf8.isInsideCharacter }
    return true
  }

  /// True when what is held back is an ESC alone: a terminal sends an
  /// arrow's or an Alt key's bytes in one write, so an ESC that ends a read
  /// is the Esc key unless the rest comes at once (the session waits only a
  /// few milliseconds before ``flush()``).
  public var isHoldingLoneEscape: Bool {
    if case .escape = state { return true }
    return false
  }

  /// True inside a bracketed paste whose end marker (`ESC [ 2 0 1 ~`) has not come yet:
  /// the terminal layer then waits longer before it calls ``flushPaste()``.
  public var isInsidePaste: Bool {
    if case .paste = state { return true }
    return false
  }

  /// Tells the decoder that the session asked the terminal for its cursor
  /// position (`ESC [ 6 n`): the next `ESC [ row ; column R` is the answer,
  /// not a key.
  public mutating func expectCursorReport() {
    awaitedReports += 1
  }

  /// Whether a cursor position report was asked for and has not come.
  public var isAwaitingCursorReport: Bool { awaitedReports > 0 }

  /// Stops awaiting reports that have not come (the terminal did not
  /// answer in time): one that comes later is swallowed like an unknown key.
  public mutating func stopAwaitingCursorReports() {
    awaitedReports = 0
  }

  /// The cursor position reports read since the last call, oldest first.
  public mutating func takeCursorReports() -> [CursorReport] {
    defer { reports = [] }
    return reports
  }

  /// Called by the terminal layer when no byte arrived for a short while (~50 ms): a held
  /// lone ESC becomes `.escape`, an incomplete escape sequence is dropped, and an incomplete
  /// UTF-8 character is dropped. An unterminated bracketed paste is NOT flushed (pastes may be
  /// slow); it is kept waiting for ESC[201~ until ``flushPaste()``.
  ///
  /// A lone Esc is still reported as `.escape`, whatever comes after it: it answers the
  /// session's questions, and `EditState` reads it with the next key as that key with Alt,
  /// as readline does however long the pause.
  public mutating func flush() -> [Key] {
    switch state {
    case .paste:
      return []
    case .escape:
      state = .ground
      return [.escape]
    default:
      state = .ground
      utf8.reset()
      return []
    }
  }

  /// Called by the terminal layer when a bracketed paste has been silent for a moment
  /// (much longer than the Esc wait: a paste over a slow link pauses): the paste ends
  /// there, as if its end marker had come, so a terminal that never sends the marker
  /// cannot swallow every key after it. Returns the `.paste` key with what arrived (the
  /// start of an end marker held back is dropped with it, as is a character cut short),
  /// or no key outside a paste. Bytes after it are keys again.
  public mutating func flushPaste() -> [Key] {
    guard isInsidePaste else { return [] }
    endPaste()
    let completed = keys
    keys = []
    return completed
  }

  private mutating func consume(_ byte: UInt8) {
    switch state {
    case .ground:
      consumeInGround(byte)
    case .escape:
      consumeAfterEscape(byte)
    case .escapedCharacter:
      consumeInEscapedCharacter(byte)
    case .sequence(let introducer):
      consumeInSequence(byte, introducer: introducer)
    case .linuxFunctionKey:
      state = .ground
      if !(0x40...0x7E).contains(byte) { consumeInGround(byte) }
    case .controlString(let afterEscape):
      consumeInControlString(byte, afterEscape: afterEscape)
    case .paste(let endMarkerMatched):
      consumeInPaste(byte, endMarkerMatched: endMarkerMatched)
    }
  }

  private mutating func consumeInGround(_ byte: UInt8) {
    guard let scalar = utf8.decode(byte) else { return }
    switch scalar.value {
    case 0x0D: emit(.enter)
    case 0x1B: state = .escape
    case 0x7F: emit(.backspace)
    case 0x00..<0x20: emit(.control(Self.controlKeyName(UInt8(scalar.value))))
    case Self.c1Controls: break
    default: text.append(contentsOf: scalar.utf8)
    }
  }

  private mutating func consumeAfterEscape(_ byte: UInt8) {
    switch byte {
    case UInt8(ascii: "["), UInt8(ascii: "O"):
      sequence.removeAll(keepingCapacity: true)
      sequenceIsTooLong = false
      state = .sequence(introducer: byte)
    case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"):
      state = .controlString(afterEscape: false)
    case 0x1B:
      // The first ESC was the Esc key; the second may begin a sequence.
      emit(.escape)
    case 0x20...0x7F:
      state = .ground
      emit(.alt(Character(Unicode.Scalar(byte))))
    case 0x80...:
      _ = utf8.decode(byte)
      state = utf8.isInsideCharacter ? .escapedCharacter : .ground
    default:
      // Alt with a control key has no `Key`: report the Esc and the control key,
      // which `EditState` reads together as readline does (ESC Ctrl-H is
      // backward-kill-word).
      state = .ground
      emit(.escape)
      consumeInGround(byte)
    }
  }

  private mutating func consumeInEscapedCharacter(_ byte: UInt8) {
    guard (0x80...0xBF).contains(byte) else {
      // The character was cut short: drop it with its ESC and read this byte as itself.
      utf8.reset()
      state = .ground
      consumeInGround(byte)
      return
    }
    if let scalar = utf8.decode(byte) {
      state = .ground
      if !Self.c1Controls.contains(scalar.value) { emit(.alt(Character(scalar))) }
    } else if !utf8.isInsideCharacter {
      state = .ground
    }
  }

  private mutating func consumeInSequence(_ byte: UInt8, introducer: UInt8) {
    switch byte {
    case 0x20...0x3F:
      if sequence.count < Self.maximumSequenceLength {
        sequence.append(byte)
      } else {
        sequenceIsTooLong = true
      }
    case 0x40...0x7E:
      state = .ground
      if !sequenceIsTooLong { endSequence(introducer: introducer, final: byte) }
    default:
      // No sequence contains this byte (a control, DEL or non-ASCII): the
      // sequence was broken off, so drop it and read the byte as itself.
      state = .ground
      consumeInGround(byte)
    }
  }

  private mutating func endSequence(introducer: UInt8, final: UInt8) {
    let isCSI = introducer == UInt8(ascii: "[")
    if isCSI && final == UInt8(ascii: "[") && sequence.isEmpty {
      state = .linuxFunctionKey
      return
    }
    // Private markers (`<=>?`), sub-parameters (`:`) and intermediates belong
    // to no key this decoder knows: such a sequence is swallowed.
    guard let parameters = Self.parameters(sequence) else { return }
    if isCSI && final == UInt8(ascii: "~") && parameters == [200] {
      state = .paste(endMarkerMatched: 0)
      return
    }
    if isCSI && final == UInt8(ascii: "R") && awaitedReports > 0 && parameters.count == 2,
      let row = parameters[0], let column = parameters[1]
    {
      awaitedReports -= 1
      reports.append(CursorReport(row: row, column: column))
      return
    }
    if let key = Self.key(isSS3: !isCSI, parameters: parameters, final: final) {
      emit(key)
    }
  }

  private mutating func consumeInControlString(_ byte: UInt8, afterEscape: Bool) {
    if afterEscape {
      if byte == UInt8(ascii: "\\") {
        state = .ground
      } else {
        // An ESC that is not part of ST ends the string and begins a new sequence.
        state = .escape
        consumeAfterEscape(byte)
      }
    } else if byte == 0x07 {
      state = .ground
    } else if byte == 0x1B {
      state = .controlString(afterEscape: true)
    }
  }

  private mutating func consumeInPaste(_ byte: UInt8, endMarkerMatched: Int) {
    if byte == Self.pasteEndMarker[endMarkerMatched] {
      if endMarkerMatched + 1 == Self.pasteEndMarker.count {
        endPaste()
      } else {
        state = .paste(endMarkerMatched: endMarkerMatched + 1)
      }
      return
    }
    // The bytes held back were part of the paste after all. The marker has no
    // ESC after its first byte, so only this byte can begin another match.
    for heldByte in Self.pasteEndMarker[..<endMarkerMatched] {
      appendToPaste(heldByte)
    }
    if byte == 0x1B {
      state = .paste(endMarkerMatched: 1)
    } else {
      state = .paste(endMarkerMatched: 0)
      appendToPaste(byte)
    }
  }

  private mutating func appendToPaste(_ byte: UInt8) {
    if let scalar = utf8.decode(byte) {
      pasteBody.append(contentsOf: scalar.utf8)
    }
  }

  private mutating func endPaste() {
    utf8.reset()  // A character cut off by the end marker is ill-formed.
    state = .ground
    emit(.paste(String(decoding: pasteBody, as: UTF8.self)))
    pasteBody = []  // Not keeping capacity: a paste may be megabytes.
  }

  private mutating func emit(_ key: Key) {
    endText()
    keys.append(key)
  }

  private mutating func endText() {
    guard !text.isEmpty else { return }
    keys.append(.text(String(decoding: text, as: UTF8.self)))
    text = []
  }

  /// The key held with Ctrl to type a C0 control: 0x01 is "a", 0x00 is "@", 0x1F is "_".
  private static func controlKeyName(_ control: UInt8) -> Character {
    let isLetter = (0x01...0x1A).contains(control)
    return Character(Unicode.Scalar(control + (isLetter ? 0x60 : 0x40)))
  }

  /// The numeric parameters of a sequence (`1;5` is `[1, 5]`, an empty one is
  /// nil), or nil when it has any byte other than digits and `;`.
  private static func parameters(_ bytes: [UInt8]) -> [Int?]? {
    guard !bytes.isEmpty else { return [] }
    var parameters: [Int?] = []
    var current: Int?
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        // Capped so a long run of digits cannot overflow; no key has a parameter this big.
        current = min((current ?? 0) * 10 + Int(byte - UInt8(ascii: "0")), 99_999)
      case UInt8(ascii: ";"):
        parameters.append(current)
        current = nil
      default:
        return nil
      }
    }
    parameters.append(current)
    return parameters
  }

  /// The key a CSI or SS3 sequence stands for, or nil for one the line editor has no use for.
  private static func key(isSS3: Bool, parameters: [Int?], final: UInt8) -> Key? {
    switch final {
    case UInt8(ascii: "A")...UInt8(ascii: "D"):
      guard let modifiers = modifiers(isSS3: isSS3, parameters: parameters) else { return nil }
      return .arrow(arrow(final - UInt8(ascii: "A")), modifiers)
    case UInt8(ascii: "a")...UInt8(ascii: "d") where parameters.isEmpty:
      // rxvt: Ctrl-arrows as SS3, Shift-arrows as CSI.
      return .arrow(arrow(final - UInt8(ascii: "a")), isSS3 ? .control : .shift)
    case UInt8(ascii: "H"):
      return modifiers(isSS3: isSS3, parameters: parameters) == nil ? nil : .home
    case UInt8(ascii: "F"):
      return modifiers(isSS3: isSS3, parameters: parameters) == nil ? nil : .end
    case UInt8(ascii: "~") where !isSS3 && (1...2).contains(parameters.count):
      switch parameters[0] {
      case 1, 7: return .home
      case 3: return .delete
      case 4, 8: return .end
      default: return nil
      }
    default:
      return nil
    }
  }

  /// Up, down, right, left: the order of the final bytes A to D.
  private static func arrow(_ index: UInt8) -> Key.Arrow {
    [Key.Arrow.up, .down, .right, .left][Int(index)]
  }

  /// The modifiers of an arrow, Home or End sequence (`ESC [ 1 ; 5 C`, or the
  /// old xterm `ESC O 5 C`), or nil when its parameters are not of that form.
  private static func modifiers(isSS3: Bool, parameters: [Int?]) -> Key.Modifiers? {
    let code: Int?
    switch parameters.count {
    case 0: return Key.Modifiers.none
    case 1 where isSS3: code = parameters[0]
    case 1 where (parameters[0] ?? 1) == 1: return Key.Modifiers.none
    case 2 where (parameters[0] ?? 1) == 1: code = parameters[1]
    default: return nil
    }
    // xterm sends 1 + a bitmask: shift 1, alt 2, ctrl 4, meta 8.
    guard let code, code >= 1 else { return nil }
    let mask = code - 1
    var modifiers = Key.Modifiers(rawValue: UInt8(mask & 0b111))
    if mask & 0b1000 != 0 { modifiers.insert(.alt) }  // `Key` does not tell Meta from Alt.
    return modifiers
  }
}
