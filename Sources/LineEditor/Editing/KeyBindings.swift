/// The key sequences bound in one keymap by the user (an inputrc), each to a
/// readline function or to a macro, looked up before the keymap's own keys.
///
/// Sequences are kept in the form `EditState` reads keys in
/// (``canonical(_:)``): one Character per `.text` key, and Esc followed by a
/// key as that key with Alt, so `"\M-u"`, `"\eu"` and an Alt-U the terminal
/// sends in one write are the same binding.
public struct KeyBindings: Sendable, Equatable {
  /// What a bound sequence does.
  public enum Action: Sendable, Equatable {
    /// Runs the readline function.
    case function(ReadlineFunction)
    /// Reads the text as if it were typed (readline's macros): its
    /// characters and the keys its control characters stand for.
    case macro(String)
  }

  /// One bound sequence.
  public struct Binding: Sendable, Equatable {
    /// The keys, in canonical form (``KeyBindings/canonical(_:)``); never empty.
    public var keys: [Key]
    public var action: Action
  }

  /// How a sequence of keys read so far stands against the bindings.
  public enum Match: Sendable, Equatable {
    /// No binding starts with these keys.
    case none
    /// A longer binding starts with them; `exact` is what they are bound
    /// to themselves, if anything (run when no further key comes in time).
    case prefix(exact: Action?)
    /// They are bound, and no longer binding starts with them.
    case exact(Action)
  }

  /// The bindings, in the order they were made; a later binding of the same
  /// sequence overrides the earlier one (which is kept, so that binding is
  /// O(1) however long the inputrc).
  public private(set) var bindings: [Binding] = []

  /// No bindings.
  public init() {}

  /// Whether nothing is bound.
  public var isEmpty: Bool { bindings.isEmpty }

  /// Binds `keys` (as the decoder reads them) to `action`, overriding what
  /// they were bound to. An empty sequence binds nothing.
  public mutating func bind(_ keys: [Key], to action: Action) {
    let keys = Self.canonical(keys)
    guard !keys.isEmpty else { return }
    bindings.append(Binding(keys: keys, action: action))
  }

  /// How `keys` (canonical) stand against the bindings.
  public func match(_ keys: ArraySlice<Key>) -> Match {
    var exact: Action?
    var isPrefix = false
    for binding in bindings where binding.keys.count >= keys.count {
      guard binding.keys.starts(with: keys) else { continue }
      if binding.keys.count == keys.count {
        exact = binding.action
      } else {
        isPrefix = true
      }
    }
    if isPrefix { return .prefix(exact: exact) }
    if let exact { return .exact(exact) }
    return .none
  }

  /// Whether some binding starts with `key`: when none does, the key
  /// needs no lookup beyond its keymap's own keys.
  func binds(startingWith key: Key) -> Bool {
    bindings.contains { $0.keys[0] == key }
  }

  /// `keys` as `EditState` reads them: each `.text` key cut into one key
  /// per Character, and an Esc followed by a key read as that key with Alt
  /// (``Key/withMeta``).
  public static func canonical(_ keys: [Key]) -> [Key] {
    var result: [Key] = []
    var escapePending = false
    for key in keys {
      var pieces: [Key] = []
      if case .text(let text) = key {
        pieces = text.map { Key.text(String($0)) }
      } else {
        pieces = [key]
      }
      for piece in pieces {
        if escapePending {
          escapePending = false
          result.append(piece.withMeta)
        } else if piece == .escape {
          escapePending = true
        } else {
          result.append(piece)
        }
      }
    }
    if escapePending { result.append(.escape) }
    return result
  }
}

extension Key {
  /// This key read after an Esc: the same key with Alt held. A control
  /// key becomes Alt with its control character (Esc Ctrl-H is
  /// `.alt("\u{08}")`), Enter Alt with CR, Esc Alt with ESC; an arrow gets
  /// Alt among its modifiers. A paste, Delete, Home and End have no Alt
  /// form and stay as they are; so does an Alt key (Esc Esc x is not a key
  /// readline binds).
  public var withMeta: Key {
    switch self {
    case .text(let text):
      guard let first = text.first, first.unicodeScalars.count == 1 else { return self }
      return .alt(first)
    case .backspace: return .alt("\u{7F}")
    case .enter: return .alt("\r")
    case .escape: return .alt("\u{1B}")
    case .control(let name): return .alt(Key.controlCharacter(named: name))
    case .arrow(let arrow, let modifiers): return .arrow(arrow, modifiers.union(.alt))
    case .paste, .delete, .home, .end, .alt: return self
    }
  }

  /// The control character typed with Ctrl and `name`: "a" is U+0001,
  /// "@" U+0000, "_" U+001F (the names `.control` uses).
  static func controlCharacter(named name: Character) -> Character {
    guard let scalar = name.unicodeScalars.first, scalar.isASCII else { return name }
    return Character(Unicode.Scalar(UInt8(scalar.value) & 0x1F))
  }
}
