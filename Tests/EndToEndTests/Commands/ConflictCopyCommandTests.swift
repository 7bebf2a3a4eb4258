import Foundation
import Testing

/// A note in a folder a sync engine keeps alike on several machines
/// (doc/SYNC.md, the man page's SEVERAL MACHINES): the engine's conflict
/// copies are shown before anything can be overwritten, taken by `show N`
/// and `restore N`, and settled by the prompt's Enter, a saved `edit` and
/// `resolve`, never by a script's `save`.
@Suite("conflict copies of a synced note")
struct ConflictCopyCommandTests {
  /// The name Syncthing gives a conflict copy of `datafile.dat`.
  static let copy = "datafile.sync-conflict-20261201-202437-Y6OAA4V.dat"
  static let mark = "[conflict copy, Syncthing, device Y6OAA4V] "

  /// A home whose note was "base", then "mine", with another machine's
  /// "theirs" in a conflict copy beside it.
  static func home() throws -> TemporaryHome {
    let home = try TemporaryHome.saving("base", "mine")
    try home.write(Array("theirs".utf8), to: home.documents + "/" + copy)
    return home
  }

  /// The first-line column of each version's line `history` prints (line
  /// 0, the note, left out).
  static func firstLines(_ home: TemporaryHome) throws -> [String] {
    let history = try home.run("history")
    history.expectSuccess()
    // The README's way: the first line is what follows the size and two spaces.
    return history.stdoutText.split(separator: "\n").filter { !$0.hasPrefix("0  ") }.map {
      $0.replacingOccurrences(
        of: #"^ *[0-9]+ +[^ ]+ [^ ]+ +[0-9]+  "#, with: "", options: .regularExpression)
    }
  }

  @Test("history lists the copy among the versions, marked; show N and restore N take it")
  func listedAndTaken() throws {
    let home = try Self.home()
    #expect(try Self.firstLines(home) == [Self.mark + "theirs", "base"])
    #expect(try home.run("show", "1").stdoutText == "theirs\n")
    let restored = try home.run("restore", "1")
    restored.expectSuccess()
    #expect(
      restored.stdoutText
        == "Restored version 1.\nIt was a conflict copy: the conflict is settled.\n")
    #expect(home.note == "theirs")
    #expect(home.entries(in: home.documents) == [".datafile.dat.versions", "datafile.dat"])
    #expect(try Self.firstLines(home) == ["mine", "base"])
  }

