import Foundation
import TestSupport
import Testing

@testable import FilenoteCore

/// Failures while saving leave the old note intact and no temporary file.
/// These need root (CI runs as root): permission bits do not stop root, so
/// the tests make real read-only and full file systems with `mount`.
@Suite struct FileStoreFaultTests {
  /// Runs a command and returns its exit status.
  @discardableResult
  static func run(_ arguments: String...) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// Makes the folder `path` and mounts a new tmpfs of `size` on it (the
  /// caller unmounts it).
  static func mountTmpfs(size: String, on path: String) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    try #require(
      try run("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", path) == 0,
      "mounting needs root")
  }

  @Test func aReadOnlyFolderLeavesTheOldNoteIntact() throws {
    let folder = TemporaryFolder()
    let store = FileStore(path: folder.file("notes/datafile.dat"), createsFolder: true)
    try store.save(bytes: Array("old note".utf8))
    try #require(
      try Self.run("mount", "--bind", "-o", "ro", folder.file("notes"), folder.file("notes")) == 0,
      "mounting needs root")
    defer { _ = try? Self.run("umount", folder.file("notes")) }

    #expect {
      try store.save(bytes: Array("new note".utf8))
    } throws: { error in
      (error as? FilenoteError)?.message.contains(folder.file("notes")) == true
        && (error as? FilenoteError)?.message.contains("Read-only file system") == true
    }
    #expect(folder.bytes("notes/datafile.dat") == Array("old note".utf8))
    #expect(folder.names(in: "notes") == [".datafile.dat.versions", "datafile.dat"])
  }

  @Test func aFullDiskLeavesTheOldNoteIntactAndNoTemporaryFile() throws {
    let folder = TemporaryFolder()
    try Self.mountTmpfs(size: "64k", on: folder.file("notes"))
    defer { _ = try? Self.run("umount", folder.file("notes")) }
    let store = FileStore(path: folder.file("notes/datafile.dat"))
    try store.save(bytes: Array("old note".utf8))

    #expect {
      try store.save(bytes: Array(String(repeating: "x", count: 1 << 20).utf8))
    } throws: { error in
      (error as? FilenoteError)?.message == "cannot save \(store.path): No space left on device"
    }
    #expect(folder.bytes("notes/datafile.dat") == Array("old note".utf8))
    #expect(folder.names(in: "notes") == [".datafile.dat.versions", "datafile.dat"])
  }

  @Test func aDiskFullOfVersionsSaysSoAndClearingThemFreesIt() throws {
    let folder = TemporaryFolder()
    try Self.mountTmpfs(size: "256k", on: folder.file("notes"))
    defer { _ = try? Self.run("umount", folder.file("notes")) }
    var store = FileStore(path: folder.file("notes/datafile.dat"))
    for letter in ["a", "b", "c"] {
      try store.save(bytes: Array(String(repeating: letter, count: 60_000).utf8))
    }
    let large = String(repeating: "x", count: 100_000)
    #expect(
      throws: FilenoteError.noSpaceWithVersions(
        path: store.path, folder: folder.file("notes/.datafile.dat.versions"), count: 2,
        size: 120_000)
    ) { try store.save(bytes: Array(large.utf8)) }
    store.versionCount = 0
    #expect(throws: FilenoteError.self, "versions off removes none kept") {
      try store.save(bytes: Array(large.utf8))
    }
    #expect(try store.keptVersionCount() == 2)
    store.versionCount = VersionStore.defaultCount
    #expect(try store.clearAll().versions == 2)
    try store.save(bytes: Array(large.utf8))
    #expect(folder.bytes("notes/datafile.dat") == Array(large.utf8))
    #expect(folder.names(in: "notes") == [".datafile.dat.versions", "datafile.dat"])
  }

  @Test func onAReadOnlyMountAVersionsFolderNoMoreOpenThanTheNoteIsRead() throws {
    let folder = TemporaryFolder()
    let store = FileStore(path: folder.file("notes/datafile.dat"), createsFolder: true)
    try store.save(bytes: Array("one".utf8))
    try store.save(bytes: Array("two".utf8))
    // No file another user can write: what a stick that shows every file
    // 0755 gives, mounted read-only, where no mode can be changed.
    chmod(folder.file("notes/datafile.dat"), 0o755)
    chmod(folder.file("notes/.datafile.dat.versions"), 0o755)
    try #require(
      try Self.run("mount", "--bind", "-o", "ro", folder.file("notes"), folder.file("notes")) == 0,
      "mounting needs root")
    defer { _ = try? Self.run("umount", folder.file("notes")) }
    #expect(try store.readVersion(1) == Array("one".utf8))
  }

  @Test func anImmutableFolderIsRefusedWithItsPath() throws {
    let folder = TemporaryFolder()
    let store = FileStore(path: folder.file("notes/datafile.dat"), createsFolder: true)
    try store.save(bytes: Array("old note".utf8))
    try #require(try Self.run("chattr", "+i", folder.file("notes")) == 0, "chattr needs root")
    defer { _ = try? Self.run("chattr", "-i", folder.file("notes")) }
    #expect {
      try store.save(bytes: Array("new note".utf8))
    } throws: { error in
      (error as? FilenoteError)?.message
        == "cannot save note: cannot create a file in \(folder.file("notes")): Operation not permitted"
    }
    #expect(folder.bytes("notes/datafile.dat") == Array("old note".utf8))
  }
}

@Suite struct LeftoverTemporaryFileTests {
  /// The pid of a process that has exited.
  func deadPid() throws -> pid_t {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
  }

  @Test func aDeadWritersTemporaryFileIsRemovedByTheNextSave() throws {
    let folder = TemporaryFolder()
    let store = FileStore(path: folder.file("datafile.dat"))
    let leftover = ".syncthing.datafile.dat.~\(try deadPid()).12345.tmp"
    folder.write(leftover, "half a note")
    try store.save(bytes: Array("whole note".utf8))
    #expect(folder.names() == [".datafile.dat.versions", "datafile.dat"])
  }

  @Test func aLiveWritersTemporaryFileIsKept() throws {
    let folder = TemporaryFolder()
    let store = FileStore(path: folder.file("datafile.dat"))
    // This process is alive and holds the lock, as a save in progress does.
    let live = ".syncthing.datafile.dat.~\(getpid()).777.tmp"
    folder.write(live, "being written")
    let fd = open(folder.file(live), O_RDWR)
    defer { close(fd) }
    #expect(flock(fd, LOCK_EX) == 0)
    try store.save(bytes: Array("whole note".utf8))
    #expect(folder.names() == [live, ".datafile.dat.versions", "datafile.dat"].sorted())
  }

  @Test func otherFilesInTheFolderAreNeverTouched() throws {
    let folder = TemporaryFolder()
    let names = [
      ".datafile.dat.tmp", ".datafile.dat.1.x.tmp", ".other.999999.1.tmp", "notes.txt",
      ".syncthing.datafile.dat.~tmp", ".syncthing.datafile.dat.~1.x.tmp",
      ".syncthing.other.~999999.1.tmp",
    ]
    for name in names { folder.write(name, "mine") }
    try FileStore(path: folder.file("datafile.dat")).save(bytes: Array("note".utf8))
    #expect(folder.names() == (names + [".datafile.dat.versions", "datafile.dat"]).sorted())
  }
}
