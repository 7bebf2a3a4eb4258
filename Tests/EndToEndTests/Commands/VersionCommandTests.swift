import Foundation
import Testing

/// Versions (doc/DESIGN.md) and the commands `history`, `show N`, `undo`,
/// `restore N` and `clear --all`, run as a user runs them.
@Suite("filenote history, show N, undo, restore N, clear --all")
struct VersionCommands {
  static func dateTimePattern() -> String { #"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"# }

  @Test(
    "history lists the note as 0, then number, local date and time, size and first line, newest first"
  )
  func historyFormat() throws {
    let home = try TemporaryHome.saving("buy milk", "line one\nline\ttwo", "now")
    let result = try home.run("history", environment: ["TZ": "UTC"])
    result.expectSuccess()
    let lines = result.stdoutText.split(separator: "\n").map(String.init)
    try #require(lines.count == 3, "\(result.stdoutText)")
    let note = "^0  " + Self.dateTimePattern() + "   3  now$"
    #expect(lines[0].range(of: note, options: .regularExpression) != nil, "\(lines[0])")
    let pattern = "^1  " + Self.dateTimePattern() + "  17  line one↵…$"
    #expect(lines[1].range(of: pattern, options: .regularExpression) != nil, "\(lines[1])")
    let second = "^2  " + Self.dateTimePattern() + "   8  buy milk$"
    #expect(lines[2].range(of: second, options: .regularExpression) != nil, "\(lines[2])")
  }

  @Test("the date and time are local, to the second, as date prints them")
  func historyTimeIsLocal() throws {
    let home = try TemporaryHome.saving("a", "b")
    let versions = home.documents + "/.datafile.dat.versions"
    let name = try #require(home.entries(in: versions).first)
    // 2026-01-02 03:04:05 UTC
    var times = [
      timespec(tv_sec: 1_767_323_045, tv_nsec: 0), timespec(tv_sec: 1_767_323_045, tv_nsec: 0),
    ]
    #expect(utimensat(AT_FDCWD, versions + "/" + name, &times, AT_SYMLINK_NOFOLLOW) == 0)
    #expect(utimensat(AT_FDCWD, home.notePath, &times, AT_SYMLINK_NOFOLLOW) == 0)
    let utc = try home.run("history", environment: ["TZ": "UTC"])
    #expect(utc.stdoutText == "0  2026-01-02 03:04:05  1  b\n1  2026-01-02 03:04:05  1  a\n")
    let tokyo = try home.run("history", environment: ["TZ": "Asia/Tokyo"])
    #expect(tokyo.stdoutText.hasSuffix("1  2026-01-02 12:04:05  1  a\n"))
  }

  @Test("history with the note alone lists it as 0; with neither, a line on standard error, exit 0")
  func historyWithoutVersions() throws {
    let home = try TemporaryHome.saving("only")
    let result = try home.run("history")
    result.expectSuccess()
    #expect(result.stdoutText.hasPrefix("0  ") && result.stdoutText.hasSuffix("  4  only\n"))
    let none = try TemporaryHome()
    let nothing = try none.run("history")
    #expect(nothing.status == 0 && nothing.stdout.isEmpty)
    #expect(nothing.stderrText.hasPrefix("filenote: no note and no versions"))
    #expect(nothing.stderrText.contains(none.notePath))
  }

  @Test("after a clear history lists the versions from 1, the cleared note first")
  func historyAfterClear() throws {
    let home = try TemporaryHome.saving("a", "b")
    try home.run("clear").expectSuccess()
    let lines = try home.run("history").stdoutText.split(separator: "\n")
    #expect(lines.count == 2 && lines[0].hasPrefix("1  ") && lines[0].hasSuffix("  b"))
  }

  @Test("show N prints version N exactly as show prints the note; show 0 is show")
  func showN() throws {
    let home = try TemporaryHome.saving("first\nwith two lines\n", "second", "third")
    let one = try home.run("show", "1")
    one.expectSuccess()
    #expect(one.stdoutText == "second\n")
    #expect(try home.run("show", "2").stdoutText == "first\nwith two lines\n")
    #expect(try home.run("show").stdoutText == "third\n")
    #expect(try home.run("show", "0").stdoutText == "third\n")
    #expect(try home.run("show", "000").stdoutText == "third\n")
    try home.run("clear").expectSuccess()
    try home.run("show", "0").expectError(status: 1, mentioning: ["'filenote undo'"])
  }

  @Test("a version number that is not kept: one line, exit 1; not a number: usage error, exit 2")
  func badNumbers() throws {
    let home = try TemporaryHome.saving("a", "b")
    try home.run("restore", "0").expectError(status: 1, mentioning: ["0 is the note itself"])
    for command in ["show", "restore"] {
      try home.run(command, "2").expectError(
        status: 1, mentioning: ["no version 2", "1 version"])
      try home.run(command, "99999999999999999999999").expectError(status: 1)
      try home.run(command, "x").expectError(status: 2, mentioning: ["'x'"])
      try home.run(command, "-1").expectError(status: 2)
      try home.run(command, "1", "2").expectError(status: 2)
    }
    try home.run("restore").expectError(status: 2)
    try home.run("undo", "1").expectError(status: 2)
    #expect(try home.run("show").stdoutText == "b\n")
  }

  @Test("undo puts version 1 back and says so; undo again redoes")
  func undoAndRedo() throws {
    let home = try TemporaryHome.saving("right", "wrong")
    let undo = try home.run("undo")
    undo.expectSuccess()
    #expect(undo.stdoutText == "Restored version 1.\n")
    #expect(try home.run("show").stdoutText == "right\n")
    #expect(try home.run("show", "1").stdoutText == "wrong\n")
    try home.run("undo").expectSuccess()
    #expect(try home.run("show").stdoutText == "wrong\n")
  }

  @Test("undo with nothing kept: nothing to undo; restore 1, show 1 name the note; nothing changes")
  func undoWithNothing() throws {
    let home = try TemporaryHome.saving("only")
    try home.run("undo").expectError(status: 1, mentioning: ["nothing to undo", home.notePath])
    for command in [["restore", "1"], ["show", "1"]] {
      try home.filenote(command).run()
        .expectError(status: 1, mentioning: ["no version 1", home.notePath])
    }
    #expect(try home.run("show").stdoutText == "only\n")
  }

  @Test(
    "undo and restore 1 on a fresh home fail and create nothing, not even ~/Documents",
    arguments: [["undo"], ["restore", "1"]])
  func undoOnAFreshHome(command: [String]) throws {
    let home = try TemporaryHome()
    try home.filenote(command).run().expectError(status: 1)
    #expect(home.entries(in: home.home) == [])
  }

  @Test("show after clear says versions are kept and that undo brings the note back")
  func showAfterClear() throws {
    let home = try TemporaryHome.saving("a", "b")
    try home.run("clear").expectSuccess()
    try home.run("show").expectError(
      status: 1, mentioning: [home.notePath, "'filenote undo' brings back the last of its 2"])
    try home.run("clear", "--all").expectSuccess()
    try home.run("show").expectError(status: 1, mentioning: ["no note saved yet"])
  }

  @Test("restore N puts version N back; the replaced note becomes version 1")
  func restoreN() throws {
    let home = try TemporaryHome.saving("a", "b", "c")
    let result = try home.run("restore", "2")
    result.expectSuccess()
    #expect(result.stdoutText == "Restored version 2.\n")
    #expect(try home.run("show").stdoutText == "a\n")
    #expect(try home.run("show", "1").stdoutText == "c\n")
    #expect(try home.run("show", "2").stdoutText == "b\n")
  }

  @Test("clear keeps the removed note as version 1, so undo brings it back")
  func clearThenUndo() throws {
    let home = try TemporaryHome.saving("keep me")
    try home.run("clear").expectSuccess()
    #expect(!home.exists(home.notePath))
    try home.run("undo").expectSuccess()
    #expect(try home.run("show").stdoutText == "keep me\n")
  }

  @Test("clear --all removes the note and every version and says how many")
  func clearAll() throws {
    let home = try TemporaryHome.saving("a", "b", "c")
    let result = try home.run("clear", "--all")
    result.expectSuccess()
    #expect(result.stdoutText == "Removed the note and 2 versions.\n")
    #expect(home.entries(in: home.documents) == [])
    let again = try home.run("clear", "--all")
    #expect(again.stdoutText == "No note was saved; removed 0 versions.\n")
    try home.run("save", "--all", "x").expectError(status: 2, mentioning: ["--all"])
  }

  @Test("versions live in .NAME.versions beside the note: mode 0700, each version 0600")
  func whereAndModes() throws {
    let home = try TemporaryHome()
    try home.run("--file", "todo.txt", "save", "a").expectSuccess()
    try home.run("--file", "todo.txt", "save", "b").expectSuccess()
    let folder = home.work + "/.todo.txt.versions"
    #expect(home.mode(of: folder).map { $0 & 0o7777 } == 0o700)
    let name = try #require(home.entries(in: folder).first)
    // When it was kept, to the nanosecond, and a random number (the man page's FILES).
    #expect(name.range(of: #"^\d+\.\d{9}-[0-9a-f]{16}$"#, options: .regularExpression) != nil)
    #expect(home.mode(of: folder + "/" + name).map { $0 & 0o7777 } == 0o600)
  }

  @Test("FILENOTE_VERSIONS=N keeps N; 0 keeps no new one and removes none; junk is an error")
  func retentionSetting() throws {
    let home = try TemporaryHome.saving("a", "b", "c", "d")
    try home.run("save", "e", environment: ["FILENOTE_VERSIONS": "2"]).expectSuccess()
    #expect(try home.run("history").stdoutText.split(separator: "\n").count == 3)
    try home.run("save", "f", environment: ["FILENOTE_VERSIONS": "many"])
      .expectError(status: 2, mentioning: ["FILENOTE_VERSIONS", "'many'"])
    #expect(try home.run("show").stdoutText == "e\n")
    try home.run("save", "g", environment: ["FILENOTE_VERSIONS": "0"]).expectSuccess()
    // e was kept as its own save made it; g, saved with versions off, is not.
    #expect(try home.run("show", "1").stdoutText == "e\n", "none removed, g's note not kept")
    #expect(try home.run("history").stdoutText.split(separator: "\n").count == 4)
  }

  @Test("a symbolic link in the versions folder's place refuses the save, note untouched")
  func plantedLink() throws {
    let home = try TemporaryHome.saving("a")
    let elsewhere = home.work + "/elsewhere"
    try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
    try FileManager.default.removeItem(atPath: home.documents + "/.datafile.dat.versions")
    #expect(symlink(elsewhere, home.documents + "/.datafile.dat.versions") == 0)
    try home.run("save", "b").expectError(
      status: 1, mentioning: [".datafile.dat.versions", "symbolic link", "remove the link"])
    #expect(try home.run("show").stdoutText == "a\n")
    #expect(home.entries(in: elsewhere) == [])
    try home.run("save", "b", environment: ["FILENOTE_VERSIONS": "0"]).expectSuccess()
    #expect(try home.run("show").stdoutText == "b\n")
  }

  @Test("a lower FILENOTE_VERSIONS prunes at the next save, which says so on a terminal only")
  func lowerCountSaysWhatItPruned() throws {
    let home = try TemporaryHome.saving("a", "b", "c", "d", "e", "f")
    let session = try TmuxSession(
      executable: try FilenoteProcess.binaryPath(), arguments: ["save", "g"],
      environment: ["HOME": home.home, "FILENOTE_VERSIONS": "2"], columns: 80, rows: 10)
    try session.waitUntil { screen in
      screen.contains("filenote: removed the 4 oldest versions: FILENOTE_VERSIONS=2 keeps 2")
    }
    #expect(try home.run("history").stdoutText.split(separator: "\n").count == 3)
    let piped = try home.run("save", "h", environment: ["FILENOTE_VERSIONS": "1"])
    piped.expectSuccess()
    #expect(piped.stderrText.isEmpty, "off a terminal, nothing is said")
  }

  @Test("on a terminal, history cuts each line to the window's width")
  func historyOnATerminal() throws {
    let home = try TemporaryHome.saving(String(repeating: "wide 中文 ", count: 20), "now")
    let session = try TmuxSession(
      executable: try FilenoteProcess.binaryPath(), arguments: ["history"],
      environment: ["HOME": home.home], columns: 40, rows: 10)
    try session.waitUntil { screen in screen.contains("wide") }
    let line = try #require(
      try session.screen().split(separator: "\n").first { $0.contains("wide") })
    #expect(line.hasPrefix("1  ") && line.hasSuffix("…"), "\(line)")
    #expect(!line.contains("\u{FFFD}"))
    let columns = line.reduce(0) { $0 + ($1 == "中" || $1 == "文" ? 2 : 1) }
    #expect(columns <= 40, "\(line)")
  }
}

