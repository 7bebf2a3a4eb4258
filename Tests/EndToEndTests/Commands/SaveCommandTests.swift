import Testing

@Suite("filenote save")
struct SaveCommand {
  @Suite("TEXT on the command line")
  struct TextArguments {
    @Test("saves the words joined by one space, with no newline added")
    func wordsJoinedByOneSpace() throws {
      let home = try TemporaryHome()
      let result = try home.run("save", "call", "the", "plumber")
      result.expectSuccess()
      #expect(result.stdoutText == "")
      home.expectNoteAlone("call the plumber")
    }

    @Test("keeps the spaces inside each word as typed")
    func spacesInsideWordsKept() throws {
      let home = try TemporaryHome()
      try home.run("save", "a  b", " c ", "d").expectSuccess()
      #expect(home.note == "a  b  c  d")
    }

    @Test("saves words after -- as text, even when they start with a dash")
    func wordsAfterDoubleDash() throws {
      let home = try TemporaryHome()
      try home.run("save", "--", "-x", "--file", "y").expectSuccess()
      #expect(home.note == "-x --file y")
    }

    @Test("replaces the note that was there")
    func replacesOldNote() throws {
      let home = try TemporaryHome()
      try home.writeNote("old note that is longer than the new one")
      try home.run("save", "new").expectSuccess()
      home.expectNoteAlone("new")
    }

    @Test("refuses an empty TEXT and leaves the note untouched")
    func emptyTextRefused() throws {
      let home = try TemporaryHome()
      try home.writeNote("old")
      try home.run("save", "").expectError(status: 1, mentioning: ["clear"])
      home.expectNoteAlone("old")
    }

    @Test("refuses TEXT that is not UTF-8, says where the first bad byte is, note untouched")
    func invalidUTF8ArgumentRefused() throws {
      let home = try TemporaryHome()
      try home.writeNote("old")
      // Process takes Strings, which cannot hold invalid UTF-8: let the shell
      // build the argument's bytes.
      let result = try home.shell(#"filenote save "$(printf 'ab\377cd')""#)
      result.expectError(status: 1, mentioning: ["UTF-8", "offset 2"])
      home.expectNoteAlone("old")
    }
  }

  @Suite("standard input")
  struct StandardInput {
    /// How the input reaches filenote: `printf ... | filenote save` or `filenote save < file`.
    enum Delivery: CaseIterable, Sendable { case pipe, file }

    /// Input bytes and the note they must give.
    struct Case: Sendable, CustomTestStringConvertible {
      var input: [UInt8]
      var saved: [UInt8]
      init(_ input: String, _ saved: String) {
        self.input = Array(input.utf8)
        self.saved = Array(saved.utf8)
      }
      var testDescription: String {
        "\(String(reflecting: String(decoding: input, as: UTF8.self)))"
      }
    }

    static let lineEndings: [Case] = [
      Case("hi\n", "hi"),
      Case("hi\n\n", "hi\n"),
      Case("hi\r\n", "hi"),
      Case("a\nb\n", "a\nb"),
      Case("hi", "hi"),
      Case("hi\r", "hi\r"),
      Case("hi\n\r\n", "hi\n"),
      Case("hi\r\n\n", "hi\r\n"),
      Case("hi\r\r\n", "hi\r"),
      Case("\n\n", "\n"),
      Case("x", "x"),
    ]

    @Test(
      "keeps the input byte for byte except exactly one trailing \\n or \\r\\n",
      arguments: lineEndings, Delivery.allCases)
    func oneTrailingLineEndingRemoved(_ example: Case, _ delivery: Delivery) throws {
      let home = try TemporaryHome()
      let result = try home.run("save", input: try input(example.input, delivery, in: home))
      result.expectSuccess()
      #expect(result.stdoutText == "")
      #expect(home.contents(of: home.notePath) == example.saved)
      #expect(home.entriesBesideVersions(in: home.documents) == ["datafile.dat"])
    }

    @Test("echo hi | filenote save stores hi")
    func echoPipedIntoSave() throws {
      let home = try TemporaryHome()
      try home.shell("echo hi | filenote save").expectSuccess()
      #expect(home.contents(of: home.notePath) == Array("hi".utf8))
    }

    @Test("'save -' reads standard input")
    func dashReadsStandardInput() throws {
      let home = try TemporaryHome()
      try home.run("save", "-", input: .bytes(Array("from stdin\n".utf8))).expectSuccess()
      #expect(home.note == "from stdin")
    }

    @Test("keeps NUL bytes, tabs, CR LF inside, emoji and combining marks exactly")
    func unusualCharactersKept() throws {
      let home = try TemporaryHome()
      let text: [UInt8] =
        [0x61, 0x00, 0x62] + Array("\tc\r\nd 😀👩‍👩‍👧 e\u{301} 中文 \u{7F}\u{1B}[0m".utf8)
      try home.run("save", input: .bytes(text + [0x0A])).expectSuccess()
      #expect(home.contents(of: home.notePath) == text)
      let shown = try home.run("show")
      shown.expectSuccess()
      #expect(shown.stdout == text + [0x0A])
    }

    @Test(
      "refuses empty input (\"\", a lone \\n or \\r\\n) and leaves the note untouched",
      arguments: ["", "\n", "\r\n"])
    func emptyInputRefused(_ input: String) throws {
      let home = try TemporaryHome()
      try home.writeNote("old")
      try home.run("save", input: .bytes(Array(input.utf8)))
        .expectError(status: 1, mentioning: ["clear"])
      home.expectNoteAlone("old")
    }

