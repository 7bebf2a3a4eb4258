import Foundation
import SystemCalls
import TestSupport
import Testing

@testable import FilenoteCore

/// The lock and temporary files beside the note are named so that sync
/// engines leave them alone, and are harmless where one brings them anyway
/// (doc/SYNC.md).
@Suite struct CompanionNameTests {
  @Test func theNamesAreOnesSyncthingNextcloudAndOneDriveSkip() {
    for name in [
      CompanionName.lock(of: "datafile.dat"),
      CompanionName.temporaryPrefix(of: "datafile.dat") + "4242.17.tmp",
    ] {
      // Syncthing takes these for its own temporary files (doc/SYNC.md).
      #expect(name.hasPrefix(".syncthing."), "\(name)")
      // Nextcloud and ownCloud: `*.~*` in sync-exclude.lst, and hidden files.
      #expect(name.contains(".~") && name.hasPrefix("."), "\(name)")
      // OneDrive for Linux: `*.tmp` in the default skip_file.
      #expect(name.hasSuffix(".tmp"), "\(name)")
      #expect(ConflictCopyName(name, copyOf: "datafile.dat") == nil)
    }
    #expect(CompanionName.lock(of: "datafile.dat") == ".syncthing.datafile.dat.~lock.tmp")
  }

  @Test func theNamesFitTheFileSystemForTheLongestNoteName() {
    let note = String(repeating: "é", count: 127)
    #expect(CompanionName.lock(of: note).utf8.count <= 255)
    let temporary =
      CompanionName.temporaryPrefix(of: note) + "\(Int32.max).\(UInt32.max).tmp"
    #expect(temporary.utf8.count <= 255)
  }

  @Test func theWriterLeavesOnlyTheNoteAndItsVersions() throws {
    let folder = TemporaryFolder()
    let store = FileStore(path: folder.file("datafile.dat"))
    try store.withWriterLock { _ throws(FilenoteError) in
      #expect(folder.names() == [".syncthing.datafile.dat.~lock.tmp"])
    }
    try store.save(bytes: Array("one".utf8))
    try store.save(bytes: Array("two".utf8))
    #expect(folder.names() == [".datafile.dat.versions", "datafile.dat"])
  }

  @Test func anOlderFilenotesLockFileThatNobodyHoldsIsRemoved() throws {
    let folder = TemporaryFolder()
    folder.write(".datafile.dat.lock", "")
    try FileStore(path: folder.file("datafile.dat")).save(bytes: Array("note".utf8))
    #expect(folder.names() == [".datafile.dat.versions", "datafile.dat"])
  }

  @Test func aLockFileThatAProcessHereHoldsIsKept() throws {
    let folder = TemporaryFolder()
    folder.write(".datafile.dat.lock", "")
    let fd = open(folder.file(".datafile.dat.lock"), O_RDWR)
    defer { close(fd) }
    #expect(flock(fd, LOCK_EX) == 0)
    try FileStore(path: folder.file("datafile.dat")).save(bytes: Array("note".utf8))
    #expect(folder.names() == [".datafile.dat.lock", ".datafile.dat.versions", "datafile.dat"])
  }

  @Test func aLinkNamedLikeAnOlderLockFileIsLeftAlone() throws {
    let folder = TemporaryFolder()
    folder.write("victim", "secret")
    #expect(symlink(folder.file("victim"), folder.file(".datafile.dat.lock")) == 0)
    try FileStore(path: folder.file("datafile.dat")).save(bytes: Array("note".utf8))
    #expect(
      folder.names() == [".datafile.dat.lock", ".datafile.dat.versions", "datafile.dat", "victim"])
    #expect(folder.bytes("victim") == Array("secret".utf8))
  }

  @Test func aLockFileFromAnotherMachineLocksNothingHere() throws {
    // A sync engine brought the other machine's lock file, whole (empty):
    // no process here holds a flock on it, so a writer takes it over.
    let folder = TemporaryFolder()
    folder.write(".syncthing.datafile.dat.~lock.tmp", "")
    try FileStore(path: folder.file("datafile.dat")).save(bytes: Array("note".utf8))
    #expect(folder.names() == [".datafile.dat.versions", "datafile.dat"])
  }

  @Test func anOlderFilenotesDeadTemporaryFileIsRemoved() throws {
    let folder = TemporaryFolder()
    let leftover = ".datafile.dat.\(try LeftoverTemporaryFileTests().deadPid()).12345.tmp"
    folder.write(leftover, "half a note")
    try FileStore(path: folder.file("datafile.dat")).save(bytes: Array("whole note".utf8))
    #expect(folder.names() == [".datafile.dat.versions", "datafile.dat"])
  }
}
