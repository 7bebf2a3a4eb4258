import Testing

@testable import LineEditor

/// A terminal of many rows as `PromptScreen`'s bytes leave it, one column a
/// Character: it understands what the screen writes (text, `\r`, `\r\n`,
/// `ESC[<n>A`, `ESC[<n>B`, `ESC[<n>C`, `ESC[K`, `ESC[J`, the attributes,
/// which it ignores) and records anything else, or a write into the last
/// column, as a problem. On a resize it rewraps its rows as tmux does (a
/// rewrapping terminal): each line is split at the new width, rows that
/// were split are joined again when the width allows, and the cursor moves
/// with the character it was on.
private struct RowTerminal {
  /// One row, and whether it continues on the next (the terminal wrapped it).
  struct Row {
    var cells: [Character] = []
    var wraps = false
  }

  private(set) var width: Int
  private(set) var rows: [Row] = [Row()]
  private(set) var cursor = (row: 0, column: 0)
  private(set) var problems: [String] = []

  init(width: Int) {
    self.width = width
  }

  /// The rows as text, trailing blanks and trailing empty rows left out.
  var lines: [String] {
    var lines = rows.map { String($0.cells).replacing(#/ +$/#, with: "") }
    while lines.last == "" { lines.removeLast() }
    return lines
  }

  /// Output from something else: the shell's lines before the prompt opens.
  mutating func print(_ line: String) {
    apply(Array((line + "\r\n").utf8))
  }

  mutating func apply(_ bytes: [UInt8]) {
    for piece in TerminalOutput.pieces(of: bytes) {
      switch piece {
      case .sequence(let parameter, let final): control(Int(parameter) ?? 0, parameter, final)
      case .strayEscape: problems.append("ESC not followed by [")
      case .scalar("\r"): cursor.column = 0
      case .scalar("\n"):
        cursor.row += 1
        if cursor.row == rows.count { rows.append(Row()) }
      case .scalar(let scalar) where scalar.value < 0x20:
        problems.append("raw control U+\(String(scalar.value, radix: 16))")
      case .scalar(let scalar): write(Character(scalar))
      }
    }
  }

  private mutating func write(_ character: Character) {
    guard cursor.column < width - 1 else {
      problems.append("wrote \(character) in column \(cursor.column) of \(width)")
      return
    }
    var row = rows[cursor.row].cells
    while row.count <= cursor.column { row.append(" ") }
    row[cursor.column] = character
    rows[cursor.row].cells = row
    cursor.column += 1
  }

  private mutating func control(_ count: Int, _ parameter: String, _ final: Unicode.Scalar?) {
    switch final {
    case "A": cursor.row = max(cursor.row - max(count, 1), 0)
    case "B": cursor.row = min(cursor.row + max(count, 1), rows.count - 1)
    case "C": cursor.column = min(cursor.column + max(count, 1), width - 1)
    case "K":
      rows[cursor.row].cells = Array(rows[cursor.row].cells.prefix(cursor.column))
      rows[cursor.row].wraps = false
    case "J":
      rows[cursor.row].cells = Array(rows[cursor.row].cells.prefix(cursor.column))
      rows[cursor.row].wraps = false
      rows.removeSubrange((cursor.row + 1)...)
    case "m" where ["2", "22", "7", "27"].contains(parameter): break
    default:
      problems.append("unexpected sequence ESC[\(parameter)\(final.map(String.init) ?? "")")
    }
  }

  /// Changes the width as a rewrapping terminal does.
  mutating func resize(to newWidth: Int) {
    // The lines, each the rows it was wrapped onto joined again, and where
    // in them the cursor is.
    var lines: [[Character]] = []
    var cursorLine = 0
    var cursorOffset = 0
    var current: [Character] = []
    for (index, row) in rows.enumerated() {
      if index == cursor.row {
        cursorLine = lines.count
        cursorOffset = current.count + cursor.column
      }
      current +=
        row.wraps ? row.cells + Array(repeating: " ", count: width - row.cells.count) : row.cells
      if !row.wraps {
        lines.append(current)
        current = []
      }
    }
    width = newWidth
    rows = []
    for (index, line) in lines.enumerated() {
      let start = rows.count
      var rest = line[...]
      repeat {
        rows.append(Row(cells: Array(rest.prefix(newWidth)), wraps: rest.count > newWidth))
        rest = rest.dropFirst(newWidth)
      } while !rest.isEmpty
      if index == cursorLine {
        var row = cursorOffset / newWidth
        var column = cursorOffset % newWidth
        // Just past the end of a line that fills its last row: tmux leaves
        // the cursor past that row's last column.
        if row > 0 && column == 0 && cursorOffset >= line.count {
          row -= 1
          column = newWidth
        }
        while start + row >= rows.count { rows.append(Row()) }
        cursor = (start + row, min(column, newWidth - 1))
      }
    }
  }
}

/// The prompt's rows on a `RowTerminal`, drawn as the session draws them.
private struct Prompt {
  var screen = PromptScreen(prompt: "> ")
  var terminal: RowTerminal
  var state: EditState

  init(width: Int, shellLines: Int = 3, text: String, versions: [String] = []) {
    terminal = RowTerminal(width: width)
    for index in 1...shellLines { terminal.print("shell line \(index)") }
    state = EditState(text: text, versions: versions)
    screen.show(
      [Self.noteHint] + versions.indices.map { Hint(subject: "version \($0 + 1)") },
      dimmed: true)
    terminal.apply(screen.renderHintAfresh(state, width: width))
    terminal.apply(screen.render(state, width: width))
  }

  static let noteHint = Hint(
    subject: "~/Documents/datafile.dat",
    details: ["Enter saves", "Ctrl-C cancels", "Ctrl-X Ctrl-E: editor"])

  mutating func press(_ key: Key) {
    _ = state.handle(key)
    terminal.apply(screen.render(state, width: terminal.width))
  }

  mutating func resize(to width: Int) {
    terminal.resize(to: width)
    terminal.apply(screen.renderHintInPlace(state, width: width))
    terminal.apply(screen.render(state, width: width))
  }
}

@Suite struct PromptScreenTests {
  @Test func theHintCutToTheWidthIsDrawnAboveTheLine() {
    let prompt = Prompt(width: 30, shellLines: 1, text: "buy milk")
    #expect(
      prompt.terminal.lines == ["shell line 1", "…/datafile.dat · Enter saves", "> buy milk"])
    #expect(prompt.terminal.problems == [])
    #expect(prompt.terminal.cursor == (2, 10))
  }

  @Test func aKeyThatKeepsTheEntryWritesTheLineAlone() {
    var screen = PromptScreen(prompt: "> ")
    var state = EditState(text: "note")
    screen.show([Prompt.noteHint], dimmed: false)
    _ = screen.renderHintAfresh(state, width: 80)
    _ = screen.render(state, width: 80)
    _ = state.handle(.text("!"))
    let bytes = String(decoding: screen.render(state, width: 80), as: UTF8.self)
    #expect(!bytes.contains("datafile"), "the hint is not written again: \(bytes.debugDescription)")
    #expect(bytes.contains("note!"))
  }

  @Test func upShowsTheVersionsHintOnTheRowAboveAndDownTheNotesAgain() {
    var prompt = Prompt(width: 40, shellLines: 1, text: "new", versions: ["old"])
    prompt.press(.arrow(.up, []))
    #expect(prompt.terminal.lines == ["shell line 1", "version 1", "> old"])
    prompt.press(.arrow(.down, []))
    #expect(
      prompt.terminal.lines == ["shell line 1", "~/Documents/datafile.dat · Enter saves", "> new"])
    #expect(prompt.terminal.problems == [])
  }

