/// Reads an inputrc as GNU readline reads it, into an `EditorConfiguration`:
/// the variables filenote honours, and key bindings to the readline
/// functions it implements and to macros. Pure: the files `$include` names
/// are read by the caller's `include` closure.
///
/// Lines are read as readline reads them: blank lines and `#` comments are
/// skipped; `set VARIABLE VALUE`; `"KEYSEQ": function-name` or `"KEYSEQ":
/// "macro"`, and `KEYNAME: ...` (`Control-t`, `Meta-Rubout`, `C-M-x`); the
/// directives `$if mode=emacs|vi`, `$if term=NAME`, `$if filenote` (the
/// application's name), `$else`, `$endif`, `$include FILE`. Whatever filenote
/// does not know (a variable, a directive, a malformed line) is skipped, as
/// readline skips it, and the rest of the file still counts; a key bound to
/// a function filenote does not implement does nothing, as a key bound to a
/// name readline does not know does nothing in readline.
public struct InputrcParser {
  /// How deep `$include`s may nest: deeper ones are skipped, so a file that
  /// includes itself under another name ends there.
  public static let maximumIncludeDepth = 8

  /// The name `$if` compares with an application's name, as `$if Bash` in bash.
  public static let applicationName = "filenote"

  /// What the lines read so far set.
  public private(set) var configuration: EditorConfiguration
  /// `$TERM`, which `$if term=` compares with.
  private let terminalName: String
  /// Reads the file an `$include` names (as written, `~/` included), or nil
  /// when it cannot be read.
  private let include: (String) -> [UInt8]?
  /// The keymap bindings go into (`set keymap`, `editing-mode`), and the
  /// keys they are read after (`emacs-meta` is the emacs keymap after Esc).
  private var keymap: Keymap
  private var keymapPrefix: [Key] = []
  /// The files being read, outermost first.
  private var includeStack: [String] = []

  /// A parser that starts from `configuration`, with `$TERM` as
  /// `terminalName`.
  public init(
    configuration: EditorConfiguration = EditorConfiguration(), terminalName: String?,
    include: @escaping (String) -> [UInt8]?
  ) {
    self.configuration = configuration
    self.terminalName = terminalName ?? ""
    self.include = include
    keymap = configuration.editingMode.startingKeymap
  }

  /// Reads the inputrc at `path` whose bytes are `bytes`.
  public mutating func parse(_ bytes: [UInt8], path: String) {
    guard includeStack.count <= Self.maximumIncludeDepth, !includeStack.contains(path) else {
      return
    }
    includeStack.append(path)
    defer { includeStack.removeLast() }
    // Each `$if` level: whether its lines count.
    var conditions: [Bool] = []
    var start = 0
    while start < bytes.count {
      var end = start
      while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
      var line = bytes[start..<end]
      start = end + 1
      if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
      readLine(line, conditions: &conditions)
    }
  }

  /// Parses `bytes` as an inputrc at `path` and returns what it sets.
  public static func configuration(
    from bytes: [UInt8], path: String, terminalName: String?,
    include: @escaping (String) -> [UInt8]?
  ) -> EditorConfiguration {
    var parser = InputrcParser(terminalName: terminalName, include: include)
    parser.parse(bytes, path: path)
    return parser.configuration
  }

  private mutating func readLine(_ line: ArraySlice<UInt8>, conditions: inout [Bool]) {
    let line = line.drop(while: Self.isBlank)
    guard let first = line.first, first != UInt8(ascii: "#") else { return }
    let active = !conditions.contains(false)
    if first == UInt8(ascii: "$") {
      directive(line.dropFirst(), active: active, conditions: &conditions)
      return
    }
    guard active else { return }
    let word = Self.word(line)
    if word.count == 3 && Self.lowercased(word) == "set" {
      setVariable(line.dropFirst(3).drop(while: Self.isBlank))
    } else {
      bindKey(line)
    }
  }

  // MARK: - Directives

  private mutating func directive(
    _ line: ArraySlice<UInt8>, active: Bool, conditions: inout [Bool]
  ) {
    let name = Self.lowercased(Self.word(line))
    let argument = Self.trimmed(line.dropFirst(Self.word(line).count).drop(while: Self.isBlank))
    switch name {
    case "if":
      conditions.append(active && test(argument))
    case "else":
      guard let last = conditions.popLast() else { return }
      conditions.append(!conditions.contains(false) && !last)
    case "endif":
      _ = conditions.popLast()
    case "include":
      guard active, !argument.isEmpty else { return }
      let path = String(decoding: argument, as: UTF8.self)
      guard includeStack.count < Self.maximumIncludeDepth, !includeStack.contains(path),
        let bytes = include(path)
      else { return }
      parse(bytes, path: path)
    default:
      return  // readline complains of an unknown directive and goes on
    }
  }

  /// Whether `$if ARGUMENT` holds: `mode=`, `term=`, or the application's name.
  private func test(_ argument: ArraySlice<UInt8>) -> Bool {
    let text = String(decoding: Self.word(argument), as: UTF8.self).lowercased()
    if text.hasPrefix("mode=") {
      let mode = text.dropFirst(5)
      return mode == (configuration.editingMode == .vi ? "vi" : "emacs")
    }
    if text.hasPrefix("term=") {
      let term = text.dropFirst(5)
      let full = terminalName.lowercased()
      let base = full.split(separator: "-", maxSplits: 1).first.map(String.init) ?? full
      return !term.isEmpty && (term == full || term == base)
    }
    // `version`, variable comparisons and other applications' names are
    // not filenote's.
    return text == Self.applicationName
  }

