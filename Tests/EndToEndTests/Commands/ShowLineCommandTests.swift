import Foundation
import Testing

@Suite("filenote show --line")
struct ShowLineCommand {
  @Test("prints the note as one line, its line breaks and controls as stand-ins")
  func oneLine() throws {
    let home = try TemporaryHome()
    try home.writeNote("buy milk\ncall mom\t\u{1B}[2J")
    let result = try home.run("show", "--line")
    result.expectSuccess()
    #expect(result.stdoutText == "buy milk\u{21B5}call mom\u{21E5}\u{241B}[2J\n")
  }

  @Test("cuts the line to --width columns, the … included")
  func width() throws {
    let home = try TemporaryHome()
    try home.writeNote("call the plumber")
    #expect(try home.run("show", "--line", "--width", "8").stdoutText == "call th\u{2026}\n")
    #expect(try home.run("show", "--line", "--width=16").stdoutText == "call the plumber\n")
    #expect(try home.run("show", "--width", "2", "--line").stdoutText == "c\u{2026}\n")
  }

  @Test("is 80 columns wide off a terminal")
  func defaultWidth() throws {
    let home = try TemporaryHome()
    try home.writeNote(String(repeating: "ab", count: 100))
    let line = try home.run("show", "--line").stdoutText
    #expect(line == String(String(repeating: "ab", count: 40).prefix(79)) + "\u{2026}\n")
  }

  @Test("is as wide as the terminal on one")
  func terminalWidth() throws {
    let home = try TemporaryHome()
    try home.writeNote(String(repeating: "x", count: 100))
    let session = try TmuxSession(
      executable: try FilenoteProcess.binaryPath(), arguments: ["show", "--line"],
      environment: ["HOME": home.home], columns: 40)
    #expect(try session.waitForExit() == .exited(0))
    let first = try session.screen().split(separator: "\n").first.map(String.init)
    #expect(first == String(repeating: "x", count: 39) + "\u{2026}")
  }

  @Test("prints nothing at all and succeeds when there is no note")
  func noNote() throws {
    let home = try TemporaryHome()
    let result = try home.run("show", "--line")
    result.expectSuccess()
    #expect(result.stdout.isEmpty)
  }

  @Test("--fail: no note prints nothing and exits 1; a note prints its line and exits 0")
  func failWithoutNote() throws {
    let home = try TemporaryHome()
    let none = try home.run("show", "--fail")
    #expect(none.status == 1)
    #expect(none.stdout.isEmpty && none.stderr.isEmpty, "\(none.stderr)")
    try home.run("save", "buy milk").expectSuccess()
    let saved = try home.run("show", "--line", "--fail")
    saved.expectSuccess()
    #expect(saved.stdoutText == "buy milk\n")
  }

  @Test("a note's own final newline ends the line: no stand-in for it")
  func finalNewline() throws {
    let home = try TemporaryHome()
    try home.writeNote("third\n")
    #expect(try home.run("show", "--line").stdoutText == "third\n")
    try home.writeNote("a\n\n")
    #expect(try home.run("show", "--line").stdoutText == "a\u{21B5}\n")
  }

  @Test("a 0-byte note file is no note: nothing, and with --fail status 1")
  func emptyNoteFile() throws {
    let home = try TemporaryHome()
    try home.write([], to: home.notePath)
    let line = try home.run("show", "--line")
    line.expectSuccess()
    #expect(line.stdout.isEmpty)
    let fail = try home.run("show", "--line", "--fail")
    #expect(fail.status == 1)
    #expect(fail.stdout.isEmpty && fail.stderr.isEmpty, "\(fail.stderrText)")
  }

  @Test("a long run of combining marks does not hide the text after it")
  func combiningMarks() throws {
    let home = try TemporaryHome()
    try home.writeNote("e" + String(repeating: "\u{301}", count: 800) + " next")
    let line = try home.run("show", "--line", "--width", "80")
    line.expectSuccess()
    #expect(line.stdoutText.unicodeScalars.starts(with: "e\u{301}".unicodeScalars))
    #expect(line.stdoutText.hasSuffix(" next\n"), "\(line.stdoutText.unicodeScalars.count)")
  }

