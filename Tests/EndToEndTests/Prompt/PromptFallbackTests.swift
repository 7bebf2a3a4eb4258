import Foundation
import Testing

extension PromptTests {
  @Suite("the plain prompt, for a terminal that cannot move its cursor (TERM=dumb or unset)")
  struct Plain {
    /// TERM=dumb, and no TERM at all.
    static let terms: [String?] = ["dumb", nil]

    /// The prompt in a plain terminal, once it waits for a line.
    private func openPlainPrompt(home: TemporaryHome, term: String?) throws -> TmuxSession {
      let session = try home.terminal(environment: ["TERM": term], columns: 120)
      try waitForPlainPrompt(in: session)
      return session
    }

    /// The plain prompt with TERM=dumb started from a shell (`ShellRun`),
    /// once it waits for a line.
    private func openPlainPromptFromShell(home: TemporaryHome) throws -> ShellRun {
      let run = try ShellRun(home: home, environment: ["TERM": "dumb"])
      try waitForPlainPrompt(in: run.session)
      return run
    }

    /// Waits until the plain prompt's `>` is the last line on the screen.
    private func waitForPlainPrompt(in session: TmuxSession) throws {
      try session.waitFor("the plain prompt") { $0.nonBlankLines.last == ">" }
    }

    @Test("it shows where the note is and the note itself", arguments: terms)
    func showsTheNote(term: String?) throws {
      let home = try TemporaryHome()
      try home.writeNote("buy milk")

      let session = try openPlainPrompt(home: home, term: term)

      let lines = try session.look().nonBlankLines
      #expect(lines.first?.contains(home.notePath) == true, "\(lines)")
      #expect(lines.contains("Current: buy milk"), "\(lines)")
      #expect(try session.styledScreen().contains("\u{1B}[") == false, "no escape sequences")
    }

    @Test("Enter on an empty line keeps the note: nothing written", arguments: terms)
    func emptyLineKeeps(term: String?) throws {
      let home = try TemporaryHome()
      let before = try home.writeBackdatedNote("buy milk")
      let session = try openPlainPrompt(home: home, term: term)

      try session.send(keys: "Enter")

      try home.expectPromptEnded(
        session, status: 0, noteStill: before, lastLine: "Nothing changed.")
    }

    @Test("a typed line is saved", arguments: terms)
    func typedLineSaves(term: String?) throws {
      let home = try TemporaryHome()
      try home.writeNote("buy milk")
      let session = try openPlainPrompt(home: home, term: term)

      try session.send(text: "buy bread")
      try session.send(keys: "Enter")

      #expect(try session.waitForExit() == .exited(0))
      #expect(home.note == "buy bread")
      try session.waitFor("the last line \"Saved.\"") { $0.nonBlankLines.last == "Saved." }
    }

    @Test("a note with newlines and control characters is shown with stand-ins")
    func standIns() throws {
      let home = try TemporaryHome()
      try home.writeNote("a\nb\tc\u{1B}[31m")

      let session = try openPlainPrompt(home: home, term: "dumb")

      #expect(try session.look().lines.contains("Current: a↵b⇥c␛[31m"))
    }

    @Test("with no note yet a typed line becomes the note; an empty one creates nothing")
    func noNote() throws {
      let typing = try TemporaryHome()
      let typed = try openPlainPrompt(home: typing, term: "dumb")
      let empty = try TemporaryHome()
      let notTyped = try openPlainPrompt(home: empty, term: "dumb")

      try typed.send(text: "first")
      try typed.send(keys: "Enter")
      try notTyped.send(keys: "Enter")

      #expect(try typed.waitForExit() == .exited(0))
      #expect(typing.note == "first")
      #expect(try notTyped.waitForExit() == .exited(0))
      #expect(empty.entries(in: empty.home) == [])
    }

    @Test("Ctrl-D cancels with exit 1, nothing written")
    func ctrlD() throws {
      let home = try TemporaryHome()
      let before = try home.writeBackdatedNote("buy milk")
      let session = try openPlainPrompt(home: home, term: "dumb")

      try session.send(keys: "C-d")

      try home.expectPromptEnded(session, status: 1, noteStill: before)
    }

