import Foundation
import Testing

/// A bad `FILENOTE_VERSIONS` is reported before anything else happens, so
/// it never costs the user what they typed: no prompt opens, no editor
/// starts, no input is read, nothing is written. Only `show`, which never
/// keeps a version, leaves it unread.
@Suite("a bad FILENOTE_VERSIONS is reported before anything happens")
struct VersionsSettingTests {
  static let bad: [String: String] = ["FILENOTE_VERSIONS": "abc"]
  static let message =
    "filenote: FILENOTE_VERSIONS must be the number of versions to keep (0 keeps none), not 'abc'"

  /// A home with a note and one version, and a way to tell that neither changed.
  struct Saved {
    let home: TemporaryHome
    let versions: [String]

    init() throws {
      home = try TemporaryHome.saving("kept", "note")
      versions = home.entries(in: Self.versionsFolder(of: home))
      // "kept", and the note's own name (a save's hard link of its note).
      #expect(versions.count == 2)
    }

    static func versionsFolder(of home: TemporaryHome) -> String {
      home.documents + "/.datafile.dat.versions"
    }

    func expectUntouched(sourceLocation: SourceLocation = #_sourceLocation) {
      #expect(home.note == "note", sourceLocation: sourceLocation)
      #expect(
        home.entries(in: Self.versionsFolder(of: home)) == versions,
        sourceLocation: sourceLocation)
      #expect(
        home.entries(in: home.documents) == [".datafile.dat.versions", "datafile.dat"],
        sourceLocation: sourceLocation)
    }
  }

  @Test("the prompt never opens: the message, exit 2, the note as it was")
  func prompt() throws {
    let saved = try Saved()
    let session = try saved.home.terminal(environment: Self.bad, columns: 200)
    #expect(try session.waitForExit() == .exited(2))
    let screen = try session.screen()
    #expect(screen.contains(Self.message), "\(screen)")
    #expect(!screen.contains("Enter saves"), "\(screen)")
    saved.expectUntouched()
  }

  @Test(
    "commands say so, exit 2, and change nothing",
    arguments: [
      ["save", "new"], ["undo"], ["restore", "1"], ["clear"], ["clear", "--all"], ["history"],
      ["path"],
    ])
  func commands(arguments: [String]) throws {
    let saved = try Saved()
    let result = try saved.home.filenote(arguments, environment: Self.bad).run()
    result.expectError(status: 2)
    #expect(result.stderrText == Self.message + "\n")
    saved.expectUntouched()
  }

  @Test("save stops before it reads standard input")
  func saveFromStandardInput() throws {
    let saved = try Saved()
    let running = try saved.home.filenote(["save"], input: .pipe, environment: Self.bad).start()
    // More than any pipe holds: only a reader takes it all.
    let taken = running.write([UInt8](repeating: UInt8(ascii: "x"), count: 8 << 20))
    let result = running.wait()
    #expect(!taken, "filenote read its standard input")
    #expect(result.status == 2 && result.stderrText == Self.message + "\n")
    saved.expectUntouched()
  }

  @Test("save on a terminal does not wait for the note to be typed")
  func saveOnATerminal() throws {
    let saved = try Saved()
    let session = try saved.home.terminal(running: ["save"], environment: Self.bad, columns: 200)
    #expect(try session.waitForExit() == .exited(2))
    let screen = try session.screen()
    #expect(screen.contains(Self.message) && !screen.contains("reading the note"), "\(screen)")
    saved.expectUntouched()
  }

  @Test("edit never starts the editor")
  func edit() throws {
    let saved = try Saved()
    let ran = saved.home.work + "/editor-ran"
    let editor = saved.home.work + "/editor"
    try saved.home.write(Array("#!/bin/sh\ntouch '\(ran)'\n".utf8), to: editor, mode: 0o755)
    var environment: [String: String?] = Self.bad
    environment["EDITOR"] = editor
    environment["VISUAL"] = .some(nil)
    let session = try saved.home.terminal(
      running: ["edit"], environment: environment, columns: 200)
    #expect(try session.waitForExit() == .exited(2))
    #expect(try session.screen().contains(Self.message))
    #expect(!saved.home.exists(ran), "the editor ran")
    saved.expectUntouched()
  }

  @Test("show leaves it unread: the note and its versions are printed")
  func show() throws {
    let saved = try Saved()
    #expect(try saved.home.run("show", environment: Self.bad).stdoutText == "note\n")
    #expect(try saved.home.run("show", "1", environment: Self.bad).stdoutText == "kept\n")
  }
}
