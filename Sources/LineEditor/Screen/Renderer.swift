/// Turns the edited text and cursor into the bytes that bring the one screen
/// line the line editor owns up to date.
///
/// The line is the prompt followed by as much of the text as fits. A text
/// wider than the terminal scrolls horizontally: the renderer keeps a scroll
/// anchor (the first visible Character) and moves it only when the cursor
/// would leave the window, so the view stays put while the cursor moves inside
/// it. Text cut off at an edge is marked by a reverse-video `<` or `>`.
///
/// Layout rules:
/// - The last terminal column is never written (a character there makes many
///   terminals wrap, or leaves them in a pending-wrap state); the cursor may
///   rest there after the last character of the text.
/// - A wide character that does not fit at the right edge is not cut in half:
///   its columns are left blank. The first visible character is always whole.
/// - Each character is as wide as `widths` says the terminal draws it (a
///   family emoji is six columns on a terminal that draws its emoji apart);
///   kinds not measured yet are guessed, and named in `unmeasuredKinds`.
/// - Control characters and invisible (zero-width) characters are drawn as
///   one-column stand-ins in reverse video (see `DisplayWidth.standIn(for:)`).
/// - When the terminal is too narrow for the prompt and four columns of text,
///   the prompt is not drawn; below that, whatever fits is drawn.
///
/// Each render reads only the Characters within about one screen width of
/// the anchor and the cursor, never the whole text, so its cost does not grow
/// with the length of the note.
public struct Renderer: Sendable {
  /// Used when the terminal reports a width of 0 (unknown).
  public static let defaultWidth = 80
  /// Text columns below which the prompt gives way to the text: room for an
  /// edge marker, a wide character and the other edge marker.
  static let minimumTextColumns = 4

  /// What the line starts with; setting it forgets what is on screen, so
  /// the next render draws the line whole (a mode string that changed).
  public var prompt: String {
    didSet {
      promptCells = prompt.map { Cell($0, widths: widths) }
      promptColumns = promptCells.reduce(0) { $0 + $1.columns }
      lastOutput = nil
    }
  }
  private var promptCells: [Cell]
  private var promptColumns: Int
  /// How wide the terminal draws the kinds of character terminals disagree
  /// on, as measured by the terminal layer; every cell is placed by it.
  /// Setting it forgets what is on screen.
  public var widths = MeasuredWidths() {
    didSet {
      promptCells = prompt.map { Cell($0, widths: widths) }
      promptColumns = promptCells.reduce(0) { $0 + $1.columns }
      lastOutput = nil
    }
  }
  /// The kinds of character (see `WidthKind`) the last render drew, or
  /// placed the cursor by, that `widths` has not measured: drawn at a guessed
  /// width. A session that can ask the terminal measures them and renders
  /// again before writing the guess.
  public private(set) var unmeasuredKinds: [WidthKind] = []
  /// Index of the first visible Character of the text.
  private var anchor = 0
  /// The bytes of the last render, or `nil` when what is on screen is unknown.
  private var lastOutput: [UInt8]?
  /// How many columns the last render drew, prompt and markers included: a
  /// session compares it with a new, narrower width to tell whether the
  /// terminal may have wrapped the line.
  public private(set) var drawnColumns = 0
  /// The column the last render left the cursor in: with `drawnColumns`,
  /// where the terminal puts it when it rewraps the line on a resize.
  public private(set) var cursorColumn = 0

  /// A renderer that draws `prompt` (e.g. `"> "`) at column 0, before the text.
  ///
  /// The prompt is plain text measured like the text itself; it cannot carry
  /// escape sequences (an ESC in it is drawn as a stand-in, like any control).
  public init(prompt: String) {
    self.prompt = prompt
    promptCells = prompt.map(Cell.init)
    promptColumns = promptCells.reduce(0) { $0 + $1.columns }
  }

  /// Bytes that redraw the edit line in place and leave the terminal cursor
  /// at the editing cursor.
  ///
  /// The terminal cursor must be somewhere on the edit line when the bytes
  /// are written. They return to column 0, draw the prompt and the visible
  /// part of the text, clear the rest of the line and place the cursor; no
  /// newline is ever written.
  ///
  /// Returns no bytes when the line would be drawn exactly as by the previous
  /// render; call `invalidate()` whenever the screen may have changed
  /// otherwise.
  ///
  /// - Parameters:
  ///   - text: The Characters being edited, indexed `0..<count`.
  ///   - cursor: The editing cursor, `0...text.count` (clamped to that range);
  ///     `text.count` is after the last Character.
  ///   - width: The terminal width in columns; 0 means unknown (80 is used).
  public mutating func render<Text: RandomAccessCollection>(
    _ text: Text, cursor: Int, width: Int
  ) -> [UInt8] where Text.Element == Character, Text.Index == Int {
    render(text, cursor: cursor, width: width, prompt: promptCells, promptColumns: promptColumns)
  }

