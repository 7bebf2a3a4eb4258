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
    "prints what was piped into save, for any input that ends in one newline",
    arguments: ["hi\n", "hi\n\n", "\n\n", "tab\there\n", "😀 e\u{301} 中文\n", "a\r\nb\n"])
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
