import LineEditor
import SystemCalls
import TestSupport
import Testing

@testable import TerminalSession

extension TerminalTests {
  /// The session steps out of raw mode for a child process (the user's
  /// editor) and comes back with the prompt redrawn.
  @Suite struct EditingSessionOutsideRawMode {
    @Test func theTerminalIsAsBeforeWhileOutsideAndRawAgainAfterWithTheLineRedrawn() throws {
      let pseudoTerminal = try PseudoTerminal()
      let original = try pseudoTerminal.settingsBytes()
      let terminal = FileDescriptor(rawValue: pseudoTerminal.slave)
      let session = try EditingSession(input: terminal, output: terminal)
      try pseudoTerminal.type("!\r")
      #expect(
        try session.readLine(text: "note", hints: [Hint(subject: "the hint")], dimmed: false)
          == .submitted(Array("note!".utf8)))
      let drawn = try pseudoTerminal.readOutput(count: 1)
      #expect(!drawn.isEmpty)
      _ = try pseudoTerminal.readOutput(count: 4096)  // whatever else, until quiet

      let settingsOutside = try session.runOutsideRawMode { try? terminal.terminalSettings() }

      #expect(settingsOutside?.bytes == original, "as the terminal was before the session")
      #expect(settingsOutside?.isLineMode == true)
      #expect(try terminal.terminalSettings().isLineMode == false, "raw again")
      let redrawn = String(decoding: try pseudoTerminal.readOutput(count: 4096), as: UTF8.self)
      #expect(redrawn.contains("\u{1B}[?2004l"), "bracketed paste off while outside")
      #expect(redrawn.contains("the hint"), "the hint drawn again")
      #expect(redrawn.contains("> note!"), "the line drawn again")
      session.finish(saying: nil)
      #expect(try pseudoTerminal.settingsBytes() == original)
    }

    @Test func aTerminalThatHungUpIsAnErrorThatCarriesItsErrno() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = FileDescriptor(rawValue: pseudoTerminal.slave)
      let session = try EditingSession(input: terminal, output: terminal)
      defer { session.finish(saying: nil) }
      pseudoTerminal.closeMaster()
      #expect(throws: TerminalError.cannotWrite(errno: .ioError)) {
        try session.readLine(text: "", hints: [Hint(subject: "hint")], dimmed: true)
      }
    }
  }
}