extension VersionCommands {
  @Test("on a terminal, history says what each column is and how long ago each text was saved")
  func historyHeaderAndAgesOnATerminal() throws {
    let home = try TemporaryHome.saving("alpha\nbeta", "now")
    let session = try TmuxSession(
      executable: try FilenoteProcess.binaryPath(), arguments: ["history"],
      environment: ["HOME": home.home], columns: 80, rows: 10)
    try session.waitUntil { screen in screen.contains("alpha") }
    let lines = try session.screen().split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("N  SAVED") == true, "\(lines)")
    #expect(lines.first?.hasSuffix("FIRST LINE") == true, "\(lines)")
    let version = try #require(lines.first { $0.contains("alpha") })
    #expect(version.hasPrefix("1  ") && version.hasSuffix("alpha↵…"), "\(version)")
    #expect(version.contains(" s ago "), "\(version)")
  }
}

extension VersionCommands {
  @Test(
    "history of a --file that is a folder, a FIFO or a device: not a regular file, status 1",
    arguments: ["folder", "fifo", "/dev/null"])
  func historyOfWhatIsNoRegularFile(kind: String) throws {
    let home = try TemporaryHome()
    var path = kind
    if kind == "folder" {
      path = home.work + "/a-folder"
      try home.write([], to: path + "/inside")
    } else if kind == "fifo" {
      path = home.work + "/fifo"
      #expect(mkfifo(path, 0o600) == 0)
    }
    let show = try home.run("show", "--file", path)
    show.expectError(status: 1, mentioning: [path, "not a regular file"])
    try home.run("history", "--file", path)
      .expectError(status: 1, mentioning: [path, "not a regular file"])
  }

