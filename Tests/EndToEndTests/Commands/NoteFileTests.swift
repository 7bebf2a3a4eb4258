import Foundation
import Testing

@Suite("the note file on disk")
struct NoteFile {
  @Suite("modes and folders")
  struct Modes {
    @Test(
      "the first save creates the documents folder with mode 0700 and the note with 0600",
      arguments: ["000", "022", "077", "277"])
    func firstSaveCreatesFolderAndNote(umask: String) throws {
      let home = try TemporaryHome()
      try home.shell("umask \(umask); filenote save first").expectSuccess()
      #expect(home.mode(of: home.documents) == 0o700)
      #expect(home.mode(of: home.notePath) == 0o600)
      home.expectNoteAlone("first")
    }

    @Test(
      "a note path that ends in / names a folder: every command refuses it, nothing is made",
      arguments: ["--file", "FILENOTE_FILE"])
    func pathEndingInSlashIsRefused(by setting: String) throws {
      let home = try TemporaryHome()
      let path = home.work + "/note.txt/"
      for command in [["save", "hi"], ["show"], ["path"], ["clear"]] {
        let result =
          setting == "--file"
          ? try home.filenote(["--file", path] + command, input: .nullDevice).run()
          : try home.filenote(command, input: .nullDevice, environment: ["FILENOTE_FILE": path])
            .run()
        result.expectError(status: 1, mentioning: ["cannot use \(path): not a regular file"])
      }
      #expect(!home.exists(home.work + "/note.txt"))
    }

    @Test("an existing documents folder keeps its mode")
    func existingFolderKeepsMode() throws {
      let home = try TemporaryHome()
      try FileManager.default.createDirectory(
        atPath: home.documents, withIntermediateDirectories: false,
        attributes: [.posixPermissions: 0o755])
      try home.run("save", "x").expectSuccess()
      #expect(home.mode(of: home.documents) == 0o755)
      #expect(home.mode(of: home.notePath) == 0o600)
    }

    @Test("an existing note keeps its mode", arguments: [0o640, 0o644, 0o604, 0o400] as [mode_t])
    func existingNoteKeepsMode(mode: mode_t) throws {
      let home = try TemporaryHome()
      try home.writeNote("old", mode: mode)
      try home.run("save", "new").expectSuccess()
      try home.run("save", input: .bytes(Array("newer\n".utf8))).expectSuccess()
      #expect(home.note == "newer")
      #expect(home.mode(of: home.notePath) == mode)
      #expect(home.entriesBesideVersions(in: home.documents) == ["datafile.dat"])
    }

    @Test("other files in the documents folder are left alone by save and clear")
    func otherFilesLeftAlone() throws {
      let home = try TemporaryHome()
      let others = [
        "report.odt", ".hidden", "datafile.dat.bak", ".datafile.dat.tmp", "notes.tmp",
      ]
      for name in others { try home.write(Array(name.utf8), to: home.documents + "/" + name) }
      try home.run("save", "x").expectSuccess()
      try home.run("save", input: .bytes(Array("y\n".utf8))).expectSuccess()
      try home.run("clear").expectSuccess()
      #expect(home.entriesBesideVersions(in: home.documents) == others.sorted())
      for name in others {
        #expect(home.contents(of: home.documents + "/" + name) == Array(name.utf8))
      }
    }

