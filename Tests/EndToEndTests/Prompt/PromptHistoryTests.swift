import Foundation
import Testing

extension PromptTests {
  /// The man page's KEYS: Up/Down and Ctrl-R reach the kept versions, and
  /// Enter saves the line shown.
  @Suite("Up, Down and Ctrl-R walk and search the kept versions")
  struct History {
    @Test("Up recalls version 1, then older; Down comes back; Enter saves the line shown")
    func upDownEnter() throws {
      let home = try TemporaryHome.saving("buy milk", "call the plumber", "wrong")
      let session = try home.openPrompt(on: nil)
      try session.waitForEditLine("> wrong|")
      try session.send(keys: "Up")
      try session.waitForEditLine("> call the plumber|")
      try session.send(keys: "Up")
      try session.waitForEditLine("> buy milk|")
      try session.send(keys: "Down")
      try session.waitForEditLine("> call the plumber|")
      try session.send(keys: "Enter")

      #expect(try session.waitForExit() == .exited(0))
      #expect(home.note == "call the plumber")
      let history = try home.run("history")
      let firstLines = history.stdoutText.split(separator: "\n").map {
        $0.split(separator: " ").last ?? ""
      }
      #expect(
        firstLines.dropFirst().first == "wrong",
        "after the note (0), the replaced note is version 1: \(history.stdoutText)")
    }

    @Test("Ctrl-R searches the versions with readline's look; Enter saves the found line")
    func reverseSearch() throws {
      let home = try TemporaryHome.saving("buy milk and eggs", "call the plumber", "pay rent")
      let session = try home.openPrompt(on: nil)
      try session.waitForEditLine("> pay rent|")
      try session.send(keys: "C-r")
      try session.send(text: "milk")
      try session.waitFor("the search line") { screen in
        screen.text.contains("reverse-i-search)")
          && screen.text.contains("milk': buy milk and eggs")
      }
      try session.send(keys: "Enter")

      #expect(try session.waitForExit() == .exited(0))
      #expect(home.note == "buy milk and eggs")
      #expect(try home.run("show", "1").stdoutText == "pay rent\n")
    }

    @Test("Ctrl-G leaves the search with the line as it was; Ctrl-C saves nothing")
    func abortSearch() throws {
      let home = try TemporaryHome.saving("buy milk", "pay rent")
      let session = try home.openPrompt(on: nil)
      try session.waitForEditLine("> pay rent|")
      try session.send(keys: "C-r")
      try session.send(text: "milk")
      try session.waitFor("the search line") { $0.text.contains("milk': buy milk") }
      try session.send(keys: "C-g")
      try session.waitForEditLine("> pay rent|")
      try session.send(keys: "C-c")
      #expect(try session.waitForExit() == .exited(130))
      #expect(home.note == "pay rent")
    }
  }
}
