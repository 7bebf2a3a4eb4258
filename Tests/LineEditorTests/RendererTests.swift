import Testing

@testable import LineEditor

/// A terminal line as the renderer's bytes leave it: a tiny model that
/// understands exactly what a renderer may write (`\r`, `ESC[K`, `ESC[<n>C`,
/// `ESC[7m`, `ESC[27m` and printable text) and records anything else, and any
/// write that would reach the last column, as a problem.
private struct Screen {
  /// What one column shows.
  enum Content: Equatable {
    case empty
    case glyph(Character, reversed: Bool)
    /// The right half of a two-column glyph.
    case continuation
  }

  let width: Int
  /// How many columns this terminal draws a glyph in: by default as
  /// filenote counts it; a test of measured widths models a terminal that
  /// draws some characters otherwise.
  var glyphColumns: (Character) -> Int = { DisplayWidth.columns(of: $0) }
  private(set) var columns: [Content]
  private(set) var cursor = 0
  private(set) var problems: [String] = []
  /// The rightmost column anything was ever written to.
  private(set) var highestWrittenColumn = -1
  private var isReversed = false

  init(width: Int) {
    self.width = width
    columns = Array(repeating: .empty, count: width)
  }

  /// The visible line, trailing blanks left out.
  var line: String {
    var line = ""
    for content in columns {
      switch content {
      case .empty: line.append(" ")
      case .glyph(let glyph, _): line.append(glyph)
      case .continuation: break
      }
    }
    while line.last == " " { line.removeLast() }
    return line
  }

  /// The visible line with each run of reverse-video glyphs in brackets.
  var markedLine: String {
    var line = ""
    var inRun = false
    for content in columns {
      let reversed: Bool
      if case .glyph(_, reversed: true) = content { reversed = true } else { reversed = false }
      if content != .continuation && reversed != inRun {
        line.append(reversed ? "[" : "]")
        inRun = reversed
      }
      switch content {
      case .empty: line.append(" ")
      case .glyph(let glyph, _): line.append(glyph)
      case .continuation: break
      }
    }
    if inRun { line.append("]") }
    while line.last == " " { line.removeLast() }
    return line
  }

  /// What is under the cursor (`nil` for an empty column).
  var glyphAtCursor: Character? {
    if case .glyph(let glyph, _) = columns[cursor] { return glyph }
    return nil
  }

  mutating func apply(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    if Array(text.utf8) != bytes { problems.append("invalid UTF-8") }
    var run = ""
    for piece in TerminalOutput.pieces(of: bytes) {
      switch piece {
      case .sequence(let parameter, let final):
        flush(&run)
        control(parameter, final)
      case .strayEscape:
        flush(&run)
        problems.append("ESC not followed by [")
      case .scalar("\r"):
        flush(&run)
        cursor = 0
      case .scalar(let scalar) where DisplayWidth.isControl(scalar):
        flush(&run)
        problems.append("raw control U+\(String(scalar.value, radix: 16))")
      case .scalar(let scalar):
        run.unicodeScalars.append(scalar)
      }
    }
    flush(&run)
  }

  private mutating func control(_ parameter: String, _ final: Unicode.Scalar?) {
    switch (parameter, final) {
    case ("", "K"):
      if isReversed { problems.append("line erased in reverse video") }
      for column in cursor..<width { columns[column] = .empty }
    case ("7", "m"): isReversed = true
    case ("27", "m"): isReversed = false
    case (_, "C") where Int(parameter) ?? 0 > 0:
      cursor = min(cursor + Int(parameter)!, width - 1)
    default:
      problems.append("unexpected sequence ESC[\(parameter)\(final.map(String.init) ?? "")")
    }
  }