  @Test("undo with no versions in an unchangeable folder: nothing to undo, nothing created")
  func undoInAnUnchangeableFolder() throws {
    let home = try TemporaryHome.saving("only")
    try home.protect(home.documents)
    defer { home.unprotect(home.documents) }
    let before = home.entries(in: home.documents)
    try home.run("undo").expectError(status: 1, mentioning: ["nothing to undo", home.notePath])
    try home.run("restore", "1").expectError(status: 1, mentioning: ["no version 1"])
    #expect(home.entries(in: home.documents) == before)
  }

  @Test("a 0-byte note file is no note: history lists no 0, a save keeps no version of it")
  func emptyNoteFile() throws {
    let home = try TemporaryHome()
    try home.write([], to: home.notePath)
    let history = try home.run("history")
    #expect(history.status == 0)
    #expect(history.stdout.isEmpty)
    #expect(history.stderrText.contains("no note and no versions"), "\(history.stderrText)")
    try home.run("copy", "--desktop").expectError(status: 1, mentioning: ["no note"])
    try home.run("undo").expectError(status: 1, mentioning: ["nothing to undo"])
    try home.run("save", "first").expectSuccess()
    #expect(try home.run("history").stdoutText.split(separator: "\n").count == 1)
    try home.run("undo").expectError(status: 1, mentioning: ["nothing to undo"])
    try home.write([], to: home.notePath)
    #expect(try home.run("clear", "--all").stdoutText == "No note was saved; removed 0 versions.\n")
    #expect(!home.exists(home.notePath))
  }

