import Foundation
import Testing

@Suite("filenote show")
struct ShowCommand {
  @Test("printf 'a\\nb\\n' | filenote save && filenote show prints a\\nb\\n again")
  func roundTripThroughSaveAndShow() throws {
    let home = try TemporaryHome()
    let result = try home.shell(#"printf 'a\nb\n' | filenote save && filenote show"#)
    result.expectSuccess()
    #expect(result.stdoutText == "a\nb\n")
  }

  @Test(
    "prints what was piped into save, for any input that ends in one newline after text",
    arguments: ["hi\n", "tab\there\n", "😀 e\u{301} 中文\n", "a\r\nb\n"])
  func roundTrip(_ text: String) throws {
    let home = try TemporaryHome()
    try home.run("save", input: .bytes(Array(text.utf8))).expectSuccess()
    let result = try home.run("show")
    result.expectSuccess()
    #expect(result.stdout == Array(text.utf8))
  }

  @Test("prints the note file's bytes followed by one newline")
  func printsNoteAndOneNewline() throws {
    let home = try TemporaryHome()
    try home.writeNote("written by another tool")
    let result = try home.run("show")
    result.expectSuccess()
    #expect(result.stdoutText == "written by another tool\n")
  }

  @Test("a note that ends in its own newline is printed with that one, not a second")
  func noteWithItsOwnNewline() throws {
    let home = try TemporaryHome()
    try home.writeNote("first\nthird\n")
    let result = try home.run("show")
    result.expectSuccess()
    #expect(result.stdoutText == "first\nthird\n")
    try home.writeNote("blank line kept\n\n")
    #expect(try home.run("show").stdoutText == "blank line kept\n\n")
  }

  @Test("a 0-byte note file is no note, as for every command")
  func emptyNoteFileIsNoNote() throws {
    let home = try TemporaryHome()
    try home.write([], to: home.notePath)
    let result = try home.run("show")
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(result.stderrText.contains("no note"), "\(result.stderrText)")
  }

  /// `show ARGUMENTS` on a new pseudo-terminal; what reached the terminal.
  private func showOnTerminal(
    _ home: TemporaryHome, _ arguments: [String] = []
  ) throws -> (status: Int32?, terminal: [UInt8]) {
    let show = try StreamingProcess(
      try FilenoteProcess.binaryPath(), ["show"] + arguments,
      environment: home.environment.merging(["TERM": "xterm"]) { $1 }, directory: home.work,
      onTerminal: true)
    let status = try show.waitForExit()
    return (status, show.outputBytes)
  }

  /// A note that would set the title, clear the screen, write the
  /// clipboard, make a link and reorder the line if its bytes reached a
  /// terminal; and what `show` draws for it there (the terminal turns each
  /// newline into CR LF).
  static let hostileNote =
    "a\u{1B}]0;title\u{07}b\u{1B}[2J\u{1B}]52;c;aGk=\u{1B}\\c\u{1B}]8;;x\u{07}"
    + "d\u{9B}1m\u{7F}\u{202E}e\u{2066}\u{0}\rf\tg\nh\r\ni"
  static let hostileNoteOnTerminal =
    "a\u{241B}]0;title\u{2407}b\u{241B}[2J\u{241B}]52;c;aGk=\u{241B}\\c\u{241B}]8;;x\u{2407}"
    + "d\u{FFFD}1m\u{2421}\u{FFFD}e\u{FFFD}\u{2400}\u{240D}f\tg\r\nh\r\r\ni\r\n"

  @Test("on a terminal, control characters are drawn as the prompt's stand-ins")
  func standInsOnTerminal() throws {
    let home = try TemporaryHome()
    try home.writeNote(Self.hostileNote)
    let (status, terminal) = try showOnTerminal(home)
    #expect(status == 0)
    #expect(String(decoding: terminal, as: UTF8.self) == Self.hostileNoteOnTerminal)
    #expect(!terminal.contains(0x1B) && !terminal.contains(0x07), "no escape reached it")
  }

  @Test("show N on a terminal draws stand-ins too")
  func versionStandInsOnTerminal() throws {
    let home = try TemporaryHome()
    try home.run("save", input: .bytes(Array(Self.hostileNote.utf8))).expectSuccess()
    try home.run("save", "newer").expectSuccess()
    let (status, terminal) = try showOnTerminal(home, ["1"])
    #expect(status == 0)
    #expect(String(decoding: terminal, as: UTF8.self) == Self.hostileNoteOnTerminal)
  }

  @Test("piped or redirected, and with --raw on a terminal, the bytes are printed as saved")
  func rawBytes() throws {
    let home = try TemporaryHome()
    try home.writeNote(Self.hostileNote)
    let piped = try home.run("show")
    piped.expectSuccess()
    #expect(piped.stdout == Array((Self.hostileNote + "\n").utf8))
    let redirected = try home.shell("filenote show > out && cat out")
    #expect(redirected.stdout == Array((Self.hostileNote + "\n").utf8))
    let (status, terminal) = try showOnTerminal(home, ["--raw"])
    #expect(status == 0)
    // The terminal's own newline translation is all that changes the bytes.
    let onTerminal = Array(
      (Self.hostileNote + "\n").replacingOccurrences(of: "\n", with: "\r\n").utf8)
    #expect(terminal == onTerminal)
  }

  @Test("on a terminal, a long note is drawn whole, with its stand-ins")
  func longNoteOnTerminal() throws {
    let home = try TemporaryHome()
    let line = String(repeating: "x", count: 99) + "\u{1B}"
    try home.writeNote(String(repeating: line, count: 3000))
    let (status, terminal) = try showOnTerminal(home)
    #expect(status == 0)
    let expected = String(repeating: String(repeating: "x", count: 99) + "\u{241B}", count: 3000)
    #expect(String(decoding: terminal, as: UTF8.self) == expected + "\r\n")
  }

  @Test("with no note: prints nothing on standard output, says so on standard error, exits 1")
  func noNote() throws {
    let home = try TemporaryHome()
    try home.run("show").expectError(status: 1, mentioning: [home.notePath])
    #expect(home.entries(in: home.home) == [], "reading created nothing")
  }

  @Suite("a note file that is not UTF-8")
  struct InvalidNoteFile {
    static let badNote: [UInt8] = Array("ok".utf8) + [0xFF] + Array("no".utf8)

    @Test("is an error naming the file and the first bad byte, never an empty note")
    func errorNamesFileAndOffset() throws {
      let home = try TemporaryHome()
      try home.write(Self.badNote, to: home.notePath)
      try home.run("show").expectError(status: 1, mentioning: [home.notePath, "offset 2"])
    }

    @Test("the error says how to recover (filenote save or filenote clear)")
    func errorSaysHowToRecover() throws {
      let home = try TemporaryHome()
      try home.write(Self.badNote, to: home.notePath)
      let result = try home.run("show")
      #expect(
        result.stderrText.contains("filenote save")
          || result.stderrText.contains("filenote clear"),
        "\(result.stderrText)")
    }

    @Test("is left byte for byte as it was, with the same modification time")
    func readingChangesNothing() throws {
      let home = try TemporaryHome()
      try home.write(Self.badNote, to: home.notePath, mode: 0o640)
      try home.backdate(home.notePath)
      let before = try #require(home.status(of: home.notePath))
      _ = try home.run("show")
      _ = try home.run("path")
      let after = try #require(home.status(of: home.notePath))
      #expect(home.contents(of: home.notePath) == Self.badNote)
      #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec)
      #expect(after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
      #expect(after.st_ino == before.st_ino)
      #expect(home.mode(of: home.notePath) == 0o640)
      #expect(home.entriesBesideVersions(in: home.documents) == ["datafile.dat"])
    }

    @Test("is replaced by a save, the way out the error points to")
    func saveRecovers() throws {
      let home = try TemporaryHome()
      try home.write(Self.badNote, to: home.notePath)
      try home.run("save", "fixed").expectSuccess()
      let result = try home.run("show")
      result.expectSuccess()
      #expect(result.stdoutText == "fixed\n")
    }

    @Test("is removed by clear")
    func clearRecovers() throws {
      let home = try TemporaryHome()
      try home.write(Self.badNote, to: home.notePath)
      try home.run("clear").expectSuccess()
      #expect(!home.exists(home.notePath))
    }
  }

  @Test("output to a closed pipe (filenote show | head -c1) ends quietly")
  func closedPipeEndsQuietly() throws {
    let home = try TemporaryHome()
    // Far more than a pipe holds, so filenote is still writing when head exits.
    try home.writeNote(String(repeating: "x", count: 1 << 20))
    let result = try home.shell(#"{ filenote show; echo "filenote exited $?" >&2; } | head -c1"#)
    #expect(result.status == 0)
    #expect(result.stdoutText == "x")
    #expect(
      result.stderrText == "filenote exited 0\n", "nothing but the status on standard error")
  }

  @Test("a note path that is a folder is an error naming it, not a crash")
  func folderInsteadOfNote() throws {
    let home = try TemporaryHome()
    let folder = home.work + "/a-folder"
    try home.write([], to: folder + "/inside")
    try home.run("show", "--file", folder).expectError(status: 1, mentioning: [folder])
  }

  @Test("a note path that is a FIFO is an error naming it, not a hang")
  func fifoInsteadOfNote() throws {
    let home = try TemporaryHome()
    let fifo = home.work + "/fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    try home.run("show", "--file", fifo).expectError(status: 1, mentioning: [fifo])
  }
}