  /// Draws text as a terminal does: one Character at a time, at its width.
  private mutating func flush(_ run: inout String) {
    for glyph in run {
      let glyphWidth = glyphColumns(glyph)
      guard glyphWidth > 0 else {
        problems.append("zero-width glyph \(glyph.unicodeScalars.map(\.value))")
        continue
      }
      guard cursor + glyphWidth <= width - 1 else {
        problems.append("wrote \(glyph) at column \(cursor) of \(width)")
        highestWrittenColumn = max(highestWrittenColumn, cursor + glyphWidth - 1)
        cursor = width - 1
        continue
      }
      // Overwriting half of a wide glyph blanks its other half.
      if columns[cursor] == .continuation, cursor > 0 { columns[cursor - 1] = .empty }
      if cursor + glyphWidth < width, columns[cursor + glyphWidth] == .continuation {
        columns[cursor + glyphWidth] = .empty
      }
      columns[cursor] = .glyph(glyph, reversed: isReversed)
      for continued in cursor + 1..<cursor + glyphWidth { columns[continued] = .continuation }
      highestWrittenColumn = max(highestWrittenColumn, cursor + glyphWidth - 1)
      cursor += glyphWidth
    }
    run = ""
  }
}

/// A renderer drawing onto a `Screen`, as the editor drives it.
private struct Display {
  var renderer: Renderer
  var screen: Screen
  /// The width the renderer is told (0 for unknown).
  var reportedWidth: Int

  init(prompt: String = "> ", width: Int, reportedWidth: Int? = nil) {
    renderer = Renderer(prompt: prompt)
    screen = Screen(width: width)
    self.reportedWidth = reportedWidth ?? width
  }

  /// A new, blank terminal line of another width, as after a resize that the
  /// terminal layer answered by clearing the line.
  mutating func resize(to width: Int) {
    screen = Screen(width: width)
    reportedWidth = width
    renderer.invalidate()
  }

  /// Renders `text` with the cursor at `cursor` (default: the end).
  @discardableResult
  mutating func show(_ text: String, cursor: Int? = nil) -> [UInt8] {
    let characters = Array(text)
    let bytes = renderer.render(
      characters, cursor: cursor ?? characters.count, width: reportedWidth)
    screen.apply(bytes)
    #expect(screen.problems == [])
    #expect(screen.highestWrittenColumn < screen.width - 1)
    return bytes
  }
}

extension Display {
  /// Renders the edit line of `state`, as the session draws it.
  mutating func show(_ state: EditState) {
    screen.apply(renderer.render(state, width: reportedWidth))
    #expect(screen.problems == [])
    #expect(screen.highestWrittenColumn < screen.width - 1)
  }
}

private let alphabet = "abcdefghijklmnopqrstuvwxyz"

@Suite struct RendererTests {
  @Suite struct ShortText {
    @Test func shortTextIsDrawnAfterThePromptWithTheCursorAtTheEnd() {
      var display = Display(width: 20)
      display.show("hello")
      #expect(display.screen.line == "> hello")
      #expect(display.screen.cursor == 7)
    }

    @Test func theCursorIsPlacedOnItsCharacter() {
      var display = Display(width: 20)
      display.show("hello", cursor: 1)
      #expect(display.screen.cursor == 3)
      #expect(display.screen.glyphAtCursor == "e")
    }

    @Test func anEmptyTextShowsThePromptAlone() {
      var display = Display(width: 20)
      display.show("")
      #expect(display.screen.line == ">")
      #expect(display.screen.cursor == 2)
    }

    @Test func wideCharactersAreCountedAsTwoColumns() {
      var display = Display(width: 20)
      display.show("中文ab", cursor: 2)
      #expect(display.screen.line == "> 中文ab")
      #expect(display.screen.cursor == 6)
      #expect(display.screen.glyphAtCursor == "a")
    }

    @Test func aWidePromptIsCountedByDisplayWidth() {
      var display = Display(prompt: "中> ", width: 20)
      display.show("ab", cursor: 1)
      #expect(display.screen.line == "中> ab")
      #expect(display.screen.cursor == 5)
    }

    @Test func aWidthOfZeroMeansEightyColumns() {
      var display = Display(width: 80, reportedWidth: 0)
      display.show(String(repeating: "x", count: 100), cursor: 0)
      #expect(display.screen.line == "> " + String(repeating: "x", count: 76) + ">")
    }
  }

