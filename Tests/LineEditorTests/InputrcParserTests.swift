import Foundation
import Testing

@testable import LineEditor

/// The inputrc read as readline reads it (doc/filenote.1, INPUTRC).
@Suite struct InputrcParserTests {
  static func parse(
    _ text: String, term: String? = "xterm-256color",
    files: [String: String] = [:]
  ) -> EditorConfiguration {
    InputrcParser.configuration(
      from: Array(text.utf8), path: "/home/u/.inputrc", terminalName: term,
      include: { path in files[path].map { Array($0.utf8) } })
  }

  static func action(
    _ keys: [Key], in configuration: EditorConfiguration, keymap: Keymap = .emacs
  ) -> KeyBindings.Action? {
    let bindings = configuration[bindingsOf: keymap]
    switch bindings.match(KeyBindings.canonical(keys)[...]) {
    case .exact(let action), .prefix(exact: .some(let action)): return action
    default: return nil
    }
  }

  @Suite struct Variables {
    @Test func theVariablesFilenoteHonoursAreRead() {
      let configuration = parse(
        """
        set editing-mode vi
        set keyseq-timeout 120
        set bell-style none
        set enable-bracketed-paste off
        set show-mode-in-prompt on
        set vi-ins-mode-string "\\1\\e[6 q\\2+"
        set vi-cmd-mode-string :
        set emacs-mode-string E
        """)
      #expect(configuration.editingMode == .vi)
      #expect(configuration.keySequenceTimeoutMilliseconds == 120)
      #expect(configuration.bellStyle == .none)
      #expect(!configuration.enablesBracketedPaste)
      #expect(configuration.showsModeInPrompt)
      #expect(configuration.viInsertModeString == "+")
      #expect(configuration.viCommandModeString == ":")
      #expect(configuration.emacsModeString == "E")
    }

    @Test func namesAndValuesIgnoreCaseAndOtherVariablesAreAccepted() {
      let configuration = parse(
        "SET Editing-Mode VI\nset completion-ignore-case on\nset no-such-thing 3\nset")
      #expect(configuration.editingMode == .vi)
    }

    @Test func aBooleanWithNoValueIsOn() {
      #expect(parse("set show-mode-in-prompt").showsModeInPrompt)
      #expect(!parse("set show-mode-in-prompt yes please").showsModeInPrompt)
    }
  }

  @Suite struct Bindings {
    @Test(arguments: [
      ("\"\\C-t\": backward-char", [Key.control("t")]),
      ("Control-t: backward-char", [.control("t")]),
      ("C-t: backward-char", [.control("t")]),
      ("\"\\M-u\": backward-char", [.alt("u")]),
      ("Meta-u: backward-char", [.alt("u")]),
      ("\"\\eu\": backward-char", [.alt("u")]),
      ("M-Rubout: backward-char", [.alt("\u{7F}")]),
      ("\"\\e[1;5C\": backward-char", [.arrow(.right, .control)]),
      ("\"\\033[A\": backward-char", [.arrow(.up, [])]),
      ("\"\\x1b[B\": backward-char", [.arrow(.down, [])]),
      ("\"\\C-x\\C-r\": backward-char", [.control("x"), .control("r")]),
      ("\"\\C-?\": backward-char", [.backspace]),
      ("\"\\e\\C-]\": backward-char", [.alt("\u{1D}")]),
      ("\"jk\": backward-char", [.text("j"), .text("k")]),
      ("\"\\C-j\": backward-char", [.control("j")]),
      ("RETURN: backward-char", [.enter]),
      ("  \"\\C-t\"  :   backward-char   # comment", [.control("t")]),
    ])
    func everyNotationBindsTheKeysATerminalSends(line: String, keys: [Key]) {
      #expect(action(keys, in: parse(line)) == .function(.backwardChar))
    }

    @Test func aMacroIsItsTextWithEscapesRead() {
      let configuration = parse(#""\C-xq": "a\tb\"c""#)
      #expect(action([.control("x"), .text("q")], in: configuration) == .macro("a\tb\"c"))
    }

    @Test func functionNamesIgnoreCase() {
      #expect(action([.control("t")], in: parse("C-t: Backward-Char")) == .function(.backwardChar))
    }

    @Test func aFunctionFilenoteDoesNotImplementLeavesTheKeyDoingNothing() {
      #expect(action([.control("t")], in: parse("C-t: complete")) == .macro(""))
      #expect(action([.control("t")], in: parse("C-t: no-such-function")) == .macro(""))
    }

    @Test func keymapsTakeTheirBindings() {
      let configuration = parse(
        """
        set keymap vi-insert
        "jk": vi-movement-mode
        set keymap emacs-meta
        "u": backward-char
        set keymap emacs-ctlx
        "q": beginning-of-line
        """)
      #expect(
        action([.text("j"), .text("k")], in: configuration, keymap: .viInsert)
          == .function(.viMovementMode))
      #expect(action([.text("j"), .text("k")], in: configuration) == nil)
      #expect(action([.alt("u")], in: configuration) == .function(.backwardChar))
      #expect(
        action([.control("x"), .text("q")], in: configuration) == .function(.beginningOfLine))
    }

