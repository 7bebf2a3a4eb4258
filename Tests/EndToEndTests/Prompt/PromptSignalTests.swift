import Foundation
import Testing

extension PromptTests {
  /// Restoration of the terminal after each way the prompt ends (keys,
  /// signals, a failed save) is checked by reliability/terminal.py, on a
  /// terminal whose settings are not the defaults; here is what needs a shell
  /// with job control or a terminal that goes away.
  @Suite("Ctrl-Z, fg and bg; a closed terminal; a signal during the question")
  struct Signals {
    @Test("closing the terminal ends filenote and saves nothing")
    func terminalClosed() throws {
      let home = try TemporaryHome()
      let (session, before) = try home.openPrompt(onBackdated: "note")
      try session.send(text: " edited")
      try session.waitForEditLine("> note edited|")
      let pid = try session.processID()

      // As closing a terminal window does: the terminal goes away, SIGHUP.
      session.kill()

      #expect(try Self.waitUntilEnded(pid), "filenote still runs after its terminal closed")
      #expect(FileState(of: home.notePath) == before)
      #expect(home.entriesBesideVersions(in: home.documents) == ["datafile.dat"])
    }

    /// Whether process `pid` ends (is gone or a zombie) within 10 seconds.
    private static func waitUntilEnded(_ pid: pid_t) throws -> Bool {
      let deadline = ContinuousClock.now + .seconds(10)
      while ContinuousClock.now < deadline {
        if kill(pid, 0) == -1 && errno == ESRCH { return true }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        if let endOfName = stat.lastIndex(of: ")"),
          stat[stat.index(after: endOfName)...].split(separator: " ").first == "Z"
        {
          return true
        }
        usleep(20_000)
      }
      return false
    }

    @Test("SIGTERM while the conflict question waits leaves the terminal as it was")
    func signalDuringQuestion() throws {
      let home = try TemporaryHome()
      try home.writeNote("mine")
      let run = try ShellRun(home: home)
      try run.session.waitForEditLine("> mine|")
      try run.session.send(text: "!")
      try run.session.waitForEditLine("> mine!|")
      try home.run("save", "theirs").expectSuccess()
      try run.session.send(keys: "Enter")
      try run.session.waitFor("the question") {
        $0.text.contains("Overwrite it (kept as version 1)? [y/N]")
      }

      #expect(kill(try run.filenoteProcessID(), SIGTERM) == 0)

      #expect(try run.waitForStatus() == 128 + SIGTERM)
      try run.expectTerminalRestored()
      #expect(home.note == "theirs")
    }

    @Test("Ctrl-Z gives the shell a restored terminal; fg redraws the line; Enter saves")
    func suspendAndResume() throws {
      let home = try TemporaryHome()
      try home.writeNote("note")
      let binary = PromptTests.shellQuoted(try FilenoteProcess.binaryPath())
      // An interactive /bin/sh for job control; not bash, which sets its own
      // terminal settings back when a job stops and would hide a bad restore.
      let shell = try TmuxSession(
        command: "exec /bin/sh -i", environment: home.terminalEnvironment(["PS1": "READY$ "]),
        workingDirectory: home.work)
      try shell.waitFor("the shell prompt") { $0.lines.first == "READY$" }
      try shell.send(text: "stty -g > stty-before; \(binary)")
      try shell.send(keys: "Enter")
      try shell.waitForEditLine("> note|")

      try shell.send(keys: "C-z")

      // The shell's prompt, below the job's "Stopped", in the terminal as it was.
      let stopped = try shell.waitFor("the shell prompt after Ctrl-Z") {
        $0.nonBlankLines.last == "READY$" && $0.text.contains("Stopped")
      }
      #expect(stopped.cursor.row == stopped.lines.lastIndex(of: "READY$"))
      // $((1+1)) is printed as 2: the output, not the typed command, shows.
      try shell.send(text: "stty -g > stty-stopped; echo checked-$((1+1))")
      try shell.send(keys: "Enter")
      try shell.waitFor("stty -g to run") { $0.lines.contains("checked-2") }
      let before = try String(contentsOfFile: home.work + "/stty-before", encoding: .utf8)
      let whileStopped = try String(contentsOfFile: home.work + "/stty-stopped", encoding: .utf8)
      #expect(whileStopped == before, "stty -g before filenote and while it is stopped")
      try shell.paste("pasted-to-the-shell")
      let pasted = try shell.waitFor("the paste") { $0.text.contains("pasted-to-the-shell") }
      #expect(!pasted.text.contains("[200~"), "bracketed paste is off while stopped: \(pasted)")
      try shell.send(keys: "C-u")

      try shell.send(text: "fg")
      try shell.send(keys: "Enter")

      let resumed = try shell.waitFor("the line drawn again below fg") { screen in
        guard let fgRow = screen.lines.lastIndex(of: "READY$ fg"), let row = screen.editRow
        else { return false }
        return row > fgRow && screen.lines[row - 1] == PromptTests.hint
          && screen.editLineWithCursor == "> note|"
      }
      #expect(try shell.exitStatus() == nil, "\(resumed)")
      try shell.send(text: "!")
      try shell.waitForEditLine("> note!|")
      try shell.send(keys: "Enter")
      try shell.waitFor("Saved. and the shell prompt") {
        $0.nonBlankLines.suffix(2) == ["Saved.", "READY$"]
      }
      #expect(home.note == "note!")
      try shell.send(text: "stty -g > stty-after; echo checked-$((1+2))")
      try shell.send(keys: "Enter")
      try shell.waitFor("stty -g to run") { $0.lines.contains("checked-3") }
      let after = try String(contentsOfFile: home.work + "/stty-after", encoding: .utf8)
      #expect(after == before, "stty -g before filenote and after it saved")
    }

