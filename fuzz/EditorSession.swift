import Glibc

/// Plays an `EditorScenario` the way the interactive prompt would (bytes into
/// `KeyDecoder`, keys into `EditState`, a render after each read) and checks
/// after every step what must always hold. A broken rule stops the process
/// with the scenario and the rule, for libFuzzer to report.
///
/// What it checks:
/// - Keys: `.text` never holds a control character, `.control` names a C0
///   control other than CR, LF and ESC, `.alt` holds one non-control scalar
///   (or DEL); the keys do not depend on where reads end: the keys of a run
///   of reads up to a quiet moment equal those of the same bytes read at once
///   (adjacent `.text` keys joined); after a flush the decoder waits for more
///   input only inside a paste.
/// - Editor (opened with three versions made from the note, so Up, Ctrl-R and
///   Ctrl-S have lines to reach): the cursor is in `0...buffer.count`; a key
///   that is not `.edited` changes neither text nor cursor, unless it ends a
///   search; the buffer holds
///   exactly the Characters Swift makes of its text (scalar for scalar); the
///   text is valid UTF-8; back on the line being edited, undoing every step
///   gives back the note the session opened with.
/// - Renderer: only CR, text, SGR 7/27, EL and CUF are written, never a
///   control character; the line shows exactly what `ExpectedLine` says for
///   some first visible Character, within `width - 1` columns, every cell as
///   wide as the scenario's measured widths say (at least one column); with room for at least `minimumTextColumns` columns
///   of text, the cursor's Character is on screen; an empty render happens
///   only when the line already shows the right thing. The search line, drawn
///   apart, writes only what a renderer may.
struct EditorSession {
  static let prompt = "> "
  /// Up to this many Characters the buffer is re-clustered after every key,
  /// beyond it after every read: the check costs O(n).
  static let perKeyCheckLimit = 256
  /// The session stops when the text grows past this many Characters. Kill,
  /// then yank twice, doubles the text, so a few hundred bytes of keys can
  /// make megabytes, and the O(n) checks would turn every such input into a
  /// timeout. It is the longest input libFuzzer makes by default, so a paste
  /// can still reach it.
  static let maximumTextCount = 4096

  private let scenario: EditorScenario
  private let isVerbose: Bool
  private var decoder = KeyDecoder()
  /// Gets the same bytes as `decoder`, a whole quiet-to-quiet run at a time.
  private var referenceDecoder = KeyDecoder()
  private var bytesSinceQuiet: [UInt8] = []
  private var keysSinceQuiet: [Key] = []
  private var state: EditState
  private var renderer = Renderer(prompt: prompt)
  private let promptCells = prompt.map(Cell.init)
  private var line = TerminalLine()
  /// Draws the search line (Ctrl-R, Ctrl-S) while a search is on, onto a
  /// line of its own: the checks of `render()` model the edit line only.
  private var searchRenderer = Renderer(prompt: prompt)
  private var searchLine = TerminalLine()
  /// How many Characters `.text` keys brought: typing makes an undo step per
  /// 20 of them, however many keys they came in.
  private var charactersTyped = 0
  private var width: Int
  private var keysHandled = 0
  /// Set when the text outgrew `maximumTextCount`: the remaining keys and
  /// events are skipped.
  private var isOverLimit = false

  init(_ scenario: EditorScenario, isVerbose: Bool) {
    self.scenario = scenario
    self.isVerbose = isVerbose
    state = EditState(text: scenario.initialText, versions: Self.versions(of: scenario.initialText))
    width = scenario.width
    renderer.widths = scenario.widths
    searchRenderer.widths = scenario.widths
  }

  /// Versions for Up, Ctrl-R and Ctrl-S to reach, made from the note so that
  /// searches typed from it find something.
  static func versions(of note: String) -> [String] {
    [String(note.reversed()), "old " + note, note + note]
  }