  @Suite struct FittingTheWidth {
    // Width 10 with "> ": columns 2...8 hold text, column 9 is never written.

    @Test func textExactlyFillingTheWidthIsShownWholeWithTheCursorInTheLastColumn() {
      var display = Display(width: 10)
      display.show("abcdefg")
      #expect(display.screen.markedLine == "> abcdefg")
      #expect(display.screen.cursor == 9)
    }

    @Test func oneMoreCharacterScrollsTheTextAndMarksTheCut() {
      var display = Display(width: 10)
      display.show("abcdefgh")
      #expect(display.screen.markedLine == "> [<]cdefgh")
      #expect(display.screen.cursor == 9)
    }

    @Test func textFillingTheWidthWithTheCursorAtTheStartIsNotCut() {
      var display = Display(width: 10)
      display.show("abcdefg", cursor: 0)
      #expect(display.screen.markedLine == "> abcdefg")
      #expect(display.screen.cursor == 2)
    }
  }

  @Suite struct Scrolling {
    @Test func longTextWithTheCursorAtTheStartIsCutOnTheRight() {
      var display = Display(width: 10)
      display.show(alphabet, cursor: 0)
      #expect(display.screen.markedLine == "> abcdef[>]")
      #expect(display.screen.cursor == 2)
    }

    @Test func longTextWithTheCursorAtTheEndIsCutOnTheLeft() {
      var display = Display(width: 10)
      display.show(alphabet)
      #expect(display.screen.markedLine == "> [<]uvwxyz")
      #expect(display.screen.cursor == 9)
    }

    @Test func longTextWithTheCursorInTheMiddleIsCutOnBothSides() {
      var display = Display(width: 10)
      display.show(alphabet, cursor: 0)
      display.show(alphabet, cursor: 13)
      #expect(display.screen.markedLine == "> [<]jklmn[>]")
      #expect(display.screen.glyphAtCursor == "n")
    }

    @Test func movingRightPastTheEdgeScrollsByOneCharacterAtATime() {
      var display = Display(width: 10)
      display.show(alphabet, cursor: 5)
      #expect(display.screen.markedLine == "> abcdef[>]")
      display.show(alphabet, cursor: 6)
      #expect(display.screen.markedLine == "> [<]cdefg[>]")
      #expect(display.screen.glyphAtCursor == "g")
      display.show(alphabet, cursor: 7)
      #expect(display.screen.markedLine == "> [<]defgh[>]")
      #expect(display.screen.glyphAtCursor == "h")
    }

    @Test func movingLeftInsideTheWindowDoesNotScroll() {
      var display = Display(width: 10)
      display.show(alphabet, cursor: 0)
      display.show(alphabet, cursor: 7)
      for cursor in [6, 5, 4, 3] {
        display.show(alphabet, cursor: cursor)
        #expect(display.screen.markedLine == "> [<]defgh[>]")
        #expect(display.screen.cursor == cursor)
      }
    }

    @Test func movingLeftPastTheEdgeScrollsByOneCharacterAtATime() {
      var display = Display(width: 10)
      display.show(alphabet, cursor: 0)
      display.show(alphabet, cursor: 7)
      display.show(alphabet, cursor: 2)
      #expect(display.screen.markedLine == "> [<]cdefg[>]")
      #expect(display.screen.cursor == 3)
      display.show(alphabet, cursor: 1)
      #expect(display.screen.markedLine == "> [<]bcdef[>]")
      display.show(alphabet, cursor: 0)
      #expect(display.screen.markedLine == "> abcdef[>]")
    }

    @Test func jumpingToTheEndAndBackShowsTheCursorEachTime() {
      let note = String(repeating: alphabet, count: 40)
      var display = Display(width: 10)
      display.show(note, cursor: 0)
      display.show(note)
      #expect(display.screen.markedLine == "> [<]uvwxyz")
      #expect(display.screen.cursor == 9)
      display.show(note, cursor: 0)
      #expect(display.screen.markedLine == "> abcdef[>]")
      #expect(display.screen.cursor == 2)
    }