    @Test("Ctrl-C cancels: nothing written, the shell sees 130, the terminal is as it was")
    func ctrlC() throws {
      let home = try TemporaryHome()
      let before = try home.writeBackdatedNote("buy milk")
      let run = try openPlainPromptFromShell(home: home)
      try run.session.send(text: "half typed")

      try run.session.send(keys: "C-c")

      #expect(try run.waitForStatus() == 130)
      try run.expectTerminalRestored()
      #expect(FileState(of: home.notePath) == before)
    }

    @Test(
      "Ctrl-C says that nothing was saved, as in the line editor")
    func ctrlCSaysSo() throws {
      let home = try TemporaryHome()
      try home.writeNote("buy milk")
      let run = try openPlainPromptFromShell(home: home)

      try run.session.send(keys: "C-c")

      #expect(try run.waitForStatus() == 130)
      let screen = try run.session.look()
      #expect(screen.text.contains("Cancelled: nothing was saved."), "\(screen)")
    }

    static let question = PromptTests.Conflict.question

    /// The plain prompt open on "mine", another filenote saving over it,
    /// and a typed line: the question is asked and nothing is saved yet.
    func askedAfterAnotherSave(home: TemporaryHome) throws -> TmuxSession {
      try home.writeNote("mine")
      let session = try openPlainPrompt(home: home, term: "dumb")
      try home.run("save", "update from a script").expectSuccess()
      try session.send(text: "typed")
      try session.send(keys: "Enter")
      try session.waitFor("the question") { $0.nonBlankLines.last == Self.question }
      #expect(home.note == "update from a script")
      return session
    }

    @Test("a note changed on disk since it was shown is asked about; n shows it and keeps it")
    func conflictNo() throws {
      let home = try TemporaryHome()
      let session = try askedAfterAnotherSave(home: home)

      try session.send(text: "n")
      try session.send(keys: "Enter")

      let shown = try session.waitFor("the prompt again") {
        $0.nonBlankLines.last == ">" && $0.lines.contains("Current: update from a script")
      }
      #expect(shown.lines.contains("Not saved. The note on disk now:"), "\(shown)")
      #expect(home.note == "update from a script")
      // Checked against what was shown last: this line saves without asking.
      try session.send(text: "typed again")
      try session.send(keys: "Enter")
      #expect(try session.waitForExit() == .exited(0))
      #expect(home.note == "typed again")
      try session.waitFor("the last line \"Saved.\"") { $0.nonBlankLines.last == "Saved." }
    }

    @Test("a note changed on disk since it was shown is asked about; y overwrites it")
    func conflictYes() throws {
      let home = try TemporaryHome()
      let session = try askedAfterAnotherSave(home: home)

      try session.send(text: "y")
      try session.send(keys: "Enter")

      #expect(try session.waitForExit() == .exited(0))
      #expect(home.note == "typed")
      try session.waitFor("the last line \"Saved.\"") { $0.nonBlankLines.last == "Saved." }
    }

    @Test("Ctrl-D at the question cancels with exit 1 and keeps the other version")
    func conflictCtrlD() throws {
      let home = try TemporaryHome()
      let session = try askedAfterAnotherSave(home: home)

      try session.send(keys: "C-d")

      #expect(try session.waitForExit() == .exited(1))
      #expect(home.note == "update from a script")
    }

    @Test("the terminal is left as it was")
    func terminalRestored() throws {
      let home = try TemporaryHome()
      try home.writeNote("buy milk")
      let run = try openPlainPromptFromShell(home: home)

      try run.session.send(text: "buy bread")
      try run.session.send(keys: "Enter")

      #expect(try run.waitForStatus() == 0)
      try run.expectTerminalRestored()
      #expect(home.note == "buy bread")
    }
  }

