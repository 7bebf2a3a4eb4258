import Foundation
import Testing

extension PromptTests {
  /// The man page's DESCRIPTION: what the user typed is never lost. A save
  /// that fails at Enter leaves the line as it was, below the reason; a
  /// prompt that cannot stay keeps the line in a private file it names.
  @Suite("a save that fails at Enter: the line stays, or is kept in a file the message names")
  struct FailedSave {
    /// Where filenote keeps a line (`TMPDIR`), inside the test's home.
    static func temporaryFolder(of home: TemporaryHome) throws -> String {
      let folder = home.work + "/tmp"
      try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      return folder
    }

    /// The prompt on "note" with " edited" typed, in a window wide enough
    /// for the reason to take one row.
    static func edited(_ home: TemporaryHome) throws -> TmuxSession {
      let session = try home.openPrompt(
        on: "note", environment: ["TMPDIR": try temporaryFolder(of: home)], columns: 200)
      try session.send(text: " edited")
      try session.waitForEditLine("> note edited|")
      return session
    }

    @Test("the line stays below the reason; once the cause is gone, Enter saves it")
    func theLineStays() throws {
      let home = try TemporaryHome()
      let session = try Self.edited(home)
      try home.protect(home.documents)
      defer { home.unprotect(home.documents) }

      try session.send(keys: "Enter")

      let screen = try session.waitFor("the reason and the line again") {
        guard let row = $0.editRow, row >= 2 else { return false }
        return $0.lines[row - 2].hasPrefix("Not saved: cannot save note: cannot create a file in ")
          && $0.lines[row - 1] == PromptTests.hint(columns: 200)
          && $0.editLineWithCursor == "> note edited|"
      }
      #expect(try session.exitStatus() == nil, "still in the prompt: \(screen)")
      #expect(home.note == "note")
      try session.send(text: "!")
      try session.waitForEditLine("> note edited!|")
      home.unprotect(home.documents)
      try home.expectEnterSaves("note edited!", in: session)
    }

    /// The private file the message on the screen of `session` names
    /// ("what you wrote is kept in PATH"); checks that only the user can
    /// read it.
    static func keptFile(
      namedIn session: TmuxSession, home: TemporaryHome,
      sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
      let marker = "what you wrote is kept in "
      let lines = try session.screenJoiningWrappedLines().split(separator: "\n")
      let line = try #require(
        lines.first { $0.contains(marker) }, "\(lines)", sourceLocation: sourceLocation)
      let path = String(line.components(separatedBy: marker)[1])
      #expect(
        path.hasPrefix(try temporaryFolder(of: home) + "/filenote-") && path.hasSuffix("/note.txt"),
        sourceLocation: sourceLocation)
      expectPrivate(path, sourceLocation: sourceLocation)
      return path
    }

    /// Checks that the file at `path` is 0600 in a folder that is 0700.
    static func expectPrivate(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
      var file = stat()
      var folder = stat()
      #expect(
        stat(path, &file) == 0 && file.st_mode & 0o777 == 0o600, sourceLocation: sourceLocation)
      #expect(
        stat((path as NSString).deletingLastPathComponent, &folder) == 0
          && folder.st_mode & 0o777 == 0o700, sourceLocation: sourceLocation)
    }

    @Test("Ctrl-C after a failed save keeps the line in a private file the message names")
    func cancelAfterFailure() throws {
      let home = try TemporaryHome()
      let session = try Self.edited(home)
      try home.protect(home.documents)
      defer { home.unprotect(home.documents) }
      try session.send(keys: "Enter")
      try session.waitFor("the reason") { $0.text.contains("Not saved: ") }

      try session.send(keys: "C-c")

      #expect(try session.waitForExit() == .exited(130))
      try session.waitFor("the file named") { $0.text.contains("is kept in") }
      let path = try Self.keptFile(namedIn: session, home: home)
      #expect(home.contents(of: path) == Array("note edited\n".utf8))
      #expect(home.note == "note")
    }

    @Test("SIGTERM while editing keeps the line in a private file the message names")
    func signal() throws {
      let home = try TemporaryHome()
      let session = try Self.edited(home)

      #expect(kill(try session.processID(), SIGTERM) == 0)

      #expect(try session.waitForExit() == .killed(by: SIGTERM))
      let screen = try session.waitFor("the file named") { $0.text.contains("is kept in") }
      #expect(screen.text.contains("filenote: what you wrote is kept in "), "\(screen)")
      let path = try Self.keptFile(namedIn: session, home: home)
      #expect(home.contents(of: path) == Array("note edited\n".utf8))
    }

    @Test("a terminal that goes away keeps the line in a private file")
    func terminalGone() throws {
      let home = try TemporaryHome()
      let session = try Self.edited(home)
      let folder = try Self.temporaryFolder(of: home)

      session.kill()

      let deadline = ContinuousClock.now + .seconds(10)
      var kept: [String] = []
      while kept.isEmpty && ContinuousClock.now < deadline {
        kept = home.entries(in: folder).map { folder + "/" + $0 + "/note.txt" }
          .filter { home.contents(of: $0) == Array("note edited\n".utf8) }
        usleep(20_000)
      }
      let path = try #require(kept.first, "no file kept in \(home.entries(in: folder))")
      Self.expectPrivate(path)
    }

    @Test("an unedited line, or a version recalled as it is, is not kept: there is nothing to lose")
    func nothingToKeep() throws {
      let home = try TemporaryHome.saving("old", "note")
      let folder = try Self.temporaryFolder(of: home)
      let session = try home.openPrompt(on: nil, environment: ["TMPDIR": folder])
      try session.waitForEditLine("> note|")
      try session.send(keys: "Up")
      try session.waitForEditLine("> old|")

      #expect(kill(try session.processID(), SIGTERM) == 0)

      #expect(try session.waitForExit() == .killed(by: SIGTERM))
      #expect(home.entries(in: folder) == [])
    }

    @Test("the plain prompt cannot give the line back: it keeps it in a file the message names")
    func plainPrompt() throws {
      let home = try TemporaryHome()
      try home.writeNote("note")
      let session = try home.terminal(
        environment: ["TERM": "dumb", "TMPDIR": try Self.temporaryFolder(of: home)],
        columns: 200)
      try session.waitFor("the plain prompt") { $0.nonBlankLines.last == ">" }
      try home.protect(home.documents)
      defer { home.unprotect(home.documents) }

      try session.send(text: "typed")
      try session.send(keys: "Enter")

      #expect(try session.waitForExit() == .exited(1))
      let screen = try session.waitFor("the file named") { $0.text.contains("is kept in") }
      #expect(screen.text.contains("filenote: cannot save note: cannot create a file in "))
      let path = try Self.keptFile(namedIn: session, home: home)
      #expect(home.contents(of: path) == Array("typed\n".utf8))
      #expect(home.note == "note")
    }
  }
}