  @Test("history shows a note's own final newline as the end of its line, not as more lines")
  func finalNewlineInHistory() throws {
    let home = try TemporaryHome()
    try home.writeNote("third\n")
    try home.run("save", "fourth").expectSuccess()
    let lines = try home.run("history").stdoutText.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.last?.hasSuffix("  6  third") == true, "\(lines)")
  }

  @Test("on a terminal 20 columns wide, history still shows the text of each line")
  func historyOnANarrowTerminal() throws {
    let home = try TemporaryHome.saving("call the plumber", "now")
    let session = try TmuxSession(
      executable: try FilenoteProcess.binaryPath(), arguments: ["history"],
      environment: ["HOME": home.home], columns: 20, rows: 10)
    #expect(try session.waitForExit() == .exited(0))
    let lines = try session.screen().split(separator: "\n").map(String.init)
    let version = try #require(lines.first { $0.hasPrefix("1 ") }, "\(lines)")
    #expect(version.contains("call"), "\(lines)")
    #expect(lines.allSatisfy { $0.count <= 20 }, "\(lines)")
  }
}

extension TemporaryHome {
  /// A home where `texts` were saved one after the other (the last is the note).
  static func saving(_ texts: String...) throws -> TemporaryHome {
    let home = try TemporaryHome()
    for text in texts { try home.run("save", text).expectSuccess() }
    return home
  }
}