    @Test("refuses empty input when there is no note, and creates nothing")
    func emptyInputCreatesNothing() throws {
      let home = try TemporaryHome()
      try home.run("save", input: .bytes([])).expectError(status: 1)
      #expect(!home.exists(home.notePath))
    }

    /// Input that is not UTF-8 and where its first bad byte is.
    struct BadInput: Sendable, CustomTestStringConvertible {
      var name: String
      var bytes: [UInt8]
      var offset: Int
      var testDescription: String { name }
    }

    static let badInputs: [BadInput] = [
      BadInput(name: "a byte 0xFF", bytes: [0x61, 0xFF, 0x62, 0x0A], offset: 1),
      BadInput(name: "an overlong '/'", bytes: [0xC0, 0xAF], offset: 0),
      BadInput(name: "a surrogate", bytes: [0x6F, 0x6B, 0xED, 0xA0, 0x80], offset: 2),
      BadInput(name: "a code point past U+10FFFF", bytes: [0xF4, 0x90, 0x80, 0x80], offset: 0),
      BadInput(name: "a stray continuation byte", bytes: Array("é".utf8) + [0x80], offset: 2),
      BadInput(
        name: "a sequence cut off at the end", bytes: [0x61, 0x62, 0x63, 0xE2, 0x82], offset: 3),
      BadInput(
        name: "a sequence cut off by the final newline", bytes: [0x61, 0xE2, 0x82, 0x0A],
        offset: 1),
      BadInput(
        name: "a bad byte 300000 bytes in",
        bytes: [UInt8](repeating: 0x61, count: 300_000) + [0xFE, 0x0A], offset: 300_000),
    ]

    @Test(
      "refuses input that is not UTF-8, says where the first bad byte is, note untouched",
      arguments: badInputs, Delivery.allCases)
    func invalidUTF8Refused(_ bad: BadInput, _ delivery: Delivery) throws {
      let home = try TemporaryHome()
      try home.writeNote("old")
      try home.run("save", input: try input(bad.bytes, delivery, in: home))
        .expectError(status: 1, mentioning: ["UTF-8", "offset \(bad.offset)"])
      home.expectNoteAlone("old")
    }

    @Test("saves a large input of many-byte characters whole, however the pipe splits it")
    func largeInputArrivesWhole() throws {
      let home = try TemporaryHome()
      // 4-, 3- and 2-byte characters, so that reads of any size cut some of them.
      var text = [UInt8]()
      while text.count < 3_000_000 { text += Array("😀中é a\n".utf8) }
      try home.run("save", input: .bytes(text)).expectSuccess()
      #expect(home.contents(of: home.notePath) == Array(text.dropLast()))
      #expect(home.entriesBesideVersions(in: home.documents) == ["datafile.dat"])
    }

    @Test("streams: its memory does not grow with the size of the input")
    func memoryDoesNotGrowWithInput() throws {
      let home = try TemporaryHome()
      let small = try peakMemory(savingMebibytes: 1, in: home)
      let large = try peakMemory(savingMebibytes: 64, in: home)
      // Holding the input would add 63 MiB; streaming adds next to nothing.
      #expect(
        large - small < 16 << 20, "peak memory: \(small) bytes for 1 MiB, \(large) for 64 MiB")
      #expect(home.contents(of: home.notePath)?.count == 64 << 20)
    }

    /// The peak resident memory of `filenote save` fed `mebibytes` MiB, read
    /// while it waits for the end of its input.
    private func peakMemory(savingMebibytes mebibytes: Int, in home: TemporaryHome) throws -> Int {
      let running = try home.filenote(["save"], input: .pipe).start()
      let mebibyte = [UInt8](repeating: 0x61, count: 1 << 20)
      for _ in 0..<mebibytes { #expect(running.write(mebibyte)) }
      let status = try String(
        contentsOfFile: "/proc/\(running.processIdentifier)/status", encoding: .utf8)
      running.write([0x0A])
      running.wait().expectSuccess()
      let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
      let kibibytes = try #require(Int(line.split(separator: " ")[1]))
      return kibibytes * 1024
    }

    private func input(_ bytes: [UInt8], _ delivery: Delivery, in home: TemporaryHome) throws
      -> FilenoteProcess.Input
    {
      switch delivery {
      case .pipe:
        return .bytes(bytes)
      case .file:
        let path = home.work + "/input"
        try home.write(bytes, to: path)
        return .file(path)
      }
    }
  }

  @Test(
    "a home folder that does not exist is an error: the first save creates only the documents folder"
  )
  func missingHome() throws {
    let home = try TemporaryHome()
    let missing = home.work + "/nohome/deep/x"

    let saved = try home.run("save", "hi", environment: ["HOME": missing])
    let path = try home.run("path", environment: ["HOME": missing])

    saved.expectError(status: 1, mentioning: [missing + "/Documents"])
    #expect(!home.exists(home.work + "/nohome"), "nothing created")
    path.expectSuccess()
    #expect(path.stdoutText == missing + "/Documents/datafile.dat\n")
    // With the home there, the documents folder is made on the first save.
    try home.run("save", "hi").expectSuccess()
    #expect(home.note == "hi")
  }
}
