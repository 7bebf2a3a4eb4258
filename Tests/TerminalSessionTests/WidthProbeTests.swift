import Foundation
import LineEditor
import SystemCalls
import TestSupport
import Testing

@testable import TerminalSession

private let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
private let heart = "\u{2764}\u{FE0F}"
private let question = "\u{1B}[6n"

/// Everything the session has written so far (it writes synchronously, so
/// after a call returns its output is all in the pseudo-terminal).
private func written(_ pseudoTerminal: PseudoTerminal) -> String {
  var received: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65536)
  while received.count < 1 << 20 {
    var waiting = pollfd(fd: pseudoTerminal.master, events: Int16(POLLIN), revents: 0)
    guard poll(&waiting, 1, 0) == 1 else { break }
    let count = buffer.withUnsafeMutableBytes {
      Glibc.read(pseudoTerminal.master, $0.baseAddress, $0.count)
    }
    guard count > 0 else { break }
    received += buffer[..<count]
  }
  return String(decoding: received, as: UTF8.self)
}

/// A session on a pseudo-terminal that the test plays: what the terminal
/// "types" (keys, and its answers) goes in ahead of each line, which the
/// session reads exactly as bytes that come after its question.
private struct PlayedSession {
  let pseudoTerminal: PseudoTerminal
  let session: EditingSession

  init() throws {
    pseudoTerminal = try PseudoTerminal()
    try pseudoTerminal.setWindowSize(rows: 10, columns: 40)
    let terminal = FileDescriptor(rawValue: pseudoTerminal.slave)
    session = try EditingSession(input: terminal, output: terminal)
  }

  /// Edits `text` after `typed` went in; how the line ended and what the
  /// session wrote meanwhile.
  func line(_ text: String, typed: String) throws -> (EditingSession.LineEnding, String) {
    try pseudoTerminal.type(typed)
    let ending = try session.readLine(text: text, hints: [Hint(subject: "h")], dimmed: false)
    return (ending, written(pseudoTerminal))
  }
}

/// How many times `output` asks for the cursor position.
private func questions(in output: String) -> Int {
  output.components(separatedBy: question).count - 1
}

extension TerminalTests {
  /// The session asks the terminal how wide it draws the characters
  /// terminals disagree on, before it first draws one (doc/DESIGN.md, The
  /// prompt and the terminal).
  @Suite struct WidthsAskedFromTheTerminal {
    @Test func aLineWithoutSuchCharactersAsksNothing() throws {
      let played = try PlayedSession()
      defer { played.session.finish(saying: nil) }
      let (ending, output) = try played.line("ascii, e\u{301}, 中文", typed: "\u{4E2D}\r")
      #expect(ending == .submitted(Array(("ascii, e\u{301}, 中文中").utf8)))
      #expect(questions(in: output) == 0)
    }

    @Test func theAnswerSetsTheWidthAndKeysTypedAroundItKeepTheirOrder() throws {
      let played = try PlayedSession()
      defer { played.session.finish(saying: nil) }
      // The terminal drew the family sample apart: from column 1 to column 7.
      let (ending, output) = try played.line("a" + family, typed: "X\u{1B}[5;7RY\r")
      #expect(ending == .submitted(Array(("a" + family + "XY").utf8)))
      #expect(questions(in: output) == 1)
      #expect(output.contains("\r" + family + question), "the sample, at the start of the line")
      // The prompt, a, six columns of family, X and Y.
      #expect(output.hasSuffix("> a\(family)XY\u{1B}[K\r\u{1B}[11C"))
    }

    @Test func eachKindIsAskedOnceAndOnlyTheKindsNotAskedYet() throws {
      let played = try PlayedSession()
      defer { played.session.finish(saying: nil) }
      let (_, first) = try played.line(family, typed: "\u{1B}[5;3R\r")
      #expect(questions(in: first) == 1)
      let (_, again) = try played.line(family + "b", typed: "\r")
      #expect(questions(in: again) == 0, "the family is measured already")

      // The heart: one column, as xterm draws it.
      let (_, output) = try played.line(heart + family, typed: "\u{1B}[5;2R\r")
      #expect(questions(in: output) == 1)
      #expect(output.contains("\r" + heart + question))
      // The prompt, the heart in one column, the family in two (one wide cell).
      #expect(output.hasSuffix("> \(heart)\(family)\u{1B}[K\r\u{1B}[5C"))
    }

    @Test func aTerminalThatNeverAnswersIsAskedOnceAndDrawsCodePointsApart() throws {
      let played = try PlayedSession()
      defer { played.session.finish(saying: nil) }
      let (ending, output) = try played.line(family, typed: "X\r")
      #expect(ending == .submitted(Array((family + "X").utf8)))
      #expect(questions(in: output) == 1)
      #expect(output.hasSuffix("> \(family)X\u{1B}[K\r\u{1B}[9C"), "six columns, as wcwidth adds")

      let (_, second) = try played.line(heart + "\u{1F44D}\u{1F3FD}", typed: "\r")
      #expect(questions(in: second) == 0, "never asked again")
      #expect(second.hasSuffix("\u{1B}[K\r\u{1B}[7C"), "heart 1, thumbs-up and skin tone 4")
    }
  }
}