  // MARK: - Variables

  private mutating func setVariable(_ line: ArraySlice<UInt8>) {
    let nameBytes = Self.word(line)
    let name = Self.lowercased(nameBytes)
    let rest = line.dropFirst(nameBytes.count).drop(while: Self.isBlank)
    let value = Self.lowercased(Self.word(rest))
    // Booleans: on, 1 or nothing is on, anything else off (readline's rule).
    let isOn = value.isEmpty || value == "on" || value == "1"
    switch name {
    case "editing-mode":
      if value.hasPrefix("vi") {
        configuration.editingMode = .vi
      } else if value.hasPrefix("emacs") {
        configuration.editingMode = .emacs
      } else {
        return
      }
      keymap = configuration.editingMode.startingKeymap
      keymapPrefix = []
    case "keymap":
      guard let (keymap, prefix) = Keymap.named(value) else { return }
      self.keymap = keymap
      keymapPrefix = prefix
    case "keyseq-timeout":
      let digits = Self.word(rest).prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
      let negative = rest.first == UInt8(ascii: "-")
      var milliseconds = 0
      for digit in digits.prefix(9) {
        milliseconds = milliseconds * 10 + Int(digit - UInt8(ascii: "0"))
      }
      configuration.keySequenceTimeoutMilliseconds = negative ? 0 : milliseconds
    case "bell-style":
      switch value {
      case "", "audible", "on": configuration.bellStyle = .audible
      case "none", "off": configuration.bellStyle = .none
      case "visible": configuration.bellStyle = .visible
      default: return
      }
    case "enable-bracketed-paste": configuration.enablesBracketedPaste = isOn
    case "show-mode-in-prompt": configuration.showsModeInPrompt = isOn
    case "emacs-mode-string": configuration.emacsModeString = Self.modeString(rest)
    case "vi-ins-mode-string": configuration.viInsertModeString = Self.modeString(rest)
    case "vi-cmd-mode-string": configuration.viCommandModeString = Self.modeString(rest)
    default:
      return  // readline's other variables, and unknown ones: accepted, no effect
    }
  }

  /// A mode string's value: quoted or the rest of the line, its escapes
  /// read as a key sequence's are, and without readline's `\1`…`\2` parts
  /// (invisible escape sequences, which filenote does not send).
  private static func modeString(_ value: ArraySlice<UInt8>) -> String {
    let raw: ArraySlice<UInt8>
    if value.first == UInt8(ascii: "\"") {
      raw = quoted(value).body
    } else {
      raw = trimmed(value)
    }
    var text: [UInt8] = []
    var invisible = false
    for byte in InputrcKeySequence.bytes(of: raw) {
      switch byte {
      case 0x01: invisible = true
      case 0x02: invisible = false
      default: if !invisible { text.append(byte) }
      }
    }
    return String(decoding: text, as: UTF8.self)
  }

  // MARK: - Key bindings

  private mutating func bindKey(_ line: ArraySlice<UInt8>) {
    var keyBytes: [UInt8]
    var rest: ArraySlice<UInt8>
    if line.first == UInt8(ascii: "\"") {
      let (body, after) = Self.quoted(line)
      keyBytes = InputrcKeySequence.bytes(of: body)
      rest = after
    } else {
      let name = line.prefix { $0 != UInt8(ascii: ":") && !Self.isBlank($0) }
      guard let bytes = InputrcKeySequence.bytes(ofKeyName: name) else { return }
      keyBytes = bytes
      rest = line.dropFirst(name.count)
    }
    guard let colon = rest.firstIndex(of: UInt8(ascii: ":")) else { return }
    let value = rest[(colon + 1)...].drop(while: Self.isBlank)
    let action: KeyBindings.Action
    if let quote = value.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
      let body = Self.quoted(value).body
      action = .macro(String(decoding: InputrcKeySequence.bytes(of: body), as: UTF8.self))
    } else {
      // A function filenote does not implement (readline's `complete`) or
      // an unknown name leaves the key doing nothing, as readline leaves it.
      let name = String(decoding: Self.word(value), as: UTF8.self)
      action = ReadlineFunction(name: name).map { .function($0) } ?? .macro("")
    }
    var decoder = KeyDecoder()
    let keys = keymapPrefix + decoder.decode(keyBytes) + decoder.flush()
    configuration[bindingsOf: keymap].bind(keys, to: action)
  }

  // MARK: - Reading words

  /// The text between the quote `line` starts with and the same quote
  /// again (a backslash escapes the next byte), and what follows it.
  static func quoted(
    _ line: ArraySlice<UInt8>
  ) -> (body: ArraySlice<UInt8>, after: ArraySlice<UInt8>) {
    guard let quote = line.first else { return (line, line) }
    var index = line.startIndex + 1
    while index < line.endIndex && line[index] != quote {
      index += line[index] == UInt8(ascii: "\\") ? 2 : 1
    }
    let end = min(index, line.endIndex)
    return (line[(line.startIndex + 1)..<end], line[min(end + 1, line.endIndex)...])
  }

  /// The bytes of `line` up to the first blank.
  private static func word(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    line.prefix { !isBlank($0) }
  }

  /// `line` without blanks at its end.
  private static func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var end = line.endIndex
    while end > line.startIndex && isBlank(line[end - 1]) { end -= 1 }
    return line[line.startIndex..<end]
  }

  /// ASCII letters in lowercase, other bytes as they are, as a String.
  private static func lowercased(_ bytes: ArraySlice<UInt8>) -> String {
    String(
      decoding: bytes.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
  }

  private static func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
  }
}
