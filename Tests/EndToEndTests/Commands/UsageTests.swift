import Testing

@Suite("usage, help and exit codes")
struct Usage {
  @Test(
    "an unknown command exits 2 with a one-line hint and changes nothing",
    arguments: [["frobnicate"], ["sav", "x"], ["SHOW"]])
  func unknownCommand(arguments: [String]) throws {
    let home = try TemporaryHome()
    try home.filenote(arguments).run()
      .expectError(status: 2, mentioning: ["unknown command '\(arguments[0])'"])
    #expect(home.entries(in: home.home) == [])
  }

  @Test(
    "a near miss or another tool's word gets 'did you mean', exit 2, nothing saved",
    arguments: [
      (["sav", "hi"], "'save'"), (["--fil", "x"], "'--file'"), (["list"], "'history'"),
      (["cat"], "'show'"), (["rm"], "'clear'"), (["add", "milk"], "'save'"), (["ls"], "'history'"),
      (["show", "--hlep"], "'--help'"), (["help", "histroy"], "'history'"), (["-v"], "'--version'"),
      (["-V"], "'--version'"),
    ])
  func didYouMean(arguments: [String], meant: String) throws {
    let home = try TemporaryHome()
    try home.filenote(arguments).run()
      .expectError(status: 2, mentioning: ["did you mean \(meant)?"])
    #expect(home.entries(in: home.home) == [])
  }

