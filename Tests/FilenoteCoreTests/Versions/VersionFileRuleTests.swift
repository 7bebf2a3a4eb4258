import Foundation
import SystemCalls
import TestSupport
import Testing

@testable import FilenoteCore

/// `VersionStore.mayUse`: which files in the versions folder (and beside
/// the note) filenote lists, reads and restores.
@Suite struct VersionFileRuleTests {
  /// The status of `name` in `folder`, as filenote takes it (no link followed).
  private func status(_ name: String, in folder: TemporaryFolder) throws -> FileStatus {
    let open = try FileDescriptor.open(folder.path, .readOnly, options: .directory)
    defer { open.close() }
    return try open.status(of: name)
  }

  @Test func aSecondNameFilenoteDidNotMakeKeepsEvenTheUsersOwnClosedFileOut() throws {
    let folder = TemporaryFolder()
    try Data("text".utf8).write(to: URL(fileURLWithPath: folder.file("version")))
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o600], ofItemAtPath: folder.file("version"))
    try FileManager.default.linkItem(
      atPath: folder.file("version"), toPath: folder.file("elsewhere"))
    let closed = try status("version", in: folder)
    #expect(closed.linkCount == 2)
    #expect(!VersionStore.mayUse(closed, knownNames: 1))
    #expect(VersionStore.mayUse(closed, knownNames: 2), "a second name filenote found is known")
  }

  @Test func anOpenFileOfTheUsersIsUsedWithOneNameAndNotWithAnUnknownSecond() throws {
    let folder = TemporaryFolder()
    try Data("text".utf8).write(to: URL(fileURLWithPath: folder.file("version")))
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o644], ofItemAtPath: folder.file("version"))
    #expect(VersionStore.mayUse(try status("version", in: folder), knownNames: 1))
    try FileManager.default.linkItem(
      atPath: folder.file("version"), toPath: folder.file("elsewhere"))
    let open = try status("version", in: folder)
    #expect(!VersionStore.mayUse(open, knownNames: 1))
    #expect(VersionStore.mayUse(open, knownNames: 2), "a second name filenote found is known")
  }

  @Test func anotherUsersFileIsNeverUsed() throws {
    let folder = TemporaryFolder()
    try Data("text".utf8).write(to: URL(fileURLWithPath: folder.file("version")))
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o600, .ownerAccountID: 65534], ofItemAtPath: folder.file("version"))
    #expect(!VersionStore.mayUse(try status("version", in: folder), knownNames: 1))
  }
}
