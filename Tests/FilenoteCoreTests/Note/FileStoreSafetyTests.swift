import Foundation
import SystemCalls
import TestSupport
import Testing

@testable import FilenoteCore

/// Links, planted names, odd files and the writer lock. The tests run as
/// root, like CI; another user's link is made with lchown.
@Suite struct FileStoreSafetyTests {
  static let nobody: uid_t = 65534

  /// A sticky folder everyone may write, as /tmp, owned by root.
  static func sharedFolder(in folder: TemporaryFolder) -> String {
    let shared = folder.file("shared")
    mkdir(shared, 0o777)
    chmod(shared, 0o1777)
    return shared
  }

  /// A symbolic link `name` → `target` in `folder`, owned by nobody.
  static func nobodysLink(_ name: String, in folder: String, to target: String) -> String {
    let link = folder + "/" + name
    symlink(target, link)
    lchown(link, nobody, nobody)
    return link
  }

  @Test func aLinkOfAnotherUserInAStickyFolderIsNotFollowed() throws {
    let folder = TemporaryFolder()
    folder.write("victim", "secret")
    let link = Self.nobodysLink(
      "note", in: Self.sharedFolder(in: folder), to: folder.file("victim"))
    let store = FileStore(path: link)
    let refusal = FilenoteError.unsafePath(
      path: link, why: .othersLink(folder: folder.file("shared")))
    #expect(throws: refusal) { try store.save(bytes: Array("pwned".utf8)) }
    #expect(throws: refusal) { try store.clearKeepingVersion() }
    #expect(throws: refusal) { try store.read() }
    #expect(folder.bytes("victim") == Array("secret".utf8))
  }

  @Test func aLinkOfAnotherUserInAnOrdinaryFolderIsFollowed() throws {
    let folder = TemporaryFolder()
    folder.write("target", "old")
    let link = Self.nobodysLink("note", in: folder.path, to: folder.file("target"))
    try FileStore(path: link).save(bytes: Array("new".utf8))
    #expect(folder.bytes("target") == Array("new".utf8))
  }