    @Test func deletingAtTheEndOfALongLineKeepsTheWindowFull() {
      var display = Display(width: 10)
      display.show(alphabet)
      display.show(String(alphabet.dropLast()))
      #expect(display.screen.markedLine == "> [<]tuvwxy")
      #expect(display.screen.cursor == 9)
      display.show("abc")
      #expect(display.screen.markedLine == "> abc")
      #expect(display.screen.cursor == 5)
    }

    @Test func afterAResizeTheCursorIsStillShown() {
      var display = Display(width: 40)
      display.show(alphabet, cursor: 20)
      #expect(display.screen.line == "> " + alphabet)
      display.resize(to: 10)
      display.show(alphabet, cursor: 20)
      #expect(display.screen.markedLine == "> [<]qrstu[>]")
      #expect(display.screen.glyphAtCursor == "u")
    }
  }

  @Suite struct WideCharactersAtTheEdges {
    @Test func aWideCharacterThatDoesNotFitOnTheRightLeavesABlank() {
      var display = Display(width: 10)
      display.show("abcde中fgh", cursor: 0)
      #expect(display.screen.markedLine == "> abcde [>]")
    }

    @Test func aWideCharacterUnderTheCursorAtTheRightEdgeIsWhole() {
      var display = Display(width: 10)
      display.show("abcdef中gh", cursor: 6)
      #expect(display.screen.markedLine == "> [<]def中[>]")
      #expect(display.screen.glyphAtCursor == "中")
    }

    @Test func aWideCharacterAtTheLeftEdgeIsShownWholeOrNotAtAll() {
      var display = Display(width: 10)
      display.show("中中中中中中")
      #expect(display.screen.markedLine == "> [<]中中中")
      #expect(display.screen.cursor == 9)
      display.show("a中中中中中", cursor: 0)
      display.show("a中中中中中")
      #expect(display.screen.markedLine == "> [<]中中中")
    }

    @Test func scrollingRightOverWideCharactersKeepsEveryOneWhole() {
      let text = "a中b文c字d"
      var display = Display(width: 10)
      for cursor in 0...text.count {
        display.show(text, cursor: cursor)
        let expected = cursor < text.count ? Array(text)[cursor] : nil
        #expect(display.screen.glyphAtCursor == expected, "cursor \(cursor)")
      }
    }
  }

  @Suite struct StaleCells {
    @Test func renderingShorterTextLeavesNothingBehind() {
      var display = Display(width: 20)
      display.show("hello world")
      display.show("hello")
      #expect(display.screen.line == "> hello")
      #expect(display.screen.cursor == 7)
    }

    @Test func renderingAfterAScrolledLongTextLeavesNothingBehind() {
      var display = Display(width: 10)
      display.show(alphabet, cursor: 0)
      display.show("中", cursor: 0)
      #expect(display.screen.markedLine == "> 中")
    }
  }

  @Suite struct StandIns {
    @Test func controlCharactersAreDrawnAsReverseVideoStandIns() {
      var display = Display(width: 40)
      display.show("a\nb\r\nc\td\u{1}e\u{7F}f\u{85}g")
      #expect(display.screen.markedLine == "> a[↵]b[↵]c[⇥]d[␁]e[␡]f[�]g")
      #expect(display.screen.cursor == 2 + 13)
    }

    @Test func eachStandInIsOneColumnForTheCursor() {
      var display = Display(width: 40)
      display.show("\r\n\t\u{2028}x", cursor: 3)
      #expect(display.screen.markedLine == "> [↵⇥�]x")
      #expect(display.screen.cursor == 5)
      #expect(display.screen.glyphAtCursor == "x")
    }

    @Test func aLeadingCombiningMarkIsDrawnOnADottedCircle() {
      var display = Display(width: 20)
      display.show("\u{301}abc", cursor: 1)
      #expect(display.screen.markedLine == "> [\u{25CC}\u{301}]abc")
      #expect(display.screen.cursor == 3)
    }

    @Test func anInvisibleCharacterIsDrawnAsAReplacementCharacter() {
      var display = Display(width: 20)
      display.show("a\u{200B}b\u{202E}c")
      #expect(display.screen.markedLine == "> a[�]b[�]c")
    }

