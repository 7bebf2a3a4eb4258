import LineEditor
import SystemCalls
import TestSupport
import Testing

@testable import TerminalSession

extension TerminalTests {
  /// Ctrl-X Ctrl-E: the session hands the line to `editInEditor` outside
  /// raw mode and takes back what it returns.
  @Suite struct EditingSessionHandOff {
    /// Opens a session on a new pseudo-terminal whose `editInEditor`
    /// records the text it got and the terminal settings it ran with, then
    /// returns `handOff`; Enter is typed while it runs.
    private final class Run {
      let pseudoTerminal: PseudoTerminal
      let session: EditingSession
      /// The settings before the session.
      let original: [UInt8]
      var received: [String] = []
      var settingsWhileOutside: [UInt8]?

      init(returning handOff: LineHandOff?) throws {
        pseudoTerminal = try PseudoTerminal()
        original = try pseudoTerminal.settingsBytes()
        let terminal = FileDescriptor(rawValue: pseudoTerminal.slave)
        session = try EditingSession(input: terminal, output: terminal)
        if let handOff {
          session.editInEditor = { [unowned self] text in
            received.append(text)
            settingsWhileOutside = try? terminal.terminalSettings().bytes
            return handOff
          }
        }
      }
    }

    @Test func theEditorsTextReplacesTheLineAsOneUndoableEdit() throws {
      let run = try Run(returning: .replaced("line 1\nline 2"))
      try run.pseudoTerminal.type("\u{18}\u{05}\r")

      #expect(
        try run.session.readLine(text: "a\tb", hints: [Hint(subject: "hint")], dimmed: false)
          == .submitted(Array("line 1\nline 2".utf8)))
      #expect(run.received == ["a\tb"], "the text itself, not its stand-ins")
      #expect(run.settingsWhileOutside == run.original, "the terminal as before the session")
      let output = String(decoding: try run.pseudoTerminal.readOutput(count: 8192), as: UTF8.self)
      // The stand-in for the newline is drawn in reverse video between them.
      let drawn = try #require(output.range(of: "> line 1"), "\(output.debugDescription)")
      #expect(output[drawn.upperBound...].contains("line 2"), "\(output.debugDescription)")

      // The same text again records nothing: undo takes the first one back.
      try run.pseudoTerminal.type("\u{18}\u{05}\u{1F}\r")
      #expect(try run.session.readLineAgain() == .submitted(Array("a\tb".utf8)))
      run.session.finish(saying: nil)
    }

    @Test func ctrlUnderscoreAfterwardsBringsTheLineBack() throws {
      let run = try Run(returning: .replaced("new"))
      try run.pseudoTerminal.type("\u{18}\u{05}\u{1F}\r")

      #expect(
        try run.session.readLine(text: "old", hints: [Hint(subject: "hint")], dimmed: false)
          == .submitted(Array("old".utf8)))
      run.session.finish(saying: nil)
    }

    @Test func aKeptLineStaysAndTheReasonIsWrittenAboveTheHintFromTheFirstColumn() throws {
      let run = try Run(returning: .kept(because: "Line kept: why."))
      try run.pseudoTerminal.type("\u{18}\u{05}\r")

      #expect(
        try run.session.readLine(text: "note", hints: [Hint(subject: "hint")], dimmed: false)
          == .submitted(Array("note".utf8)))
      let output = String(decoding: try run.pseudoTerminal.readOutput(count: 8192), as: UTF8.self)
      let reason = try #require(
        output.range(of: "\rLine kept: why.\u{1B}[K\r"), "\(output.debugDescription)")
      let hint = try #require(output.range(of: "hint", range: reason.upperBound..<output.endIndex))
      #expect(output[hint.upperBound...].contains("> note"))
      run.session.finish(saying: nil)
    }

    @Test func withoutAnEditorCtrlXCtrlEDoesNothing() throws {
      let run = try Run(returning: nil)
      try run.pseudoTerminal.type("\u{18}\u{05}!\r")

      #expect(
        try run.session.readLine(text: "note", hints: [Hint(subject: "hint")], dimmed: false)
          == .submitted(Array("note!".utf8)))
      run.session.finish(saying: nil)
    }
  }
}