    @Test func malformedLinesAreSkippedAndTheRestCounts() {
      let configuration = parse(
        """
        "\\C-t
        : nothing
        "\\C-a" backward-char
        \u{FF}\u{FE}garbage
        C-t: backward-char
        """)
      #expect(action([.control("t")], in: configuration) == .function(.backwardChar))
    }
  }

  @Suite struct Conditionals {
    static let text = """
      $if mode=vi
      C-a: backward-char
      $else
      C-a: forward-char
      $endif
      $if term=xterm
      C-b: backward-char
      $endif
      $if filenote
      C-c: backward-char
      $endif
      $if Bash
      C-d: backward-char
      $endif
      """

    @Test func ifElseEndifFollowModeTermAndApplication() {
      let configuration = parse(Self.text)
      #expect(action([.control("a")], in: configuration) == .function(.forwardChar))
      #expect(action([.control("b")], in: configuration) == .function(.backwardChar))
      #expect(action([.control("c")], in: configuration) == .function(.backwardChar))
      #expect(action([.control("d")], in: configuration) == nil)
    }

    @Test func termComparesTheWholeNameOrItsPartBeforeADash() {
      #expect(action([.control("b")], in: parse(Self.text, term: "screen")) == nil)
      let exact = parse("$if term=xterm-256color\nC-b: backward-char\n$endif")
      #expect(action([.control("b")], in: exact) == .function(.backwardChar))
    }

    @Test func modeFollowsTheEditingModeSetAbove() {
      let configuration = parse("set editing-mode vi\n" + Self.text)
      #expect(
        action([.control("a")], in: configuration, keymap: .viInsert)
          == .function(.backwardChar))
    }

    @Test func nestedConditionsInAFalseBranchStayFalse() {
      let configuration = parse(
        "$if mode=vi\n$if filenote\nC-a: backward-char\n$else\nC-a: forward-char\n$endif\n$endif")
      #expect(action([.control("a")], in: configuration) == nil)
    }
  }

  @Suite struct Includes {
    @Test func anIncludedFileIsReadInPlace() {
      let configuration = parse(
        "$include /etc/inputrc\nC-b: forward-char",
        files: ["/etc/inputrc": "C-a: backward-char\nC-b: backward-char"])
      #expect(action([.control("a")], in: configuration) == .function(.backwardChar))
      #expect(action([.control("b")], in: configuration) == .function(.forwardChar))
    }

    @Test func aFileThatIncludesItselfIsReadOnce() {
      var reads = 0
      var parser = InputrcParser(terminalName: nil) { path in
        reads += 1
        return Array("$include \(path)\n$include /other\nC-a: backward-char".utf8)
      }
      parser.parse(Array("$include /a".utf8), path: "/top")
      #expect(reads <= 2 * InputrcParser.maximumIncludeDepth)
      #expect(
        parser.configuration.emacsBindings.match([.control("a")][...])
          == .exact(.function(.backwardChar)))
    }

    @Test func aMissingFileIsSkipped() {
      let configuration = parse("$include /nowhere\nC-a: backward-char")
      #expect(action([.control("a")], in: configuration) == .function(.backwardChar))
    }
  }
}

/// The inputrc fuzzer's seeds (`fuzz/corpus/inputrc`), replayed with the
/// fuzzer's rules, so that `swift test` keeps what fuzzing established.
@Suite struct InputrcFuzzSeedTests {
  static var seeds: [String] {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../fuzz/corpus/inputrc").standardized.path
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().map {
      folder + "/" + $0
    }
  }

  @Test func thereAreSeeds() {
    #expect(Self.seeds.count >= 3)
  }

  @Test(arguments: seeds)
  func aSeedParsesAndItsKeysKeepTheCursorInTheText(path: String) throws {
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let split = bytes.firstIndex(of: 0) ?? bytes.count
    let inputrc = Array(bytes[..<split])
    var parser = InputrcParser(terminalName: "xterm-256color") { _ in inputrc }
    parser.parse(inputrc, path: "/fuzz/inputrc")
    var state = EditState(
      text: "note é 🇫🇷", versions: ["older"], configuration: parser.configuration)
    var decoder = KeyDecoder()
    let keys = split < bytes.count ? Array(bytes[(split + 1)...]) : []
    for key in decoder.decode(keys) + decoder.flush() {
      _ = state.handle(key)
      #expect((0...state.buffer.count).contains(state.cursor))
    }
    #expect(!parser.configuration.emacsBindings.isEmpty)
  }
}