  @Test("resolve settles the copies: gone from the note's folder, still listed and marked")
  func resolve() throws {
    let home = try Self.home()
    let resolved = try home.run("resolve")
    resolved.expectSuccess()
    #expect(
      resolved.stdoutText == "Settled 1 conflict copy: 'filenote history' lists it as a version.\n")
    #expect(home.entries(in: home.documents) == [".datafile.dat.versions", "datafile.dat"])
    #expect(
      try Self.firstLines(home) == [
        "[settled conflict copy, Syncthing, device Y6OAA4V] theirs", "base",
      ])
    #expect(try home.run("resolve").stdoutText == "No conflict copies to settle.\n")
    #expect(home.note == "mine")
  }

  @Test("a script's save settles nothing, and its show prints the note alone and says nothing")
  func scriptsAreNotTold() throws {
    let home = try Self.home()
    try home.run("save", "next").expectSuccess()
    #expect(home.entries(in: home.documents).contains(Self.copy))
    let shown = try home.run("show")
    shown.expectSuccess()
    #expect(shown.stdoutText == "next\n" && shown.stderr.isEmpty)
  }

  @Test("with versions off, resolve is an error and the copy stays")
  func resolveWithoutVersions() throws {
    let home = try Self.home()
    let resolved = try home.run("resolve", environment: ["FILENOTE_VERSIONS": "0"])
    resolved.expectError(status: 1, mentioning: ["FILENOTE_VERSIONS=0 keeps none"])
    #expect(home.entries(in: home.documents).contains(Self.copy))
  }

  @Test("no note, only copies (rclone bisync renames both texts away): show says so")
  func noNoteButCopies() throws {
    let home = try TemporaryHome.saving("base")
    try FileManager.default.moveItem(
      atPath: home.notePath, toPath: home.documents + "/datafile.dat..path1")
    try home.write(Array("other".utf8), to: home.documents + "/datafile.dat..path2")
    let session = try home.terminal(columns: 200) { filenote in "\(filenote) show; echo status $?" }
    let screen = try session.waitFor("show to end") { $0.text.contains("status ") }
    #expect(screen.text.contains("2 conflict copies of it beside it"), "\(screen)")
    #expect(screen.text.contains("status 1"))
    #expect(try home.run("show", "2").stdoutText == "base\n")
  }

  @Test("show on a terminal says so in one line on standard error; standard output is the note")
  func showOnATerminal() throws {
    let home = try Self.home()
    let session = try home.terminal(columns: 200) { filenote in
      "\(filenote) show > out; echo status $?"
    }
    let screen = try session.waitFor("show to end") { $0.text.contains("status ") }
    let said = screen.nonBlankLines.filter { $0.hasPrefix("filenote: ") }
    #expect(said.count == 1, "\(screen)")
    #expect(said.first?.contains("1 conflict copy beside it (Syncthing, device Y6OAA4V)") == true)
    #expect(screen.text.contains("status 0"))
    #expect(home.contents(of: home.work + "/out") == Array("mine\n".utf8))
  }

  @Test("resolve with no note (rclone bisync renamed both texts away): the newest copy is the note")
  func resolveWithNoNote() throws {
    let home = try TemporaryHome.saving("base")
    let folder = home.documents + "/"
    try home.write(Array("older".utf8), to: folder + "datafile.dat..path1")
    try home.write(Array("newer".utf8), to: folder + "datafile.dat..path2")
    // The older copy's text was saved a minute before.
    var times = [
      timespec(tv_sec: time(nil) - 60, tv_nsec: 0), timespec(tv_sec: time(nil) - 60, tv_nsec: 0),
    ]
    #expect(utimensat(AT_FDCWD, folder + "datafile.dat..path1", &times, 0) == 0)
    #expect(unlink(home.notePath) == 0)
    let resolved = try home.run("resolve")
    resolved.expectSuccess()
    #expect(
      resolved.stdoutText
        == "There was no note: the newest conflict copy, version 1, is the note.\n"
        + "Settled 1 conflict copy: 'filenote history' lists it as a version.\n")
    #expect(home.note == "newer")
    #expect(home.entries(in: home.documents) == [".datafile.dat.versions", "datafile.dat"])
    // "base" was kept by its own save: gone with the note, it stays a version.
    #expect(try Self.firstLines(home) == ["base", "[settled conflict copy, rclone bisync] older"])
  }

  @Test("merge markers git left in the note: show on a terminal and the prompt's hint say so")
  func mergeMarkers() throws {
    let home = try TemporaryHome.saving("list\n<<<<<<< HEAD\nmilk\n=======\neggs\n>>>>>>> b")
    let session = try home.terminal(columns: 200) { filenote in
      "\(filenote) show > out; echo status $?"
    }
    let screen = try session.waitFor("show to end") { $0.text.contains("status ") }
    let said = screen.nonBlankLines.filter { $0.hasPrefix("filenote: ") }
    #expect(said.count == 1 && said.first?.contains("merge markers") == true, "\(screen)")
    #expect(screen.text.contains("status 0"))
    #expect(
      home.contents(of: home.work + "/out")
        == Array("list\n<<<<<<< HEAD\nmilk\n=======\neggs\n>>>>>>> b\n".utf8))
    let prompt = try home.openPrompt(on: nil, columns: 100)
    let hint = try prompt.waitFor("the hint") { $0.lines[0].contains("Enter") }
    #expect(hint.lines[0].contains("merge markers"), "\(hint)")
    try prompt.send(keys: "C-c")
    _ = try prompt.waitForExit()
    #expect(home.note == "list\n<<<<<<< HEAD\nmilk\n=======\neggs\n>>>>>>> b")
  }

  @Test("the prompt's hint says how many there are; Up shows the copy first; Enter settles it")
  func prompt() throws {
    let home = try Self.home()
    let session = try home.openPrompt(on: nil, columns: 100)
    let screen = try session.waitForEditLine("> mine|")
    #expect(screen.lines[0].contains("1 conflict copy"), "\(screen)")
    #expect(screen.lines[0].contains("Up"), "\(screen)")
    try session.send(keys: "Up")
    try session.waitForEditLine("> theirs|")
    try session.send(keys: "Down")
    try session.waitForEditLine("> mine|")
    try session.send(keys: "Enter")
    #expect(try session.waitForExit() == .exited(0))
    #expect(home.note == "mine")
    #expect(home.entries(in: home.documents) == [".datafile.dat.versions", "datafile.dat"])
    #expect(try Self.firstLines(home).first?.hasPrefix("[settled conflict copy") == true)
  }

  @Test("edit says so before the editor opens, and a saved edit settles the copy")
  func edit() throws {
    let home = try Self.home()
    let editor = home.work + "/editor"
    try home.write(
      Array("#!/bin/sh\necho edited > \"$1\"\n".utf8), to: editor, mode: 0o755)
    let run = try PromptTests.ShellRun(
      home: home, arguments: ["edit"], environment: ["EDITOR": editor, "VISUAL": nil],
      columns: 200)
    #expect(try run.waitForStatus() == 0)
    let lines = try run.session.look().nonBlankLines
    let notice = try #require(lines.firstIndex { $0.contains("1 conflict copy beside it") })
    let saved = try #require(lines.firstIndex(of: "Saved."))
    #expect(notice < saved)
    #expect(home.note == "edited")
    #expect(!home.entries(in: home.documents).contains(Self.copy))
    #expect(
      try Self.firstLines(home) == [
        "[settled conflict copy, Syncthing, device Y6OAA4V] theirs", "mine", "base",
      ])
  }
}
