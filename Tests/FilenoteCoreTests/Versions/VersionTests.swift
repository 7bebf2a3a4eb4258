import Foundation
import SystemCalls
import TestSupport
import Testing

@testable import FilenoteCore

/// Versions (doc/DESIGN.md): nothing saved is lost by the next save.
@Suite struct VersionTests {
  /// A note `notes/datafile.dat` in a fresh folder, and its versions.
  struct Fixture {
    let folder = TemporaryFolder()
    /// `FILENOTE_VERSIONS` as `FileStore.resolve` reads it; nil: the default.
    var count: Int? = nil
    var store: FileStore {
      var store = FileStore(path: folder.file("notes/datafile.dat"), createsFolder: true)
      if let count { store.versionCount = count }
      return store
    }
    var versionsFolder: String { folder.file("notes/.datafile.dat.versions") }
    var note: String? {
      folder.bytes("notes/datafile.dat").map { String(decoding: $0, as: UTF8.self) }
    }

    /// The texts `history` lists, newest first.
    func texts() throws -> [String] {
      let count = try store.keptVersions().count
      return try (0..<count).map { String(decoding: try store.readVersion($0 + 1), as: UTF8.self) }
    }

    /// The names filenote wrote in the versions folder, sorted.
    var versionNames: [String] { folder.names(in: "notes/.datafile.dat.versions") }

    func status(_ path: String) -> stat {
      var info = stat()
      lstat(path, &info)
      return info
    }

    func save(_ texts: String...) throws {
      for text in texts { try store.save(bytes: Array(text.utf8)) }
    }

    /// What a writer killed between keeping the note and replacing it
    /// leaves: the note's own file under a version's name. Its name.
    @discardableResult
    func linkTheNote(asVersion random: UInt64, keptAt seconds: Int64) -> String {
      let name = VersionName.kept(at: (seconds, 0), random: random)
      #expect(link(folder.file("notes/datafile.dat"), versionsFolder + "/" + name) == 0)
      return name
    }
  }