  @Test(
    "words that read as a note get the line that saves them, quoted for a shell, which does",
    arguments: [
      ["buy", "milk"], ["remember to call mom"], ["it's", "$5", "~", "#1", "a*", "!x"],
      ["--", "-x", "y"], ["--file", "my notes", "call", "the", "bank"],
    ])
  func wordsThatReadAsANote(arguments: [String]) throws {
    let home = try TemporaryHome()
    let result = try home.filenote(arguments).run()
    result.expectError(status: 2, mentioning: ["to save it: filenote save "])
    #expect(home.entries(in: home.home) == [])
    let line = try #require(result.stderrText.components(separatedBy: "to save it: ").last)
    try home.shell(String(line.dropLast())).expectSuccess()
    let file = arguments.first == "--file" ? home.work + "/" + arguments[1] : home.notePath
    let words = arguments.first == "--file" ? Array(arguments.dropFirst(2)) : arguments
    #expect(
      home.contents(of: file).map { String(decoding: $0, as: UTF8.self) }
        == words.filter { $0 != "--" }.joined(separator: " "))
  }

  @Test(
    "an unknown option exits 2 with a one-line hint",
    arguments: [["--frobnicate"], ["show", "--frobnicate"], ["save", "-x", "text"], ["-q"]])
  func unknownOption(arguments: [String]) throws {
    let home = try TemporaryHome()
    let option = arguments.first { $0.hasPrefix("-") }!
    try home.filenote(arguments).run().expectError(status: 2, mentioning: [option, "help"])
    #expect(home.entries(in: home.home) == [])
  }

  @Test("--file without a value exits 2", arguments: [["--file"], ["show", "--file"]])
  func fileWithoutValue(arguments: [String]) throws {
    let home = try TemporaryHome()
    try home.filenote(arguments).run().expectError(status: 2, mentioning: ["--file"])
  }

  @Test(
    "show, path and clear take no other arguments: exit 2",
    arguments: [["show", "extra"], ["path", "extra"], ["clear", "extra"]])
  func extraArguments(arguments: [String]) throws {
    let home = try TemporaryHome()
    try home.writeNote("kept")
    try home.filenote(arguments).run().expectError(status: 2, mentioning: ["extra"])
    #expect(home.note == "kept")
  }

  @Test(
    "help, --help, -h, help COMMAND and --version exit 0 with text on standard output",
    arguments: [
      ["help"], ["--help"], ["-h"], ["help", "save"], ["help", "show"], ["--version"],
    ])
  func helpAndVersion(arguments: [String]) throws {
    let home = try TemporaryHome()
    let result = try home.filenote(arguments).run()
    result.expectSuccess()
    #expect(result.stdoutText.hasSuffix("\n"))
    #expect(result.stdoutText.contains("filenote"))
    #expect(home.entries(in: home.home) == [])
  }

  @Test(
    "--version stands alone: a word or an option of a command beside it exits 2",
    arguments: [["--version", "extra"], ["show", "--version"], ["--version", "--all"]])
  func versionWithMore(arguments: [String]) throws {
    let home = try TemporaryHome()
    try home.filenote(arguments).run()
      .expectError(status: 2, mentioning: ["'--version'", arguments.last!])
    #expect(home.entries(in: home.home) == [])
  }

  @Test("help, --help and -h print the same text, which lists every command")
  func helpFormsAgree() throws {
    let home = try TemporaryHome()
    let help = try home.run("help").stdoutText
    #expect(try home.run("--help").stdoutText == help)
    #expect(try home.run("-h").stdoutText == help)
    for command in ["save", "show", "path", "clear", "--file", "--version"] {
      #expect(help.contains(command), "help mentions \(command)")
    }
  }

  @Test("help save is about save, not the general help")
  func helpForOneCommand() throws {
    let home = try TemporaryHome()
    let general = try home.run("help").stdoutText
    let save = try home.run("help", "save").stdoutText
    #expect(save.contains("filenote save"))
    #expect(save != general)
  }

  @Test(
    "an unknown command is a usage error wherever --help or -h stands",
    arguments: [
      ["bogus", "--help"], ["--help", "bogus"], ["-h", "bogus"], ["bogus", "-h", "x"],
      ["help", "bogus", "--help"],
    ])
  func unknownCommandWithHelp(arguments: [String]) throws {
    let home = try TemporaryHome()
    try home.filenote(arguments).run().expectError(status: 2, mentioning: ["bogus"])
  }

  @Test("COMMAND --help and help COMMAND --help print that command's help")
  func commandHelpOption() throws {
    let home = try TemporaryHome()
    let save = try home.run("help", "save").stdoutText
    #expect(try home.run("save", "--help").stdoutText == save)
    #expect(try home.run("help", "save", "--help").stdoutText == save)
    #expect(try home.run("help", "--help").stdoutText == home.run("help").stdoutText)
  }

  @Test("help for an unknown command exits 2")
  func helpUnknownCommand() throws {
    let home = try TemporaryHome()
    try home.run("help", "frobnicate").expectError(status: 2, mentioning: ["frobnicate"])
  }

  @Suite("filenote with standard input not a terminal")
  struct NoTerminal {
    @Test("exits 2 and points to filenote save and filenote show (/dev/null)")
    func devNull() throws {
      let home = try TemporaryHome()
      try home.run(input: .nullDevice)
        .expectError(status: 2, mentioning: ["filenote save", "filenote show"])
      #expect(home.entries(in: home.home) == [])
    }

    @Test("exits 2 and saves nothing from a pipe")
    func pipe() throws {
      let home = try TemporaryHome()
      try home.writeNote("kept")
      try home.run(input: .bytes(Array("typed text\n".utf8)))
        .expectError(status: 2, mentioning: ["filenote save", "filenote show"])
      #expect(home.note == "kept")
    }
  }

  @Test(
    "no command line makes filenote crash: every answer is an exit 0, 1 or 2",
    arguments: [
      [""], ["--file", ""], ["--file="], ["-"], ["--"], ["--", "show"], ["help", "help", "help"],
      ["save", "--"], ["--file", "--file", "show"], ["-h", "frobnicate"], ["--version", "show"],
      ["show", "--help"], ["save", "--file"], ["-\u{301}"], ["\u{1B}[31m"],
      [String(repeating: "x", count: 100_000)],
    ])
  func oddCommandLines(arguments: [String]) throws {
    let home = try TemporaryHome()
    let result = try home.filenote(arguments).run()
    #expect(result.signal == nil)
    #expect([0, 1, 2].contains(result.status))
    if result.status != 0 {
      #expect(result.stderrText.hasPrefix("filenote: "))
      #expect(
        result.stderrText.filter { $0 == "\n" }.count == 1, "one line: \(result.stderrText)")
    }
  }
}
