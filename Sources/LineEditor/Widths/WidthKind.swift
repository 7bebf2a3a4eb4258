/// The kinds of user-perceived character (grapheme cluster) that terminals
/// draw at different widths, so that the line editor asks the terminal instead of
/// assuming (see `MeasuredWidths`).
///
/// Measured in xterm, VTE, kitty, alacritty and tmux: a family joined by
/// U+200D is one two-column picture in tmux and three in the others; a heart
/// with U+FE0F is one column in xterm, VTE, alacritty and tmux, two in kitty;
/// a thumbs-up with a skin tone is two pictures (four columns) everywhere but
/// kitty. Flags are two columns everywhere tried, but as a pair of code
/// points that are one column each in most width tables, so they are asked
/// about too. Every other character is drawn at the width `DisplayWidth`
/// gives it by all of them.
public enum WidthKind: Int, CaseIterable, Hashable, Sendable, Comparable {
  /// Emoji joined by U+200D ZERO WIDTH JOINER (`👨‍👩‍👧`).
  case joinedEmoji
  /// A pair of regional indicators (`🇫🇷`).
  case flag
  /// An emoji with a skin-tone modifier, U+1F3FB–U+1F3FF (`👍🏽`).
  case skinTone
  /// An emoji asked to be a picture by U+FE0F VARIATION SELECTOR-16 (`❤️`).
  case emojiVariation

  /// The kind of `character`, or nil for a character every terminal draws
  /// at the width `DisplayWidth` gives it.
  ///
  /// A character that is a single code point is never of a kind, so the
  /// common case costs one look at the first two scalars.
  public init?(of character: Character) {
    var scalars = character.unicodeScalars.makeIterator()
    guard let base = scalars.next(), let second = scalars.next() else { return nil }
    if Self.isRegionalIndicator(base) {
      guard Self.isRegionalIndicator(second) else { return nil }
      self = .flag
      return
    }
    guard base.properties.isEmoji else { return nil }
    var next: Unicode.Scalar? = second
    var hasModifier = false
    var hasVariationSelector = false
    while let scalar = next {
      switch scalar {
      case DisplayWidth.zeroWidthJoiner:
        self = .joinedEmoji
        return
      case DisplayWidth.variationSelector16: hasVariationSelector = true
      default: if scalar.properties.isEmojiModifier { hasModifier = true }
      }
      next = scalars.next()
    }
    if hasModifier {
      self = .skinTone
    } else if hasVariationSelector {
      self = .emojiVariation
    } else {
      return nil
    }
  }

  /// A character of this kind, written to the terminal to measure it. Each
  /// one is drawn at different widths by different terminals (see the type's
  /// documentation), so its width tells which way the terminal draws the kind.
  public var sample: Character {
    switch self {
    case .joinedEmoji: return "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
    case .flag: return "\u{1F1EB}\u{1F1F7}"
    case .skinTone: return "\u{1F44D}\u{1F3FD}"
    case .emojiVariation: return "\u{2764}\u{FE0F}"
    }
  }

  /// A short name for messages and tests.
  public var name: String {
    switch self {
    case .joinedEmoji: return "emoji joined by U+200D"
    case .flag: return "flag"
    case .skinTone: return "emoji with a skin tone"
    case .emojiVariation: return "emoji with U+FE0F"
    }
  }

  public static func < (left: WidthKind, right: WidthKind) -> Bool {
    left.rawValue < right.rawValue
  }

  static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
    (0x1F1E6...0x1F1FF).contains(scalar.value)
  }
}
