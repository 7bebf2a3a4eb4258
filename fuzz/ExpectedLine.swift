/// What the edit line must show when the text is scrolled so that `anchor` is
/// its first visible Character, written from the rules `Renderer` documents
/// rather than from its code:
///
/// - the prompt, unless fewer than `Renderer.minimumTextColumns` columns would
///   be left for the text; the last column is never written;
/// - a reverse `<` when text before `anchor` is cut off;
/// - then as many whole Characters as fit, leaving room for a reverse `>`
///   when text after them is cut off, blanks standing for the columns of a
///   wide Character that did not fit;
/// - the cursor on its Character, or after the last visible one.
struct ExpectedLine {
  /// Everything drawn, prompt and markers included, left to right.
  private(set) var cells: [Cell] = []
  /// The Characters of the text that are drawn.
  private(set) var visible: Range<Int>
  /// The column the cursor must rest at.
  private(set) var cursorColumn: Int
  /// Columns drawn in all.
  private(set) var columns = 0

  /// Columns left for the text (markers included) after the prompt.
  static func textBudget(width: Int, promptColumns: Int) -> (start: Int, budget: Int) {
    let writable = width - 1
    let showsPrompt = writable - promptColumns >= Renderer.minimumTextColumns
    let start = showsPrompt ? promptColumns : 0
    return (start, max(writable - start, 0))
  }

  init(
    prompt: [Cell], text: TextBuffer, cursor: Int, anchor: Int, width: Int, promptColumns: Int,
    widths: MeasuredWidths
  ) {
    let (textStart, budget) = Self.textBudget(width: width, promptColumns: promptColumns)
    if textStart > 0 {
      cells = prompt
    }
    var used = 0
    if anchor > 0 && budget > 0 {
      cells.append(.leftMarker)
      used = 1
    }
    var cursorOffset: Int?
    var end = anchor
    while end < text.count {
      let cell = Cell(text[end], widths: widths)
      let isLast = end == text.count - 1
      // A Character that is not the last needs a column after it for `>`,
      // unless what follows it fits too, which this same test finds later.
      if used + cell.columns + (isLast ? 0 : 1) > budget { break }
      if end == cursor { cursorOffset = used }
      cells.append(cell)
      used += cell.columns
      end += 1
    }
    visible = anchor..<end
    if end < text.count && used + 1 <= budget {
      cells.append(contentsOf: repeatElement(.blank, count: budget - 1 - used))
      cells.append(.rightMarker)
    }
    cursorColumn = min(textStart + (cursorOffset ?? used), width - 1)
    columns = cells.reduce(0) { $0 + $1.columns }
  }

  /// Whether the cursor's Character (or the end of the text) is on screen.
  func showsCursor(_ cursor: Int, textCount: Int) -> Bool {
    visible.contains(cursor) || (cursor == textCount && visible.upperBound == textCount)
  }

  /// The line as scalars and attributes, as `TerminalLine` reads it back.
  var glyphs: [TerminalLine.Glyph] {
    cells.flatMap { cell in
      cell.glyph.unicodeScalars.map { TerminalLine.Glyph(scalar: $0, isReversed: cell.isReversed) }
    }
  }
}