    @Test(
      "a configured documents folder is created on the first save even when its parent is missing"
    )
    func configuredFolderWithMissingParent() throws {
      let home = try TemporaryHome()
      try home.write(
        Array(#"XDG_DOCUMENTS_DIR="$HOME/deep/Docs""#.utf8) + [0x0A],
        to: home.home + "/.config/user-dirs.dirs")
      try home.run("save", "x").expectSuccess()
      #expect(home.contents(of: home.home + "/deep/Docs/datafile.dat") == Array("x".utf8))
      #expect(home.mode(of: home.home + "/deep/Docs") == 0o700)
    }

    @Test("a --file in a missing folder is refused, naming the path, and nothing is created")
    func fileOptionInMissingFolder() throws {
      let home = try TemporaryHome()
      let folder = home.work + "/missing"
      try home.run("save", "x", "--file", folder + "/note.txt")
        .expectError(status: 1, mentioning: [folder])
      #expect(!home.exists(folder))
    }

    @Test(
      "a --file that is a folder is refused cleanly, naming it, and the folder is left alone",
      arguments: [["save", "x"], ["show"], ["clear"]])
    func fileOptionIsFolder(command: [String]) throws {
      let home = try TemporaryHome()
      let folder = home.work + "/folder"
      try home.write(Array("keep".utf8), to: folder + "/inside")
      try home.filenote(command + ["--file", folder]).run()
        .expectError(status: 1, mentioning: [folder])
      #expect(home.entries(in: folder) == ["inside"])
      #expect(home.entries(in: home.work) == ["folder"])
    }
  }

  @Suite("symbolic links")
  struct SymbolicLinks {
    @Test(
      "a linked datafile.dat stays a link and its target gets the new text",
      arguments: [false, true])
    func linkStaysTargetReplaced(absolute: Bool) throws {
      let home = try TemporaryHome()
      let target = home.work + "/synced/real-note.txt"
      try home.write(Array("old".utf8), to: target, mode: 0o644)
      try FileManager.default.createDirectory(
        atPath: home.documents, withIntermediateDirectories: true)
      let destination = absolute ? target : "../../work/synced/real-note.txt"
      try FileManager.default.createSymbolicLink(
        atPath: home.notePath, withDestinationPath: destination)

      try home.run("save", "new text").expectSuccess()

      #expect(home.isSymbolicLink(home.notePath))
      #expect(
        try FileManager.default.destinationOfSymbolicLink(atPath: home.notePath) == destination)
      #expect(home.contents(of: target) == Array("new text".utf8))
      #expect(home.mode(of: target) == 0o644)
      #expect(home.entriesBesideVersions(in: home.work + "/synced") == ["real-note.txt"])
      #expect(home.entriesBesideVersions(in: home.documents) == ["datafile.dat"])
      let shown = try home.run("show")
      #expect(shown.stdoutText == "new text\n")
    }

    @Test("a link to a file not yet there stays a link and the file is created")
    func danglingLink() throws {
      let home = try TemporaryHome()
      let target = home.work + "/real-note.txt"
      try FileManager.default.createDirectory(
        atPath: home.documents, withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(
        atPath: home.notePath, withDestinationPath: target)
      try home.run("save", input: .bytes(Array("piped\n".utf8))).expectSuccess()
      #expect(home.isSymbolicLink(home.notePath))
      #expect(home.contents(of: target) == Array("piped".utf8))
      #expect(home.mode(of: target) == 0o600)
    }
  }

  @Suite("filenote clear")
  struct Clear {
    @Test("removes the note and exits 0; show then finds none")
    func removesNote() throws {
      let home = try TemporaryHome()
      try home.run("save", "x").expectSuccess()
      let result = try home.run("clear")
      result.expectSuccess()
      #expect(result.stdoutText == "")
      #expect(!home.exists(home.notePath))
      try home.run("show").expectError(status: 1)
    }

    @Test("exits 0 when there is no note")
    func noNote() throws {
      let home = try TemporaryHome()
      let result = try home.run("clear")
      result.expectSuccess()
      #expect(result.stdoutText == "")
      try home.writeNote("x")
      try home.run("clear").expectSuccess()
      try home.run("clear").expectSuccess()
    }
  }

  @Suite("when saving fails")
  struct FailedSaves {
    /// The two ways a save gets its text, which run different code.
    enum Source: CaseIterable, Sendable { case arguments, standardInput }

    private func save(_ text: String, from source: Source, in home: TemporaryHome) throws
      -> FilenoteProcess.Result
    {
      switch source {
      case .arguments: return try home.run("save", text)
      case .standardInput: return try home.run("save", input: .bytes(Array((text + "\n").utf8)))
      }
    }

