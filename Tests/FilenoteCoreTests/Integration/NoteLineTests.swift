import LineEditor
import Testing

@testable import FilenoteCore

/// `filenote show --line` (the man page, COMMANDS): the note as one inert
/// line, cut to a width with `…`, widths counted as the line editor counts them.
@Suite struct NoteLineTests {
  private func line(_ text: String, columns: Int = 80) -> String {
    NoteLine.line(of: Array(text.utf8), columns: columns)
  }

  /// The width of a line as the line editor counts it.
  private func width(_ line: String) -> Int {
    DisplayWidth.columns(ofText: line)
  }

  @Test func aShortNoteIsItsOwnLine() {
    #expect(line("buy milk") == "buy milk")
    #expect(line("buy milk", columns: 8) == "buy milk")
  }

  @Test func aLongerNoteIsCutToTheWidthWithAnEllipsis() {
    #expect(line("buy milk", columns: 7) == "buy mi…")
    #expect(line("buy milk", columns: 1) == "…")
    #expect(line("groceries: buy milk and eggs", columns: 12) == "groceries: …")
  }

  @Test func linesAreJoinedWithTheLineBreakStandIn() {
    #expect(line("buy milk\ncall mom") == "buy milk\u{21B5}call mom")
    #expect(line("a\r\nb") == "a\u{21B5}b")
    #expect(line("a\tb") == "a\u{21E5}b")
  }

  @Test func escapeSequencesAreMadeInert() {
    #expect(line("\u{1B}]0;title\u{07}") == "\u{241B}]0;title\u{2407}")
    #expect(line("\u{1B}[2J") == "\u{241B}[2J")
    #expect(line("a\u{9B}31mb") == "a\u{FFFD}31mb")
    #expect(line("\u{7F}") == "\u{2421}")
    #expect(line("\u{0}") == "\u{2400}")
  }

  @Test func invisibleAndReorderingCharactersGetStandIns() {
    #expect(line("a\u{202E}b") == "a\u{FFFD}b")
    #expect(line("a\u{200B}b") == "a\u{FFFD}b")
    #expect(line("a\u{2028}b") == "a\u{FFFD}b")
    #expect(line("\u{301}a") == "\u{25CC}\u{301}a")
  }

  @Test func noControlCharacterEverReachesTheLine() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<500 {
      let scalars = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
        // Mostly controls and escapes, some text, some wide and combining.
        let pick = [
          UInt32.random(in: 0...0x20, using: &generator), UInt32.random(in: 0x7F...0x9F),
          UInt32(0x1B), UInt32(0x301), UInt32(0x65E5), UInt32(0x61), UInt32(0x2028),
          UInt32(0x200D), UInt32(0x1F468),
        ].randomElement(using: &generator)!
        return Unicode.Scalar(pick)!
      }
      var text = ""
      text.unicodeScalars.append(contentsOf: scalars)
      let columns = Int.random(in: 1...20, using: &generator)
      let result = line(text, columns: columns)
      #expect(
        !result.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
        "\(text.unicodeScalars.map { $0.value })")
      #expect(width(result) <= columns, "\(text.unicodeScalars.map { $0.value }) in \(columns)")
    }
  }

  @Test func wideCharactersCountTwoColumnsAndAreNeverCutInHalf() {
    #expect(line("日本語", columns: 6) == "日本語")
    #expect(line("日本語", columns: 5) == "日本…")
    #expect(line("日本語", columns: 4) == "日…")
    #expect(line("e\u{301}t\u{E9}", columns: 3) == "e\u{301}t\u{E9}")
  }

  @Test func aMebibyteOnOneLineIsCutFromItsBeginning() {
    let ascii = String(repeating: "a", count: 1 << 20)
    #expect(line(ascii) == String(repeating: "a", count: 79) + "…")
    let accented = String(repeating: "\u{E9}", count: 1 << 19)
    #expect(line(accented) == String(repeating: "\u{E9}", count: 79) + "…")
    let marks = "a" + String(repeating: "\u{301}", count: 1 << 19)
    #expect(line(marks) == "…")
  }

  @Test func aNotesOwnFinalNewlineEndsTheLineWithoutAStandIn() {
    #expect(line("third\n") == "third")
    #expect(line("third\r\n") == "third")
    #expect(line("a\n\n") == "a\u{21B5}")
    #expect(line("a\nb\n") == "a\u{21B5}b")
  }

  @Test func aLongRunOfCombiningMarksNeverHidesTheTextAfterIt() {
    // A nonspacing mark of two bytes, an enclosing one of three.
    for (mark, count) in [5, 765, 800, 5000, 100_000].flatMap({
      [("\u{301}", $0), ("\u{20DD}", $0)]
    }) {
      let text = "e" + String(repeating: mark, count: count) + " next"
      for columns in [8, 80, 200] {
        let result = line(text, columns: columns)
        #expect(
          result.unicodeScalars.starts(with: ("e" + mark).unicodeScalars),
          "\(count) marks in \(columns)")
        #expect(result.hasSuffix(" next"), "\(count) marks in \(columns): \(result)")
        #expect(result.unicodeScalars.count <= 10, "a few marks drawn: \(count) in \(columns)")
      }
    }
  }

  @Test func aNoteCutAtTheByteLimitStillEndsInAnEllipsis() {
    // Combining marks enough to pass the limit before the width is full.
    let heavyA = Character("a" + String(repeating: "\u{301}", count: 40))
    let heavy = String(repeating: String(heavyA), count: 200)
    let result = line(heavy, columns: 80)
    #expect(result.hasSuffix("…"))
    #expect(width(result) <= 80)
    // Each drawn with the marks kept, the others left out.
    let drawnA = Character("a" + String(repeating: "\u{301}", count: NoteLine.marksKept))
    #expect(result.dropLast().allSatisfy { $0 == drawnA })
  }

  @Test func theScalarWayGivesWhatTheCharacterWayGives() {
    var generator = SystemRandomNumberGenerator()
    // Standalone scalars, CR and LF, and a few that join what is before them.
    let pool: [UInt32] = [
      0x61, 0x20, 0x0A, 0x0D, 0x09, 0x1B, 0xE9, 0x65E5, 0x3042, 0xAC00, 0x416, 0x2014, 0x7F,
      0x301, 0x200D, 0xFE0F, 0x1F44D, 0x1F3FD, 0x1160,
    ]
    var answered = 0
    for _ in 0..<2000 {
      var text = ""
      for _ in 0..<Int.random(in: 0...12, using: &generator) {
        text.unicodeScalars.append(Unicode.Scalar(pool.randomElement(using: &generator)!)!)
      }
      let columns = Int.random(in: 1...10, using: &generator)
      for continues in [false, true] {
        guard let fast = NoteLine.standaloneLine(of: text, columns: columns, continues: continues)
        else { continue }
        answered += 1
        #expect(
          fast == NoteLine.line(of: text, columns: columns, continues: continues),
          "\(text.unicodeScalars.map { $0.value }) in \(columns), continues: \(continues)")
      }
    }
    #expect(answered > 100, "the scalar way answers for most of these")
  }
}
