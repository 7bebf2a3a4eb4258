import Foundation
import Testing

extension PromptTests {
  @Suite("vi mode: with set editing-mode vi in the inputrc, the prompt has readline's vi keys")
  struct ViMode {
    /// A home whose inputrc (named by INPUTRC) holds `lines`, and the prompt
    /// open in it on `note`.
    private static func prompt(
      on note: String, inputrc lines: String
    ) throws -> (home: TemporaryHome, session: TmuxSession) {
      let home = try TemporaryHome()
      let inputrc = home.work + "/inputrc"
      try home.write(Array(lines.utf8), to: inputrc)
      try home.writeNote(note)
      let session = try home.terminal(environment: ["INPUTRC": inputrc])
      return (home, session)
    }

    @Test("the hint names the mode; Esc 0 d w and Enter save the line readline's vi mode makes")
    func commandModeEditsAndSaves() throws {
      let (home, session) = try Self.prompt(
        on: "buy milk today", inputrc: "set editing-mode vi\n")
      let opened = try session.waitForEditLine("> buy milk today|")
      #expect(opened.lines.first?.hasPrefix("-- INSERT -- · ") == true, "\(opened)")
      // In vi's insert mode Ctrl-X types itself: the hint names v instead.
      #expect(opened.lines.first?.contains("Ctrl-X") == false, "\(opened)")

      try session.send(keys: "Escape")
      let command = try session.waitFor("command mode") {
        $0.lines.first?.hasPrefix("-- COMMAND -- · ") == true
      }
      // Esc steps back onto the last character, as in vi.
      #expect(command.editLineWithCursor == "> buy milk toda|y")
      try session.send(text: "0dw")
      try session.waitForEditLine("> |milk today")
      try session.send(keys: "Enter")

      #expect(try session.waitForExit() == .exited(0))
      #expect(home.note == "milk today")
    }

    @Test("show-mode-in-prompt: (ins) and (cmd) before the prompt; a change undone, Ctrl-C")
    func modeStringAndCancel() throws {
      let (home, session) = try Self.prompt(
        on: "buy milk", inputrc: "set editing-mode vi\nset show-mode-in-prompt on\n")
      try session.waitUntil { $0.contains("(ins)> buy milk") }
      try session.send(keys: "Escape")
      try session.waitUntil { $0.contains("(cmd)> buy milk") }
      try session.send(text: "bcwsell")
      try session.waitUntil { $0.contains("(ins)> buy sell") }
      try session.send(keys: "Escape")
      try session.send(text: "u")
      try session.waitUntil { $0.contains("(cmd)> buy milk") }
      try session.send(keys: "C-c")

      #expect(try session.waitForExit() == .exited(130))
      #expect(home.note == "buy milk")
    }
  }
}
