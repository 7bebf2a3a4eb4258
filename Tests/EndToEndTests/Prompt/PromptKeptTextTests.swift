import Foundation
import Testing

extension PromptTests {
  /// The man page's DESCRIPTION: text a prompt could not save, kept in a
  /// private file, is offered by the next prompt first under Up; only
  /// saving it or `filenote forget PATH` removes the file.
  @Suite("text kept by an earlier prompt: told of, offered under Up, removed only on purpose")
  struct KeptText {
    /// A prompt on "note" with " edited" typed, ended by SIGHUP as a
    /// closing terminal ends it; returns the file it kept.
    static func keptByHangUp(_ home: TemporaryHome) throws -> String {
      let session = try PromptTests.FailedSave.edited(home)
      #expect(kill(try session.processID(), SIGHUP) == 0)
      #expect(try session.waitForExit() == .killed(by: SIGHUP))
      try session.waitFor("the file named") { $0.text.contains("is kept in") }
      return try PromptTests.FailedSave.keptFile(namedIn: session, home: home)
    }

    /// A private folder and file as filenote makes them, holding `text`,
    /// with these modes; returns the file's path.
    static func plant(
      _ text: String, in home: TemporaryHome, name: String = "filenote-Ab12Cd",
      folderMode: mode_t = 0o700, fileMode: mode_t = 0o600
    ) throws -> String {
      let folder = try PromptTests.FailedSave.temporaryFolder(of: home) + "/" + name
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      try home.write(Array((text + "\n").utf8), to: folder + "/note.txt", mode: fileMode)
      #expect(chmod(folder, folderMode) == 0)
      return folder + "/note.txt"
    }

    static let told = "Unsaved text kept from an earlier prompt: Up shows it"

    static func open(_ home: TemporaryHome) throws -> TmuxSession {
      try home.openPrompt(
        on: nil,
        environment: ["TMPDIR": try PromptTests.FailedSave.temporaryFolder(of: home)],
        columns: 200)
    }

    @Test(
      "after a closed terminal, the next prompt says so, Up shows the text, Enter saves it and removes the file"
    )
    func savedFromTheNextPrompt() throws {
      let home = try TemporaryHome()
      let path = try Self.keptByHangUp(home)

      let session = try Self.open(home)
      let screen = try session.waitForEditLine("> note|")
      #expect(screen.lines[screen.editRow! - 1].hasPrefix(Self.told), "\(screen)")
      try session.send(keys: "Up")
      let up = try session.waitForEditLine("> note edited|")
      #expect(up.lines[up.editRow! - 1].hasPrefix("unsaved text in \(path)"), "\(up)")
      try home.expectEnterSaves("note edited", in: session)
      #expect(!home.exists(path))
      #expect(home.entries(in: try PromptTests.FailedSave.temporaryFolder(of: home)) == [])
    }

    @Test("Ctrl-C and other saves leave it; 'filenote forget PATH' removes it")
    func forgotten() throws {
      let home = try TemporaryHome()
      try home.writeNote("note")
      let path = try Self.plant("typed", in: home)

      let session = try Self.open(home)
      try session.waitFor("the notice") { $0.text.contains(Self.told) }
      try session.send(keys: "C-c")
      #expect(try session.waitForExit() == .exited(130))
      #expect(
        try home.run("save", "other", environment: ["TMPDIR": home.work + "/tmp"]).status == 0)
      #expect(home.contents(of: path) == Array("typed\n".utf8))

      let forgot = try home.run("forget", path)
      #expect(forgot.status == 0, "\(forgot.stderrText)")
      #expect(forgot.stdoutText == "Forgot \(path).\n")
      #expect(home.entries(in: try PromptTests.FailedSave.temporaryFolder(of: home)) == [])
      #expect(home.note == "other")
    }

    @Test("the plain prompt names the file, which stays")
    func plainPrompt() throws {
      let home = try TemporaryHome()
      try home.writeNote("note")
      let path = try Self.plant("typed", in: home)
      let session = try home.terminal(
        environment: ["TERM": "dumb", "TMPDIR": home.work + "/tmp"], columns: 200)
      let screen = try session.waitFor("the plain prompt") { $0.nonBlankLines.last == ">" }
      #expect(
        screen.text.contains("Unsaved text from an earlier prompt is kept in \(path) "),
        "\(screen)")
      try session.send(keys: "Enter")
      #expect(try session.waitForExit() == .exited(0))
      #expect(home.contents(of: path) == Array("typed\n".utf8))
    }

    @Test(
      "only the user's own private files are offered or forgotten: no other mode, no link",
      arguments: [
        "folder 0755", "file 0644", "linked file", "linked folder", "other name", "longer name",
      ])
    func onlyPrivateFiles(kind: String) throws {
      let home = try TemporaryHome()
      try home.writeNote("note")
      let tmp = try PromptTests.FailedSave.temporaryFolder(of: home)
      var path: String
      switch kind {
      case "folder 0755": path = try Self.plant("typed", in: home, folderMode: 0o755)
      case "file 0644": path = try Self.plant("typed", in: home, fileMode: 0o644)
      case "linked file":
        let target = try Self.plant("typed", in: home, name: "elsewhere")
        let folder = tmp + "/filenote-Ab12Cd"
        try FileManager.default.createDirectory(
          atPath: folder, withIntermediateDirectories: false,
          attributes: [.posixPermissions: 0o700])
        try FileManager.default.createSymbolicLink(
          atPath: folder + "/note.txt", withDestinationPath: target)
        path = folder + "/note.txt"
      case "linked folder":
        let target = try Self.plant("typed", in: home, name: "elsewhere")
        try FileManager.default.createSymbolicLink(
          atPath: tmp + "/filenote-Ab12Cd",
          withDestinationPath: (target as NSString).deletingLastPathComponent)
        path = tmp + "/filenote-Ab12Cd/note.txt"
      case "longer name": path = try Self.plant("typed", in: home, name: "filenote-test.Ab12Cd")
      default: path = try Self.plant("typed", in: home, name: "other-Ab12Cd")
      }
      let before = home.entries(in: tmp)

      let session = try Self.open(home)
      let screen = try session.waitForEditLine("> note|")
      #expect(!screen.text.contains("Unsaved"), "\(screen)")
      try session.send(keys: "C-c")
      #expect(try session.waitForExit() == .exited(130))
      #expect(try home.run("forget", path).status == 2)
      #expect(home.entries(in: tmp) == before)
      #expect(home.contents(of: path) == Array("typed\n".utf8))
    }
  }
}
