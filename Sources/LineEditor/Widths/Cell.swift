/// One Character of the edit line as the renderer draws it: the character
/// itself at its display width, or a one-column stand-in in reverse video.
///
/// Every cell is at least one column wide, never zero: characters that would
/// be invisible get a stand-in, so the cursor always has somewhere to be.
/// Most are one or two; a character a terminal draws apart (an emoji
/// sequence) may be wider.
struct Cell: Equatable {
  /// What is written to the terminal.
  let glyph: Character
  /// Columns the glyph occupies: 1 or 2, more for an emoji sequence drawn
  /// apart.
  let columns: Int
  /// Drawn in reverse video, so a stand-in or an edge marker cannot be
  /// mistaken for the same symbol typed in the text.
  let isReversed: Bool
  /// The kind of the character when its width is a guess, because the
  /// widths it was made with have not measured that kind.
  let unmeasuredKind: WidthKind?

  /// The cell that draws `character` of the text (or of the prompt) at the
  /// width `DisplayWidth` gives it.
  init(_ character: Character) {
    self.init(character, widths: MeasuredWidths())
  }

  /// The cell that draws `character` of the text (or of the prompt), as wide
  /// as the terminal draws it according to `widths`.
  init(_ character: Character, widths: MeasuredWidths) {
    // Most cells: one plain scalar, drawn as itself, of no kind a terminal
    // is asked about; known from one look rather than three.
    if let columns = DisplayWidth.plainColumns(of: character) {
      self.init(glyph: character, columns: columns, isReversed: false)
      return
    }
    if let standIn = DisplayWidth.standIn(for: character) {
      self.init(glyph: standIn, columns: 1, isReversed: true)
    } else {
      let kind = WidthKind(of: character)
      self.init(
        glyph: character, columns: widths.columns(of: character, kind: kind), isReversed: false,
        unmeasuredKind: kind.flatMap { widths[$0] == nil ? $0 : nil })
    }
  }

  private init(
    glyph: Character, columns: Int, isReversed: Bool, unmeasuredKind: WidthKind? = nil
  ) {
    self.glyph = glyph
    self.columns = columns
    self.isReversed = isReversed
    self.unmeasuredKind = unmeasuredKind
  }

  /// The cell as drawn inside a search match, which is highlighted in reverse
  /// video as readline highlights it: a stand-in there is drawn in normal
  /// video instead, so it still stands out from the text around it.
  var highlighted: Cell {
    Cell(glyph: glyph, columns: columns, isReversed: !isReversed, unmeasuredKind: unmeasuredKind)
  }

  /// Drawn at the left edge when text before the visible part is cut off.
  static let leftMarker = Cell(glyph: "<", columns: 1, isReversed: true)
  /// Drawn at the right edge when text after the visible part is cut off.
  static let rightMarker = Cell(glyph: ">", columns: 1, isReversed: true)
  /// Fills a column left free, e.g. where a wide character did not fit.
  static let blank = Cell(glyph: " ", columns: 1, isReversed: false)
}