    /// An interactive `/bin/sh` (for job control) in `home`, its prompt `READY$`.
    private func jobControlShell(home: TemporaryHome) throws -> TmuxSession {
      let shell = try TmuxSession(
        command: "exec /bin/sh -i", environment: home.terminalEnvironment(["PS1": "READY$ "]),
        columns: 120, workingDirectory: home.work)
      try shell.waitFor("the shell prompt") { $0.lines.first == "READY$" }
      return shell
    }

    /// Asks the shell for its jobs until it says the one job is stopped
    /// for writing to the terminal (SIGTTOU).
    private func waitUntilStoppedInTheBackground(_ shell: TmuxSession) throws {
      let deadline = ContinuousClock.now + .seconds(10)
      while true {
        try shell.send(text: "clear; jobs")
        try shell.send(keys: "Enter")
        let jobs = try shell.waitFor("the jobs") { screen in
          screen.nonBlankLines.count == 2 && screen.nonBlankLines.last == "READY$"
        }
        if jobs.nonBlankLines[0].contains("Stopped (tty output)") { return }
        guard ContinuousClock.now < deadline else {
          throw TmuxSession.Failure(description: "filenote did not stop in the background: \(jobs)")
        }
        usleep(20_000)
      }
    }

    /// Checks that the screen shows the hint once and the line once, just
    /// below it: nothing drawn twice.
    private func expectDrawnOnce(
      _ screen: PromptTests.Screen, line: String,
      sourceLocation: SourceLocation = #_sourceLocation
    ) {
      let hints = screen.lines.indices.filter { screen.lines[$0] == PromptTests.hint }
      let lines = screen.lines.indices.filter { screen.lines[$0] == line }
      #expect(hints.count == 1 && lines.count == 1, "\(screen)", sourceLocation: sourceLocation)
      #expect(
        hints.map { $0 + 1 } == lines, "the line is below the hint: \(screen)",
        sourceLocation: sourceLocation)
    }

    @Test("started in the background (filenote &), then fg: the hint and the line are drawn once")
    func startedInTheBackground() throws {
      let home = try TemporaryHome()
      try home.writeNote("note")
      let binary = PromptTests.shellQuoted(try FilenoteProcess.binaryPath())
      let shell = try jobControlShell(home: home)
      try shell.send(text: "\(binary) &")
      try shell.send(keys: "Enter")
      // Its first change to the terminal stops it (SIGTTOU) until fg.
      try waitUntilStoppedInTheBackground(shell)

      try shell.send(text: "fg")
      try shell.send(keys: "Enter")

      try shell.waitForEditLine("> note|")
      // Every key and signal before the marker has been handled by then.
      try shell.roundTrip()
      expectDrawnOnce(try shell.look(), line: "> note")
      try shell.send(keys: "Enter")
      try shell.waitFor("the shell prompt") { $0.nonBlankLines.last == "READY$" }
    }