    /// Saves "new" over the note "old" while `protected` (a path in the
    /// home) refuses every change: the save must fail naming that path and
    /// leave the old note alone in its folder.
    private func expectSaveRefused(
      protecting protected: KeyPath<TemporaryHome, String>, from source: Source,
      sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
      let home = try TemporaryHome()
      try home.writeNote("old")
      let path = home[keyPath: protected]
      try home.protect(path)
      defer { home.unprotect(path) }
      try save("new", from: source, in: home)
        .expectError(status: 1, mentioning: [path], sourceLocation: sourceLocation)
      home.expectNoteAlone("old", sourceLocation: sourceLocation)
    }

    @Test(
      "a folder that cannot be written leaves the old note and no temporary file",
      arguments: Source.allCases)
    func unwritableFolder(source: Source) throws {
      try expectSaveRefused(protecting: \.documents, from: source)
    }

    @Test(
      "a note that cannot be replaced leaves the old note, and the temporary file is removed",
      arguments: Source.allCases)
    func unreplaceableNote(source: Source) throws {
      // The temporary file is written, then the rename over the note fails.
      try expectSaveRefused(protecting: \.notePath, from: source)
    }

    @Test(
      "a write that fails half way (file size limit) leaves the old note and no temporary file")
    func writeFailsHalfWay() throws {
      let home = try TemporaryHome()
      try home.writeNote("old")
      let big = home.work + "/big"
      try home.write([UInt8](repeating: 0x62, count: 200_000), to: big)
      // With SIGXFSZ ignored, a write past `ulimit -f` (512-byte blocks)
      // fails with EFBIG, as it would on a full disk.
      let result = try home.shell(
        "trap '' XFSZ; ulimit -f 8; filenote save < \"$BIG\"",
        environment: ["BIG": big])
      result.expectError(status: 1, mentioning: [home.notePath])
      home.expectNoteAlone("old")
    }

    @Test("kill -9 in the middle of a save leaves the old note, and the next save tidies up")
    func killedMidSave() throws {
      let home = try TemporaryHome()
      try home.writeNote("old")
      let running = try home.filenote(["save"], input: .pipe).start()
      // Once this much went through the pipe (it holds far less), filenote
      // has read and written some of it to its temporary file.
      let chunk = [UInt8](repeating: 0x61, count: 1 << 20)
      #expect(running.write(chunk) && running.write(chunk))
      running.send(SIGKILL)
      let result = running.wait(expectedSignal: SIGKILL)
      #expect(result.signal == SIGKILL)
      #expect(home.note == "old")
      // What the killed save was writing: a temporary file beside the note,
      // created with mode 0600.
      let leftovers = home.entries(in: home.documents).filter { $0 != "datafile.dat" }
      #expect(leftovers.count == 1, "\(leftovers)")
      for name in leftovers {
        #expect(home.mode(of: home.documents + "/" + name) == 0o600, "\(name)")
      }

      try home.run("save", "after").expectSuccess()
      home.expectNoteAlone("after")
    }

    @Test("concurrent saves never interleave: one of them lands whole")
    func concurrentSaves() throws {
      let home = try TemporaryHome()
      try home.writeNote("old")
      let letters = Array("abcdefgh")
      var inputs: [String: [UInt8]] = [:]
      for letter in letters {
        let path = home.work + "/input-\(letter)"
        let bytes = [UInt8](repeating: letter.asciiValue!, count: 300_000)
        try home.write(bytes, to: path)
        inputs[path] = bytes
      }
      // The shell starts them all at once and reports each one's status.
      let script =
        inputs.keys.sorted()
        .map { #"( filenote save < "\#($0)"; echo "status $?" ) &"# }
        .joined(separator: "\n") + "\nwait"
      let result = try home.shell(script)
      #expect(result.stderrText == "")
      #expect(result.stdoutText == String(repeating: "status 0\n", count: letters.count))
      let note = try #require(home.contents(of: home.notePath))
      #expect(inputs.values.contains(note), "the note is exactly one of the inputs")
      #expect(home.entriesBesideVersions(in: home.documents) == ["datafile.dat"])
    }
  }
}
