import Foundation
import SystemCalls
import TestSupport
import Testing

@testable import FilenoteCore

@Suite struct FileStoreTests {
  /// A store for `notes/datafile.dat` in a fresh folder; `notes` is created
  /// on the first save, as the documents folder is.
  struct Fixture {
    let folder = TemporaryFolder()
    var store: FileStore { FileStore(path: folder.file("notes/datafile.dat"), createsFolder: true) }
    var noteBytes: [UInt8]? { folder.bytes("notes/datafile.dat") }
  }

  @Suite struct RoundTrips {
    @Test(arguments: [
      "buy milk", "   ", " \t ", "\n", "line 1\nline 2", "line 1\r\nline 2\r\n", "tab\there",
      "emoji 👨‍👩‍👧 🇫🇷 and e\u{301} and 中文", "NUL\u{0}inside", "trailing newline\n",
      String(repeating: "x", count: 1 << 20),
    ])
    func aSavedNoteReadsBackByteForByte(text: String) throws {
      let fixture = Fixture()
      try fixture.store.save(bytes: Array(text.utf8))
      #expect(fixture.noteBytes == Array(text.utf8))
      #expect(try fixture.store.read()?.text == text)
    }

    @Test func aSecondSaveReplacesTheFirst() throws {
      let fixture = Fixture()
      try fixture.store.save(bytes: Array("a much longer first note".utf8))
      try fixture.store.save(bytes: Array("short".utf8))
      #expect(fixture.noteBytes == Array("short".utf8))
    }
  }

  @Suite struct Reading {
    @Test func noNoteIsNilAndCreatesNothing() throws {
      let fixture = Fixture()
      #expect(try fixture.store.read() == nil)
      #expect(try fixture.store.currentIdentity() == nil)
      #expect(fixture.folder.names().isEmpty)
    }

    @Test(arguments: [
      ([0x61, 0xFF] as [UInt8], 1), ([0x61, 0x62, 0xE4, 0xB8] as [UInt8], 2),
      ([0xC0, 0xAF] as [UInt8], 0), ([0x20, 0xED, 0xA0, 0x80] as [UInt8], 1),
    ])
    func aFileThatIsNotUTF8IsAnErrorAndIsLeftAlone(bytes: [UInt8], offset: Int) throws {
      let fixture = Fixture()
      fixture.folder.write("notes/datafile.dat", bytes: bytes)
      #expect(throws: FilenoteError.fileNotUTF8(path: fixture.store.path, offset: offset)) {
        try fixture.store.read()
      }
      #expect(fixture.noteBytes == bytes)
    }

