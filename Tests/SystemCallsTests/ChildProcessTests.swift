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

  @Test func aProgramThatDoesNotExistIsAnErrno() {
    #expect(throws: Errno.noSuchFileOrDirectory) {
      try ChildProcess.spawn("/nonexistent/program", arguments: ["program"])
    }
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
