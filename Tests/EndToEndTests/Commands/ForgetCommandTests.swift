import Foundation
import Testing

/// A secret saved by mistake: `forget N` removes one version for good, and
/// `save --no-version` keeps nothing of the note it replaces.
@Suite("filenote forget N, save --no-version")
struct ForgetCommand {
  @Test("after a secret, another save and a clear, forget removes the secret alone")
  func forgetTheSecret() throws {
    let home = try TemporaryHome.saving("buy milk", "wifi: hunter2", "call mom")
    try home.run("clear").expectSuccess()
    #expect(try home.run("show", "2").stdoutText == "wifi: hunter2\n")
    let forget = try home.run("forget", "2")
    forget.expectSuccess()
    #expect(forget.stdoutText == "Forgot version 2.\n")
    #expect(try home.run("show", "1").stdoutText == "call mom\n")
    #expect(try home.run("show", "2").stdoutText == "buy milk\n")
    let folder = home.documents + "/.datafile.dat.versions"
    for name in home.entries(in: folder) {
      #expect(home.contents(of: folder + "/" + name) != Array("wifi: hunter2".utf8))
    }
    try home.run("undo").expectSuccess()
    #expect(home.note == "call mom")
  }

  @Test("a number not kept, 0 or a word is refused and removes nothing; no home is created")
  func badNumbers() throws {
    let home = try TemporaryHome.saving("a", "b")
    try home.run("forget", "2").expectError(status: 1, mentioning: ["no version 2"])
    try home.run("forget", "0").expectError(status: 1, mentioning: ["0 is the note itself"])
    try home.run("forget", "x").expectError(status: 2, mentioning: ["'x'"])
    try home.run("forget").expectError(status: 2)
    try home.run("forget", "1", "2").expectError(status: 2)
    #expect(try home.run("show", "1").stdoutText == "a\n")
    let fresh = try TemporaryHome()
    try fresh.run("forget", "1").expectError(status: 1)
    #expect(fresh.entries(in: fresh.home) == [])
  }

  @Test("on a terminal forget shows the version's line and asks; no keeps it (exit 1), yes forgets")
  func asksOnATerminal() throws {
    let home = try TemporaryHome.saving("wifi: hunter2", "b")
    // 0 and numbers not kept are refused before any question.
    for (number, message) in [
      ("0", "0 is the note itself, not a kept version"), ("2", "no version 2"),
    ] {
      let session = try TmuxSession(
        executable: try FilenoteProcess.binaryPath(), arguments: ["forget", number],
        environment: ["HOME": home.home], columns: 200, rows: 10)
      #expect(try session.waitForExit() == .exited(1))
      let screen = try session.screen()
      #expect(screen.contains(message) && screen.contains("1 version is kept"), "\(screen)")
    }
    for (answer, status) in [("n", Int32(1)), ("yes", 0)] {
      let session = try TmuxSession(
        executable: try FilenoteProcess.binaryPath(), arguments: ["forget", "1"],
        environment: ["HOME": home.home], columns: 80, rows: 10)
      try session.waitUntil { $0.contains("Forget version 1 for good? [y/N]") }
      #expect(try session.screen().contains("1  ") && session.screen().contains("wifi: hunter2"))
      #expect(
        try home.run("show", "1").stdoutText == "wifi: hunter2\n", "nothing before the answer")
      try session.send(text: answer)
      try session.send(keys: "Enter")
      #expect(try session.waitForExit() == .exited(status))
    }
    try home.run("show", "1").expectError(status: 1, mentioning: ["no version 1"])
  }

  @Test("--yes and -y forget without asking, on a terminal too")
  func yesDoesNotAsk() throws {
    let home = try TemporaryHome.saving("a", "b", "c")
    let session = try TmuxSession(
      executable: try FilenoteProcess.binaryPath(), arguments: ["forget", "--yes", "1"],
      environment: ["HOME": home.home], columns: 80, rows: 10)
    #expect(try session.waitForExit() == .exited(0))
    try home.run("forget", "-y", "1").expectSuccess()
    try home.run("show", "1").expectError(status: 1)
    try home.run("show", "--yes").expectError(status: 2, mentioning: ["--yes"])
  }

  @Test("save --no-version keeps nothing of the note it replaces, and the other versions stay")
  func saveWithoutVersion() throws {
    let home = try TemporaryHome.saving("buy milk", "wifi: hunter2")
    try home.run("save", "--no-version", "call mom").expectSuccess()
    #expect(home.note == "call mom")
    let history = try home.run("history").stdoutText
    #expect(!history.contains("hunter2"), "\(history)")
    #expect(try home.run("show", "1").stdoutText == "buy milk\n")
    try home.run("save", "--no-version", input: .bytes(Array("from a pipe\n".utf8)))
      .expectSuccess()
    #expect(home.note == "from a pipe")
    #expect(!(try home.run("history").stdoutText.contains("call mom")))
    try home.run("show", "--no-version").expectError(status: 2, mentioning: ["--no-version"])
  }
}