  mutating func play() {
    checkText()
    render()
    for event in scenario.events where !isOverLimit {
      switch event {
      case .read(let bytes):
        log("read \(EditorScenario.literal(bytes))")
        bytesSinceQuiet += bytes
        handle(decoder.decode(bytes))
        if !isOverLimit { render() }
      case .quiet:
        log("quiet")
        quiet()
      case .resize(let newWidth):
        log("resize \(newWidth)")
        width = newWidth
        renderer.invalidate()
        render()
      }
    }
    if !isOverLimit {
      quiet()
    }
    checkUndoGivesBackTheNote()
  }

  // MARK: - Keys

  private mutating func quiet() {
    handle(decoder.flush())
    if isOverLimit { return }
    checkOnlyAPasteWaitsAfterFlush()
    render()
    var expected = referenceDecoder.decode(bytesSinceQuiet)
    expected += referenceDecoder.flush()
    if !Self.sameKeys(keysSinceQuiet, expected) {
      fail(
        "keys depend on where reads end: read in parts \(keysSinceQuiet), at once \(expected)")
    }
    bytesSinceQuiet = []
    keysSinceQuiet = []
  }

  /// A flush leaves nothing held back but an unfinished paste, which the end
  /// marker then completes: probed on a copy of the decoder.
  private func checkOnlyAPasteWaitsAfterFlush() {
    var probe = decoder
    let keys = probe.decode(Self.pasteEndMarker)
    var endsAPaste = false
    if case .paste = keys.last { endsAPaste = true }
    if decoder.isWaitingForMoreInput != endsAPaste {
      fail(
        "after a flush isWaitingForMoreInput is \(decoder.isWaitingForMoreInput), "
          + "and ESC [ 2 0 1 ~ gives \(keys)")
    }
  }