  @Suite struct Naming {
    @Test func aKeptVersionsNameHasNineDigitsOfNanosecondsAndSixteenOfHexWhateverTheValues() {
      #expect(
        VersionName.kept(at: (1_764_580_502, 123_456_789), random: 0x5f3a_9c2d_01b7_e4a6)
          == "1764580502.123456789-5f3a9c2d01b7e4a6")
      #expect(
        VersionName.kept(at: (1_764_580_502, 5), random: 0xa)
          == "1764580502.000000005-000000000000000a")
      #expect(VersionName.kept(at: (0, 0), random: .max) == "0.000000000-ffffffffffffffff")
    }
  }

  @Suite struct Keeping {
    @Test func aSaveKeepsTheNoteItReplacesAsVersion1AsAHardLink() throws {
      let fixture = Fixture()
      try fixture.save("first")
      let firstInode = fixture.status(fixture.folder.file("notes/datafile.dat")).st_ino
      try fixture.save("second")
      #expect(try fixture.texts() == ["first"])
      let name = try #require(fixture.versionNames.first)
      #expect(fixture.status(fixture.versionsFolder + "/" + name).st_ino == firstInode)
    }

    @Test func theFirstSaveListsNoVersionButGivesItsTextANameOfItsOwn() throws {
      let fixture = Fixture()
      try fixture.save("first")
      #expect(fixture.folder.names(in: "notes") == [".datafile.dat.versions", "datafile.dat"])
      #expect(try fixture.store.keptVersions().isEmpty)
      // A hard link of the note (doc/SYNC.md): what a sync engine carries
      // as a file of its own, whatever it does with the note.
      let name = try #require(fixture.versionNames.first)
      #expect(fixture.versionNames.count == 1)
      #expect(
        fixture.status(fixture.versionsFolder + "/" + name).st_ino
          == fixture.status(fixture.folder.file("notes/datafile.dat")).st_ino)
    }

    @Test func theFolderIsMode0700AndEachVersionOwnerOnlyWhateverTheNotesMode() throws {
      let fixture = Fixture()
      try fixture.save("first")
      chmod(fixture.folder.file("notes/datafile.dat"), 0o644)
      let previous = umask(0o077)
      defer { umask(previous) }
      try fixture.save("second")
      #expect(fixture.status(fixture.versionsFolder).st_mode & 0o7777 == 0o700)
      let name = try #require(fixture.versionNames.first)
      #expect(fixture.status(fixture.versionsFolder + "/" + name).st_mode & 0o7777 == 0o600)
      #expect(fixture.folder.mode("notes/datafile.dat") == 0o644, "the note keeps its mode")
    }

    @Test func versionsAreListedNewestFirst() throws {
      let fixture = Fixture()
      try fixture.save("a", "b", "c", "d")
      #expect(try fixture.texts() == ["c", "b", "a"])
      #expect(fixture.note == "d")
    }

    @Test func aSaveThatChangesNothingKeepsNothing() throws {
      let fixture = Fixture()
      try fixture.save("a", "b", "b", "b")
      #expect(try fixture.texts() == ["a"])
    }

    @Test func twoIdenticalNeighboursAreNeverListedTwice() throws {
      let fixture = Fixture()
      try fixture.save("a", "b")
      // The note written again by another tool with the same text as version 1.
      fixture.folder.write("notes/datafile.dat", "a")
      try fixture.save("c")
      // "a" once; "b", which the other tool overwrote, kept by its own save.
      #expect(try fixture.texts() == ["a", "b"])
    }

    @Test func throughASymbolicLinkVersionsAreBesideTheTarget() throws {
      let fixture = Fixture()
      fixture.folder.write("elsewhere/real.txt", "old")
      try FileManager.default.createDirectory(
        atPath: fixture.folder.file("notes"), withIntermediateDirectories: true)
      #expect(symlink("../elsewhere/real.txt", fixture.store.path) == 0)
      try fixture.save("new")
      // The old text kept, and the new one's own name.
      #expect(fixture.folder.names(in: "elsewhere/.real.txt.versions").count == 2)
      #expect(try fixture.texts() == ["old"])
    }

    @Test func theCurrentNotesOwnFileInTheFolderIsNeverListed() throws {
      // What a writer killed between keeping and renaming leaves: a version
      // that is the note itself.
      let fixture = Fixture()
      try fixture.save("a", "b")
      fixture.linkTheNote(asVersion: 99, keptAt: 0)
      #expect(try fixture.texts() == ["a"])
      // The next save keeps it under that name, once.
      try fixture.save("c")
      #expect(try fixture.texts() == ["b", "a"])
      // a, b and c, each under one name of its own: the stale one is gone.
      #expect(fixture.versionNames.count == 3)
    }

    @Test func aSaveThatFailsAfterKeepingLeavesNoVersionAndNoFolder() throws {
      // An immutable note: the hard link is refused, so a copy is kept, and
      // then the rename over the note fails.
      let fixture = Fixture()
      try fixture.save("a")
      let note = fixture.folder.file("notes/datafile.dat")
      try #require(try FileStoreFaultTests.run("chattr", "+i", note) == 0, "chattr needs root")
      defer { _ = try? FileStoreFaultTests.run("chattr", "-i", note) }
      let names = fixture.versionNames
      #expect(names.count == 1, "a's own name, from its save")
      #expect(throws: FilenoteError.self) { try fixture.store.save(bytes: Array("b".utf8)) }
      #expect(fixture.note == "a")
      #expect(fixture.versionNames == names)
      #expect(throws: FilenoteError.self) { try fixture.store.clearKeepingVersion() }
      #expect(fixture.versionNames == names)
    }

    @Test func aStreamedSaveKeepsAVersionToo() throws {
      let fixture = Fixture()
      try fixture.save("a")
      let pipe = try FileDescriptor.pipe()
      try pipe.writeEnd.writeAll("b\n")
      pipe.writeEnd.close()
      defer { pipe.readEnd.close() }
      try fixture.store.save(streamingFrom: pipe.readEnd)
      #expect(try fixture.texts() == ["a"])
      #expect(fixture.note == "b")
    }
  }

  @Suite struct Retention {
    @Test func theVersionsSettingKeepsTheNewestN() throws {
      var fixture = Fixture()
      fixture.count = 3
      try fixture.save("a", "b", "c", "d", "e", "f")
      #expect(try fixture.texts() == ["e", "d", "c"])
      // And f's own name, the note's: not a version, never pruned.
      #expect(fixture.versionNames.count == 4)
    }

    @Test func theDefaultKeeps100() throws {
      let fixture = Fixture()
      for index in 0...102 { try fixture.store.save(bytes: Array("note \(index)".utf8)) }
      let versions = try fixture.store.keptVersions()
      #expect(versions.count == 100)
      #expect(String(decoding: try fixture.store.readVersion(100), as: UTF8.self) == "note 2")
    }

    @Test func theTotalSizeIsBoundedOldestOutFirstAndTheNewestAlwaysKept() throws {
      let fixture = Fixture()
      try fixture.save("a", "bb", "ccc", "dddd", "eeeee")
      let note = try WriteTarget(fixture.store)
      let store = VersionStore(of: note, count: 100, maximumTotalSize: 7)
      let writer = try #require(try VersionWriter.open(store, creating: false))
      writer.prune(note: store.noteStatus)
      writer.close()
      #expect(try fixture.texts() == ["dddd", "ccc"])
      let tiny = VersionStore(of: note, count: 100, maximumTotalSize: 1)
      let second = try #require(try VersionWriter.open(tiny, creating: false))
      second.prune(note: tiny.noteStatus)
      second.close()
      #expect(try fixture.texts() == ["dddd"], "the newest stays even when larger than the bound")
    }

    @Test func zeroKeepsNoNewVersionAndRemovesNoneKept() throws {
      var fixture = Fixture()
      try fixture.save("a", "b", "c")
      fixture.count = 0
      try fixture.save("d")
      #expect(fixture.note == "d")
      #expect(try fixture.store.clearKeepingVersion())
      try fixture.store.restoreVersion(1)
      fixture.count = nil
      // c's own save kept it, before versions were off; d's did not.
      #expect(fixture.note == "c", "undo with versions off restores, keeping nothing")
      #expect(try fixture.texts() == ["b", "a"])
    }

    @Test func aLowerCountPrunesTheOldestAtTheNextSaveAndSaysHowMany() throws {
      var fixture = Fixture()
      try fixture.save("a", "b", "c", "d", "e", "f")
      fixture.count = 2
      let saved = try fixture.store.save(bytes: Array("g".utf8))
      #expect(try fixture.texts() == ["f", "e"])
      #expect(saved.notices(onTerminal: true) == [.versionsPruned(removed: 4, kept: 2)])
      #expect(saved.notices(onTerminal: false).isEmpty)
      let next = try fixture.store.save(bytes: Array("h".utf8))
      #expect(next.notices(onTerminal: true).isEmpty, "one pushed out is no news")
    }

    /// The store `FileStore.resolve` makes of the note with `FILENOTE_VERSIONS=setting`.
    func resolve(
      _ fixture: Fixture, setting: String?, ignoringVersionCount: Bool = false
    ) throws(FilenoteError) -> FileStore {
      try FileStore.resolve(
        fileOption: fixture.store.path,
        environment: Environment(setting.map { ["FILENOTE_VERSIONS": $0] } ?? [:]),
        ignoringVersionCount: ignoringVersionCount, notices: Notices())
    }

    @Test func theSettingIsReadWhereTheStoreIsResolved() throws {
      let fixture = Fixture()
      #expect(try resolve(fixture, setting: "3").versionCount == 3)
      #expect(try resolve(fixture, setting: "0").versionCount == 0)
      #expect(try resolve(fixture, setting: "").versionCount == 100)
      #expect(try resolve(fixture, setting: nil).versionCount == 100)
    }

    @Test(arguments: ["abc", "-1", "1.5", " 3", "3 ", "9999999999"])
    func anInvalidSettingIsAnErrorAndTheNoteIsUntouched(setting: String) throws {
      let fixture = Fixture()
      try fixture.save("a", "b")
      #expect(throws: FilenoteError.invalidVersionCount(setting)) {
        try resolve(fixture, setting: setting)
      }
      #expect(
        try resolve(fixture, setting: setting, ignoringVersionCount: true).read()?.text == "b")
      #expect(fixture.note == "b")
      #expect(fixture.folder.names(in: "notes") == [".datafile.dat.versions", "datafile.dat"])
    }
  }

  @Suite struct UndoAndRestore {
    @Test func undoPutsVersion1BackAndTheReplacedNoteBecomesVersion1() throws {
      let fixture = Fixture()
      try fixture.save("a", "b", "c")
      try fixture.store.restoreVersion(1)
      #expect(fixture.note == "b")
      #expect(try fixture.texts() == ["c", "a"])
      try fixture.store.restoreVersion(1)
      #expect(fixture.note == "c", "a second undo redoes")
      #expect(try fixture.texts() == ["b", "a"])
    }

    @Test func restoreNPutsVersionNBack() throws {
      let fixture = Fixture()
      try fixture.save("a", "b", "c")
      try fixture.store.restoreVersion(2)
      #expect(fixture.note == "a")
      #expect(try fixture.texts() == ["c", "b"])
    }

    @Test func theRestoredNoteKeepsTheNotesMode() throws {
      let fixture = Fixture()
      try fixture.save("a", "b")
      chmod(fixture.folder.file("notes/datafile.dat"), 0o640)
      try fixture.store.restoreVersion(1)
      #expect(fixture.folder.mode("notes/datafile.dat") == 0o640)
    }

    @Test(arguments: [0, 3, Int.max])
    func aNumberThatIsNotKeptIsAnErrorAndChangesNothing(number: Int) throws {
      let fixture = Fixture()
      try fixture.save("a", "b", "c")
      #expect(throws: FilenoteError.noVersion(number: number, kept: 2, note: fixture.store.path)) {
        try fixture.store.restoreVersion(number)
      }
      #expect(throws: FilenoteError.noVersion(number: number, kept: 2, note: fixture.store.path)) {
        try fixture.store.readVersion(number)
      }
      #expect(fixture.note == "c")
      #expect(try fixture.texts() == ["b", "a"])
    }

    @Test func undoWithNoVersionsIsAnErrorNamingTheNote() throws {
      let fixture = Fixture()
      #expect(throws: FilenoteError.noVersion(number: 1, kept: 0, note: fixture.store.path)) {
        try fixture.store.restoreVersion(1)
      }
      try fixture.save("a")
      #expect(throws: FilenoteError.noVersion(number: 1, kept: 0, note: fixture.store.path)) {
        try fixture.store.restoreVersion(1)
      }
    }

    @Test func aVersionThatIsNotUTF8IsRefusedAndNothingChanges() throws {
      let fixture = Fixture()
      try fixture.save("a", "b")
      let name = try #require(fixture.versionNames.first)
      fixture.folder.write("notes/.datafile.dat.versions/" + name, bytes: [0x61, 0xFF])
      let path = fixture.versionsFolder + "/" + name
      #expect(throws: FilenoteError.fileNotUTF8(path: path, offset: 1)) {
        try fixture.store.restoreVersion(1)
      }
      #expect(fixture.note == "b")
    }
  }

  @Suite struct Clearing {
    @Test func clearKeepsTheRemovedNoteAsVersion1() throws {
      let fixture = Fixture()
      try fixture.save("a", "b")
      #expect(try fixture.store.clearKeepingVersion())
      #expect(fixture.note == nil)
      #expect(try fixture.texts() == ["b", "a"])
      try fixture.store.restoreVersion(1)
      #expect(fixture.note == "b")
    }

    @Test func clearAllRemovesTheNoteAndEveryVersionAndCountsThem() throws {
      let fixture = Fixture()
      try fixture.save("a", "b", "c")
      let removed = try fixture.store.clearAll()
      #expect(removed.note && removed.versions == 2)
      #expect(fixture.folder.names(in: "notes") == [])
    }

    @Test func clearAllLeavesNamesFilenoteDidNotWrite() throws {
      let fixture = Fixture()
      try fixture.save("a", "b")
      fixture.folder.write("notes/.datafile.dat.versions/mine.txt", "not a version")
      chmod(fixture.versionsFolder, 0o700)
      let removed = try fixture.store.clearAll()
      #expect(removed.versions == 1)
      #expect(fixture.versionNames == ["mine.txt"])
    }
  }

  @Suite struct UnsafeFolders {
    @Test func aSymbolicLinkInTheFoldersPlaceRefusesTheSave() throws {
      let fixture = Fixture()
      try fixture.save("a")
      try FileManager.default.createDirectory(
        atPath: fixture.folder.file("elsewhere"), withIntermediateDirectories: true)
      chmod(fixture.folder.file("elsewhere"), 0o700)
      try FileManager.default.removeItem(atPath: fixture.versionsFolder)
      #expect(symlink(fixture.folder.file("elsewhere"), fixture.versionsFolder) == 0)
      #expect(
        throws: FilenoteError.versionsFolderUnsafe(
          path: fixture.versionsFolder, reason: .symbolicLink)
      ) { try fixture.store.save(bytes: Array("b".utf8)) }
      #expect(fixture.note == "a")
      #expect(fixture.folder.names(in: "elsewhere") == [])
      #expect(fixture.folder.names(in: "notes") == [".datafile.dat.versions", "datafile.dat"])
    }

    @Test func aFileInTheFoldersPlaceRefusesTheSave() throws {
      let fixture = Fixture()
      try fixture.save("a")
      try FileManager.default.removeItem(atPath: fixture.versionsFolder)
      fixture.folder.write("notes/.datafile.dat.versions", "a file")
      #expect(
        throws: FilenoteError.versionsFolderUnsafe(
          path: fixture.versionsFolder, reason: .notAFolder)
      ) { try fixture.store.save(bytes: Array("b".utf8)) }
      #expect(fixture.note == "a")
    }

    @Test func aFolderOfTheUsersOwnOpenToOthersIsTakenBackAndTheSaveKeepsItsVersion() throws {
      let fixture = Fixture()
      try fixture.save("a", "b")
      chmod(fixture.versionsFolder, 0o755)
      for name in fixture.versionNames { chmod(fixture.versionsFolder + "/" + name, 0o644) }
      try fixture.store.save(bytes: Array("c".utf8))
      #expect(fixture.status(fixture.versionsFolder).st_mode & 0o7777 == 0o700)
      // All but the note's own name, which is the note and keeps its mode.
      let note = fixture.status(fixture.folder.file("notes/datafile.dat"))
      for name in fixture.versionNames {
        let info = fixture.status(fixture.versionsFolder + "/" + name)
        #expect(info.st_ino == note.st_ino || info.st_mode & 0o7777 == 0o600)
      }
      #expect(try fixture.texts() == ["b", "a"])
      #expect(fixture.note == "c")
    }

    @Test func takingTheFolderBackIsANoticeForTheCommandToSayNotAPrintedLine() throws {
      let fixture = Fixture()
      try fixture.save("a", "b")
      chmod(fixture.versionsFolder, 0o755)
      let store = fixture.store
      #expect(try store.keptVersionCount() == 1)
      let notices = store.notices.take()
      #expect(
        notices == [
          Notices.Notice(
            notice: .versionsFolderTakenBack(path: fixture.versionsFolder, permissions: 0o755),
            onlyOnTerminal: true)
        ])
      // Once: the folder is closed now.
      #expect(try store.keptVersionCount() == 1)
      #expect(store.notices.take().isEmpty)
    }

    @Test func anotherUsersFileInTheFolderIsNotListedShownRestoredOrCounted() throws {
      let fixture = Fixture()
      try fixture.save("one", "two", "three")
      // As an engine's rename leaves it: the older version's file is nobody's, 0644.
      let theirs = try #require(fixture.versionNames.first)
      let path = fixture.versionsFolder + "/" + theirs
      #expect(chown(path, FileStoreSafetyTests.nobody, FileStoreSafetyTests.nobody) == 0)
      chmod(path, 0o644)
      #expect(try fixture.texts() == ["two"])
      #expect(throws: FilenoteError.noVersion(number: 2, kept: 1, note: fixture.store.path)) {
        try fixture.store.restoreVersion(2)
      }
      #expect(try fixture.store.keptVersionCount() == 1)
      let store = try #require(try fixture.store.versionStore())
      let folder = try #require(try store.open())
      defer { folder.close() }
      #expect(store.refusedCount(in: folder) == 1)
      // Pruning counts only the user's own, and never removes another's.
      var one = fixture
      one.count = 1
      try one.save("four")
      #expect(fixture.versionNames.contains(theirs))
      #expect(try one.texts() == ["three"])
      #expect(fixture.note == "four")
    }

    @Test func aVersionWithANameOutsideTheFolderIsNotUsedButTheNotesOwnIs() throws {
      let fixture = Fixture()
      try fixture.save("a", "b")
      let name = try #require(fixture.versionNames.first)
      #expect(link(fixture.versionsFolder + "/" + name, fixture.folder.file("kept elsewhere")) == 0)
      #expect(try fixture.texts() == [])
      #expect(unlink(fixture.folder.file("kept elsewhere")) == 0)
      #expect(try fixture.texts() == ["a"])
      // A second name filenote knows of (the note's, as a writer killed
      // before its rename leaves it) is no reason to refuse a version.
      fixture.linkTheNote(asVersion: 7, keptAt: 1)
      #expect(try fixture.texts() == ["a"])
      #expect(try fixture.store.keptVersionCount() == 1)
    }

    @Test func anotherUsersFolderRefusesTheSave() throws {
      let fixture = Fixture()
      try fixture.save("a", "b")
      try #require(chown(fixture.versionsFolder, 65534, 65534) == 0, "chown needs root")
      #expect(
        throws: FilenoteError.versionsFolderUnsafe(
          path: fixture.versionsFolder, reason: .ownedByAnotherUser(65534))
      ) { try fixture.store.save(bytes: Array("c".utf8)) }
      #expect(fixture.note == "b")
    }

    @Test func withVersionsOffAnUnsafeFolderIsLeftAloneAndTheSaveHappens() throws {
      var fixture = Fixture()
      try fixture.save("a")
      try FileManager.default.removeItem(atPath: fixture.versionsFolder)
      fixture.folder.write("notes/.datafile.dat.versions", "a file")
      fixture.count = 0
      try fixture.save("b")
      #expect(fixture.note == "b")
      #expect(fixture.folder.bytes("notes/.datafile.dat.versions") == Array("a file".utf8))
    }

    @Test func namesFilenoteDidNotWriteAreIgnoredAndNeverRemoved() throws {
      var fixture = Fixture()
      try fixture.save("a", "b")
      let foreign = ["notes.txt", "0000000001", "0000000009-12x", "00000000010-1", ".copy.x.1"]
      for name in foreign { fixture.folder.write("notes/.datafile.dat.versions/" + name, "x") }
      #expect(
        symlink(
          fixture.folder.file("notes/datafile.dat"),
          fixture.versionsFolder + "/" + VersionName.kept(at: (50, 0), random: 50)) == 0)
      #expect(try fixture.texts() == ["a"], "a link named like a version is not followed")
      fixture.count = 1
      try fixture.save("c", "d")
      #expect(try fixture.texts() == ["c"])
      for name in foreign { #expect(fixture.versionNames.contains(name)) }
    }

    @Test func aVersionRemovedByHandIsSimplyGone() throws {
      let fixture = Fixture()
      try fixture.save("a", "b", "c")
      let oldest = try #require(fixture.versionNames.first)
      unlink(fixture.versionsFolder + "/" + oldest)
      #expect(try fixture.texts() == ["b"])
      try fixture.save("d")
      #expect(try fixture.texts() == ["c", "b"])
    }

    @Test func aDeadWritersHalfCopyIsRemoved() throws {
      let fixture = Fixture()
      try fixture.save("a", "b")
      fixture.folder.write("notes/.datafile.dat.versions/.copy.999999.1", "half")
      try fixture.save("c")
      #expect(!fixture.versionNames.contains(".copy.999999.1"))
      #expect(try fixture.texts() == ["b", "a"])
    }
  }

  /// A save compares its text with the note and the newest version to keep
  /// nothing twice: equal bytes are found equal, and one differing byte
  /// anywhere (across chunks, in the last word) is found.
  @Suite struct Comparing {
    /// `VersionWriter.sameBytes` of the files `a` and `b` in `folder`.
    func same(_ folder: TemporaryFolder, _ a: String, _ b: String) -> Bool {
      guard let open = try? FileDescriptor.open(folder.path, .readOnly, options: .directory) else {
        return false
      }
      defer { open.close() }
      return VersionWriter.sameBytes((open, a), (open, b))
    }

    @Test(arguments: [1, 7, 8, 9, 65_536, 65_537, 200_003])
    func filesOfTheSameBytesAreTheSame(size: Int) {
      let folder = TemporaryFolder()
      let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
      folder.write("a", bytes: bytes)
      folder.write("b", bytes: bytes)
      #expect(same(folder, "a", "b"))
    }

    @Test(arguments: [1, 7, 8, 9, 65_536, 65_537, 200_003])
    func oneDifferentByteAnywhereMakesThemDiffer(size: Int) {
      let folder = TemporaryFolder()
      let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
      folder.write("a", bytes: bytes)
      for position in Set([0, size / 2, size - 1]) {
        var changed = bytes
        changed[position] ^= 0x20
        folder.write("b", bytes: changed)
        #expect(!same(folder, "a", "b"), "at \(position)")
      }
    }

    @Test func filesOfDifferentSizesDiffer() {
      let folder = TemporaryFolder()
      folder.write("a", "abc")
      folder.write("b", "abcd")
      #expect(!same(folder, "a", "b"))
      #expect(!same(folder, "a", "missing"))
    }
  }

  @Suite struct Names {
    @Test func aLinkNamedLikeTheNextVersionNeverBlocksASave() throws {
      let fixture = Fixture()
      try fixture.save("a", "b")
      // Names like a version's, links, planted before the save: its own
      // name is random, and one already there is drawn again.
      for random in 0..<5 {
        let name = VersionName.kept(at: LocalTime.now, random: UInt64(random))
        #expect(symlink("/nonexistent", fixture.versionsFolder + "/" + name) == 0)
      }
      try fixture.save("c")
      #expect(try fixture.texts() == ["b", "a"])
    }

    @Test func aVersionsNameIsTheTimeItWasKeptAndARandomNumber() {
      let name = VersionName.kept(at: (1_764_567_890, 1_234), random: 0xbeef)
      #expect(name == "1764567890.000001234-000000000000beef")
      let parsed = VersionName(name)
      #expect(parsed?.form == .kept)
      #expect(parsed?.keptSeconds == 1_764_567_890 && parsed?.keptNanoseconds == 1_234)
    }

    @Test func twoMachinesKeepingTheSameNoteAtOnceGiveItTwoNames() {
      let saved: (Int64, Int64) = (1_764_567_890, 5)
      var generator = SystemRandomNumberGenerator()
      let names = (0..<1000).map { _ in
        VersionName.kept(at: saved, random: UInt64.random(in: 0...UInt64.max, using: &generator))
      }
      #expect(Set(names).count == 1000)
    }

    @Test func theNamesOfAnOlderFilenoteAreStillVersions() {
      #expect(VersionName("0000000042-1764567890")?.form == .legacy)
      #expect(VersionName("0000000042-1764567890")?.keptSeconds == nil)
    }

    @Test func aSettledCopysNameKeepsItsEngineAndOrigin() {
      let copy = ConflictCopyName(engine: .syncthing, origin: "Y6OAA4V")
      let name = VersionName.settled(
        copy, copyName: "datafile.sync-conflict-20261201-202437-Y6OAA4V.dat", size: 6,
        saved: (1_764_567_890, 7))
      #expect(name.hasPrefix("1764567890.000000007-") && name.hasSuffix("-syncthing-Y6OAA4V"))
      #expect(VersionName(name)?.form == .settled(.syncthing, origin: "Y6OAA4V"))
      let again = VersionName.settled(
        copy, copyName: "datafile.sync-conflict-20261201-202437-Y6OAA4V.dat", size: 6,
        saved: (1_764_567_890, 7))
      #expect(again == name, "two machines settling one copy agree on its name")
      let unison = VersionName.settled(
        ConflictCopyName(engine: .unison), copyName: "note (conflict_on_2026-12-01)", size: 1,
        saved: (1, 0))
      #expect(VersionName(unison)?.form == .settled(.unison, origin: nil))
    }

    @Test func aLongOriginIsShortenedByWholeCharactersToFitTheFileSystem() {
      let origin = String(repeating: "é", count: 200)
      let name = VersionName.settled(
        ConflictCopyName(engine: .dropbox, origin: origin), copyName: "x", size: 1,
        saved: (Int64.max / 2, 999_999_999))
      #expect(name.utf8.count <= 255)
      guard case .settled(.dropbox, let kept)? = VersionName(name)?.form else {
        Issue.record("not read back: \(name)")
        return
      }
      #expect(kept.map { origin.hasPrefix($0) && !$0.isEmpty } == true)
    }

    @Test(arguments: [
      "", "0000000042", "0000000042-", "000000042-1", "0000000042-1a", "x000000042-1",
      "0000000042_1", "0000000042-123456789012345678901", "1764567890.12345678-000000000000beef",
      "1764567890.000001234-000000000000beeg", "1764567890.000001234-000000000000BEEF",
      "1764567890.000001234-000000000000beef-", "1764567890.000001234-000000000000beef-lotus",
      "1764567890.000001234-000000000000beef-syncthing-", ".1764567890.000001234-0000000000000000",
      "1764567890.000001234-000000000000beef0",
    ])
    func otherNamesAreNotVersions(name: String) {
      #expect(VersionName(name) == nil)
    }

    @Test(arguments: [0, 1, 2, 20, 21, 300])
    func versionsAreOrderedNewestFirstWhateverTheListingsOrder(count: Int) throws {
      let status = try FileSystem.status("/")
      var generator = SystemRandomNumberGenerator()
      let times = (0..<count).map { Int64($0) }.shuffled(using: &generator)
      let versions = times.map {
        KeptVersion(
          name: VersionName.kept(at: ($0 / 3, $0 % 3), random: 0), status: status,
          kept: ($0 / 3, $0 % 3))
      }
      #expect(
        KeptVersion.newestFirst(versions).map { $0.kept * 3 + $0.keptNanoseconds }
          == Array((0..<Int64(count)).reversed()))
    }

    @Test func versionsSavedAtTheSameInstantAreOrderedByNameOnEveryMachine() throws {
      let status = try FileSystem.status("/")
      let names = ["5.000000000-00000000000000aa", "5.000000000-00000000000000ff"]
      let versions = names.map { KeptVersion(name: $0, status: status, kept: (5, 0)) }
      #expect(KeptVersion.newestFirst(versions).map(\.name) == names.reversed())
      #expect(KeptVersion.newestFirst(versions.reversed()).map(\.name) == names.reversed())
    }
  }

  @Suite struct HistoryLines {
    /// The first line and its mark, as `history` prints them off a terminal.
    private func firstLine(_ text: String, size: Int? = nil) -> String {
      let bytes = Array(text.utf8)
      let line = VersionHistory.firstLine(of: bytes, size: Int64(size ?? bytes.count))
      return line.text + line.mark
    }

    @Test func theFirstLineHasControlCharactersAsStandInsAndAMarkWhenMoreLinesFollow() {
      #expect(firstLine("a\tb\nsecond") == "a⇥b↵…")
      #expect(firstLine("\nsecond") == "↵…")
      #expect(firstLine("alpha") == "alpha")
    }

    @Test func aTextsOwnFinalNewlineEndsItsFirstLineWithoutAMark() {
      #expect(firstLine("third\n") == "third")
      #expect(firstLine("third\r\n") == "third")
      #expect(firstLine("a\n\n") == "a↵…")
      #expect(firstLine("a\nb\n") == "a↵…")
      #expect(firstLine("third\n", size: 9) == "third↵…", "more was not read")
    }

    @Test func aCutLineIsMarkedAndACharacterBrokenByTheReadLimitIsLeftOut() {
      let bytes = Array("ab€".utf8).dropLast()
      let line = VersionHistory.firstLine(of: Array(bytes), size: 5)
      #expect(line.text == "ab" && line.mark == "…")
      #expect(firstLine("ab€", size: 9) == "ab€…")
      #expect(firstLine("ab€") == "ab€")
    }

    @Test func aLineIsCutToTheColumnsByWholeCharacters() {
      #expect(VersionHistory.cut("abcdef", toColumns: 4) == "abcd")
      #expect(VersionHistory.cut("中文字", toColumns: 5) == "中文")
      #expect(VersionHistory.cut("abc", toColumns: 0) == "")
    }

    @Test func aLineAndItsMarkFitTheColumnsOrAreCutWithAnEllipsis() {
      #expect(VersionHistory.fit("alpha", mark: "↵…", toColumns: 7) == "alpha↵…")
      #expect(VersionHistory.fit("alpha", mark: "↵…", toColumns: 6) == "alpha…")
      #expect(VersionHistory.fit("alphabet", mark: "", toColumns: 5) == "alph…")
      #expect(VersionHistory.fit("中文字", mark: "", toColumns: 5) == "中文…")
      #expect(VersionHistory.fit("abc", mark: "", toColumns: 0) == "")
    }

    @Test func offATerminalTheFirstLineIsItsFirst256BytesAndOnOneItFitsTheWidth() throws {
      let fixture = Fixture()
      try fixture.save(String(repeating: "é", count: 600), "b")
      let store = try fixture.store.versionStore()
      let piped = String(
        decoding: try #require(try VersionHistory(store: store).lines(width: nil)), as: UTF8.self)
      #expect(piped.hasSuffix("  " + String(repeating: "é", count: 128) + "…\n"))
      let narrow = String(
        decoding: try #require(try VersionHistory(store: store).lines(width: 40)), as: UTF8.self)
      let lines = narrow.split(separator: "\n")
      #expect(lines.count == 3, "a header, the note, version 1: \(narrow)")
      #expect(lines.allSatisfy { $0.count <= 40 }, "\(narrow)")
      #expect(lines[2].count == 40 && lines[2].hasSuffix("é…"), "\(lines[2])")
    }

    @Test func atAnyWidthEachLineFitsAndShowsSomeOfItsText() throws {
      let fixture = Fixture()
      try fixture.save("call the plumber", "now")
      let store = try fixture.store.versionStore()
      for width in 6...60 {
        let text = String(
          decoding: try #require(try VersionHistory(store: store).lines(width: width, now: 0)),
          as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= width }, "at \(width): \(text)")
        #expect(
          lines.contains { $0.contains("c") && !$0.contains("FIRST") }, "at \(width): \(text)")
      }
    }

    @Test func historyListsTheNoteAs0ThenNumberLocalTimeSizeAndFirstLine() throws {
      let fixture = Fixture()
      try fixture.save("first line\nsecond", "b")
      let store = try fixture.store.versionStore()
      let text = String(
        decoding: try #require(try VersionHistory(store: store).lines(width: nil)), as: UTF8.self)
      let saved = try fixture.store.keptVersions()[0].saved
      let noteSaved = try FileSystem.status(fixture.folder.file("notes/datafile.dat")).modified
      #expect(
        text == "0  \(LocalTime(secondsSinceEpoch: noteSaved.seconds).text)   1  b\n"
          + "1  \(LocalTime(secondsSinceEpoch: saved).text)  17  first line↵…\n")
    }

    @Test func onATerminalAHeaderComesFirstAndEachLineSaysItsAge() throws {
      let fixture = Fixture()
      try fixture.save("a", "b")
      let store = try fixture.store.versionStore()
      let saved = try fixture.store.keptVersions()[0].saved
      let text = String(
        decoding: try #require(
          try VersionHistory(store: store).lines(width: 80, now: saved + 7200)),
        as: UTF8.self)
      let lines = text.split(separator: "\n").map(String.init)
      #expect(lines.count == 3)
      #expect(lines[0].hasPrefix("N  SAVED                AGE"), "\(lines[0])")
      #expect(lines[0].hasSuffix("SIZE  FIRST LINE"), "\(lines[0])")
      #expect(lines[2].contains("  2 h ago  "), "\(lines[2])")
    }

    @Test func agesAreInTheLargestUnitThatIsAtLeastOne() {
      let cases: [(Int64, String)] = [
        (0, "0 s ago"), (59, "59 s ago"), (60, "1 min ago"), (7200, "2 h ago"),
        (47 * 3600, "47 h ago"), (2 * 86400, "2 days ago"), (59 * 86400, "59 days ago"),
        (70 * 86400, "2 months ago"), (800 * 86400, "2 years ago"), (-5, "in the future"),
      ]
      for (seconds, text) in cases { #expect(Age(seconds: seconds).text == text) }
    }
  }
}
