import Foundation
import SystemCalls
import TestSupport
import Testing

@testable import FilenoteCore

/// The note in a folder a sync engine keeps alike on several machines
/// (doc/SYNC.md): conflict copies listed among the versions and settled,
/// version names that sync, every text listed once.
@Suite struct SyncedVersionsTests {
  /// A note `notes/datafile.dat` in a fresh folder, with texts saved at
  /// chosen times.
  struct Fixture {
    /// The note and its versions, as `VersionTests` makes them.
    var plain = VersionTests.Fixture()
    var folder: TemporaryFolder { plain.folder }
    var store: FileStore { plain.store }
    var count: Int? {
      get { plain.count }
      set { plain.count = newValue }
    }
    var versions: String { plain.versionsFolder }
    var note: String? { plain.note }

    /// Saves each text at `seconds` (1, 2, 3… by default) after `base`: its file is dated so, and the version a save keeps of the
    /// text before is renamed as though it was kept then, so the order of
    /// saves is the order of times, among copies dated the same way.
    func save(_ texts: String..., at seconds: [Int64]? = nil) throws {
      var previous: Int64? = nil
      for (index, text) in texts.enumerated() {
        try store.save(bytes: Array(text.utf8))
        let second = seconds?[index] ?? Int64(index + 1)
        setTime(folder.file("notes/datafile.dat"), Self.base + second)
        if let previous, let name = justKept() {
          let dated = VersionName.kept(at: (Self.base + previous, 0), random: UInt64(index))
          precondition(rename(versions + "/" + name, versions + "/" + dated) == 0)
        }
        previous = second
      }
    }

    /// The version the last save kept: the one kept now, long after every
    /// one the fixture dated.
    private func justKept() -> String? {
      folder.names(in: "notes/.datafile.dat.versions").first { name in
        (VersionName(name)?.keptSeconds ?? 0) > Self.base + 1_000_000
      }
    }

    /// 2020-01-01 00:00 UTC: every time the fixture gives is long before now.
    static let base: Int64 = 1_577_836_800

    /// A conflict copy `name` beside the note holding `text`, saved at `second`.
    func copy(_ name: String, _ text: String, at second: Int64) {
      folder.write("notes/" + name, text)
      setTime(folder.file("notes/" + name), Self.base + second)
    }

    func setTime(_ path: String, _ seconds: Int64, nanoseconds: Int = 0) {
      var times = [
        timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2),
        timespec(tv_sec: Int(seconds), tv_nsec: nanoseconds),
      ]
      precondition(utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0)
    }

    /// What `history` lists, newest first: each text, with `*` before an
    /// unsettled copy's and `+` before a settled one's.
    func listed() throws -> [String] {
      try store.keptVersions().enumerated().map { index, version in
        let text = String(decoding: try store.readVersion(index + 1), as: UTF8.self)
        guard version.conflict != nil else { return text }
        return (version.isUnsettledCopy ? "*" : "+") + text
      }
    }

