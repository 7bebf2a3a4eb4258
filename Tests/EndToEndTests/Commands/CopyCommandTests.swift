import Foundation
import Testing

/// `filenote copy` (the man page, COMMANDS). Every run here is in a session
/// of its own (`setsid`), on a pseudo-terminal the test reads or on none, so
/// that nothing ever reaches the terminal of whoever runs the tests.
@Suite("filenote copy")
struct CopyCommand {
  /// `filenote copy ARGUMENTS` on a new pseudo-terminal, its controlling
  /// terminal, to its end; what it wrote there.
  private func copyOnTerminal(
    _ home: TemporaryHome, _ arguments: [String] = [], environment extra: [String: String] = [:]
  ) throws -> (status: Int32?, terminal: [UInt8]) {
    let environment = home.environment.merging(["TERM": "xterm"]) { $1 }.merging(extra) { $1 }
    let copy = try StreamingProcess(
      try FilenoteProcess.binaryPath(), ["copy"] + arguments, environment: environment,
      directory: home.work, onTerminal: true)
    let status = try copy.waitForExit()
    return (status, copy.outputBytes)
  }

  /// `filenote copy ARGUMENTS` with no controlling terminal at all.
  private func copyWithoutTerminal(
    _ home: TemporaryHome, _ arguments: [String] = [], environment extra: [String: String] = [:]
  ) throws -> FilenoteProcess.Result {
    try home.runProgram(
      "setsid", [try FilenoteProcess.binaryPath(), "copy"] + arguments, environment: extra)
  }

  private func osc52(_ text: [UInt8]) -> [UInt8] {
    Array("\u{1B}]52;c;\(Data(text).base64EncodedString())\u{07}".utf8)
  }

  @Test("sends the note to the terminal as OSC 52 and says so")
  func toTheTerminal() throws {
    let home = try TemporaryHome()
    try home.writeNote("buy milk")
    let (status, terminal) = try copyOnTerminal(home)
    #expect(status == 0)
    #expect(terminal.starts(with: osc52(Array("buy milk".utf8))), "\(terminal)")
    let text = String(decoding: terminal, as: UTF8.self)
    #expect(text.contains("Copied the note to the clipboard through the terminal (OSC 52)."))
  }

  @Test("copies version N")
  func version() throws {
    let home = try TemporaryHome()
    try home.run("save", "older").expectSuccess()
    try home.run("save", "newer").expectSuccess()
    let (status, terminal) = try copyOnTerminal(home, ["1"])
    #expect(status == 0)
    #expect(terminal.starts(with: osc52(Array("older".utf8))))
    #expect(String(decoding: terminal, as: UTF8.self).contains("Copied version 1 to the clipboard"))
  }

  @Test("a note of escape sequences reaches the terminal only as base64")
  func hostileNote() throws {
    let home = try TemporaryHome()
    let note = Array("\u{1B}]0;title\u{07}\u{1B}[2J\u{1B}]52;c;bad\u{07}".utf8)
    try home.write(note, to: home.notePath)
    let (status, terminal) = try copyOnTerminal(home)
    #expect(status == 0)
    #expect(terminal.starts(with: osc52(note)))
    #expect(terminal.filter { $0 == 0x1B }.count == 1, "one ESC: the sequence's own")
  }

  @Test("inside tmux without tmux to run, the sequence is wrapped for tmux's passthrough")
  func wrappedForTmux() throws {
    let home = try TemporaryHome()
    try home.writeNote("hi")
    // A PATH without tmux: only the wrapped sequence can carry it.
    let folder = (try FilenoteProcess.binaryPath() as NSString).deletingLastPathComponent
    let (status, terminal) = try copyOnTerminal(
      home, environment: ["TMUX": "/tmp/tmux-0/default,1,0", "PATH": folder])
    #expect(status == 0)
    #expect(terminal.starts(with: Array("\u{1B}Ptmux;\u{1B}\u{1B}]52;c;aGk=\u{07}\u{1B}\\".utf8)))
  }

  @Test("inside a real tmux, tmux sets its buffer and sends the terminal OSC 52")
  func throughTmux() throws {
    let home = try TemporaryHome()
    try home.writeNote("from inside tmux")
    let socket = home.work + "/tmux.socket"
    try home.write(
      Array("set -g status off\nset -g default-shell /bin/sh\n".utf8), to: home.work + "/tmux.conf")
    // A tmux client on a pseudo-terminal the test reads, as the terminal
    // tmux runs in; in its pane, filenote copy, then a wait to be killed.
    let environment = try home.environmentWithFilenote(["TERM": "xterm-256color"])
    let client = try StreamingProcess(
      try TemporaryHome.locate("tmux"),
      [
        "-S", socket, "-f", home.work + "/tmux.conf", "new-session", "-x", "80", "-y", "24",
        "filenote copy > \(home.work)/copy.out 2>&1; exec sleep 60",
      ], environment: environment, directory: home.work, onTerminal: true)
    defer { _ = try? home.runProgram("tmux", ["-S", socket, "kill-server"]) }
    let payload = Data("from inside tmux".utf8).base64EncodedString()
    try client.read { String(decoding: $0, as: UTF8.self).contains("52;;\(payload)") }
    let buffer = try home.runProgram("tmux", ["-S", socket, "show-buffer"])
    #expect(buffer.stdoutText == "from inside tmux")
    // tmux may send the terminal the sequence before the `tmux` that
    // filenote ran has returned to it and filenote has said so.
    let said = "Copied the note to the clipboard through tmux.\n"
    let deadline = ContinuousClock.now + .seconds(20)
    var out = ""
    repeat {
      out = String(decoding: home.contents(of: home.work + "/copy.out") ?? [], as: UTF8.self)
      if out == said { break }
      try Task.checkCancellation()
      usleep(20_000)
    } while ContinuousClock.now < deadline
    #expect(out == said)
  }

