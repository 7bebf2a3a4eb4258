import SystemCalls
import TestSupport
import Testing

@testable import FilenoteCore

/// Where a file system cannot store modes, files keep the mode it gives
/// them, and a versions folder filenote made is judged by what the file
/// system can do (doc/DESIGN.md, Other file systems).
@Suite struct ModeChangeTests {
  @Test func aRefusalOfAFileSystemWithoutModesIsNotAnError() {
    #expect(ModeChange.isRefusal(.noFunction))  // fusefat
    #expect(ModeChange.isRefusal(.notPermitted))  // bindfs --chmod-deny, vfat
    #expect(ModeChange.isRefusal(.notSupported))
    #expect(!ModeChange.isRefusal(.ioError))
    #expect(!ModeChange.isRefusal(.readOnlyFileSystem))
  }

  @Test func aChangeIsStoredOnlyWhenTheFileShowsTheModeAskedFor() {
    #expect(ModeChange.judged(asked: 0o600, now: 0o600, refused: false) == .stored)
    #expect(ModeChange.judged(asked: 0o600, now: 0o777, refused: false) == .ignored)
    #expect(ModeChange.judged(asked: 0o600, now: 0o600, refused: true) == .refused)
  }

  @Test func aFolderClosedToOthersIsAlwaysUsed() {
    for narrowing in [ModeChange.stored, .ignored, .refused] {
      #expect(ModeChange.versionsFolderMayBeUsed(folder: 0o700, note: 0o600, narrowing: narrowing))
    }
  }

  @Test func anOpenFolderIsRefusedWhereModesCanBeStored() {
    #expect(!ModeChange.versionsFolderMayBeUsed(folder: 0o755, note: 0o644, narrowing: .stored))
    #expect(!ModeChange.versionsFolderMayBeUsed(folder: 0o777, note: 0o777, narrowing: .stored))
  }

  @Test func anOpenFolderIsUsedWhereNoModeCanBeBetterAndItIsNoMoreOpenThanTheNote() {
    // exFAT and NTFS default mounts: every file and folder 0777.
    #expect(ModeChange.versionsFolderMayBeUsed(folder: 0o777, note: 0o777, narrowing: .ignored))
    // The kernel's exFAT with fmask=0133,dmask=022.
    #expect(ModeChange.versionsFolderMayBeUsed(folder: 0o755, note: 0o644, narrowing: .refused))
  }

  @Test func anOpenFolderMoreOpenThanTheNoteIsRefused() {
    #expect(!ModeChange.versionsFolderMayBeUsed(folder: 0o777, note: 0o600, narrowing: .ignored))
    #expect(!ModeChange.versionsFolderMayBeUsed(folder: 0o757, note: 0o755, narrowing: .refused))
  }

  @Test func aModeTheFileSystemStoresIsReportedStored() throws {
    let folder = TemporaryFolder()
    folder.write("file", "x")
    let file = try FileDescriptor.open(folder.file("file"), .readOnly)
    defer { file.close() }
    #expect(try ModeChange.change(file, to: 0o640) == .stored)
    #expect(try FileSystem.status(folder.file("file")).permissions == 0o640)
    try ModeChange.request(file, 0o600)
    #expect(try FileSystem.status(folder.file("file")).permissions == 0o600)
  }
}