    @Test func aStandInAtTheEdgeEndsReverseVideoBeforeTheLineIsErased() {
      var display = Display(width: 10)
      display.show("abcdef\n")
      #expect(display.screen.markedLine == "> abcdef[↵]")
    }
  }

  @Suite struct NarrowTerminals {
    @Test func aTerminalTooNarrowForThePromptShowsTheTextAlone() {
      var display = Display(width: 6)
      display.show("hello world")
      #expect(display.screen.markedLine == "[<]orld")
      #expect(display.screen.cursor == 5)
    }

    @Test(arguments: 1...12)
    func noWidthWritesTheLastColumnOrLosesTheCursor(width: Int) {
      let text = "ab中\ncd文e\u{301}fg"
      var display = Display(width: width)
      for cursor in Array(0...text.count) + (0...text.count).reversed() {
        display.show(text, cursor: cursor)
        #expect(display.screen.cursor < width)
        if width >= 5 {
          let expected = cursor < text.count ? Cell(Array(text)[cursor]).glyph : nil
          #expect(display.screen.glyphAtCursor == expected, "cursor \(cursor)")
        }
      }
    }
  }

  @Suite struct Output {
    @Test func nothingIsWrittenWhenNothingChanged() {
      var display = Display(width: 20)
      #expect(!display.show("hello").isEmpty)
      #expect(display.show("hello").isEmpty)
      #expect(!display.show("hello", cursor: 2).isEmpty)
    }

    @Test func afterInvalidatingTheLineIsDrawnAgain() {
      var display = Display(width: 20)
      display.show("hello")
      display.renderer.invalidate()
      #expect(!display.show("hello").isEmpty)
      #expect(display.screen.line == "> hello")
    }

    @Test func outputStartsAtColumnZeroAndHasNoNewline() {
      var renderer = Renderer(prompt: "> ")
      let bytes = renderer.render(Array("a\nb"), cursor: 1, width: 20)
      #expect(bytes.first == UInt8(ascii: "\r"))
      #expect(!bytes.contains(UInt8(ascii: "\n")))
    }
  }

  @Suite struct Cost {
    /// Text that counts how many Characters a render reads.
    private struct CountingText: RandomAccessCollection {
      final class Counter {
        var reads = 0
      }
      let characters: [Character]
      let counter = Counter()
      var startIndex: Int { characters.startIndex }
      var endIndex: Int { characters.endIndex }
      subscript(position: Int) -> Character {
        counter.reads += 1
        return characters[position]
      }
    }

    @Test func aRenderReadsOnlyCharactersNearTheCursorOfAMegabyteNote() {
      let width = 80
      let text = CountingText(
        characters: Array(String(repeating: "abc中\u{1}文e\u{301}", count: 1 << 17)))
      var renderer = Renderer(prompt: "> ")
      var worst = 0
      let count = text.count
      let cursors =
        [0, count, 0, count / 2, count - 1, 1] + Array(stride(from: 0, to: 2_000, by: 1))
        + Array(stride(from: count, to: count - 2_000, by: -7))
      for cursor in cursors {
        text.counter.reads = 0
        _ = renderer.render(text, cursor: cursor, width: width)
        worst = max(worst, text.counter.reads)
      }
      #expect(worst > 0)
      #expect(worst <= 8 * width)
    }
  }

  @Suite struct SearchLine {
    /// A renderer that drew the search for `query` through `versions`, then
    /// the keys `after`.
    private static func showing(
      _ query: String, in versions: [String], after: [Key] = [], width: Int = 60
    ) -> (EditState, Display) {
      var state = EditState(text: "", versions: versions)
      state.handle(.control("r"))
      for key in [.text(query)] + after { _ = state.handle(key) }
      var display = Display(width: width)
      display.show(state)
      return (state, display)
    }

    @Test func theSearchLineShowsReadlinesPromptAndTheMatchInReverseVideo() {
      let (_, display) = Self.showing("milk", in: ["buy milk and eggs"])
      #expect(display.screen.markedLine == "(reverse-i-search)'milk': buy [milk] and eggs")
      #expect(display.screen.cursor == 30)
    }

