import Foundation
import SystemCalls
import TestSupport
import Testing

@testable import FilenoteCore

/// A save compares its text with the note as the text arrives: one that is
/// the note's writes nothing at all, one that differs anywhere is saved
/// whole, and a note another writer changes meanwhile is never mixed in.
@Suite struct IncomingTextTests {
  /// `notes/datafile.dat` in a fresh folder.
  struct Fixture {
    let folder = TemporaryFolder()
    var path: String { folder.file("notes/datafile.dat") }
    var store: FileStore { FileStore(path: path, createsFolder: true) }
    var note: [UInt8]? { folder.bytes("notes/datafile.dat") }

    /// The kept versions' texts, newest first.
    func versions() throws -> [[UInt8]] {
      try store.versionTexts().map { Array($0.text.utf8) }
    }

    /// The note file's and its folder's identity and times, after setting
    /// both times back an hour so that any change at all shows (a file
    /// made and removed beside the note, a lock taken, a rename, a write).
    func agedState() throws -> [FileStore.Identity] {
      let paths = [path, folder.file("notes")]
      for path in paths {
        var times = [timespec(tv_sec: time(nil) - 3600, tv_nsec: 0)]
        times.append(times[0])
        #expect(utimensat(AT_FDCWD, path, times, AT_SYMLINK_NOFOLLOW) == 0)
      }
      return try paths.map { FileStore.Identity(try FileSystem.status($0, followingLinks: false)) }
    }

    func state() throws -> [FileStore.Identity] {
      try [path, folder.file("notes")].map {
        FileStore.Identity(try FileSystem.status($0, followingLinks: false))
      }
    }
  }

  /// What the writer of the pipe does, in order.
  enum Step: Sendable {
    case write([UInt8])
    /// Runs between two writes: another writer at work meanwhile.
    case run(@Sendable () -> Void)
  }