    @Test func aFolderInTheNotesPlaceIsAnError() throws {
      let fixture = Fixture()
      try FileManager.default.createDirectory(
        atPath: fixture.store.path, withIntermediateDirectories: true)
      #expect(throws: FilenoteError.notARegularFile(path: fixture.store.path)) {
        try fixture.store.read()
      }
    }

    @Test func aFIFOInTheNotesPlaceIsAnErrorNotAHang() throws {
      let fixture = Fixture()
      try FileManager.default.createDirectory(
        atPath: fixture.folder.file("notes"), withIntermediateDirectories: true)
      #expect(mkfifo(fixture.store.path, 0o600) == 0)
      #expect(throws: FilenoteError.notARegularFile(path: fixture.store.path)) {
        try fixture.store.read()
      }
    }

    @Test func theVersionChangesWhenTheNoteIsSaved() throws {
      let fixture = Fixture()
      try fixture.store.save(bytes: Array("one".utf8))
      let before = try #require(try fixture.store.read()?.identity)
      #expect(try fixture.store.currentIdentity() == before)
      try fixture.store.save(bytes: Array("two".utf8))
      #expect(try fixture.store.currentIdentity() != before)
    }
  }

  @Suite struct RefusedInput {
    @Test(arguments: [
      [0xFF] as [UInt8], [0x61, 0xC3] as [UInt8], [0xC0, 0x80] as [UInt8],
      [0xED, 0xA0, 0x80] as [UInt8], [0xF4, 0x90, 0x80, 0x80] as [UInt8],
    ])
    func invalidUTF8IsRefusedAndTheNoteIsUntouched(bytes: [UInt8]) throws {
      let fixture = Fixture()
      try fixture.store.save(bytes: Array("keep me".utf8))
      #expect(throws: FilenoteError.self) { try fixture.store.save(bytes: bytes) }
      #expect(fixture.noteBytes == Array("keep me".utf8))
      #expect(fixture.folder.names(in: "notes") == [".datafile.dat.versions", "datafile.dat"])
    }

    @Test func emptyInputIsRefused() throws {
      let fixture = Fixture()
      try fixture.store.save(bytes: Array("keep me".utf8))
      #expect(throws: FilenoteError.emptyInput) { try fixture.store.save(bytes: Array("".utf8)) }
      #expect(fixture.noteBytes == Array("keep me".utf8))
    }
  }

  @Suite struct ModesAndFolders {
    @Test func aNewNoteIsPrivateWhateverTheUmask() throws {
      let fixture = Fixture()
      let old = umask(0)
      defer { umask(old) }
      try fixture.store.save(bytes: Array("private".utf8))
      #expect(fixture.folder.mode("notes/datafile.dat") == 0o600)
      #expect(fixture.folder.mode("notes") == 0o700)
    }

    @Test func anExistingNoteKeepsItsMode() throws {
      let fixture = Fixture()
      try fixture.store.save(bytes: Array("one".utf8))
      #expect(chmod(fixture.store.path, 0o640) == 0)
      try fixture.store.save(bytes: Array("two".utf8))
      #expect(fixture.folder.mode("notes/datafile.dat") == 0o640)
    }

    @Test func anExistingFolderKeepsItsMode() throws {
      let fixture = Fixture()
      try FileManager.default.createDirectory(
        atPath: fixture.folder.file("notes"), withIntermediateDirectories: false,
        attributes: [.posixPermissions: 0o755])
      try fixture.store.save(bytes: Array("one".utf8))
      #expect(fixture.folder.mode("notes") == 0o755)
    }

    @Test func aMissingFolderIsAnErrorForAFileTheUserNamed() throws {
      let fixture = Fixture()
      let store = FileStore(path: fixture.folder.file("missing/note.txt"))
      #expect(throws: FilenoteError.self) { try store.save(bytes: Array("x".utf8)) }
      #expect(fixture.folder.names().isEmpty)
    }

    @Test func aFIFOInTheNotesPlaceIsNeverReplaced() throws {
      let fixture = Fixture()
      let path = fixture.folder.file("fifo")
      #expect(mkfifo(path, 0o600) == 0)
      #expect(throws: FilenoteError.notARegularFile(path: path)) {
        try FileStore(path: path).save(bytes: Array("x".utf8))
      }
      var info = stat()
      #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
      #expect(fixture.folder.names() == ["fifo"])
    }

    @Test func aNameAsLongAsTheFileSystemAllowsCanBeSaved() throws {
      let fixture = Fixture()
      let name = String(repeating: "n", count: 255)
      try FileStore(path: fixture.folder.file(name)).save(bytes: Array("long name".utf8))
      #expect(fixture.folder.bytes(name) == Array("long name".utf8))
      #expect(fixture.folder.names().filter { !$0.hasSuffix(".versions") } == [name])
    }

    @Test func aRelativePathIsMadeAbsolute() {
      #expect(FileStore(path: "note.txt").path.hasPrefix("/"))
      #expect(FileStore(path: "note.txt").path.hasSuffix("/note.txt"))
    }
  }

  @Suite struct SymbolicLinks {
    @Test func theLinkStaysAndItsTargetIsReplaced() throws {
      let fixture = Fixture()
      fixture.folder.write("elsewhere/real.txt", "old")
      try FileManager.default.createDirectory(
        atPath: fixture.folder.file("notes"), withIntermediateDirectories: true)
      #expect(symlink("../elsewhere/real.txt", fixture.store.path) == 0)
      try fixture.store.save(bytes: Array("new".utf8))
      #expect(fixture.folder.mode("notes/datafile.dat") & 0o7777 == 0o777)  // still a link
      #expect(fixture.folder.bytes("elsewhere/real.txt") == Array("new".utf8))
      // The replaced target is kept beside the target, not beside the link.
      #expect(fixture.folder.names(in: "elsewhere") == [".real.txt.versions", "real.txt"])
      #expect(try fixture.store.read()?.text == "new")
    }

    @Test func aChainOfLinksIsFollowedToTheEnd() throws {
      let fixture = Fixture()
      fixture.folder.write("real.txt", "old")
      #expect(symlink(fixture.folder.file("real.txt"), fixture.folder.file("link1")) == 0)
      #expect(symlink("link1", fixture.folder.file("link2")) == 0)
      try FileStore(path: fixture.folder.file("link2")).save(bytes: Array("new".utf8))
      #expect(fixture.folder.bytes("real.txt") == Array("new".utf8))
    }

    @Test func clearRemovesTheTargetAndKeepsTheLink() throws {
      let fixture = Fixture()
      fixture.folder.write("real.txt", "old")
      #expect(symlink("real.txt", fixture.folder.file("link")) == 0)
      let store = FileStore(path: fixture.folder.file("link"))
      #expect(try store.clearAll().note)
      #expect(fixture.folder.names() == ["link"])
      #expect(try store.read() == nil)
      try store.save(bytes: Array("again".utf8))
      #expect(fixture.folder.bytes("real.txt") == Array("again".utf8))
    }

    @Test func aLoopOfLinksIsAnError() throws {
      let fixture = Fixture()
      #expect(symlink("b", fixture.folder.file("a")) == 0)
      #expect(symlink("a", fixture.folder.file("b")) == 0)
      #expect(throws: FilenoteError.self) {
        try FileStore(path: fixture.folder.file("a")).save(bytes: Array("x".utf8))
      }
    }
  }

  @Suite struct Clearing {
    @Test func clearRemovesTheNote() throws {
      let fixture = Fixture()
      try fixture.store.save(bytes: Array("gone soon".utf8))
      #expect(try fixture.store.clearKeepingVersion())
      #expect(try fixture.store.read() == nil)
    }

    @Test func clearWithoutANoteSaysThereWasNone() throws {
      #expect(try Fixture().store.clearKeepingVersion() == false)
    }
  }

  @Suite struct Streaming {
    /// Saves what a pipe delivers, written in the given chunks.
    func save(chunks: [[UInt8]], to store: FileStore) throws(FilenoteError) {
      var fds: [Int32] = [0, 0]
      precondition(pipe(&fds) == 0)
      let writeEnd = fds[1]
      let writer = Thread {
        for chunk in chunks {
          _ = chunk.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
        }
        close(writeEnd)
      }
      writer.start()
      defer { close(fds[0]) }
      try store.save(streamingFrom: FileDescriptor(rawValue: fds[0]))
    }

    @Test(arguments: [
      ("hi\n", "hi"), ("hi\r\n", "hi"), ("hi", "hi"), ("hi\n\n", "hi\n"), ("hi\r\n\r\n", "hi\r\n"),
      ("a\nb\n", "a\nb"), ("\r", "\r"), ("x\r", "x\r"), ("\n\n", "\n"),
    ])
    func exactlyOneTrailingLineEndingIsRemoved(input: String, saved: String) throws {
      let fixture = Fixture()
      try save(chunks: [Array(input.utf8)], to: fixture.store)
      #expect(fixture.noteBytes == Array(saved.utf8))
    }

    @Test func aLineEndingSplitAcrossReadsIsStillRemoved() throws {
      let fixture = Fixture()
      try save(chunks: [Array("abc\r".utf8), Array("\n".utf8)], to: fixture.store)
      #expect(fixture.noteBytes == Array("abc".utf8))
      try save(chunks: [Array("a".utf8), Array("b".utf8), Array("\n".utf8)], to: fixture.store)
      #expect(fixture.noteBytes == Array("ab".utf8))
    }

    @Test(arguments: ["", "\n", "\r\n"])
    func inputThatIsEmptyAfterThatIsRefused(input: String) throws {
      let fixture = Fixture()
      try fixture.store.save(bytes: Array("keep me".utf8))
      #expect(throws: FilenoteError.emptyInput) {
        try save(chunks: [Array(input.utf8)], to: fixture.store)
      }
      #expect(fixture.noteBytes == Array("keep me".utf8))
      #expect(fixture.folder.names(in: "notes") == [".datafile.dat.versions", "datafile.dat"])
    }

    @Test func invalidUTF8LateInALargeStreamIsRefusedWithItsOffset() throws {
      let fixture = Fixture()
      try fixture.store.save(bytes: Array("keep me".utf8))
      let good = [UInt8](repeating: 0x61, count: 3 << 20)
      #expect(throws: FilenoteError.inputNotUTF8(offset: 3 << 20)) {
        try save(chunks: [good, [0xE4, 0xB8], Array("x".utf8)], to: fixture.store)
      }
      #expect(fixture.noteBytes == Array("keep me".utf8))
      #expect(fixture.folder.names(in: "notes") == [".datafile.dat.versions", "datafile.dat"])
    }

    @Test func aCharacterSplitAcrossReadsIsAccepted() throws {
      let fixture = Fixture()
      let bytes = Array("👨‍👩‍👧".utf8)
      try save(chunks: bytes.map { [$0] }, to: fixture.store)
      #expect(fixture.noteBytes == bytes)
    }

    @Test func aTruncatedCharacterAtTheEndIsRefused() throws {
      let fixture = Fixture()
      #expect(throws: FilenoteError.inputNotUTF8(offset: 1)) {
        try save(chunks: [[0x61, 0xE4, 0xB8]], to: fixture.store)
      }
      #expect(fixture.noteBytes == nil)
    }
  }
}