  @Test("with xclip under Xvfb: --desktop puts the note on the X clipboard")
  func xclip() throws {
    guard let xvfb = try? TemporaryHome.locate("Xvfb"), (try? TemporaryHome.locate("xclip")) != nil
    else { try Test.cancel("Xvfb and xclip are needed (scripts/test-tools installs them)") }
    let home = try TemporaryHome()
    try home.writeNote("on the X clipboard")
    // A display number of our own: -displayfd tells which one Xvfb took;
    // -noreset, so that a client connecting as another leaves does not fail
    // (StatusBarTests says how often it did).
    let server = try StreamingProcess(
      xvfb, ["-displayfd", "1", "-nolisten", "tcp", "-noreset", "-screen", "0", "320x240x24"],
      environment: home.environment, directory: home.work)
    let number = try server.lines(atLeast: 1)[0]
    defer { kill(server.processIdentifier, SIGTERM) }
    let display = ":" + number
    let copy = try copyWithoutTerminal(home, ["--desktop"], environment: ["DISPLAY": display])
    copy.expectSuccess()
    #expect(copy.stdoutText == "Copied the note to the clipboard with xclip.\n")
    // xclip serves the selection from a child it forks after reading the
    // text, so it may own the selection a moment after `copy` returns.
    let deadline = ContinuousClock.now + .seconds(20)
    var clipboard = ""
    repeat {
      clipboard = try home.runProgram(
        "xclip", ["-o", "-selection", "clipboard"], environment: ["DISPLAY": display]
      ).stdoutText
      if clipboard == "on the X clipboard" { break }
      try Task.checkCancellation()
      usleep(50_000)
    } while ContinuousClock.now < deadline
    #expect(clipboard == "on the X clipboard")
  }

  @Test("with no terminal and no display, nothing is copied and the message says why")
  func nowhere() throws {
    let home = try TemporaryHome()
    try home.writeNote("note")
    try copyWithoutTerminal(home).expectError(
      status: 1, mentioning: ["no terminal (/dev/tty)", "neither WAYLAND_DISPLAY nor DISPLAY"])
    try copyWithoutTerminal(home, ["--desktop"]).expectError(
      status: 1, mentioning: ["--desktop", "neither WAYLAND_DISPLAY nor DISPLAY"])
  }

  @Test("with a display but no clipboard tool installed, the message names them")
  func noTool() throws {
    let home = try TemporaryHome()
    try home.writeNote("note")
    let folder = (try FilenoteProcess.binaryPath() as NSString).deletingLastPathComponent
    try copyWithoutTerminal(home, ["--desktop"], environment: ["DISPLAY": ":99", "PATH": folder])
      .expectError(status: 1, mentioning: ["xclip or xsel are not installed"])
    try copyWithoutTerminal(
      home, ["--desktop"], environment: ["WAYLAND_DISPLAY": "wayland-9", "PATH": folder]
    ).expectError(status: 1, mentioning: ["wl-copy is not installed"])
  }

  @Test("a terminal that cannot take it is not sent it", arguments: ["dumb", "VTE", "too large"])
  func terminalThatCannot(reason: String) throws {
    let home = try TemporaryHome()
    var extra: [String: String] = [:]
    var text = "note"
    switch reason {
    case "dumb": extra["TERM"] = "dumb"
    case "VTE": extra["VTE_VERSION"] = "7006"
    default: text = String(repeating: "x", count: 75_001)
    }
    try home.writeNote(text)
    let (status, terminal) = try copyOnTerminal(home, environment: extra)
    #expect(status.map { $0 >> 8 } == 1)
    let shown = String(decoding: terminal, as: UTF8.self)
    #expect(!terminal.contains(0x1B), "no sequence: \(shown)")
    #expect(shown.hasPrefix("filenote: cannot copy to the clipboard: "), "\(shown)")
    if reason == "too large" { #expect(shown.contains("75000")) }
    if reason == "VTE" { #expect(shown.contains("VTE")) }
  }

  @Test("with no note, it is an error and copies nothing")
  func noNote() throws {
    let home = try TemporaryHome()
    try copyWithoutTerminal(home).expectError(status: 1, mentioning: [home.notePath])
    try copyWithoutTerminal(home, ["x"]).expectError(status: 2)
  }
}
