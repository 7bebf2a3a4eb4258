/// One Character of the edit line as the renderer draws it: the character
/// itself at its display width, or a one-column stand-in in reverse video.
///
/// Every cell is one or two columns wide, never zero: characters that would
/// be invisible get a stand-in, so the cursor always has somewhere to be.
struct Cell: Equatable {
  /// What is written to the terminal.
  let glyph: Character
  /// Columns the glyph occupies: 1 or 2.
  let columns: Int
  /// Drawn in reverse video, so a stand-in or an edge marker cannot be
  /// mistaken for the same symbol typed in the text.
  let isReversed: Bool

  /// The cell that draws `character` of the text (or of the prompt).
  init(_ character: Character) {
    if let standIn = DisplayWidth.standIn(for: character) {
      self.init(glyph: standIn, columns: 1, isReversed: true)
    } else {
      self.init(glyph: character, columns: DisplayWidth.columns(of: character), isReversed: false)
    }
  }

  private init(glyph: Character, columns: Int, isReversed: Bool) {
    self.glyph = glyph
    self.columns = columns
    self.isReversed = isReversed
  }

  /// The cell as drawn inside a search match, which is highlighted in reverse
  /// video as readline highlights it: a stand-in there is drawn in normal
  /// video instead, so it still stands out from the text around it.
  var highlighted: Cell {
    Cell(glyph: glyph, columns: columns, isReversed: !isReversed)
  }

  /// Drawn at the left edge when text before the visible part is cut off.
  static let leftMarker = Cell(glyph: "<", columns: 1, isReversed: true)
  /// Drawn at the right edge when text after the visible part is cut off.
  static let rightMarker = Cell(glyph: ">", columns: 1, isReversed: true)
  /// Fills a column left free, e.g. where a wide character did not fit.
  static let blank = Cell(glyph: " ", columns: 1, isReversed: false)
}
