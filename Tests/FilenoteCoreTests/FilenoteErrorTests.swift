import SystemCalls
import Testing

@testable import FilenoteCore
@testable import TerminalSession

/// Errors are one line, `filenote: <what failed>: <why>`, with the path where
/// a path is involved (README, Errors and exit codes).
@Suite struct FilenoteErrorTests {
  @Test func aSystemFailureSaysWhatWasDoneToWhatAndWhy() {
    let error = FilenoteError.system(
      .createTemporaryFile, .file("/notes"), errno: .readOnlyFileSystem)
    #expect(
      error.message == "cannot save note: cannot create a file in /notes: Read-only file system")
    #expect(
      FilenoteError.system(.write, .standardOutput, errno: .ioError).message
        == "cannot write standard output: Input/output error")
    #expect(
      FilenoteError.system(.read, .terminal, errno: .ioError).message
        == "cannot read the terminal: Input/output error")
  }

  @Test func aDiskFullOfVersionsSaysHowMuchTheyHoldAndHowToFreeIt() {
    let message = FilenoteError.noSpaceWithVersions(
      path: "/stick/note.txt", folder: "/stick/.note.txt.versions", count: 4, size: 800_000
    ).message
    #expect(message.hasPrefix("cannot save /stick/note.txt: No space left on device; "))
    #expect(message.contains("its 4 versions in /stick/.note.txt.versions hold 782 KiB"))
    #expect(message.contains("forget N") && message.contains("clear --all"))
    #expect(!message.contains("FILENOTE_VERSIONS=0"), "a setting for one save removes nothing")
    #expect(
      FilenoteError.noSpaceWithVersions(path: "/n", folder: "/v", count: 1, size: 30 << 20)
        .message.contains("its version in /v hold 30 MiB"))
  }

  @Test func aTerminalFailureSaysWhatFailedAndCarriesItsErrnoToTheMessage() {
    let error = FilenoteError.terminal(.cannotRead(errno: .badFileDescriptor))
    #expect(error.message == "cannot read the terminal: Bad file descriptor")
    #expect(
      FilenoteError.terminal(.cannotChangeSettings(errno: .ioError)).message
        == "cannot change the terminal settings: Input/output error")
    #expect(error.exitCode == .failure)
  }
}
