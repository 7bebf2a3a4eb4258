/// The two rows the prompt owns on the terminal, the hint and below it the
/// edit line, and the bytes that keep them up to date: after each key,
/// afresh below other output, and in place after the terminal changed width.
///
/// Only these rows are ever written: a resize redraws them where the
/// terminal put them, never clearing the screen above (the shell's output).
/// Each row is cut to the width, so neither wraps; when the window narrows,
/// the terminal itself may rewrap them onto more rows (tmux, VTE, kitty and
/// alacritty do; xterm cuts them), and `rowsAboveCursor` says where the hint
/// then starts.
///
/// The hint follows the line: each entry (the line the prompt opened with,
/// each version) has its own, rewritten only when the entry on screen or
/// the width changes, so most keys cost the line's bytes alone.
public struct PromptScreen: Sendable {
  /// What is on the hint row: whose hint, cut to which width, how wide.
  private struct DrawnHint: Equatable, Sendable {
    let entry: Int
    let width: Int
    let columns: Int
    /// The vi mode the hint names; nil in emacs mode.
    let mode: ViMode?
  }

  private var renderer: Renderer
  /// `hints[k]` is shown while entry `k` is on screen; an entry without one
  /// shows `hints[0]`.
  private var hints: [Hint] = []
  /// Whether the hint is drawn dim (see `show(_:dimmed:)`).
  public private(set) var isDimmed = false
  /// The hint row as last drawn; nil when it may not be on screen as drawn.
  private var drawnHint: DrawnHint?
  /// The width the rows were last drawn at; 0 before the first draw.
  private var drawnWidth = 0

  /// Rows whose line starts with `prompt` (see `Renderer.init(prompt:)`).
  public init(prompt: String) {
    renderer = Renderer(prompt: prompt)
  }

  /// What the edit line starts with (see `Renderer.prompt`).
  public var prompt: String {
    get { renderer.prompt }
    set { renderer.prompt = newValue }
  }

  /// How wide the terminal draws the kinds of character terminals disagree
  /// on (see `Renderer.widths`); setting it forgets the line on screen.
  public var widths: MeasuredWidths {
    get { renderer.widths }
    set { renderer.widths = newValue }
  }

  /// The kinds the last render drew at a guessed width (see
  /// `Renderer.unmeasuredKinds`).
  public var unmeasuredKinds: [WidthKind] { renderer.unmeasuredKinds }

  /// Shows `hints` from the next draw on (`hints[k]` for entry `k`, dimmed
  /// when `dimmed`).
  public mutating func show(_ hints: [Hint], dimmed: Bool) {
    self.hints = hints
    isDimmed = dimmed
    drawnHint = nil
  }

  /// Bytes that bring both rows up to date, the cursor being on the edit
  /// line: the line as `Renderer.render(_:width:)` draws it, and the hint
  /// above it only when another entry is on screen. When the width is not
  /// the one last drawn at, both rows are drawn again in place instead
  /// (`renderHintInPlace`, then the line).
  public mutating func render(_ state: EditState, width: Int) -> [UInt8] {
    if drawnWidth != 0 && width != drawnWidth {
      return renderHintInPlace(state, width: width) + render(state, width: width)
    }
    var bytes: [UInt8] = []
    let entry = hintEntry(of: state)
    if drawnHint?.entry != entry || drawnHint?.width != width || drawnHint?.mode != state.viMode {
      // Up to the hint's row and back: the line's render returns to its
      // first column and draws it whole.
      bytes =
        TerminalCode.cursorUp(1) + hintRow(entry, of: state, width: width)
        + TerminalCode.cursorDown(1)
      renderer.invalidate()
    }
    bytes += renderer.render(state, width: width)
    drawnWidth = width
    return bytes
  }

  /// Bytes that draw the hint from the start of the cursor's row (below
  /// other output, or on a cleared screen) and go to the start of the row
  /// below, where `render` then draws the line.
  ///
  /// The hint is written before the line is rendered, so that asking the
  /// terminal how wide it draws a character (which a render may need) is
  /// done on the line's own row, below a hint already on screen.
  public mutating func renderHintAfresh(_ state: EditState, width: Int) -> [UInt8] {
    hintAndNewLine(state, width: width, erasingBelowHint: false)
  }