  private static let pasteEndMarker: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]

  private mutating func handle(_ keys: [Key]) {
    keysSinceQuiet += keys
    for key in keys {
      checkKey(key)
      let cursorBefore = state.cursor
      let countBefore = state.buffer.count
      let wasSearching = state.searchLine != nil
      let outcome = state.handle(key)
      keysHandled += 1
      if case .text(let text) = key { charactersTyped += text.count }
      log("  \(key) -> \(outcome), cursor \(state.cursor) of \(state.buffer.count)")
      guard (0...state.buffer.count).contains(state.cursor) else {
        fail("cursor \(state.cursor) outside 0...\(state.buffer.count) after \(key)")
      }
      // A key that ends a search puts the line found in place, and may then
      // also submit it, cancel, redraw or suspend.
      let mayChange = outcome == .edited || wasSearching && outcome != .unchanged
      if !mayChange && (state.cursor != cursorBefore || state.buffer.count != countBefore) {
        fail("\(key) changed the text or the cursor but returned \(outcome)")
      }
      if outcome == .redrawScreen { renderer.invalidate() }
      // Ctrl-X Ctrl-E: an editor that gives the text back reversed, put in
      // as the session puts the editor's text in.
      if case .editInEditor(let text) = outcome {
        guard text.unicodeScalars.elementsEqual(state.text.unicodeScalars) else {
          fail("Ctrl-X Ctrl-E handed out \(EditorScenario.literal(text)), not the text")
        }
        state.replaceText(with: String(text.reversed()))
        guard state.cursor == state.buffer.count else {
          fail("the cursor is at \(state.cursor), not at the end, after the editor's text")
        }
      }
      if state.buffer.count <= Self.perKeyCheckLimit { checkText() }
      if state.buffer.count > Self.maximumTextCount {
        log("  the text outgrew \(Self.maximumTextCount) Characters: stopping")
        isOverLimit = true
        break
      }
    }
    checkText()
  }

  private func checkKey(_ key: Key) {
    switch key {
    case .text(let text):
      if text.unicodeScalars.contains(where: TerminalLine.isControl) {
        fail("a .text key holds a control character: \(EditorScenario.literal(text))")
      }
    case .control(let character):
      let scalars = character.unicodeScalars
      guard scalars.count == 1, let scalar = scalars.first,
        (0x40...0x5F).contains(scalar.value) || (0x61...0x7A).contains(scalar.value),
        // LF is Ctrl-J (quoted-insert types it); CR is Enter, ESC Esc.
        !["m", "["].contains(scalar)
      else { fail("\(key) names no C0 control other than CR and ESC") }
    case .alt(let character):
      let scalars = character.unicodeScalars
      guard scalars.count == 1, let scalar = scalars.first,
        scalar == "\u{7F}" || !TerminalLine.isControl(scalar)
      else { fail("\(key) is not Alt with one printable character or DEL") }
    default:
      break
    }
  }

  /// Keys compared scalar for scalar, adjacent `.text` keys joined: a decoder
  /// makes one `.text` per read.
  private static func sameKeys(_ left: [Key], _ right: [Key]) -> Bool {
    let left = joiningText(left)
    let right = joiningText(right)
    guard left.count == right.count else { return false }
    return zip(left, right).allSatisfy { pair in
      switch pair {
      case (.text(let a), .text(let b)), (.paste(let a), .paste(let b)):
        return a.unicodeScalars.elementsEqual(b.unicodeScalars)
      default:
        return pair.0 == pair.1
      }
    }
  }

  private static func joiningText(_ keys: [Key]) -> [Key] {
    var joined: [Key] = []
    for key in keys {
      if case .text(let text) = key, case .text(let previous) = joined.last {
        joined[joined.count - 1] = .text(previous + text)
      } else {
        joined.append(key)
      }
    }
    return joined
  }

  // MARK: - Text

  private func checkText() {
    let text = state.text
    guard String(validating: Array(text.utf8), as: UTF8.self) != nil else {
      fail("the text is not valid UTF-8")
    }
    let characters = Array(text)
    let buffer = state.buffer
    guard characters.count == buffer.count,
      zip(characters, buffer).allSatisfy({ $0.unicodeScalars.elementsEqual($1.unicodeScalars) })
    else {
      let held = buffer.map { EditorScenario.literal(String($0)) }
      let expected = characters.map { EditorScenario.literal(String($0)) }
      fail("the buffer holds \(held), its text splits into \(expected)")
    }
    if state.isEmpty != buffer.isEmpty {
      fail("isEmpty is \(state.isEmpty) with \(buffer.count) Characters")
    }
  }

  private func checkUndoGivesBackTheNote() {
    var undoing = state
    // Ctrl-G ends a search or an Esc waiting for its key; Alt-> goes back to
    // the line being edited, whose undo steps lead back to the note.
    _ = undoing.handle(.control("g"))
    _ = undoing.handle(.alt(">"))
    var steps = 0
    // A key is a step at most, and so is each Character typed in it: one
    // of several bytes always starts a step of its own, as in readline.
    let stepsPossible = keysHandled + charactersTyped
    while undoing.handle(.control("_")) == .edited {
      steps += 1
      guard (0...undoing.buffer.count).contains(undoing.cursor) else {
        fail("cursor \(undoing.cursor) outside 0...\(undoing.buffer.count) after undo \(steps)")
      }
      guard steps <= stepsPossible else { fail("undo goes on past the number of keys handled") }
    }
    let text = undoing.text
    guard text.unicodeScalars.elementsEqual(scenario.initialText.unicodeScalars) else {
      fail(
        "undoing everything gives \(EditorScenario.literal(text)), "
          + "not \(EditorScenario.literal(scenario.initialText))")
    }
  }

  // MARK: - Rendering

  private mutating func render() {
    renderSearch()
    let bytes = renderer.render(state.buffer, cursor: state.cursor, width: width)
    if let problem = line.apply(bytes) {
      fail("\(problem); rendered \(EditorScenario.literal(String(decoding: bytes, as: UTF8.self)))")
    }
    guard line.cursorColumn <= width - 1 else {
      fail("cursor left at column \(line.cursorColumn) of a \(width)-column terminal")
    }
    guard let expected = matchingLine() else {
      let shown = String(String.UnicodeScalarView(line.glyphs.map(\.scalar)))
      fail(
        "the line shows \(EditorScenario.literal(shown)) with the cursor at column "
          + "\(line.cursorColumn), which is no scroll position of the text "
          + "(cursor \(state.cursor) of \(state.buffer.count), width \(width))")
    }
    guard expected.columns <= width - 1, renderer.drawnColumns == expected.columns else {
      fail(
        "drew \(expected.columns) columns (drawnColumns \(renderer.drawnColumns)) "
          + "on a \(width)-column terminal")
    }
    for cell in expected.cells {
      guard cell.columns >= 1, scenario.widths.columns(of: cell.glyph) == cell.columns,
        !cell.glyph.unicodeScalars.contains(where: TerminalLine.isControl)
      else {
        fail("cell \(EditorScenario.literal(String(cell.glyph))) drawn as \(cell.columns) columns")
      }
    }
    let (_, budget) = ExpectedLine.textBudget(width: width, promptColumns: promptColumns)
    if budget >= Renderer.minimumTextColumns
      && !expected.showsCursor(state.cursor, textCount: state.buffer.count)
    {
      fail(
        "cursor \(state.cursor) is off screen: Characters \(expected.visible) shown, "
          + "width \(width)")
    }
  }

  private var promptColumns: Int { promptCells.reduce(0) { $0 + $1.columns } }

  /// The search line writes only what a renderer may, and leaves the cursor
  /// on the screen.
  private mutating func renderSearch() {
    guard state.searchLine != nil else {
      searchRenderer.invalidate()
      return
    }
    let bytes = searchRenderer.render(state, width: width)
    if let problem = searchLine.apply(bytes) {
      fail(
        "\(problem); rendered the search line "
          + EditorScenario.literal(String(decoding: bytes, as: UTF8.self)))
    }
    guard searchLine.cursorColumn <= width - 1 else {
      fail("search line cursor left at column \(searchLine.cursorColumn) of \(width)")
    }
  }

  /// The layout the line shows, found among the scroll positions that can
  /// show the cursor: every Character takes a column at least, so the first
  /// visible one is at most a budget's width before the cursor.
  ///
  /// With room for the text, only the positions that put the cursor where the
  /// line has it are laid out in full; when none matches, all are, so that a
  /// cursor scrolled off screen is reported as such.
  private func matchingLine() -> ExpectedLine? {
    let (textStart, budget) = ExpectedLine.textBudget(width: width, promptColumns: promptColumns)
    let cursor = state.cursor
    let lowest = max(0, cursor - budget - 1)
    let filtersByCursor = budget >= Renderer.minimumTextColumns
    for filtering in filtersByCursor ? [true, false] : [false] {
      var columnsBeforeCursor = 0
      for anchor in stride(from: cursor, through: lowest, by: -1) {
        if anchor < cursor {
          columnsBeforeCursor += Cell(state.buffer[anchor], widths: scenario.widths).columns
        }
        let leftMarker = anchor > 0 ? 1 : 0
        let cursorColumn = min(textStart + leftMarker + columnsBeforeCursor, width - 1)
        if filtering && cursorColumn != line.cursorColumn { continue }
        let expected = ExpectedLine(
          prompt: promptCells, text: state.buffer, cursor: cursor, anchor: anchor, width: width,
          promptColumns: promptColumns, widths: scenario.widths)
        if expected.cursorColumn == line.cursorColumn && expected.glyphs == line.glyphs {
          return expected
        }
      }
    }
    return nil
  }

  // MARK: - Reporting

  private func log(_ message: @autoclosure () -> String) {
    if isVerbose { fputs(message() + "\n", stderr) }
  }

  private func fail(_ rule: String) -> Never {
    fputs("\n--- scenario ---\n\(scenario)\n--- broken rule ---\n\(rule)\n", stderr)
    fatalError("editor invariant broken: \(rule)")
  }
}
