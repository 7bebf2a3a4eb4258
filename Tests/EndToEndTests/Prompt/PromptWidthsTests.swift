import Foundation
import Testing

extension PromptTests {
  /// Where the line holds a character terminals draw at different widths,
  /// the prompt asks the terminal, so the cursor is where the terminal shows
  /// it (doc/DESIGN.md, The prompt and the terminal). tmux answers cursor
  /// position reports, and draws a family joined by U+200D as one two-column
  /// picture but a heart with U+FE0F in one column and a skin tone apart from
  /// its emoji.
  @Suite("widths asked from the terminal: emoji sequences, flags, skin tones")
  struct Widths {
    static let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
    static let thumbsUp = "\u{1F44D}\u{1F3FD}"
    static let samples = [family, "\u{1F1EB}\u{1F1F7}", "\u{2764}\u{FE0F}", thumbsUp]

    /// The column tmux's cursor reaches when it prints `text` by itself at
    /// the start of a line: where it draws the end of that text.
    static func columnReached(printing text: String) throws -> Int {
      let reference = try TmuxSession(
        command: "printf '%s' \(PromptTests.shellQuoted(text)) && exec sleep 60", columns: 80,
        rows: 4)
      defer { reference.kill() }
      return try reference.waitFor("tmux to print \(text)") { $0.lines.first == text }.cursor.column
    }

    /// Enter, and the note saved is `text`.
    static func expectSaved(_ text: String, by session: TmuxSession, in home: TemporaryHome) throws
    {
      try session.send(keys: "Enter")
      #expect(try session.waitForExit() == .exited(0))
      #expect(home.contents(of: home.notePath) == Array(text.utf8))
    }

    @Test(
      "across each kind the cursor is where tmux ends the same text printed by itself",
      arguments: samples)
    func acrossEachKind(sample: String) throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "a\(sample)b")
      // Each step: the keys, and the text left of the cursor afterwards.
      let steps: [(keys: [String], text: String?, before: String)] = [
        ([], nil, "a\(sample)b"),
        (["Left"], nil, "a\(sample)"),
        (["Left"], nil, "a"),
        ([], "XY", "aXY"),
        (["Right"], nil, "aXY\(sample)"),
        (["BSpace"], nil, "aXY"),
        ([], sample, "aXY\(sample)"),
        (["End"], nil, "aXY\(sample)b"),
      ]
      for step in steps {
        for key in step.keys { try session.send(keys: key) }
        if let text = step.text { try session.send(text: text) }
        let column = try Self.columnReached(printing: "> " + step.before)
        try session.waitFor("the cursor at column \(column), after \(step.before)") {
          $0.cursor.column == column && $0.cursor.row == $0.editRow
        }
      }
      try Self.expectSaved("aXY\(sample)b", by: session, in: home)
    }

    @Test("a pasted family is drawn at tmux's width, and typing after it too")
    func pasted() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "abc")
      try session.paste(Self.family)
      let column = try Self.columnReached(printing: "> abc" + Self.family)
      try session.waitFor("the cursor after the pasted family") { $0.cursor.column == column }
      try session.send(text: "Z")
      try session.waitForEditLine("> abc\(Self.family)Z")
      #expect(try session.cursor().column == column + 1)
      try Self.expectSaved("abc\(Self.family)Z", by: session, in: home)
    }

    @Test("a long line of skin tones scrolls without ever wrapping onto the next row")
    func scrollingNeverWraps() throws {
      let home = try TemporaryHome()
      let note = String(repeating: "ab\(Self.thumbsUp)", count: 12)
      let session = try home.openPrompt(on: note, columns: 20, rows: 6)
      // The hint is wider than the window: it takes two rows.
      let editRow = try #require(try session.look().editRow)
      var moves: [String] = ["Home"]
      moves += Array(repeating: "Right", count: 14)
      moves += ["End"] + Array(repeating: "Left", count: 14)
      for (step, key) in moves.enumerated() {
        try session.send(keys: key)
        try session.send(text: "#")
        let screen = try session.waitFor("# typed after \(key), step \(step)") {
          $0.editLine?.contains("#") == true
        }
        #expect(screen.editRow == editRow && screen.cursor.row == editRow, "\(screen)")
        let below = screen.lines.dropFirst(editRow + 1).filter { !$0.isEmpty }
        #expect(below.isEmpty, "nothing wrapped: \(screen)")
        try session.send(keys: "BSpace")
        try session.waitFor("# taken back") { $0.editLine?.contains("#") == false }
      }
      try Self.expectSaved(note, by: session, in: home)
    }
  }
}