  @Test("reads only the beginning of a 100 MiB note: a few MiB of memory, like a small note")
  func boundedMemory() throws {
    let home = try TemporaryHome()
    try home.writeNote("short first line\nthen much more")
    // The rest of the 100 MiB is a hole in the file: NUL bytes, valid UTF-8.
    #expect(truncate(home.notePath, 100 << 20) == 0)
    let small = try TemporaryHome()
    try small.writeNote("short first line")
    /// The line `show --line` printed in `home`, and its peak memory in KiB.
    func showLine(_ home: TemporaryHome) throws -> (line: String, kibibytes: Int) {
      let result = try home.shell(
        #"/usr/bin/time -f %M -o "$HOME/peak" "$0" show --line --width 40 && cat "$HOME/peak""#)
      result.expectSuccess()
      let lines = result.stdoutText.split(separator: "\n").map(String.init)
      return (lines.first ?? "", try #require(lines.last.flatMap { Int($0) }))
    }
    let large = try showLine(home)
    let shown = "short first line\u{21B5}then much more" + String(repeating: "\u{2400}", count: 8)
    #expect(large.line == shown + "\u{2026}")
    let reference = try showLine(small)
    #expect(reference.line == "short first line")
    #expect(
      large.kibibytes < reference.kibibytes + 2048,
      "peak memory \(large.kibibytes) KiB, for a short note \(reference.kibibytes) KiB")
  }

  @Test("shows version N as a line too")
  func version() throws {
    let home = try TemporaryHome()
    try home.run("save", "old\nnote").expectSuccess()
    try home.run("save", "new").expectSuccess()
    #expect(try home.run("show", "--line", "1").stdoutText == "old\u{21B5}note\n")
  }

  @Test("a note file that is not UTF-8 is an error, never shown")
  func invalidNote() throws {
    let home = try TemporaryHome()
    try home.write(Array("ok".utf8) + [0xFF, 0x1B] + Array("[2J".utf8), to: home.notePath)
    try home.run("show", "--line").expectError(status: 1, mentioning: [home.notePath, "offset 2"])
  }

  @Test(
    "--width takes a number of columns, 1 or more",
    arguments: ["0", "x", "-1", "1.5", "+3", " 4"])
  func badWidth(value: String) throws {
    let home = try TemporaryHome()
    try home.writeNote("note")
    try home.run("show", "--line", "--width", value).expectError(status: 2, mentioning: ["--width"])
  }

  @Test("--width implies --line, and other commands take none of them")
  func widthImpliesLine() throws {
    let home = try TemporaryHome()
    try home.writeNote("a\nnote")
    #expect(try home.run("show", "--width", "6").stdoutText == "a\u{21B5}note\n")
    try home.run("path", "--line").expectError(status: 2, mentioning: ["--line"])
    try home.run("history", "--follow").expectError(status: 2, mentioning: ["--follow"])
  }
}

@Suite("filenote show --line --follow")
struct ShowFollowCommand {
  /// `show --line --follow` running in `home`, its output read as it comes.
  private func follow(_ home: TemporaryHome, _ extra: [String] = []) throws -> StreamingProcess {
    try StreamingProcess(
      try FilenoteProcess.binaryPath(), ["show", "--line", "--follow"] + extra,
      environment: home.environment, directory: home.work)
  }

  @Test("prints a line at the start and one at each save, clear and restore")
  func linePerChange() throws {
    let home = try TemporaryHome()
    try home.run("save", "first").expectSuccess()
    let follower = try follow(home)
    #expect(try follower.lines(atLeast: 1) == ["first"])
    try home.run("save", "second").expectSuccess()
    #expect(try follower.lines(atLeast: 2) == ["first", "second"])
    try home.run("clear").expectSuccess()
    #expect(try follower.lines(atLeast: 3) == ["first", "second", ""])
    try home.run("undo").expectSuccess()
    #expect(try follower.lines(atLeast: 4) == ["first", "second", "", "second"])
  }

  @Test("prints a line only when the line changes")
  func noRepeats() throws {
    let home = try TemporaryHome()
    try home.run("save", "same").expectSuccess()
    let follower = try follow(home, ["--width", "3"])
    #expect(try follower.lines(atLeast: 1) == ["sa\u{2026}"])
    try home.run("save", "same").expectSuccess()
    try home.run("save", "sam and more").expectSuccess()
    try home.run("save", "new").expectSuccess()
    #expect(try follower.lines(atLeast: 2) == ["sa\u{2026}", "new"])
  }

