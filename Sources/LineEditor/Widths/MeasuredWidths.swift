/// How wide one terminal draws each `WidthKind`, as measured on it: the data
/// the renderer places cells by.
///
/// A kind not measured (yet) is drawn at the width `DisplayWidth` gives it.
/// The terminal layer measures a kind by writing its `WidthKind.sample` and
/// asking where the cursor went, then records what it saw with
/// `record(_:for:)`; this type stays pure, the widths enter it as data.
public struct MeasuredWidths: Equatable, Sendable {
  /// How a terminal draws the characters of one kind.
  public enum Behaviour: Equatable, Sendable {
    /// Piece by piece, as if each piece stood alone: the emoji of a joined
    /// sequence one after the other (each as its own kind is drawn), or the
    /// code points of the other kinds each at its own width (a heart then
    /// an invisible U+FE0F: one column). What most terminals do, and what is
    /// assumed of a terminal that does not answer.
    case apart
    /// As one character this many columns wide.
    case whole(columns: Int)
  }

  // One stored property per kind rather than a dictionary: the renderer
  // makes one value per drawn cell, which must not allocate.
  private var joinedEmoji: Behaviour?
  private var flag: Behaviour?
  private var skinTone: Behaviour?
  private var emojiVariation: Behaviour?

  /// Nothing measured: every character at the width `DisplayWidth` gives it.
  public init() {}

  /// How `kind` is drawn, or nil while it is not measured.
  public subscript(kind: WidthKind) -> Behaviour? {
    get {
      switch kind {
      case .joinedEmoji: return joinedEmoji
      case .flag: return flag
      case .skinTone: return skinTone
      case .emojiVariation: return emojiVariation
      }
    }
    set {
      switch kind {
      case .joinedEmoji: joinedEmoji = newValue
      case .flag: flag = newValue
      case .skinTone: skinTone = newValue
      case .emojiVariation: emojiVariation = newValue
      }
    }
  }

  /// Records that the terminal advanced its cursor `columns` columns when it
  /// drew `kind.sample` by itself, as the behaviour that explains it: `apart`
  /// when drawing the pieces apart gives that width, else one character that
  /// wide.
  public mutating func record(_ columns: Int, for kind: WidthKind) {
    let apart = Self.allApart.columns(of: kind.sample)
    self[kind] = columns == apart ? .apart : .whole(columns: columns)
  }

  /// Each of `kinds` (every kind by default) not measured yet is taken to
  /// be drawn `apart`: for a terminal that did not answer, so that it is
  /// never asked again.
  public mutating func assumeApartWhereUnmeasured(_ kinds: [WidthKind] = WidthKind.allCases) {
    for kind in kinds where self[kind] == nil {
      self[kind] = .apart
    }
  }

  /// Whether every kind is measured (or assumed), so nothing is left to ask.
  public var isComplete: Bool {
    joinedEmoji != nil && flag != nil && skinTone != nil && emojiVariation != nil
  }

  /// The number of columns `character` occupies on the measured terminal.
  /// Like `DisplayWidth.columns(of:)`, meant for printable characters.
  public func columns(of character: Character) -> Int {
    columns(of: character, kind: WidthKind(of: character))
  }

  /// `columns(of:)` for a character whose kind is known already.
  func columns(of character: Character, kind: WidthKind?) -> Int {
    guard let kind, let behaviour = self[kind] else {
      return DisplayWidth.columns(of: character)
    }
    switch behaviour {
    case .whole(let columns):
      return columns
    case .apart where kind == .joinedEmoji:
      // Each emoji between the joiners as it would be drawn alone (one with
      // a skin tone by that kind's behaviour); a piece is not itself joined.
      return character.unicodeScalars.split(separator: DisplayWidth.zeroWidthJoiner).reduce(0) {
        columns, piece in
        columns + String(String.UnicodeScalarView(piece)).reduce(0) { $0 + self.columns(of: $1) }
      }
    case .apart:
      return character.unicodeScalars.reduce(0) { $0 + DisplayWidth.columns(ofCodePoint: $1) }
    }
  }

  /// Every kind drawn `apart`.
  static let allApart: MeasuredWidths = {
    var widths = MeasuredWidths()
    widths.assumeApartWhereUnmeasured()
    return widths
  }()
}