  /// Saves what a pipe delivers, its writer taking `steps`. A write of
  /// more than the pipe holds (1 MiB) returns only once the save has read
  /// the rest, so a step after one runs while the save is under way.
  static func save(_ steps: [Step], to store: FileStore) throws(FilenoteError) {
    var fds: [Int32] = [0, 0]
    precondition(pipe(&fds) == 0)
    let writeEnd = fds[1]
    let writer = Thread {
      for step in steps {
        switch step {
        case .write(let bytes):
          var offset = 0
          while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
              write(writeEnd, $0.baseAddress, $0.count)
            }
            if written <= 0 { break }
            offset += written
          }
        case .run(let body): body()
        }
      }
      close(writeEnd)
    }
    writer.start()
    defer {
      // What a refused save left unread is drained, so the writer ends (a
      // write to a closed pipe would be SIGPIPE for the whole test run).
      var scratch = [UInt8](repeating: 0, count: 65_536)
      while read(fds[0], &scratch, scratch.count) > 0 {}
      close(fds[0])
    }
    try store.save(streamingFrom: FileDescriptor(rawValue: fds[0]))
  }

  /// `count` bytes of ASCII text in lines of 64, ending in "x" (never in
  /// a line ending, which a stream's save would leave out).
  static func text(_ count: Int, seed: UInt8 = 0) -> [UInt8] {
    var bytes = (0..<count).map { (index: Int) -> UInt8 in
      index % 64 == 63 ? 0x0A : 0x61 + UInt8((index / 7 + Int(seed)) % 26)
    }
    if count > 0 { bytes[count - 1] = UInt8(ascii: "x") }
    return bytes
  }

  @Suite struct TheNotesOwnText {
    @Test(arguments: [
      // The note's bytes, then one line ending the save leaves out, or none.
      ("\n", 5), ("\r\n", 5), ("", 5), ("\n", 700_000), ("", 700_000),
    ])
    func savedAgainFromAStreamWritesNothing(ending: String, size: Int) throws {
      let fixture = Fixture()
      let note = IncomingTextTests.text(size)
      try fixture.store.save(bytes: note)
      let before = try fixture.agedState()
      // In pieces of every size the pipe gives, split inside the line ending too.
      let input = note + Array(ending.utf8)
      let steps = stride(from: 0, to: input.count, by: 100_001).map {
        Step.write(Array(input[$0..<min($0 + 100_001, input.count)]))
      }
      try IncomingTextTests.save(steps, to: fixture.store)
      #expect(try fixture.state() == before)
      #expect(fixture.folder.names(in: "notes") == [".datafile.dat.versions", "datafile.dat"])
      #expect(fixture.note == note)
    }

    /// From a regular file the text's length is known first: its bytes from
    /// where standard input stands, less one line ending.
    @Test(arguments: [("xxthe note\n", 2), ("the note\r\n", 0), ("the note", 0)])
    func savedAgainFromAFileWritesNothing(input: String, start: Int) throws {
      let fixture = Fixture()
      try fixture.store.save(bytes: Array("the note".utf8))
      fixture.folder.write("input", input)
      let before = try fixture.agedState()
      let file = try FileDescriptor.open(fixture.folder.file("input"), .readOnly)
      defer { file.close() }
      var skipped = [UInt8](repeating: 0, count: start)
      _ = try skipped.withUnsafeMutableBytes { try file.read(into: $0) }
      try fixture.store.save(streamingFrom: file)
      #expect(try fixture.state() == before)
      #expect(fixture.note == Array("the note".utf8))
    }

    @Test(arguments: ["the note is longer", "the no", "xhe note"])
    func aFileOfAnotherTextIsSavedWhole(text: String) throws {
      let fixture = Fixture()
      try fixture.store.save(bytes: Array("the note".utf8))
      fixture.folder.write("input", "xx" + text + "\n")
      let file = try FileDescriptor.open(fixture.folder.file("input"), .readOnly)
      defer { file.close() }
      var skipped = [UInt8](repeating: 0, count: 2)
      _ = try skipped.withUnsafeMutableBytes { try file.read(into: $0) }
      try fixture.store.save(streamingFrom: file)
      #expect(fixture.note == Array(text.utf8))
      #expect(try fixture.versions() == [Array("the note".utf8)])
    }

    @Test func savedAgainAtOnceWritesNothing() throws {
      let fixture = Fixture()
      try fixture.store.save(bytes: Array("the note".utf8))
      let before = try fixture.agedState()
      try fixture.store.save(bytes: Array("the note".utf8))
      #expect(try fixture.state() == before)
      #expect(fixture.folder.names(in: "notes") == [".datafile.dat.versions", "datafile.dat"])
    }

    @Test func aNoteEndingInANewlineSavedFromAStreamLosesIt() throws {
      // The stream's one trailing line ending is left out: the text differs.
      let fixture = Fixture()
      try fixture.store.save(bytes: Array("line\n".utf8))
      try IncomingTextTests.save([.write(Array("line\n".utf8))], to: fixture.store)
      #expect(fixture.note == Array("line".utf8))
      #expect(try fixture.versions() == [Array("line\n".utf8)])
    }

    @Test func invalidUTF8IsRefusedEvenWhenItIsTheNotesOwn() throws {
      let fixture = Fixture()
      let bytes = Array("abc".utf8) + [0xFF] + Array("def".utf8)
      fixture.folder.write("notes/datafile.dat", bytes: bytes)
      let before = try fixture.agedState()
      #expect(throws: FilenoteError.inputNotUTF8(offset: 3)) {
        try IncomingTextTests.save([.write(bytes)], to: fixture.store)
      }
      #expect(throws: FilenoteError.inputNotUTF8(offset: 3)) {
        try fixture.store.save(bytes: bytes)
      }
      #expect(try fixture.state() == before)
    }
  }

  @Suite struct ADifferentText {
    static let size = 700_000

    /// The note with one byte changed (the first, one within the first
    /// read, one after several reads when the part that matched is no longer
    /// in memory, the very last), or cut, or grown, or replaced by a short text.
    enum Change: CaseIterable, Sendable {
      case byte0, byte1000, byte600000, lastByte, oneByteShorter, oneByteLonger, half, shortText

      func apply(to bytes: [UInt8]) -> [UInt8] {
        switch self {
        case .byte0: return changing(bytes, at: 0)
        case .byte1000: return changing(bytes, at: 1000)
        case .byte600000: return changing(bytes, at: 600_000)
        case .lastByte: return changing(bytes, at: size - 1)
        case .oneByteShorter: return Array(bytes.dropLast())
        case .oneByteLonger: return bytes + Array("y".utf8)
        case .half: return Array(bytes.prefix(size / 2))
        case .shortText: return Array("short".utf8)
        }
      }
    }

    static func changing(_ bytes: [UInt8], at position: Int) -> [UInt8] {
      var bytes = bytes
      bytes[position] = bytes[position] == 0x41 ? 0x42 : 0x41
      return bytes
    }

    @Test(arguments: Change.allCases)
    func isSavedWholeAndTheNoteKept(change: Change) throws {
      let fixture = Fixture()
      let note = IncomingTextTests.text(Self.size)
      try fixture.store.save(bytes: note)
      let text = change.apply(to: note)
      let steps = stride(from: 0, to: text.count, by: 65_536).map {
        Step.write(Array(text[$0..<min($0 + 65_536, text.count)]))
      }
      try IncomingTextTests.save(steps, to: fixture.store)
      #expect(fixture.note == text)
      #expect(try fixture.versions() == [note])
      #expect(fixture.folder.names(in: "notes") == [".datafile.dat.versions", "datafile.dat"])
      try fixture.store.save(bytes: note)
      #expect(fixture.note == note, "and the same at once")
      #expect(try fixture.versions() == [text, note])
    }
  }

  @Suite struct ABadByte {
    static let size = 3 << 20

    /// Past the first MiB the UTF-8 check runs on a second thread, a piece
    /// behind: a bad byte there is still reported with its offset, and
    /// nothing the save made is left, whether the text matched the note up
    /// to it or differed from the start.
    @Test(arguments: [100, (1 << 20) + 5, (2 << 20) + 3, size - 1], [false, true])
    func anywhereInALargeStreamIsRefusedWithItsOffset(at position: Int, matching: Bool) throws {
      let fixture = Fixture()
      var text = IncomingTextTests.text(Self.size)
      let note = matching ? text : Array("the note".utf8)
      try fixture.store.save(bytes: note)
      text[position] = 0xFF
      let steps = stride(from: 0, to: text.count, by: 100_000).map {
        Step.write(Array(text[$0..<min($0 + 100_000, text.count)]))
      }
      #expect(throws: FilenoteError.inputNotUTF8(offset: position)) {
        try IncomingTextTests.save(steps, to: fixture.store)
      }
      #expect(fixture.note == note)
      #expect(fixture.folder.names(in: "notes") == [".datafile.dat.versions", "datafile.dat"])
    }
  }

  @Suite struct AnotherWriterMeanwhile {
    static let size = 3 << 20
    static let original = IncomingTextTests.text(size)
    static let other = IncomingTextTests.text(size, seed: 5)

    /// The save's text in two writes (the first larger than the pipe), and
    /// `meanwhile` between them.
    static func save(
      _ text: [UInt8], to fixture: Fixture, meanwhile: @escaping @Sendable () -> Void
    ) throws(FilenoteError) {
      try IncomingTextTests.save(
        [
          .write(Array(text.prefix(2 << 20))), .run(meanwhile),
          .write(Array(text.dropFirst(2 << 20))),
        ],
        to: fixture.store)
    }

    @Test func theNotesOwnTextWritesNothingAndTheOtherSaveStands() throws {
      let fixture = Fixture()
      try fixture.store.save(bytes: Self.original)
      let store = fixture.store
      try Self.save(Self.original, to: fixture) { try! store.save(bytes: Self.other) }
      // As if this save came first: it changed nothing, the other replaced it.
      #expect(fixture.note == Self.other)
      #expect(try fixture.versions() == [Self.original])
    }

    @Test func aNoteReplacedByTheSameTextIsLeftAlone() throws {
      let fixture = Fixture()
      try fixture.store.save(bytes: Self.original)
      let text = ADifferentText.changing(Self.original, at: 10)
      let store = fixture.store
      let path = fixture.path
      nonisolated(unsafe) var theirs: FileStore.Identity?
      try Self.save(text, to: fixture) {
        try! store.save(bytes: text)
        theirs = FileStore.Identity(try! FileSystem.status(path))
      }
      #expect(fixture.note == text)
      #expect(try fixture.store.currentIdentity() == theirs, "the other writer's file stays")
      #expect(try fixture.versions() == [Self.original])
      #expect(fixture.folder.names(in: "notes") == [".datafile.dat.versions", "datafile.dat"])
    }

    @Test func aNoteReplacedByAnotherTextIsKeptAndReplaced() throws {
      let fixture = Fixture()
      try fixture.store.save(bytes: Self.original)
      let text = ADifferentText.changing(Self.original, at: 10)
      let store = fixture.store
      try Self.save(text, to: fixture) { try! store.save(bytes: Self.other) }
      #expect(fixture.note == text)
      #expect(try fixture.versions() == [Self.other, Self.original])
    }

    @Test(arguments: [10, size - 1, size])
    func aNoteWrittenInPlaceWhileComparedIsNeverMixedIn(differingAt position: Int) throws {
      // Another program appends to the note file itself while the save reads
      // a text that matched it for more than a read: that part of the text
      // is gone, and the note's bytes are no longer it.
      let fixture = Fixture()
      try fixture.store.save(bytes: Self.original)
      let text =
        position < Self.size ? ADifferentText.changing(Self.original, at: position) : Self.original
      let path = fixture.path
      let appended = Self.original + Array("more".utf8)
      let outcome = Result { () throws(FilenoteError) in
        try Self.save(text, to: fixture) {
          let handle = FileHandle(forWritingAtPath: path)!
          handle.seekToEndOfFile()
          handle.write(Data("more".utf8))
          try! handle.close()
        }
      }
      if position == 10 {
        // Different from the first read on: saved, and what the other program wrote is kept.
        try outcome.get()
        #expect(fixture.note == text)
        #expect(try fixture.versions() == [appended])
      } else {
        #expect(throws: FilenoteError.noteChangedWhileSaving(path: path)) { try outcome.get() }
        #expect(fixture.note == appended)
        #expect(fixture.folder.names(in: "notes") == [".datafile.dat.versions", "datafile.dat"])
      }
    }
  }

  @Suite struct SavingWhatTheUserOpened {
    @Test func aNoteChangedSinceItWasOpenedIsNamedAndNothingIsWritten() throws {
      let fixture = Fixture()
      try fixture.store.save(bytes: Array("opened".utf8))
      let opened = try #require(try fixture.store.read()).identity
      try fixture.store.save(bytes: Array("someone else's".utf8))
      _ = try fixture.agedState()
      let now = try fixture.store.currentIdentity()
      nonisolated(unsafe) var wrote = false
      let outcome = try fixture.store.save(Array("mine".utf8), ifStill: opened) { wrote = true }
      #expect(outcome == .changedOnDisk(now: now))
      #expect(!wrote)
      #expect(try fixture.store.currentIdentity() == now)
      let second = try fixture.store.save(Array("mine".utf8), ifStill: now) { wrote = true }
      #expect(second == .saved(.init()))
      #expect(wrote)
      #expect(fixture.note == Array("mine".utf8))
      #expect(try fixture.versions() == [Array("someone else's".utf8), Array("opened".utf8)])
    }

    @Test func aNoteRemovedSinceIsNamedAsNone() throws {
      let fixture = Fixture()
      try fixture.store.save(bytes: Array("opened".utf8))
      let opened = try #require(try fixture.store.read()).identity
      try fixture.store.clearKeepingVersion()
      #expect(
        try fixture.store.save(Array("mine".utf8), ifStill: opened) == .changedOnDisk(now: nil))
      #expect(try fixture.store.save(Array("mine".utf8), ifStill: nil) == .saved(.init()))
      #expect(fixture.note == Array("mine".utf8))
    }

    @Test(arguments: [[], [0xC3]] as [[UInt8]])
    func aTextThatCannotBeSavedIsRefusedBeforeTheNoteIsLookedAt(text: [UInt8]) throws {
      let fixture = Fixture()
      try fixture.store.save(bytes: Array("opened".utf8))
      let wrong = try #require(try fixture.store.read()).identity
      try fixture.store.save(bytes: Array("changed".utf8))
      #expect(throws: text.isEmpty ? FilenoteError.emptyInput : .inputNotUTF8(offset: 0)) {
        _ = try fixture.store.save(text, ifStill: wrong)
      }
    }
  }
}