  /// Bytes that redraw the edit line of `state`, as ``render(_:cursor:width:)``
  /// does: the prompt and the text being edited, or, while a search is in
  /// progress, readline's search prompt and the line found, the match in
  /// reverse video (stand-ins inside it in normal video) and the cursor at
  /// its start. A search prompt too wide to leave four columns of text is
  /// cut at its start, behind a `<` marker, so the end of the query stays
  /// in sight.
  public mutating func render(_ state: EditState, width: Int) -> [UInt8] {
    guard let search = state.searchLine else {
      return render(state.buffer, cursor: state.cursor, width: width)
    }
    let screenWidth = width > 0 ? width : Self.defaultWidth
    let room = screenWidth - 1 - Self.minimumTextColumns
    var prompt = search.prompt.map { Cell($0, widths: widths) }
    var columns = prompt.reduce(0) { $0 + $1.columns }
    if columns > room && room > Self.minimumTextColumns {
      while columns > room - Cell.leftMarker.columns {
        columns -= prompt.removeFirst().columns
      }
      prompt.insert(.leftMarker, at: 0)
      columns += Cell.leftMarker.columns
    }
    return render(
      search.buffer, cursor: search.cursor, width: width, prompt: prompt, promptColumns: columns,
      highlight: search.match)
  }

  private mutating func render<Text: RandomAccessCollection>(
    _ text: Text, cursor: Int, width: Int, prompt promptCells: [Cell], promptColumns: Int,
    highlight: Range<Int>? = nil
  ) -> [UInt8] where Text.Element == Character, Text.Index == Int {
    let screenWidth = width > 0 ? width : Self.defaultWidth
    let writableColumns = screenWidth - 1
    let showsPrompt = writableColumns - promptColumns >= Self.minimumTextColumns
    let textStart = showsPrompt ? promptColumns : 0
    let window = Window(
      text: text, budget: max(writableColumns - textStart, 0), highlight: highlight ?? 0..<0,
      widths: widths)
    let cursor = min(max(cursor, 0), window.count)

    anchor = window.anchor(following: anchor, toShow: cursor)
    let frame = window.frame(from: anchor)

    var output = Output()
    output.append(TerminalCode.carriageReturn)
    if showsPrompt {
      output.draw(promptCells)
    }
    output.draw(frame.cells)
    unmeasuredKinds = Self.unmeasuredKinds(in: showsPrompt ? promptCells : [], frame.cells)
    output.endReverse()
    drawnColumns = textStart + frame.cells.reduce(0) { $0 + $1.columns }
    output.append(TerminalCode.clearToEndOfLine)
    output.append(TerminalCode.carriageReturn)
    cursorColumn = min(textStart + frame.columns(before: cursor), writableColumns)
    if cursorColumn > 0 {
      output.append(TerminalCode.cursorForward(cursorColumn))
    }

    if output.bytes == lastOutput {
      return []
    }
    lastOutput = output.bytes
    return output.bytes
  }

  /// The kinds, each once and in order, of the cells drawn at a guessed
  /// width. Each cell knows its own, so this is one look per cell.
  private static func unmeasuredKinds(in prompt: [Cell], _ text: [Cell]) -> [WidthKind] {
    var kinds: [WidthKind] = []
    for cell in [prompt, text].joined() {
      if let kind = cell.unmeasuredKind, !kinds.contains(kind) {
        kinds.append(kind)
      }
    }
    return kinds.sorted()
  }

  /// Forgets what is believed to be on screen (after a resize, Ctrl-L, a
  /// resume or any other output), so the next render redraws the line fully.
  /// The scroll position is kept.
  public mutating func invalidate() {
    lastOutput = nil
  }
}

/// Bytes being written, tracking reverse video so a run of stand-ins shares
/// one pair of attribute changes.
private struct Output {
  var bytes: [UInt8] = []
  private var isReversed = false

  mutating func append(_ code: [UInt8]) {
    bytes.append(contentsOf: code)
  }

  mutating func draw(_ cells: [Cell]) {
    for cell in cells {
      if cell.isReversed != isReversed {
        append(cell.isReversed ? TerminalCode.reverseVideo : TerminalCode.noReverseVideo)
        isReversed = cell.isReversed
      }
      bytes.append(contentsOf: cell.glyph.utf8)
    }
  }

  /// Ends reverse video, so that erasing the line does not paint it reversed.
  mutating func endReverse() {
    if isReversed {
      append(TerminalCode.noReverseVideo)
      isReversed = false
    }
  }
}

/// What is visible of the text in a budget of columns: an optional left
/// marker, the cells of the Characters in `range`, blanks, an optional right
/// marker.
private struct Frame {
  /// Everything to draw after the prompt, left to right.
  var cells: [Cell]
  /// The visible Characters of the text.
  var range: Range<Int>
  /// Column, relative to the start of the text area, of each Character in
  /// `range`.
  var columnOffsets: [Int]
  /// Column, relative to the start of the text area, just after the last
  /// visible Character.
  var endColumn: Int

