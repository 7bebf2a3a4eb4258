import SystemCalls
import Testing

@Suite struct ChildProcessTests {
  @Test func aChildsOutputAndExitStatusComeBack() throws {
    let run = try ChildProcess.output(of: "/bin/sh", arguments: ["sh", "-c", "echo hi; exit 3"])
    #expect(run.output == Array("hi\n".utf8))
    #expect(run.termination == .exited(3))
  }

  @Test func aChildKilledByASignalIsToldApartFromAnExit() throws {
    let run = try ChildProcess.output(of: "/bin/sh", arguments: ["sh", "-c", "kill -TERM $$"])
    #expect(run.termination == .killed(by: .terminate))
  }

  @Test func theChildGetsDefaultSignalActionsEvenWhereThisProcessIgnoresThem() throws {
    Signal.brokenPipe.ignore()
    defer { Signal.brokenPipe.resetToDefaultAction() }
    // A shell started with SIGPIPE ignored shows it in `trap` (POSIX: it cannot undo that).
    let run = try ChildProcess.output(of: "/bin/sh", arguments: ["sh", "-c", "trap"])
    #expect(!String(decoding: run.output, as: UTF8.self).contains("PIPE"))
  }

  @Test func endedYetIsNilWhileTheChildRunsAndItsEndOnceItHasEnded() throws {
    let pipe = try FileDescriptor.pipe()
    defer { pipe.writeEnd.close() }
    // The child waits for the pipe to close, so it runs until the test says.
    let child = try ChildProcess.spawn(
      "/bin/sh", arguments: ["sh", "-c", "read line; exit 4"],
      standardInput: .descriptor(pipe.readEnd))
    pipe.readEnd.close()
    #expect(try child.endedYet() == nil)
    pipe.writeEnd.close()
    #expect(try child.wait() == .exited(4))
  }

  @Test func endedYetReportsAnEndedChildWithoutWaiting() throws {
    let child = try ChildProcess.spawn("/bin/sh", arguments: ["sh", "-c", "exit 5"])
    let deadline = CurrentProcess.monotonicMilliseconds + 10_000
    var termination: ChildProcess.Termination?
    while termination == nil && CurrentProcess.monotonicMilliseconds < deadline {
      termination = try child.endedYet()
      if termination == nil {
        _ = try Poll.wait(for: [], deadline: CurrentProcess.monotonicMilliseconds + 10)
      }
    }
    #expect(termination == .exited(5))
  }

  @Test func aProgramThatDoesNotExistIsAnErrno() {
    #expect(throws: Errno.noSuchFileOrDirectory) {
      try ChildProcess.spawn("/nonexistent/program", arguments: ["program"])
    }
  }
}

@Suite struct FileSystemTests {
  @Test func aTemporaryFolderIsNewAndOnlyItsOwnerMayEnterIt() throws {
    let first = try FileSystem.makeTemporaryFolder(prefix: "/tmp/filenote-test-")
    let second = try FileSystem.makeTemporaryFolder(prefix: "/tmp/filenote-test-")
    defer {
      try? FileSystem.removeFolder(first)
      try? FileSystem.removeFolder(second)
    }
    #expect(first != second)
    #expect(
      first.hasPrefix("/tmp/filenote-test-") && first.count == "/tmp/filenote-test-".count + 6)
    let status = try FileSystem.status(first)
    #expect(status.kind == .directory)
    #expect(status.permissions == 0o700)
    try FileSystem.removeFolder(first)
    #expect(throws: Errno.noSuchFileOrDirectory) { try FileSystem.status(first) }
  }
}

@Suite struct ErrnoTests {
  @Test func anErrnoSaysWhatTheCLibrarySays() {
    #expect(Errno.badFileDescriptor.description == "Bad file descriptor")
    #expect(Errno.noSuchFileOrDirectory.description == "No such file or directory")
  }

  @Test func aFailedCallIsItsErrno() {
    #expect(throws: Errno.noSuchFileOrDirectory) {
      try FileSystem.status("/nonexistent/file")
    }
    #expect(throws: Errno.badFileDescriptor) {
      try FileDescriptor(rawValue: -1).sync()
    }
  }
}