  @Test(arguments: [0, 1, 5, 30, 45, 65])
  func aResizeRedrawsOnlyThePromptsRowsWhereverTheCursorIs(cursor: Int) {
    let text = "buy milk and eggs and bread and butter and jam and tea and honey!"
    let shell = ["shell line 1", "shell line 2", "shell line 3"]
    for widths in [[80, 40], [80, 30, 20, 60, 80], [80, 12, 79], [50, 49, 25, 24, 100]] {
      var prompt = Prompt(width: widths[0], text: text)
      for _ in cursor..<text.count { prompt.press(.arrow(.left, [])) }
      let before = prompt.state.cursor
      for width in widths.dropFirst() {
        prompt.resize(to: width)
        let lines = prompt.terminal.lines
        #expect(
          Array(lines.dropLast(2)) == shell,
          "\(widths) at \(width): only the prompt's rows: \(lines)")
        #expect(lines.dropLast().last == Prompt.noteHint.text(forWidth: width))
        #expect(lines.last?.hasPrefix(">") == true, "the line last: \(lines)")
        #expect(prompt.terminal.problems == [], "\(widths) at \(width)")
        #expect(prompt.terminal.cursor.row == shell.count + 1)
      }
      #expect(prompt.state.cursor == before)
    }
  }

  @Test func aWidthChangeSeenAtAKeyRedrawsInPlaceToo() {
    var prompt = Prompt(width: 80, text: "buy milk")
    prompt.terminal.resize(to: 30)
    prompt.press(.text("!"))
    #expect(
      prompt.terminal.lines == [
        "shell line 1", "shell line 2", "shell line 3", "…/datafile.dat · Enter saves",
        "> buy milk!",
      ])
  }

  @Test(
    "the rows above the cursor to the hint's first, after a terminal rewrapped them",
    arguments: [
      // hint, line, cursor, old width, new width, rows
      (79, 20, 20, 80, 100, 1),
      (79, 79, 79, 80, 80, 1),
      (20, 20, 20, 80, 30, 1),
      (79, 20, 20, 80, 40, 2),
      (79, 20, 20, 80, 20, 4),
      (45, 49, 49, 50, 20, 5),
      (45, 49, 9, 50, 20, 3),
      // A cursor just past a line that fills its rows stays on the last one.
      (10, 30, 30, 40, 30, 1),
      (10, 60, 30, 70, 30, 2),
    ])
  func rowsAboveCursor(
    hint: Int, line: Int, cursor: Int, old: Int, new: Int, rows: Int
  ) {
    #expect(
      PromptScreen.rowsAboveCursor(
        hintColumns: hint, lineColumns: line, cursorColumn: cursor, drawnAt: old, now: new)
        == rows)
  }
}