  /// Columns between the start of the text area and the Character at
  /// `index`, which is in `range` or just after it.
  func columns(before index: Int) -> Int {
    if range.contains(index) {
      return columnOffsets[index - range.lowerBound]
    }
    return endColumn
  }
}

/// The horizontal-scrolling arithmetic over one text and one column budget.
/// Every method reads at most about `budget` Characters.
private struct Window<Text: RandomAccessCollection>
where Text.Element == Character, Text.Index == Int {
  let text: Text
  /// Columns available to the text and its edge markers.
  let budget: Int
  /// The Characters drawn highlighted (a search match).
  let highlight: Range<Int>
  let widths: MeasuredWidths

  var count: Int { text.count }

  func cell(_ index: Int) -> Cell {
    let cell = Cell(text[text.startIndex + index], widths: widths)
    return highlight.contains(index) ? cell.highlighted : cell
  }

  func columns(_ index: Int) -> Int {
    cell(index).columns
  }

  /// Columns of the left marker a window starting at `anchor` needs.
  func leftMarkerColumns(_ anchor: Int) -> Int {
    anchor > 0 ? 1 : 0
  }

  /// The anchor to use now: `previous` when the cursor is still visible from
  /// it, else the nearest one that shows the cursor; then, when the end of
  /// the text is visible and columns are left over, moved back so that text
  /// fills them (after deleting at the end of a long line).
  func anchor(following previous: Int, toShow cursor: Int) -> Int {
    var anchor = min(previous, count)
    if cursor < anchor {
      anchor = cursor
    } else if !isVisible(cursor, from: anchor) {
      anchor = leftmostAnchor(showing: cursor)
    }
    return filledBack(anchor)
  }

  /// Whether the layout from `anchor` shows `cursor` (on its Character, or
  /// after the last one when `cursor == count`).
  func isVisible(_ cursor: Int, from anchor: Int) -> Bool {
    var used = leftMarkerColumns(anchor)
    var index = anchor
    while index < cursor {
      used += columns(index)
      if used > budget { return false }
      index += 1
    }
    return used + columnsNeeded(at: cursor) <= budget
  }

  /// Columns the cursor needs from its own position on: its Character, plus
  /// a right marker when more text follows; nothing at the end of the text.
  /// (When more than one Character follows, either they all fit, or a
  /// marker is needed: either way at least one column after the cursor's.)
  func columnsNeeded(at cursor: Int) -> Int {
    if cursor == count { return 0 }
    return columns(cursor) + (cursor == count - 1 ? 0 : 1)
  }

  /// The smallest anchor from which `cursor` is visible, found by walking
  /// backward from the cursor: the cursor ends up at the right edge.
  func leftmostAnchor(showing cursor: Int) -> Int {
    walkingBack(from: cursor, using: columnsNeeded(at: cursor))
  }

  /// The smallest anchor at or before `anchor` that still fits, when the
  /// Characters from `anchor` on already take `used` columns.
  private func walkingBack(from anchor: Int, using used: Int) -> Int {
    var used = used
    var anchor = anchor
    while anchor > 0 {
      let widened = used + columns(anchor - 1)
      if widened + leftMarkerColumns(anchor - 1) > budget { break }
      used = widened
      anchor -= 1
    }
    return anchor
  }

  /// `anchor`, moved back as long as everything from it to the end of the
  /// text still fits.
  func filledBack(_ anchor: Int) -> Int {
    guard anchor > 0 else { return anchor }
    var used = 0
    for index in anchor..<count {
      used += columns(index)
      if used + leftMarkerColumns(anchor) > budget { return anchor }
    }
    return walkingBack(from: anchor, using: used)
  }

  /// The cells to draw from `anchor`: as many whole Characters as fit, with
  /// the markers and blanks that keep every column accounted for.
  func frame(from anchor: Int) -> Frame {
    var cells: [Cell] = []
    let leftMarker = budget > 0 ? leftMarkerColumns(anchor) : 0
    if leftMarker > 0 {
      cells.append(.leftMarker)
    }
    var used = leftMarker
    var offsets: [Int] = []
    var end = anchor
    while end < count {
      let next = cell(end)
      if used + next.columns > budget { break }
      offsets.append(used)
      cells.append(next)
      used += next.columns
      end += 1
    }
    if end < count {
      // Text is cut off on the right: make room for the marker, dropping
      // Characters from the end if needed.
      while used + 1 > budget && end > anchor {
        end -= 1
        used -= cells.removeLast().columns
        offsets.removeLast()
      }
    }
    let endColumn = used
    if end < count && used + 1 <= budget {
      // Blanks where a wide Character did not fit keep the marker at the edge.
      cells.append(contentsOf: repeatElement(.blank, count: budget - 1 - used))
      cells.append(.rightMarker)
    }
    return Frame(cells: cells, range: anchor..<end, columnOffsets: offsets, endColumn: endColumn)
  }
}