  /// Bytes that go back to where the hint is after the terminal may have
  /// changed width (a resize; a stop and resume), as the terminal rewrapped
  /// the rows, draw the hint there, and erase everything below it; `render`
  /// then draws the line on the row below.
  ///
  /// The hint's row is written over, not erased with the rows below it:
  /// tmux keeps a screen erased from its first row in its history, which
  /// would then hold a stale copy of both rows.
  public mutating func renderHintInPlace(_ state: EditState, width: Int) -> [UInt8] {
    guard drawnWidth > 0, let drawnHint else { return renderHintAfresh(state, width: width) }
    let rows = Self.rowsAboveCursor(
      hintColumns: drawnHint.columns, lineColumns: renderer.drawnColumns,
      cursorColumn: renderer.cursorColumn, drawnAt: drawnWidth, now: width)
    return TerminalCode.cursorUp(rows) + hintAndNewLine(state, width: width, erasingBelowHint: true)
  }

  /// Forgets what is on screen, so the next render draws both rows whole
  /// (after Ctrl-L cleared the screen, or other output).
  public mutating func invalidate() {
    drawnHint = nil
    renderer.invalidate()
  }

  /// How many rows above the cursor's the hint starts once a terminal that
  /// rewraps lines on resize has rewrapped the rows drawn at `old` columns
  /// (the hint `hintColumns` wide, the line `lineColumns`, the cursor in
  /// column `cursorColumn` of it) to `new` columns.
  ///
  /// Rows never wider than the window are not rewrapped when it widens, so
  /// the hint is the row above. When it narrows, each row takes as many rows
  /// as its columns fill, and the cursor moves down with the part of the
  /// line it is in. A cursor just past the end of a line that exactly fills
  /// its rows stays on the last of them (past its last column), as tmux
  /// leaves it.
  public static func rowsAboveCursor(
    hintColumns: Int, lineColumns: Int, cursorColumn: Int, drawnAt old: Int, now new: Int
  ) -> Int {
    guard new < old, new > 0 else { return 1 }
    let hintRows = max(1, (hintColumns + new - 1) / new)
    var cursorRow = cursorColumn / new
    if cursorRow > 0 && cursorColumn % new == 0 && cursorColumn >= lineColumns {
      cursorRow -= 1
    }
    return hintRows + cursorRow
  }

  /// The hint from the first column of the cursor's row, then the start of
  /// the row below, for the line; with the rest of the screen below the
  /// hint erased when `erasingBelowHint`.
  private mutating func hintAndNewLine(
    _ state: EditState, width: Int, erasingBelowHint: Bool
  ) -> [UInt8] {
    renderer.invalidate()
    drawnWidth = width
    return hintRow(hintEntry(of: state), of: state, width: width) + TerminalCode.newLine
      + (erasingBelowHint ? TerminalCode.clearToEndOfScreen : [])
  }

  /// The entry whose hint is shown for `state`.
  private func hintEntry(of state: EditState) -> Int {
    let entry = state.entryOnScreen
    return entry < hints.count ? entry : 0
  }

  /// The hint of `entry` cut to `width`, naming the vi mode `state` is in
  /// first, from the first column of the cursor's row, the rest of the row
  /// erased; recorded as drawn.
  private mutating func hintRow(_ entry: Int, of state: EditState, width: Int) -> [UInt8] {
    let mode = state.viMode
    var text = ""
    if !hints.isEmpty {
      var hint = hints[entry]
      hint.mode = mode?.hintForms ?? []
      text = hint.text(forWidth: width)
    }
    drawnHint = DrawnHint(
      entry: entry, width: width, columns: DisplayWidth.columns(ofText: text), mode: mode)
    let plain = Array(text.utf8)
    let styled =
      isDimmed && !plain.isEmpty ? TerminalCode.dim + plain + TerminalCode.normalIntensity : plain
    return TerminalCode.carriageReturn + styled + TerminalCode.clearToEndOfLine
  }
}
