import Foundation
import Testing

/// Versions (doc/DESIGN.md) and the commands `history`, `show N`, `undo`,
/// `restore N` and `clear --all`, run as a user runs them.
@Suite("filenote history, show N, undo, restore N, clear --all")
struct VersionCommands {
  static func dateTimePattern() -> String { #"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"# }

  @Test("history lists number, local date and time, size and first line, newest first")
  func historyFormat() throws {
    let home = try TemporaryHome.saving("buy milk", "line one\nline\ttwo", "now")
    let result = try home.run("history", environment: ["TZ": "UTC"])
    result.expectSuccess()
    let lines = result.stdoutText.split(separator: "\n").map(String.init)
    try #require(lines.count == 2, "\(result.stdoutText)")
    let pattern = "^1  " + Self.dateTimePattern() + "  17  line one$"
    #expect(lines[0].range(of: pattern, options: .regularExpression) != nil, "\(lines[0])")
    let second = "^2  " + Self.dateTimePattern() + "   8  buy milk$"
    #expect(lines[1].range(of: second, options: .regularExpression) != nil, "\(lines[1])")
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
    let utc = try home.run("history", environment: ["TZ": "UTC"])
    #expect(utc.stdoutText == "1  2026-01-02 03:04:05  1  a\n")
    let tokyo = try home.run("history", environment: ["TZ": "Asia/Tokyo"])
    #expect(tokyo.stdoutText == "1  2026-01-02 12:04:05  1  a\n")
  }

  @Test("history with no versions: nothing on standard output, a note on standard error, exit 0")
  func historyWithoutVersions() throws {
    let home = try TemporaryHome.saving("only")
    let result = try home.run("history")
    #expect(result.status == 0)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderrText.hasPrefix("filenote: no versions")
        && result.stderrText.contains(home.notePath))
    let none = try TemporaryHome().run("history")
    #expect(none.status == 0 && none.stdout.isEmpty)
  }

  @Test("show N prints version N exactly as show prints the note")
  func showN() throws {
    let home = try TemporaryHome.saving("first\nwith two lines\n", "second", "third")
    let one = try home.run("show", "1")
    one.expectSuccess()
    #expect(one.stdoutText == "second\n")
    #expect(try home.run("show", "2").stdoutText == "first\nwith two lines\n\n")
    #expect(try home.run("show").stdoutText == "third\n")
  }

  @Test("a version number that is not kept: one line, exit 1; not a number: usage error, exit 2")
  func badNumbers() throws {
    let home = try TemporaryHome.saving("a", "b")
    for command in ["show", "restore"] {
      try home.run(command, "2").expectError(
        status: 1, mentioning: ["no version 2", "1 version"])
      try home.run(command, "0").expectError(status: 1, mentioning: ["no version 0"])
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

  @Test(
    "undo, restore 1 and show 1 with nothing kept are errors naming the note, and change nothing")
  func undoWithNothing() throws {
    let home = try TemporaryHome.saving("only")
    for command in [["undo"], ["restore", "1"], ["show", "1"]] {
      try home.filenote(command).run()
        .expectError(status: 1, mentioning: ["no version 1", home.notePath])
    }
    #expect(try home.run("show").stdoutText == "only\n")
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
    #expect(name.range(of: #"^\d{10}-\d+$"#, options: .regularExpression) != nil)
    #expect(home.mode(of: folder + "/" + name).map { $0 & 0o7777 } == 0o600)
  }

  @Test("FILENOTE_VERSIONS=N keeps N; 0 keeps none and removes the kept ones; junk is an error")
  func retentionSetting() throws {
    let home = try TemporaryHome.saving("a", "b", "c", "d")
    try home.run("save", "e", environment: ["FILENOTE_VERSIONS": "2"]).expectSuccess()
    #expect(try home.run("history").stdoutText.split(separator: "\n").count == 2)
    try home.run("save", "f", environment: ["FILENOTE_VERSIONS": "many"])
      .expectError(status: 2, mentioning: ["FILENOTE_VERSIONS", "'many'"])
    #expect(try home.run("show").stdoutText == "e\n")
    try home.run("save", "g", environment: ["FILENOTE_VERSIONS": "0"]).expectSuccess()
    #expect(home.entries(in: home.documents) == ["datafile.dat"])
  }

  @Test("a symbolic link in the versions folder's place refuses the save, note untouched")
  func plantedLink() throws {
    let home = try TemporaryHome.saving("a")
    let elsewhere = home.work + "/elsewhere"
    try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
    #expect(symlink(elsewhere, home.documents + "/.datafile.dat.versions") == 0)
    try home.run("save", "b").expectError(
      status: 1, mentioning: [".datafile.dat.versions", "symbolic link", "FILENOTE_VERSIONS=0"])
    #expect(try home.run("show").stdoutText == "a\n")
    #expect(home.entries(in: elsewhere) == [])
    try home.run("save", "b", environment: ["FILENOTE_VERSIONS": "0"]).expectSuccess()
    #expect(try home.run("show").stdoutText == "b\n")
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
    #expect(line.hasPrefix("1  "))
    #expect(!line.contains("\u{FFFD}"))
    let columns = line.reduce(0) { $0 + ($1 == "中" || $1 == "文" ? 2 : 1) }
    #expect(columns <= 40, "\(line)")
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