    @Test func aFailedSearchShowsTheLastMatchUnhighlighted() {
      let (_, display) = Self.showing("milk", in: ["buy milk"], after: [.text("x")])
      #expect(display.screen.markedLine == "(failed reverse-i-search)'milkx': buy milk")
    }

    @Test func aStandInInsideTheMatchIsDrawnInNormalVideo() {
      let (_, display) = Self.showing("\tb\n", in: ["a\tb\nc"])
      #expect(display.screen.markedLine == "(reverse-i-search)'[⇥]b[↵]': a⇥[b]↵c")
    }

    @Test func aLongFoundLineScrollsToShowTheMatch() {
      let version = String(repeating: "x", count: 100) + "milk" + String(repeating: "y", count: 100)
      let (_, display) = Self.showing("milk", in: [version], width: 40)
      let line = display.screen.line
      #expect(line.hasPrefix("(reverse-i-search)'milk': <"))
      #expect(display.screen.glyphAtCursor == "m")
      #expect(line.hasSuffix(">"))
    }

    @Test func aSearchPromptTooWideIsCutAtItsStartAndKeepsTheEndOfTheQuery() {
      let query = String(repeating: "q", count: 30) + "end"
      let (_, display) = Self.showing(query, in: [query + " found"], width: 30)
      let line = display.screen.line
      #expect(line.hasPrefix("<"))
      #expect(line.contains("end': "))
      #expect(display.screen.cursor < 29)
    }

    @Test func inANarrowWindowTheQueryStaysBeforeTheFoundTextAndTheLabelGoesWhole() {
      for width in 10...40 {
        let (_, display) = Self.showing("call", in: ["call the plumber"], width: width)
        let line = display.screen.line
        #expect(
          line.hasPrefix("(reverse-i-search)'call': ") || !line.contains(")"),
          "the label whole or not at all, at \(width): \(line)")
        #expect(line.contains("l': c"), "the query's end, then the text, at \(width): \(line)")
        if width >= 14 {
          #expect(line.contains("'call': cal"), "the whole query at \(width): \(line)")
        }
      }
    }

    @Test func leavingTheSearchBringsBackThePrompt() {
      var (state, display) = Self.showing("milk", in: ["buy milk"])
      _ = state.handle(.escape)
      display.show(state)
      #expect(display.screen.markedLine == "> buy milk")
      #expect(display.screen.cursor == 6)
    }
  }
}

/// How xterm, VTE and alacritty draw the kinds terminals disagree on: every
/// code point at its own width (a family is three emoji, six columns).
private func drawingCodePointsApart(_ glyph: Character) -> Int {
  guard WidthKind(of: glyph) != nil else { return DisplayWidth.columns(of: glyph) }
  return glyph.unicodeScalars.reduce(0) { $0 + DisplayWidth.columns(ofCodePoint: $1) }
}

extension RendererTests {
  @Suite struct MeasuredWidthsOfTheTerminal {
    static let family: Character = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
    static let heart: Character = "\u{2764}\u{FE0F}"
    static let thumbsUp: Character = "\u{1F44D}\u{1F3FD}"

    /// A display on a terminal that draws every kind apart, with the
    /// renderer told so as a session would after measuring.
    fileprivate static func displayDrawingApart(width: Int) -> Display {
      var display = Display(width: width)
      display.screen.glyphColumns = drawingCodePointsApart
      display.renderer.widths.record(6, for: .joinedEmoji)
      display.renderer.widths.record(1, for: .emojiVariation)
      display.renderer.widths.record(4, for: .skinTone)
      display.renderer.widths.record(2, for: .flag)
      return display
    }

    @Test func theCursorAfterAFamilyDrawnApartIsSixColumnsOn() {
      var display = Self.displayDrawingApart(width: 20)
      display.show("a\(Self.family)b", cursor: 2)
      #expect(display.screen.cursor == 2 + 1 + 6)
      #expect(display.screen.glyphAtCursor == "b")
      #expect(display.screen.line == "> a\(Self.family)b")
    }