  @Test func aLinkAmongTheFoldersAboveIsJudgedTheSameWay() throws {
    let folder = TemporaryFolder()
    folder.write("private/victim", "secret")
    let link = Self.nobodysLink(
      "dir", in: Self.sharedFolder(in: folder), to: folder.file("private"))
    #expect(
      throws: FilenoteError.unsafePath(
        path: link, why: .othersLink(folder: folder.file("shared")))
    ) {
      try FileStore(path: link + "/victim").save(bytes: Array("pwned".utf8))
    }
    #expect(folder.bytes("private/victim") == Array("secret".utf8))
  }

  @Test func theVersionsBesideALinksTargetAndPathBasedCodeFollowTheSameRule() throws {
    let folder = TemporaryFolder()
    folder.write("real/datafile.dat", "old")
    symlink(folder.file("real/datafile.dat"), folder.file("mine"))
    #expect(
      try FileStore(path: folder.file("mine")).versionStore()?.folderPath
        == folder.file("real/.datafile.dat.versions"))
    let planted = Self.nobodysLink(
      "note", in: Self.sharedFolder(in: folder), to: folder.file("real/datafile.dat"))
    #expect(
      throws: FilenoteError.unsafePath(
        path: planted, why: .othersLink(folder: folder.file("shared")))
    ) {
      try FileStore(path: planted).readVersion(1)
    }
    try FileStore(path: folder.file("mine")).save(bytes: Array("new".utf8))
    #expect(folder.bytes("real/datafile.dat") == Array("new".utf8))
  }

  @Test func undoAndRestoreRefuseANoteOfAnotherUserInAStickyFolderAsSaveDoes() throws {
    let folder = TemporaryFolder()
    let shared = Self.sharedFolder(in: folder)
    let note = shared + "/note"
    let store = FileStore(path: note)
    try store.save(bytes: Array("kept".utf8))
    try store.save(bytes: Array("nobody's".utf8))
    chown(note, Self.nobody, Self.nobody)
    let refusal = FilenoteError.unsafePath(path: note, why: .othersFile(folder: shared))
    #expect(throws: refusal) { try store.save(bytes: Array("pwned".utf8)) }
    #expect(throws: refusal) { try store.restoreVersion(1) }
    #expect(folder.bytes("shared/note") == Array("nobody's".utf8))
    #expect(try FileSystem.status(note, followingLinks: false).owner == Self.nobody)
    #expect(try store.keptVersions().count == 1)
  }

  @Test func clearRemovesOnlyARegularFile() throws {
    let folder = TemporaryFolder()
    let fifo = folder.file("fifo")
    mkfifo(fifo, 0o600)
    let device = folder.file("mynull")
    mknod(device, S_IFCHR | 0o666, (1 << 8) | 3)  // makedev(1, 3): /dev/null's numbers
    let link = folder.file("datafile.dat")
    symlink(device, link)
    #expect(throws: FilenoteError.notARegularFile(path: fifo)) {
      try FileStore(path: fifo).clearKeepingVersion()
    }
    #expect(throws: FilenoteError.notARegularFile(path: device)) {
      try FileStore(path: link).clearKeepingVersion()
    }
    #expect(try FileSystem.status(fifo, followingLinks: false).kind == .other)
    #expect(try FileSystem.status(device, followingLinks: false).kind == .other)
    #expect(try FileSystem.status(link, followingLinks: false).kind == .symbolicLink)
  }

  @Test func aPlantedTemporaryNameIsSkippedNeverWrittenThrough() throws {
    let folder = TemporaryFolder()
    folder.write("victim", "secret")
    folder.write("notes/datafile.dat", "old")
    let planted = folder.file("notes/.syncthing.datafile.dat.~\(CurrentProcess.id).1.tmp")
    symlink(folder.file("victim"), planted)
    let store = FileStore(path: folder.file("notes/datafile.dat"))
    var numbers: [UInt32] = [1, 1, 2]
    let note = try WriteTarget(store)
    let file = try TemporaryNoteFile(for: note, replacing: note.statusAtWalk) {
      numbers.removeFirst()
    }
    try file.write(Array("new".utf8))
    try store.withWriterLock { locked throws(FilenoteError) in
      _ = try locked.replace(with: .file(file, compared: note.statusAtWalk))
    }
    #expect(numbers.isEmpty)
    #expect(folder.bytes("notes/datafile.dat") == Array("new".utf8))
    #expect(folder.bytes("victim") == Array("secret".utf8))
    #expect(try FileSystem.status(planted, followingLinks: false).kind == .symbolicLink)
  }

  @Test func everyTemporaryNamePlantedIsAnErrorAfterBoundedTries() throws {
    let folder = TemporaryFolder()
    folder.write("notes/datafile.dat", "old")
    let planted = folder.file("notes/.syncthing.datafile.dat.~\(CurrentProcess.id).7.tmp")
    folder.write("notes/.syncthing.datafile.dat.~\(CurrentProcess.id).7.tmp", "planted")
    let store = FileStore(path: folder.file("notes/datafile.dat"))
    var tries = 0
    #expect(
      throws: FilenoteError.system(
        .createTemporaryFile, .file(folder.file("notes")), errno: .fileExists)
    ) {
      _ = try TemporaryNoteFile(for: WriteTarget(store), replacing: nil) {
        tries += 1
        return 7
      }
    }
    #expect(tries == TemporaryNoteFile.maximumAttempts)
    #expect(FileManager.default.contents(atPath: planted) == Data("planted".utf8))
  }

  @Test func theWriterLockIsHeldUntilTheBodyReturnsAndLeavesNothing() throws {
    let folder = TemporaryFolder()
    let store = FileStore(path: folder.file("datafile.dat"))
    try store.withWriterLock { note throws(FilenoteError) in
      let other = try! FileDescriptor.open(
        folder.file(".syncthing.datafile.dat.~lock.tmp"), .readOnly)
      defer { other.close() }
      #expect(try! other.tryLockExclusive() == false)
      let file = try TemporaryNoteFile(for: note.target, replacing: note.status)
      try file.write(Array("inside".utf8))
      _ = try note.replace(with: .file(file, compared: note.status))
    }
    #expect(folder.names() == [".datafile.dat.versions", "datafile.dat"])
  }

  @Test func aVersionCheckedUnderTheLockSeesTheSaveBeforeIt() throws {
    let folder = TemporaryFolder()
    let store = FileStore(path: folder.file("datafile.dat"))
    try store.save(bytes: Array("first".utf8))
    let read = try #require(try store.read()).identity
    try store.save(bytes: Array("someone else's".utf8))
    let outcome = try store.save(Array("mine".utf8), ifStill: read)
    #expect(outcome == .changedOnDisk(now: try store.currentIdentity()))
    #expect(folder.bytes("datafile.dat") == Array("someone else's".utf8))
    #expect(
      try store.save(Array("mine".utf8), ifStill: try store.currentIdentity()) == .saved(.init()))
    #expect(folder.bytes("datafile.dat") == Array("mine".utf8))
  }
}