  @Suite("when the prompt cannot open")
  struct CannotOpen {
    @Test(
      "a note that is not UTF-8 is refused with an error; file and terminal are left as they were",
      arguments: ["screen", "dumb"])
    func notUTF8(term: String) throws {
      let home = try TemporaryHome()
      try home.write([0x6F, 0x6B, 0xFF, 0xFE, 0x0A], to: home.notePath)
      try home.backdate(home.notePath)
      let before = try #require(FileState(of: home.notePath))

      let run = try ShellRun(home: home, environment: ["TERM": term], columns: 250)

      #expect(try run.waitForStatus() == 1)
      let screen = try run.session.look()
      let error = screen.lines.first { $0.hasPrefix("filenote: ") } ?? ""
      #expect(error.contains(home.notePath), "\(screen)")
      #expect(error.contains("UTF-8") && error.contains("offset 2"), "\(screen)")
      #expect(screen.editRow == nil, "no edit line was drawn: \(screen)")
      try run.expectTerminalRestored()
      #expect(FileState(of: home.notePath) == before)
    }

    @Test("a note path that is a folder is an error; the terminal is left as it was")
    func folderAsNote() throws {
      let home = try TemporaryHome()

      let run = try ShellRun(home: home, arguments: ["--file", home.work], columns: 250)

      #expect(try run.waitForStatus() == 1)
      let screen = try run.session.look()
      let error = screen.lines.first { $0.hasPrefix("filenote: ") } ?? ""
      #expect(error.contains(home.work), "\(screen)")
      #expect(screen.editRow == nil, "no edit line was drawn: \(screen)")
      try run.expectTerminalRestored()
    }

    @Test("standard input not a terminal, on a terminal: exit 2, pointing to save and show")
    func standardInputNotATerminal() throws {
      let home = try TemporaryHome()
      try home.writeNote("kept")
      let session = try home.terminal(columns: 250) { "echo typed | \($0); echo \"exited: $?\"" }

      let screen = try session.waitFor("filenote to exit") {
        $0.lines.contains { $0.hasPrefix("exited: ") }
      }

      #expect(screen.lines.contains("exited: 2"), "\(screen)")
      let error = screen.lines.first { $0.hasPrefix("filenote: ") } ?? ""
      #expect(error.contains("filenote save") && error.contains("filenote show"), "\(screen)")
      #expect(home.note == "kept")
    }

    @Test(
      "standard output redirected or a pipe, keys from /dev/tty: the prompt talks to the terminal, nothing goes to standard output",
      arguments: ["screen", "dumb"],
      [
        "filenote > output.txt", "filenote < /dev/tty | cat > output.txt",
        "filenote < /dev/tty > output.txt",
      ])
    func standardOutputRedirected(term: String, command: String) throws {
      let home = try TemporaryHome()
      try home.writeNote("note")
      let session = try home.terminal(environment: ["TERM": term]) { filenote in
        let run = command.replacingOccurrences(of: "filenote", with: filenote)
        let parts = run.components(separatedBy: " | ")
        // The pipeline's status is cat's: keep filenote's in a file.
        return "( \(parts[0]); echo \"exited: $?\" > status.txt )"
          + (parts.count > 1 ? " | " + parts[1] : "") + "; echo finished"
      }
      if term == "dumb" {
        try session.waitFor("the plain prompt") { $0.nonBlankLines.last == ">" }
        #expect(try session.look().lines.contains("Current: note"))
        try session.send(text: "note!")
      } else {
        try session.waitForEditLine("> note|")
        try session.send(text: "!")
        try session.waitForEditLine("> note!|")
      }
      try session.send(keys: "Enter")

      let screen = try session.waitFor("filenote to exit") { $0.lines.contains("finished") }
      #expect(screen.lines.contains("Saved."), "\(screen)")
      #expect(home.note == "note!")
      #expect(home.contents(of: home.work + "/status.txt") == Array("exited: 0\n".utf8))
      #expect(home.contents(of: home.work + "/output.txt") == [], "nothing on standard output")
    }
  }
}