    @Test("SIGCONT to a prompt that was never stopped adds no copy of the hint or the line")
    func continueWithoutStop() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "note")
      let pid = try session.processID()

      for _ in 0..<3 { #expect(kill(pid, SIGCONT) == 0) }

      try session.roundTrip()
      let screen = try session.look()
      expectDrawnOnce(screen, line: "> note")
      #expect(screen.editRow == 1, "still on the second row: \(screen)")
      try home.expectEnterSaves("note", in: session)
    }

    @Test("SIGTSTP from outside while the question is asked, then fg: the question is drawn again")
    func stoppedDuringTheQuestion() throws {
      let home = try TemporaryHome()
      try home.writeNote("mine")
      let binary = PromptTests.shellQuoted(try FilenoteProcess.binaryPath())
      let shell = try jobControlShell(home: home)
      // The job writes its process id and becomes filenote.
      try shell.send(text: "sh -c 'echo $$ > filenote.pid; exec \"$0\"' \(binary)")
      try shell.send(keys: "Enter")
      try shell.waitForEditLine("> mine|")
      try shell.send(text: " edited")
      try shell.waitForEditLine("> mine edited|")
      try home.run("save", "theirs").expectSuccess()
      try shell.send(keys: "Enter")
      let question = PromptTests.Conflict.question
      try shell.waitFor("the question") { $0.nonBlankLines.last == question }
      let pidText = try String(contentsOfFile: home.work + "/filenote.pid", encoding: .utf8)
      let pid = try #require(pid_t(pidText.trimmingCharacters(in: .whitespacesAndNewlines)))

      #expect(kill(pid, SIGTSTP) == 0)
      try shell.waitFor("the shell prompt after the stop") {
        $0.nonBlankLines.last == "READY$" && $0.text.contains("Stopped")
      }
      try shell.send(text: "fg")
      try shell.send(keys: "Enter")

      let resumed = try shell.waitFor("the question drawn again below fg") { screen in
        guard let fgRow = screen.lines.lastIndex(of: "READY$ fg"),
          let questionRow = screen.lines.lastIndex(of: question)
        else { return false }
        return questionRow > fgRow && screen.cursor.row == questionRow
      }
      #expect(home.note == "theirs", "\(resumed)")
      try shell.send(text: "y")
      try shell.waitFor("Saved.") { $0.nonBlankLines.suffix(2) == ["Saved.", "READY$"] }
      #expect(home.note == "mine edited")
    }

    @Test(
      "Ctrl-Z, bg (filenote stops again, on its terminal change), then fg: the line is drawn once")
    func backgroundThenForeground() throws {
      let home = try TemporaryHome()
      try home.writeNote("note")
      let binary = PromptTests.shellQuoted(try FilenoteProcess.binaryPath())
      let shell = try jobControlShell(home: home)
      try shell.send(text: binary)
      try shell.send(keys: "Enter")
      try shell.waitForEditLine("> note|")
      try shell.send(keys: "C-z")
      try shell.waitFor("the shell prompt after Ctrl-Z") { $0.nonBlankLines.last == "READY$" }

      try shell.send(text: "bg")
      try shell.send(keys: "Enter")
      // In the background, filenote's first change to the terminal stops it
      // (SIGTTOU) until fg.
      try waitUntilStoppedInTheBackground(shell)
      try shell.send(text: "fg")
      try shell.send(keys: "Enter")

      let resumed = try shell.waitFor("the line drawn below fg") {
        $0.editLineWithCursor == "> note|"
      }
      let fgRow = try #require(resumed.lines.firstIndex(of: "READY$ fg"), "\(resumed)")
      let drawn = resumed.lines[(fgRow + 1)...].filter { !$0.isEmpty }
      // fg's own line (the job's command), the hint, the line: nothing twice.
      #expect(drawn.dropFirst().elementsEqual([PromptTests.hint, "> note"]), "\(resumed)")
      try shell.send(text: "!")
      try shell.waitForEditLine("> note!|")
      try shell.send(keys: "Enter")
      try shell.waitFor("Saved.") { $0.nonBlankLines.suffix(2) == ["Saved.", "READY$"] }
      #expect(home.note == "note!")
    }
  }
}