  @Test("sees a file renamed over the note and an edit in place, as other programs make them")
  func otherWriters() throws {
    let home = try TemporaryHome()
    try home.writeNote("one")
    let follower = try follow(home)
    #expect(try follower.lines(atLeast: 1) == ["one"])
    // A sync engine: a temporary file beside the note, renamed over it.
    try home.write(Array("two".utf8), to: home.documents + "/.syncthing.datafile.dat.tmp")
    #expect(rename(home.documents + "/.syncthing.datafile.dat.tmp", home.notePath) == 0)
    #expect(try follower.lines(atLeast: 2) == ["one", "two"])
    // An editor writing the file in place.
    try home.write(Array("three".utf8), to: home.notePath)
    #expect(try follower.lines(atLeast: 3) == ["one", "two", "three"])
  }

  @Test("starts before there is a documents folder and sees the first save")
  func missingFolder() throws {
    let home = try TemporaryHome()
    let follower = try follow(home)
    #expect(try follower.lines(atLeast: 1) == [""])
    try home.run("save", "first ever").expectSuccess()
    #expect(try follower.lines(atLeast: 2) == ["", "first ever"])
  }

  @Test("follows a note that is a symbolic link to a file in another folder")
  func symbolicLink() throws {
    let home = try TemporaryHome()
    try home.write(Array("elsewhere".utf8), to: home.work + "/notes/real.txt")
    try FileManager.default.createDirectory(
      atPath: home.documents, withIntermediateDirectories: true)
    #expect(symlink(home.work + "/notes/real.txt", home.notePath) == 0)
    let follower = try follow(home)
    #expect(try follower.lines(atLeast: 1) == ["elsewhere"])
    try home.run("save", "through the link").expectSuccess()
    #expect(try follower.lines(atLeast: 2) == ["elsewhere", "through the link"])
    try home.write(Array("written there".utf8), to: home.work + "/notes/real.txt")
    #expect(try follower.lines(atLeast: 3).last == "written there")
  }

  @Test("a note that turns invalid gives an empty line and one error, then follows on")
  func invalidOnTheWay() throws {
    let home = try TemporaryHome()
    try home.writeNote("fine")
    let follower = try follow(home)
    #expect(try follower.lines(atLeast: 1) == ["fine"])
    try home.write(Array("bad".utf8) + [0xFF], to: home.notePath)
    #expect(try follower.lines(atLeast: 2) == ["fine", ""])
    try home.run("save", "fine again").expectSuccess()
    #expect(try follower.lines(atLeast: 3) == ["fine", "", "fine again"])
    #expect(follower.errorText.hasPrefix("filenote: cannot read \(home.notePath)"))
    #expect(follower.errorText.split(separator: "\n").count == 1)
  }

  @Test("ends with status 0 when its reader goes away, while it waits")
  func readerGoesAwayWhileWaiting() throws {
    let home = try TemporaryHome()
    try home.writeNote("note")
    let follower = try follow(home)
    _ = try follower.lines(atLeast: 1)
    follower.closeOutput()
    let status = try #require(try follower.waitForExit(), "still running after its reader left")
    #expect(status == 0, "wait status \(status)")
    #expect(follower.errorText == "")
  }

  @Test("ends with status 0 in a pipeline whose reader reads its line and leaves")
  func readerLeavesAPipeline() throws {
    let home = try TemporaryHome()
    try home.writeNote("note")
    let script =
      #"""
      "$0" show --line --follow | { read -r line; printf '%s\n' "$line"; }
      printf 'status %s\n' "${PIPESTATUS[0]}"
      """#
    // The reader reads one line and leaves; the save makes the follower
    // write into the closed pipe (EPIPE), if the hang-up has not ended it
    // already.
    let shell = try StreamingProcess(
      try TemporaryHome.locate("bash"), ["-c", script, try FilenoteProcess.binaryPath()],
      environment: home.environment, directory: home.work)
    _ = try shell.lines(atLeast: 1)
    try home.run("save", "changed").expectSuccess()
    #expect(try shell.lines(atLeast: 2) == ["note", "status 0"])
    #expect(try shell.waitForExit() == 0)
    #expect(shell.errorText == "")
  }

  @Test("takes no version number")
  func noVersion() throws {
    let home = try TemporaryHome()
    try home.run("show", "--line", "--follow", "1").expectError(status: 2, mentioning: ["--follow"])
  }
}
