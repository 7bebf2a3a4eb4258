import Foundation
import Testing

extension PromptTests {
  @Suite("opening: the saved note is on the line, the cursor at its end, below a hint")
  struct Opening {
    @Test("the hint says where the note is and which keys save and cancel; the note follows")
    func hintAndNote() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "buy milk")

      let screen = try session.look()

      #expect(screen.lines.first == PromptTests.hint)
      #expect(screen.editRow == 1)
      #expect(screen.editLineWithCursor == "> buy milk|")
      #expect(screen.nonBlankLines.count == 2, "nothing else on the screen: \(screen)")
      #expect(try session.exitStatus() == nil)
    }

    @Test("with no note yet the line is empty, and opening the prompt creates nothing")
    func noNote() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: nil)

      #expect(try session.look().editLineWithCursor == "> |")
      #expect(home.entries(in: home.home) == [])
    }

    @Test("--file and FILENOTE_FILE: the hint names that file, and its note is on the line")
    func otherFile() throws {
      let home = try TemporaryHome()
      let path = home.work + "/list.txt"
      try home.write(Array("from list".utf8), to: path)

      // Wide enough for the whole path: a narrower hint keeps its end.
      let byFlag = try home.terminal(running: ["--file", path], columns: 200)
      let byVariable = try home.terminal(environment: ["FILENOTE_FILE": path], columns: 200)

      for session in [byFlag, byVariable] {
        let screen = try session.waitForEditLine("> from list|")
        #expect(screen.lines.first?.hasPrefix("\(path) · Enter saves · ") == true, "\(screen)")
      }
    }

    @Test("a path with control characters shows them as stand-ins in the hint")
    func oddPath() throws {
      let home = try TemporaryHome()
      let path = home.work + "/odd\nname\u{1B}[31m.txt"
      try home.write(Array("note".utf8), to: path)

      let session = try home.terminal(running: ["--file", path], columns: 200)

      let screen = try session.waitForEditLine("> note|")
      let shownPath = home.work + "/odd↵name␛[31m.txt"
      #expect(
        screen.lines.first
          == "\(shownPath) · Enter saves · Ctrl-C cancels · Ctrl-X Ctrl-E: editor")
    }

    @Test("keys typed before the prompt opened are kept and land on the line")
    func typedAhead() throws {
      let home = try TemporaryHome()
      try home.writeNote("note")
      let gate = home.work + "/gate"
      #expect(mkfifo(gate, 0o600) == 0)
      // The shell waits at the gate, with the terminal in its ordinary mode,
      // until the test has typed; only then does filenote start.
      let session = try home.terminal { "echo waiting; read go < gate; exec \($0)" }
      try session.waitFor("the shell at the gate") { $0.lines.first == "waiting" }
      try session.send(text: "xyz")
      try session.waitFor("the terminal to echo the keys") { $0.text.contains("xyz") }

      try openGate(gate)

      try session.waitForEditLine("> notexyz|")
    }

    /// Writes a line to the FIFO at `path`, once its reader has opened it.
    private func openGate(_ path: String) throws {
      let deadline = ContinuousClock.now + .seconds(10)
      var fd: Int32 = -1
      while fd < 0 {
        fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
          guard errno == ENXIO, ContinuousClock.now < deadline else {
            throw TmuxSession.Failure(description: "cannot open \(path): errno \(errno)")
          }
          usleep(20_000)
          continue
        }
      }
      defer { close(fd) }
      #expect(write(fd, "go\n", 3) == 3)
    }

    @Test("the hint is dim, and plain when NO_COLOR is set")
    func dimHint() throws {
      let home = try TemporaryHome()
      let colored = try home.openPrompt(on: "note")
      let plain = try home.openPrompt(on: "note", environment: ["NO_COLOR": "1"])

      let coloredHint = try colored.styledScreen().components(separatedBy: "\n")[0]
      let plainHint = try plain.styledScreen().components(separatedBy: "\n")[0]

      #expect(
        coloredHint.hasPrefix("\u{1B}[2m" + PromptTests.hint), "\(coloredHint.debugDescription)")
      #expect(plainHint == PromptTests.hint)
    }
  }

  @Suite("editing keys: readline's, through a real terminal")
  struct EditingKeys {
    /// One thing done at the keyboard.
    enum Press: Sendable, CustomStringConvertible {
      /// Keys named as tmux names them: `C-a`, `M-b`, `Home`, `BSpace`.
      case keys([String])
      /// Text typed as it is.
      case text(String)

      static func key(_ names: String...) -> Press { .keys(names) }

      func send(to session: TmuxSession) throws {
        switch self {
        case .keys(let names): for name in names { try session.send(keys: name) }
        case .text(let text): try session.send(text: text)
        }
      }

      var description: String {
        switch self {
        case .keys(let names): return names.joined(separator: " ")
        case .text(let text): return text.debugDescription
        }
      }
    }

    /// Keys pressed on a note, the line they leave (`|` where the cursor
    /// is; no `|` when its place does not matter) and the note Enter saves
    /// then.
    struct Example: Sendable, CustomTestStringConvertible {
      let name: String
      let note: String
      let presses: [Press]
      let line: String
      let saved: String

      var testDescription: String {
        "\(name): \(presses.map(\.description).joined(separator: ", ")) on \(note.debugDescription)"
      }
    }

    static let examples: [Example] = [
      Example(
        name: "Ctrl-A goes to the start", note: "one two three",
        presses: [.key("C-a"), .text("X")],
        line: "> X|one two three", saved: "Xone two three"),
      Example(
        name: "Ctrl-E goes to the end", note: "one two three",
        presses: [.key("C-a", "C-e"), .text("X")], line: "> one two threeX|",
        saved: "one two threeX"),
      Example(
        name: "Home and End", note: "one two three",
        presses: [.key("Home"), .text("X"), .key("End"), .text("Y")],
        line: "> Xone two threeY|", saved: "Xone two threeY"),
      Example(
        name: "Left and Right arrows move by one character", note: "one two three",
        presses: [.key("Left", "Left", "Left", "Right"), .text("X")], line: "> one two thrX|ee",
        saved: "one two thrXee"),
      Example(
        name: "Ctrl-B and Ctrl-F move by one character", note: "one two three",
        presses: [.key("C-b", "C-b", "C-f"), .text("X")], line: "> one two threX|e",
        saved: "one two threXe"),
      Example(
        name: "Alt-B moves back by word", note: "one two three",
        presses: [.key("M-b", "M-b"), .text("X")], line: "> one X|two three",
        saved: "one Xtwo three"),
      Example(
        name: "Alt-F moves forward by word", note: "one two three",
        presses: [.key("C-a", "M-f"), .text("X")], line: "> oneX| two three",
        saved: "oneX two three"),
      Example(
        name: "Ctrl-Left and Ctrl-Right move by word", note: "one two three",
        presses: [.key("C-Left", "C-Left", "C-Left", "C-Right", "C-Right"), .text("X")],
        line: "> one twoX| three", saved: "one twoX three"),
      Example(
        name: "Backspace deletes the character before the cursor", note: "one two three",
        presses: [.key("BSpace")], line: "> one two thre|", saved: "one two thre"),
      Example(
        name: "Ctrl-H deletes the character before the cursor", note: "one two three",
        presses: [.key("Left", "C-h")], line: "> one two thr|e", saved: "one two thre"),
      Example(
        name: "Delete deletes the character under the cursor", note: "one two three",
        presses: [.key("Home", "DC")], line: "> |ne two three", saved: "ne two three"),
      Example(
        name: "Ctrl-D deletes the character under the cursor", note: "one two three",
        presses: [.key("C-a", "C-f", "C-d")], line: "> o|e two three", saved: "oe two three"),
      Example(
        name: "Ctrl-K cuts to the end", note: "one two three", presses: [.key("M-b", "M-b", "C-k")],
        line: "> one |", saved: "one "),
      Example(
        name: "Ctrl-U cuts to the start", note: "one two three", presses: [.key("M-b", "C-u")],
        line: "> |three", saved: "three"),
      Example(
        name: "Ctrl-W cuts the word before the cursor, up to white space",
        note: "one two-three", presses: [.key("C-w")], line: "> one |", saved: "one "),
      Example(
        name: "Alt-Backspace cuts the word before the cursor", note: "one two-three",
        presses: [.key("M-BSpace")], line: "> one two-|", saved: "one two-"),
      Example(
        name: "Alt-D cuts the word after the cursor", note: "one two three",
        presses: [.key("C-a", "M-d")], line: "> | two three", saved: " two three"),
      Example(
        name: "Ctrl-Y pastes what Ctrl-K cut", note: "one two three",
        presses: [.key("M-b", "C-k", "C-a", "C-y")], line: "> three|one two",
        saved: "threeone two "),
      Example(
        name: "Alt-Y after Ctrl-Y cycles to the cut before", note: "one two three",
        presses: [.key("M-b", "C-k", "C-a", "M-d", "C-e", "C-y", "M-y")],
        line: ">  two three|", saved: " two three"),
      Example(
        name: "Ctrl-T swaps the characters around the cursor", note: "teh",
        presses: [.key("Left", "C-t")], line: "> the|", saved: "the"),
      Example(
        name: "Ctrl-T at the end swaps the last two characters", note: "abcd",
        presses: [.key("C-t")], line: "> abdc|", saved: "abdc"),
      Example(
        name: "Ctrl-_ undoes the last change", note: "one two three",
        presses: [.key("C-w"), .text("3"), .key("C-_")], line: "> one two", saved: "one two "),
      Example(
        name: "Ctrl-_ twice undoes two changes", note: "one two three",
        presses: [.key("C-w"), .text("3"), .key("C-_", "C-_")], line: "> one two three",
        saved: "one two three"),
      Example(
        name: "Tab inserts a tab, shown as a stand-in", note: "a", presses: [.key("Tab")],
        line: "> a⇥|", saved: "a\t"),
      Example(
        name: "typed wide characters take two columns each", note: "note ",
        presses: [.text("中文")], line: "> note 中文|", saved: "note 中文"),
      Example(
        name: "Backspace deletes a wide character whole", note: "中文字符",
        presses: [.key("Left", "BSpace")], line: "> 中文|符", saved: "中文符"),
      Example(
        name: "Backspace deletes e and its combining accent as one", note: "cafe\u{301}",
        presses: [.key("BSpace")], line: "> caf|", saved: "caf"),
      Example(
        name: "Left steps over e and its combining accent as one", note: "cafe\u{301}!",
        presses: [.key("Left", "Left"), .text("X")], line: "> cafX|e\u{301}!",
        saved: "cafXe\u{301}!"),
      Example(
        name: "Backspace deletes a family emoji whole", note: "a👨‍👩‍👧",
        presses: [.key("BSpace")], line: "> a|", saved: "a"),
      Example(
        name: "Backspace deletes a flag whole", note: "ok🇫🇷🇩🇪", presses: [.key("BSpace")],
        line: "> ok🇫🇷", saved: "ok🇫🇷"),
    ]

    @Test(
      "each key edits the line as readline does, and Enter saves what the line shows",
      arguments: examples)
    func key(_ example: Example) throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: example.note)

      for press in example.presses { try press.send(to: session) }

      try session.waitForEditLine(example.line)
      try home.expectEnterSaves(example.saved, in: session)
    }

    @Test("keys with no binding insert nothing and leave the cursor where it was")
    func unboundKeys() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "one two")
      let keys = [
        // (Alt-digits, Ctrl-Q and Ctrl-V are readline's numeric argument and
        // quoted-insert: bound.)
        "F1", "F5", "F12", "PPage", "NPage", "IC", "Up", "Down", "BTab", "M-x", "C-g",
        "C-o", "C-s", "C-x", "C-\\", "C-r", "C-p", "C-n",
      ]

      for key in keys { try session.send(keys: key) }
      try session.send(text: "!")

      try session.waitForEditLine("> one two!|")
      try home.expectEnterSaves("one two!", in: session)
    }

    @Test(
      "Esc, a pause, then a key is that key with Alt, as in readline: Esc f moves a word forward",
      arguments: [0, 300])
    func escapeThenKey(pauseMilliseconds: Int) throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "one two")
      try session.send(keys: "C-a")
      try session.waitForEditLine("> |one two")

      try session.send(keys: "Escape")
      // The pause is what is tested: longer than the wait for the rest of a
      // sequence, so the Esc arrives alone.
      usleep(useconds_t(pauseMilliseconds * 1000))
      try session.send(text: "f")

      try session.waitForEditLine("> one| two")
      try home.expectEnterSaves("one two", in: session)
    }

    @Test("Ctrl-L clears the screen and draws the hint and the line again at the top")
    func ctrlL() throws {
      let home = try TemporaryHome()
      try home.writeNote("note")
      let session = try home.terminal {
        "echo 'left over'; echo 'more left over'; exec \($0)"
      }
      try session.waitForEditLine("> note|")

      try session.send(keys: "C-l")

      let screen = try session.waitFor("a clear screen") { !$0.text.contains("left over") }
      #expect(screen.lines.first == PromptTests.hint)
      #expect(screen.editRow == 1)
      try session.waitForEditLine("> note|")
    }
  }
}
