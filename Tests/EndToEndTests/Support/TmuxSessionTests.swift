import Foundation
import Testing

@Suite struct TmuxSessionTests {
  @Suite struct Screen {
    @Test func typedTextAppearsOnTheScreen() throws {
      let session = try TmuxSession(command: "cat")

      try session.send(text: "héllo wörld 日本 🙂")

      try session.waitUntil { $0.contains("héllo wörld 日本 🙂") }
    }

    @Test func keyNamesArePressedAsKeys() throws {
      let session = try TmuxSession(command: "cat")
      try session.send(text: "abc")

      try session.send(keys: "Enter")

      // Once echoed by the terminal, once printed back by cat.
      try session.waitUntil { $0.components(separatedBy: "abc").count - 1 == 2 }
    }

    @Test func textIsTypedLiterallyEvenWhenItNamesAKey() throws {
      let session = try TmuxSession(command: "cat")

      try session.send(text: "C-c")

      try session.waitUntil { $0.contains("C-c") }
      #expect(try session.exitStatus() == nil)
    }

    @Test func theCursorIsWhereTheTextEnds() throws {
      let session = try TmuxSession(command: "cat")

      try session.send(text: "abcd")

      try session.waitUntil { $0.contains("abcd") }
      #expect(try session.cursor() == (column: 4, row: 0))
    }

    @Test func waitingInVainFailsShowingTheScreen() throws {
      let session = try TmuxSession(command: "printf 'ready'; cat")
      try session.waitUntil { $0.contains("ready") }

      let failure = #expect(throws: TmuxSession.Failure.self) {
        try session.waitUntil(timeout: .milliseconds(100)) { $0.contains("never shown") }
      }

      #expect(failure?.description.contains("it shows:\nready") == true)
    }
  }

  @Suite struct Size {
    @Test func theWindowHasTheSizeAskedFor() throws {
      let session = try TmuxSession(command: "stty size; cat", columns: 40, rows: 12)

      try session.waitUntil { $0.contains("12 40") }
    }

    @Test func resizingTellsTheCommandTheNewSize() throws {
      // The shell runs its trap after each short sleep, so the new size shows
      // up soon after SIGWINCH.
      let session = try TmuxSession(
        command: "trap 'stty size' WINCH; echo started; while :; do sleep 0.05; done",
        columns: 40, rows: 12)
      try session.waitUntil { $0.contains("started") }

      try session.resize(columns: 50, rows: 15)

      try session.waitUntil { $0.contains("15 50") }
    }
  }

  @Suite struct Exit {
    @Test func aRunningCommandHasNoExitStatus() throws {
      let session = try TmuxSession(command: "cat")

      #expect(try session.exitStatus() == nil)
    }

    @Test func theExitStatusIsTheCommands() throws {
      let session = try TmuxSession(command: "echo bye; exit 3")

      #expect(try session.waitForExit() == .exited(3))
      // On a busy machine tmux may mark the pane dead before it has drawn
      // the last output it read: wait for it rather than look once.
      try session.waitUntil { $0.contains("bye") }
    }

    @Test func endOfInputEndsCatWithStatusZero() throws {
      let session = try TmuxSession(command: "cat")

      try session.send(keys: "C-d")

      #expect(try session.waitForExit() == .exited(0))
    }

    @Test func aCommandKilledByASignalIsReportedSo() throws {
      let session = try TmuxSession(command: "echo started; exec sleep 30")
      try session.waitUntil { $0.contains("started") }

      #expect(Glibc.kill(try session.processID(), SIGTERM) == 0)

      #expect(try session.waitForExit() == .killed(by: SIGTERM))
    }

    @Test func anExecutableIsThePanesOwnProcess() throws {
      let session = try TmuxSession(
        executable: "/bin/sh", arguments: ["-c", "echo 'it runs'; cat"])
      try session.waitUntil { $0.contains("it runs") }
      let pid = try session.processID()

      // The program's own arguments, not a shell's around it.
      let commandLine = try String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)
      #expect(commandLine == "/bin/sh\0-c\0echo 'it runs'; cat\0")
      #expect(Glibc.kill(pid, SIGTERM) == 0)
      #expect(try session.waitForExit() == .killed(by: SIGTERM))
    }
  }

  @Suite struct Environment {
    @Test func theCommandGetsExactlyTheEnvironmentGiven() throws {
      let session = try TmuxSession(
        // Kept alive after printing: once seen under load, the output of a
        // command that exits at once never reached the screen.
        command: "env; echo END; exec sleep 60", environment: ["NOTE": "it's here", "TERM": nil])

      let screen = try session.waitUntil { $0.contains("END") }

      #expect(screen.contains("NOTE=it's here"))
      #expect(screen.contains("LANG=C.UTF-8"))
      #expect(!screen.contains("TERM="))
      #expect(!screen.contains("HOME="))
      #expect(!screen.contains("TMUX"))
    }

    @Test func theCommandStartsWithNoSignalBlockedOrIgnored() throws {
      // grep, not awk: gawk ignores SIGPIPE in its own process, so it would
      // report a disposition the pane never gave it.
      let session = try TmuxSession(
        command: #"grep -E '^Sig(Blk|Ign)' /proc/self/status | tr -d '\t'"#)

      #expect(try session.waitForExit() == .exited(0))
      // Signals 1 to 31: the C library keeps the real-time ones it uses.
      // (Waited for: tmux may mark the pane dead before drawing its output.)
      let screen = try session.waitUntil { $0.contains("SigIgn") }
      #expect(mask(named: "SigBlk", in: screen).map { $0 & 0x7FFF_FFFF } == 0)
      #expect(mask(named: "SigIgn", in: screen).map { $0 & 0x7FFF_FFFF } == 0)
    }

    @Test func theCommandStartsInTheWorkingDirectoryGiven() throws {
      let session = try TmuxSession(command: "pwd", workingDirectory: "/usr/bin")

      #expect(try session.waitForExit() == .exited(0))
      try session.waitUntil { $0.hasPrefix("/usr/bin\n") }
    }
  }

  @Suite struct Lifetime {
    @Test func killingTheSessionEndsItsServer() throws {
      let session = try TmuxSession(command: "cat")
      let pid = try session.processID()

      session.kill()

      #expect(throws: TmuxSession.Failure.self) { try session.screen() }
      #expect(try waitUntilGone(pid))
    }

    @Test func aMissingTmuxIsReportedAsSuch() {
      let failure = #expect(throws: TmuxSession.Failure.self) {
        try TmuxSession.locateTmux(searchPath: ["/nonexistent"])
      }

      #expect(failure?.description.hasPrefix("tmux is not installed") == true)
    }
  }
}

/// The hexadecimal signal mask printed as `<name>:<hex>` on `screen`.
private func mask(named name: String, in screen: String) -> UInt64? {
  screen.split(separator: "\n").first { $0.hasPrefix(name + ":") }
    .flatMap { UInt64($0.dropFirst(name.count + 1), radix: 16) }
}

/// Whether process `pid` is gone within a few seconds (its parent, the tmux
/// server, reaps it as it exits).
private func waitUntilGone(_ pid: pid_t) throws -> Bool {
  let deadline = ContinuousClock.now + .seconds(10)
  while ContinuousClock.now < deadline {
    if kill(pid, 0) == -1 && errno == ESRCH { return true }
    usleep(20_000)
  }
  return false
}