    @Test func aHeartWithFE0FDrawnInOneColumnTakesOne() {
      var display = Self.displayDrawingApart(width: 20)
      display.show("\(Self.heart)b\(Self.thumbsUp)c", cursor: 1)
      #expect(display.screen.glyphAtCursor == "b")
      #expect(display.screen.cursor == 2 + 1)
      display.show("\(Self.heart)b\(Self.thumbsUp)c", cursor: 3)
      #expect(display.screen.glyphAtCursor == "c")
      #expect(display.screen.cursor == 2 + 1 + 1 + 4)
    }

    @Test func everyCursorPositionOfAScrollingLineIsOnItsCharacter() {
      let text = "ab\(Self.family)cd\(Self.thumbsUp)ef\(Self.heart)gh\(Self.family)ij"
      var display = Self.displayDrawingApart(width: 12)
      for cursor in Array(0...text.count) + Array((0...text.count).reversed()) {
        display.show(text, cursor: cursor)
        let expected = cursor < text.count ? Array(text)[cursor] : nil
        #expect(display.screen.glyphAtCursor == expected, "cursor \(cursor)")
      }
    }

    @Test(arguments: 1...16)
    func noWidthWritesTheLastColumnWithCharactersWiderThanTwo(width: Int) {
      let text = "\(Self.family)a\(Self.thumbsUp)中\(Self.family)\(Self.family)b\(Self.heart)"
      var display = Self.displayDrawingApart(width: width)
      for cursor in Array(0...text.count) + Array((0...text.count).reversed()) {
        display.show(text, cursor: cursor)
        #expect(display.screen.cursor < width, "cursor \(cursor)")
        // With room for a whole family (and the markers) the cursor is on its Character.
        if width >= 2 + 6 + 2 + 1 {
          let expected = cursor < text.count ? Array(text)[cursor] : nil
          #expect(display.screen.glyphAtCursor == expected, "cursor \(cursor)")
        }
      }
    }

    @Test func theRendererNamesTheKindsItDrewAtAGuessedWidth() {
      var renderer = Renderer(prompt: "> ")
      _ = renderer.render(Array("a\(Self.heart)b\(Self.thumbsUp)"), cursor: 0, width: 40)
      #expect(renderer.unmeasuredKinds == [.skinTone, .emojiVariation])
      renderer.widths.record(4, for: .skinTone)
      _ = renderer.render(Array("a\(Self.heart)b\(Self.thumbsUp)"), cursor: 0, width: 40)
      #expect(renderer.unmeasuredKinds == [.emojiVariation])
    }

    @Test func asciiAndCJKNeedNothingMeasured() {
      var renderer = Renderer(prompt: "> ")
      _ = renderer.render(Array("abc 中文 e\u{301}"), cursor: 0, width: 40)
      #expect(renderer.unmeasuredKinds == [])
    }

    @Test func onlyTheKindsOnScreenAreToBeMeasured() {
      let text = Array("\(Self.family)" + String(repeating: "x", count: 60))
      var renderer = Renderer(prompt: "> ")
      _ = renderer.render(text, cursor: text.count, width: 20)
      #expect(renderer.unmeasuredKinds == [], "the family is scrolled out of sight")
      _ = renderer.render(text, cursor: 0, width: 20)
      #expect(renderer.unmeasuredKinds == [.joinedEmoji])
    }

    @Test func newWidthsRedrawTheLineEvenWhenNothingElseChanged() {
      var renderer = Renderer(prompt: "> ")
      let text = Array("a\(Self.family)b")
      #expect(!renderer.render(text, cursor: 3, width: 40).isEmpty)
      #expect(renderer.render(text, cursor: 3, width: 40).isEmpty)
      renderer.widths.record(6, for: .joinedEmoji)
      let redrawn = String(decoding: renderer.render(text, cursor: 3, width: 40), as: UTF8.self)
      #expect(redrawn.hasSuffix("\u{1B}[10C"), "after the prompt, a, six columns and b")
    }
  }
}