    var noteFolderNames: [String] { folder.names(in: "notes") }
  }

  static let syncthingCopy = "datafile.sync-conflict-20261201-202437-Y6OAA4V.dat"
  static let dropboxCopy = "datafile (Ann's conflicted copy 2026-12-01).dat"

  @Suite struct Listing {
    @Test func conflictCopiesAreListedAmongTheVersionsByWhenTheirTextWasSaved() throws {
      let fixture = Fixture()
      try fixture.save("a", "b", "c", "d", at: [10, 20, 30, 40])
      fixture.copy(syncthingCopy, "from b's machine", at: 25)
      fixture.copy(dropboxCopy, "from Ann", at: 5)
      #expect(try fixture.listed() == ["c", "*from b's machine", "b", "a", "*from Ann"])
      let copy = try fixture.store.keptVersions()[1]
      #expect(copy.conflict?.engine == .syncthing && copy.conflict?.origin == "Y6OAA4V")
      #expect(fixture.note == "d")
    }

    @Test func aCopyComesBeforeTheFirstVersionWhoseTextIsOlder() throws {
      // A version kept late (at 30) whose text is old (5: it was restored,
      // then replaced): a copy saved at 20 comes before it.
      let fixture = Fixture()
      try fixture.save("a", "b", at: [10, 20])
      let late = VersionName.kept(at: (Fixture.base + 30, 0), random: 3)
      fixture.folder.write("notes/.datafile.dat.versions/" + late, "restored, then replaced")
      fixture.setTime(fixture.versions + "/" + late, Fixture.base + 5)
      fixture.copy(syncthingCopy, "theirs", at: 20)
      #expect(try fixture.listed() == ["*theirs", "restored, then replaced", "a"])
    }

    @Test func historyMarksACopyWithItsEngineAndDevice() throws {
      let fixture = Fixture()
      try fixture.save("a", "b", at: [10, 20])
      fixture.copy(syncthingCopy, "theirs", at: 30)
      let store = try #require(try fixture.store.versionStore())
      let text = String(
        decoding: try #require(try VersionHistory(store: store).lines(width: nil)), as: UTF8.self)
      // Line 0 is the note.
      let lines = text.split(separator: "\n").dropFirst()
      #expect(lines.count == 2)
      #expect(lines.first?.hasSuffix("  [conflict copy, Syncthing, device Y6OAA4V] theirs") == true)
      #expect(lines.last?.hasSuffix("  a") == true)
    }

    @Test func copiesAreListedWithoutAnyVersionKept() throws {
      let fixture = Fixture()
      try fixture.save("only")
      fixture.copy("datafile.dat.conflict1", "bisync's", at: 9)
      #expect(try fixture.listed() == ["*bisync's"])
      #expect(String(decoding: try fixture.store.readVersion(1), as: UTF8.self) == "bisync's")
    }

    @Test func onlyRegularFilesOfTheUsersThatAreThisNotesCopiesAreListed() throws {
      let fixture = Fixture()
      try fixture.save("a", "b", at: [10, 20])
      fixture.copy("datafile2.sync-conflict-20261201-202437-Y6OAA4V.dat", "another note's", at: 30)
      fixture.copy("datafile2.dat", "another note", at: 30)
      fixture.copy("datafile-2-laptop-safeBackup-0001.dat", "datafile-2.dat's", at: 31)
      fixture.copy("datafile-2.dat", "a note with a longer name", at: 31)
      fixture.folder.write("elsewhere/secret", "not a copy")
      #expect(
        symlink(
          fixture.folder.file("elsewhere/secret"),
          fixture.folder.file("notes/datafile (Bob's conflicted copy 2026-12-01).dat")) == 0)
      try FileManager.default.createDirectory(
        atPath: fixture.folder.file("notes/datafile.dat.conflict2"),
        withIntermediateDirectories: false)
      fixture.copy("datafile.dat..path1", "nobody's", at: 32)
      try #require(
        chown(fixture.folder.file("notes/datafile.dat..path1"), 65534, 65534) == 0,
        "chown needs root")
      #expect(try fixture.listed() == ["a"])
    }

    @Test func aCopyOfAVersionInTheVersionsFolderIsListedMarked() throws {
      // Two machines on which an older filenote kept different texts under
      // one `<sequence>-<seconds>` name: the engine kept one of them under
      // a conflict copy's name.
      let fixture = Fixture()
      try fixture.save("a", at: [10])
      fixture.folder.write("notes/.datafile.dat.versions/0000000001-1796083220", "mine")
      fixture.folder.write(
        "notes/.datafile.dat.versions/0000000001-1796083220.sync-conflict-20261201-202437-Y6OAA4V",
        "theirs")
      chmod(fixture.versions, 0o700)
      fixture.setTime(fixture.versions + "/0000000001-1796083220", Fixture.base + 5)
      fixture.setTime(
        fixture.versions + "/0000000001-1796083220.sync-conflict-20261201-202437-Y6OAA4V",
        Fixture.base + 4)
      #expect(try fixture.listed() == ["mine", "+theirs"])
    }

    @Test func theNamesOfAnOlderFilenoteAreListedByTheirFilesTimeAmongTheNewOnes() throws {
      let fixture = Fixture()
      try fixture.save("a", "b", at: [10, 20])
      try FileManager.default.createDirectory(
        atPath: fixture.versions, withIntermediateDirectories: true)
      chmod(fixture.versions, 0o700)
      for (sequence, text, second) in [(1, "old 1", 1), (2, "old 2", 15), (3, "old 3", 2)] {
        let name = "000000000\(sequence)-17960832\(sequence)0"
        fixture.folder.write("notes/.datafile.dat.versions/" + name, text)
        fixture.setTime(fixture.versions + "/" + name, Fixture.base + Int64(second))
      }
      #expect(try fixture.listed() == ["old 2", "a", "old 3", "old 1"])
      // And pruned like the others, oldest first.
      var fewer = fixture
      fewer.count = 2
      try fewer.save("c", at: [30])
      #expect(try fixture.listed() == ["b", "old 2"])
    }

    @Test func oneTextKeptOnTwoMachinesIsListedOnce() throws {
      // Both machines kept the note they had from the other (its time
      // synced with it) when each saved while apart; the engine brought
      // each machine's version to the other.
      let fixture = Fixture()
      try fixture.save("base", "mine", at: [10, 20])
      let name = try #require(fixture.folder.names(in: "notes/.datafile.dat.versions").first)
      let parsed = try #require(VersionName(name))
      let theirs = VersionName.kept(
        at: (try #require(parsed.keptSeconds), parsed.keptNanoseconds), random: 7)
      fixture.folder.write("notes/.datafile.dat.versions/" + theirs, "base")
      #expect(try fixture.listed() == ["base"])
      // Another text at the same moment is another version.
      let other = VersionName.kept(
        at: (try #require(parsed.keptSeconds), parsed.keptNanoseconds), random: 8)
      fixture.folder.write("notes/.datafile.dat.versions/" + other, "bass")
      #expect(try fixture.listed().sorted() == ["base", "bass"])
    }

    @Test func anEngineThatKeepsWholeSecondsStillMakesTheTwoFilesOneText() throws {
      let fixture = Fixture()
      try fixture.save("base", "mine", at: [10, 20])
      let name = try #require(fixture.folder.names(in: "notes/.datafile.dat.versions").first)
      let parsed = try #require(VersionName(name))
      let seconds = try #require(parsed.keptSeconds)
      fixture.folder.write(
        "notes/.datafile.dat.versions/" + VersionName.kept(at: (seconds, 0), random: 7), "base")
      #expect(try fixture.listed() == ["base"])
    }

    @Test func aTextSavedAgainIsListedOnceWhereItWasSavedLast() throws {
      let fixture = Fixture()
      try fixture.save("x", "y", "x", "z", at: [10, 20, 30, 40])
      #expect(try fixture.listed() == ["x", "y"])
    }

    @Test func oneTextRestoredOnOneMachineAndKeptOnTheOtherIsListedOnce() throws {
      // One machine kept the note as it was; the other put it back (a save,
      // so it was saved again then) and kept it when it moved on: two
      // versions of one text, at two times.
      let fixture = Fixture()
      try fixture.save("base", "mine", at: [10, 20])
      fixture.folder.write(
        "notes/.datafile.dat.versions/"
          + VersionName.kept(at: (Fixture.base + 15, 0), random: 7),
        "base")
      #expect(try fixture.listed() == ["base"])
    }

    @Test func theNotesOwnFileAsAnotherMachineReceivedItIsTheNoteNotAVersion() throws {
      let fixture = Fixture()
      try fixture.save("x", "y", "x", at: [10, 20, 30])
      // What an engine brings from the machine that saved "z": the note
      // and the save's own link in the versions folder, two files here.
      // (Its save came after this machine's own saves, whose own names
      // hold the time they were made: now.)
      let later = Int64(Date().timeIntervalSince1970) + 100
      let own = VersionName.kept(at: (later, 0), random: 99)
      fixture.folder.write("notes/.datafile.dat.versions/" + own, "z")
      fixture.folder.write("notes/datafile.dat", "z")
      // x, which z replaced, is kept by its own save here.
      #expect(try fixture.listed() == ["x", "y"])
      #expect(try fixture.store.keptVersionCount() == 2)
    }

    @Test func largeTextsAreComparedTooAndOnlyEqualOnesAreOne() throws {
      // One size, one beginning: the ends tell them apart.
      let fixture = Fixture()
      let large = String(repeating: "x", count: Int(VersionStore.comparedBeginning) + 10)
      try fixture.save(large + "a", large + "b", large + "a", "end", at: [10, 20, 30, 40])
      #expect(try fixture.listed().map(\.last) == ["a", "b"])
    }

    @Test func aCopyHoldingTheTextOfAVersionIsListedAsTheCopy() throws {
      let fixture = Fixture()
      try fixture.save("same", "note", at: [10, 20])
      fixture.copy(syncthingCopy, "same", at: 10)
      #expect(try fixture.listed() == ["*same"])
    }

    @Test func aVersionRemovedSinceTheFolderWasListedIsNotListed() throws {
      let fixture = Fixture()
      try fixture.save("a", "b", "c", at: [10, 20, 30])
      let store = try #require(try fixture.store.versionStore())
      let folder = try #require(try store.open())
      defer { folder.close() }
      let names = try store.names(in: folder)
      let gone = VersionName.kept(at: (Fixture.base + 25, 0), random: 1)
      // a and b, and c's own name (the note's, left out by `listed`).
      #expect(store.entries(named: names + [gone], in: folder).count == 3)
    }
  }

  @Suite struct Restoring {
    @Test func showNAndRestoreNTakeACopyAndTheOthersAreSettled() throws {
      let fixture = Fixture()
      try fixture.save("a", "b", at: [10, 20])
      fixture.copy(syncthingCopy, "from b", at: 30)
      fixture.copy(dropboxCopy, "from Ann", at: 15)
      #expect(try fixture.listed() == ["*from b", "*from Ann", "a"])
      #expect(String(decoding: try fixture.store.readVersion(1), as: UTF8.self) == "from b")
      let restored = try fixture.store.restoreVersion(1)
      #expect(restored == FileStore.Restored(wasConflictCopy: true, settledCopies: 1))
      #expect(fixture.note == "from b")
      #expect(fixture.noteFolderNames == [".datafile.dat.versions", "datafile.dat"])
      #expect(try fixture.listed() == ["b", "+from Ann", "a"])
    }

    @Test func aRestoredTextReplacedAgainIsVersion1() throws {
      let fixture = Fixture()
      try fixture.save("a", "b", "c", at: [10, 20, 30])
      try fixture.store.restoreVersion(2)
      #expect(fixture.note == "a")
      try fixture.store.save(bytes: Array("d".utf8))
      #expect(try fixture.listed() == ["a", "c", "b"])
      try fixture.store.restoreVersion(1)
      #expect(fixture.note == "a", "undo puts back what the save replaced")
    }

    @Test func restoringTheTextTheNoteHoldsChangesNothing() throws {
      let fixture = Fixture()
      try fixture.save("x", "y", "x", at: [10, 20, 30])
      let note = fixture.folder.file("notes/datafile.dat")
      var before = stat()
      stat(note, &before)
      let names = fixture.folder.names(in: "notes/.datafile.dat.versions")
      #expect(try fixture.listed() == ["y", "x"])
      try fixture.store.restoreVersion(2)
      var after = stat()
      stat(note, &after)
      #expect(after.st_ino == before.st_ino && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
      #expect(fixture.folder.names(in: "notes/.datafile.dat.versions") == names)
    }

    @Test func restoringAVersionThatIsNoCopySettlesNothing() throws {
      let fixture = Fixture()
      try fixture.save("a", "b", at: [10, 20])
      fixture.copy(syncthingCopy, "theirs", at: 5)
      let restored = try fixture.store.restoreVersion(1)
      #expect(restored == FileStore.Restored(wasConflictCopy: false, settledCopies: 0))
      #expect(fixture.noteFolderNames.contains(syncthingCopy))
    }
  }

  @Suite struct Settling {
    @Test func settlingMovesTheCopiesIntoTheVersionsStillListedAndMarked() throws {
      let fixture = Fixture()
      try fixture.save("a", "b", at: [10, 20])
      fixture.copy(syncthingCopy, "theirs", at: 15)
      #expect(try fixture.store.settleConflictCopies() == 1)
      #expect(fixture.noteFolderNames == [".datafile.dat.versions", "datafile.dat"])
      #expect(try fixture.listed() == ["+theirs", "a"])
      let settled = try #require(
        fixture.folder.names(in: "notes/.datafile.dat.versions").first { $0.contains("syncthing") })
      #expect(settled.hasSuffix("-syncthing-Y6OAA4V"))
      #expect(fixture.folder.mode("notes/.datafile.dat.versions/" + settled) == 0o600)
      #expect(try fixture.store.settleConflictCopies() == 0)
    }

    /// What happens after the user was shown a copy: another arrives, or
    /// the engine replaces the one shown.
    static let afterShown: [(name: String, text: String, settled: Int, listed: [String])] = [
      (dropboxCopy, "arrived later", 1, ["*arrived later", "+shown", "a"]),
      (syncthingCopy, "replaced by the engine", 0, ["*replaced by the engine", "a"]),
    ]

    @Test(arguments: afterShown)
    func onlyTheCopiesTheUserWasShownAreSettledAsTheyWere(
      then: (name: String, text: String, settled: Int, listed: [String])
    ) throws {
      let fixture = Fixture()
      try fixture.save("a", "b", at: [10, 20])
      fixture.copy(syncthingCopy, "shown", at: 15)
      let shown = try fixture.store.conflictCopies()
      fixture.copy(then.name, then.text, at: 16)
      #expect(try fixture.store.settleConflictCopies(shown) == then.settled)
      #expect(try fixture.listed() == then.listed)
    }

    @Test func aCopySettledOnAnotherMachineAndSyncedHereIsSettledOnce() throws {
      // The same copy reaches both machines; the other settled it, and its
      // settled version arrived here before the copy's removal did.
      let fixture = Fixture()
      try fixture.save("a", "b", at: [10, 20])
      fixture.copy(syncthingCopy, "theirs", at: 15)
      let copy = try #require(try fixture.store.conflictCopies().first)
      let name = VersionName.settled(
        try #require(copy.conflict), copyName: syncthingCopy, size: copy.size,
        saved: (copy.kept, copy.keptNanoseconds))
      fixture.folder.write("notes/.datafile.dat.versions/" + name, "theirs")
      #expect(try fixture.listed() == ["*theirs", "a"])
      #expect(try fixture.store.settleConflictCopies() == 1)
      #expect(try fixture.listed() == ["+theirs", "a"])
      // a, the settled copy, and b's own name (the note's).
      #expect(fixture.folder.names(in: "notes/.datafile.dat.versions").count == 3)
    }

    @Test func aSaveSettlesNothing() throws {
      let fixture = Fixture()
      try fixture.save("a", at: [10])
      fixture.copy(syncthingCopy, "theirs", at: 5)
      try fixture.save("b", "c", at: [20, 30])
      #expect(fixture.noteFolderNames.contains(syncthingCopy))
      #expect(try fixture.listed() == ["b", "a", "*theirs"])
    }

    @Test func unsettledCopiesAreNeverPrunedAndSettledOnesCountAgainstRetention() throws {
      var fixture = Fixture()
      fixture.count = 2
      try fixture.save("a", at: [10])
      fixture.copy(syncthingCopy, "old copy", at: 1)
      fixture.copy(dropboxCopy, "older copy", at: 0)
      try fixture.save("b", "c", "d", at: [20, 30, 40])
      #expect(try fixture.listed() == ["c", "b", "*old copy", "*older copy"])
      try fixture.store.settleConflictCopies()
      try fixture.save("e", at: [50])
      #expect(try fixture.listed() == ["d", "c"])
    }

    @Test func withVersionsOffNothingIsSettledAndTheCopiesStay() throws {
      var fixture = Fixture()
      try fixture.save("a", at: [10])
      fixture.copy(syncthingCopy, "theirs", at: 5)
      fixture.count = 0
      #expect(throws: FilenoteError.settlingNeedsVersions) {
        try fixture.store.settleConflictCopies()
      }
      #expect(fixture.noteFolderNames.contains(syncthingCopy))
    }

    @Test func clearAllRemovesSettledCopiesAndLeavesUnsettledOnes() throws {
      let fixture = Fixture()
      try fixture.save("a", "b", at: [10, 20])
      fixture.copy(syncthingCopy, "settled", at: 15)
      try fixture.store.settleConflictCopies()
      fixture.copy(dropboxCopy, "unsettled", at: 16)
      let removed = try fixture.store.clearAll()
      #expect(removed.note && removed.versions == 2)
      #expect(fixture.noteFolderNames == [dropboxCopy])
    }
  }

  /// Between a sync engine renaming the note away (to a conflict copy) and
  /// renaming the received text in, there is no note: filenote waits for it.
  @Suite struct EngineWindow {
    /// Puts `text` in the note's place by a rename, as an engine does, after
    /// `milliseconds`.
    static func renameIn(_ text: String, to fixture: Fixture, after milliseconds: UInt32) -> Thread
    {
      let incoming = fixture.folder.file("notes/.syncthing.datafile.dat.tmp")
      let note = fixture.folder.file("notes/datafile.dat")
      let thread = Thread {
        usleep(milliseconds * 1000)
        precondition(
          FileManager.default.createFile(atPath: incoming + ".part", contents: Data(text.utf8)))
        precondition(rename(incoming + ".part", note) == 0)
      }
      thread.start()
      return thread
    }

    @Test func aReaderWaitsForTheNoteAnEngineIsReplacing() throws {
      let fixture = Fixture()
      try fixture.save("mine", at: [10])
      // The engine's rename of the note to its copy (a fresh status change).
      #expect(
        rename(
          fixture.folder.file("notes/datafile.dat"), fixture.folder.file("notes/" + syncthingCopy))
          == 0)
      _ = Self.renameIn("theirs", to: fixture, after: 300)
      #expect(try fixture.store.read()?.text == "theirs")
    }

    @Test func aWriterDoesNotCreateTheNoteAnEngineIsRenamingIn() throws {
      let fixture = Fixture()
      try fixture.save("mine", at: [10])
      fixture.folder.write("notes/.syncthing.datafile.dat.tmp", "being pulled")
      #expect(unlink(fixture.folder.file("notes/datafile.dat")) == 0)
      _ = Self.renameIn("theirs", to: fixture, after: 300)
      try fixture.store.save(bytes: Array("new".utf8))
      #expect(fixture.note == "new")
      #expect(try fixture.listed().first == "theirs", "the engine's text is kept as a version")
    }

    @Test func aMissingNoteWithNoEngineAtWorkIsNotWaitedFor() throws {
      let fixture = Fixture()
      try fixture.save("mine", at: [10])
      fixture.folder.write("notes/unrelated.txt", "x")
      #expect(unlink(fixture.folder.file("notes/datafile.dat")) == 0)
      let store = try #require(try fixture.store.versionStore())
      #expect(!EngineReplacement.isUnderWay(note: "datafile.dat", in: store.noteFolder))
      #expect(try fixture.store.read() == nil)
    }
  }
}