/// How a writer opens the versions folder: by name in the note's open
/// folder, never through a link, and only when it is the user's own and
/// closed to others.
@Suite struct VersionsFolderOpeningTests {
  /// Whether a writer of the note `datafile.dat` in `folder` found (or made) its versions folder.
  func open(_ folder: TemporaryFolder, creating: Bool = true) throws -> Bool {
    try FileStore(path: folder.file("datafile.dat")).withWriterLock {
      note throws(FilenoteError) in
      guard let writer = try VersionWriter.open(note.versionStore(), creating: creating) else {
        return false
      }
      writer.close()
      return true
    }
  }

  func refusal(
    _ folder: TemporaryFolder, _ reason: FilenoteError.UnsafeFolderReason
  ) -> FilenoteError {
    .versionsFolderUnsafe(path: folder.file(".datafile.dat.versions"), reason: reason)
  }

  @Test func aMissingFolderIsCreatedWithMode0700() throws {
    let folder = TemporaryFolder()
    #expect(try open(folder))
    let status = try FileSystem.status(folder.file(".datafile.dat.versions"))
    #expect(status.kind == .directory && status.permissions == 0o700)
  }

  @Test func aMissingFolderIsNilWhenNotCreating() throws {
    let folder = TemporaryFolder()
    #expect(try open(folder, creating: false) == false)
    #expect(folder.names().isEmpty)
  }

  @Test func aLinkAFileOrAnotherUsersFolderIsRefused() throws {
    let folder = TemporaryFolder()
    let name = folder.file(".datafile.dat.versions")
    mkdir(folder.file("elsewhere"), 0o700)
    symlink(folder.file("elsewhere"), name)
    #expect(throws: refusal(folder, .symbolicLink)) { try open(folder) }
    unlink(name)
    folder.write(".datafile.dat.versions", "a file")
    #expect(throws: refusal(folder, .notAFolder)) { try open(folder) }
    unlink(name)
    mkdir(name, 0o700)
    chown(name, FileStoreSafetyTests.nobody, FileStoreSafetyTests.nobody)
    #expect(throws: refusal(folder, .ownedByAnotherUser(FileStoreSafetyTests.nobody))) {
      try open(folder)
    }
    chown(name, 0, 0)
    chmod(name, 0o700)
    #expect(try open(folder))
  }

  @Test func anOpenFolderOfTheUsersOwnIsTakenBackTo0700AndItsFilesTo0600() throws {
    let folder = TemporaryFolder()
    folder.write("datafile.dat", "note")
    let name = folder.file(".datafile.dat.versions")
    mkdir(name, 0o755)
    chmod(name, 0o755)
    folder.write(".datafile.dat.versions/1764580502.123456789-5f3a9c2d01b7e4a6", "kept")
    let version = name + "/1764580502.123456789-5f3a9c2d01b7e4a6"
    chmod(version, 0o644)
    #expect(try open(folder))
    #expect(try FileSystem.status(name).permissions == 0o700)
    #expect(try FileSystem.status(version).permissions == 0o600)
  }

  @Test func aWriterWhoseFolderWasRemovedFailsWithTheFolderErrorAfterBoundedTries() throws {
    let folder = TemporaryFolder()
    let notes = folder.file("notes")
    mkdir(notes, 0o700)
    let note = try WriteTarget(FileStore(path: notes + "/datafile.dat"))
    rmdir(notes)
    // Each try sees the lock's name go as if its holder removed it: a removed
    // folder must end the tries, not make them wait out the lock's timeout.
    #expect(
      throws: FilenoteError.system(
        .createTemporaryFile, .file(notes), errno: .noSuchFileOrDirectory)
    ) {
      try note.withLock { _ throws(FilenoteError) in }
    }
  }
}
