import Foundation
import LineEditor
import SystemCalls
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

extension TerminalTests {
  /// The session asks the terminal how wide it draws the characters
  /// terminals disagree on, before it first draws one (SPEC, "On every
  /// terminal"). The test plays the terminal: its answers are typed ahead,
  /// which the session reads exactly as answers that come after the question.
  @Suite struct WidthsAskedFromTheTerminal {
    @Test func aLineWithoutSuchCharactersAsksNothing() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = FileDescriptor(rawValue: pseudoTerminal.slave)
      let session = try EditingSession(input: terminal, output: terminal)
      try pseudoTerminal.type("\u{4E2D}\r")
      #expect(
        try session.readLine(text: "ascii, e\u{301}, 中文", hint: "h", dimmed: false)
          == .submitted("ascii, e\u{301}, 中文中"))
      session.finish(saying: nil)
      #expect(!written(pseudoTerminal).contains(question))
    }

    @Test func theAnswerSetsTheWidthAndKeysTypedAroundItKeepTheirOrder() throws {
      let pseudoTerminal = try PseudoTerminal()
      try pseudoTerminal.setWindowSize(rows: 10, columns: 40)
      let terminal = FileDescriptor(rawValue: pseudoTerminal.slave)
      let session = try EditingSession(input: terminal, output: terminal)
      // The terminal drew the family sample apart: from column 1 to column 7.
      try pseudoTerminal.type("X\u{1B}[5;7RY\r")
      #expect(
        try session.readLine(text: "a" + family, hint: "h", dimmed: false)
          == .submitted("a" + family + "XY"))
      let output = written(pseudoTerminal)
      #expect(output.components(separatedBy: question).count == 2, "asked once")
      #expect(output.contains("\r" + family + question), "the sample, at the start of the line")
      // The prompt, a, six columns of family, X and Y.
      #expect(output.hasSuffix("> a\(family)XY\u{1B}[K\r\u{1B}[11C"))
      session.finish(saying: nil)
    }

    @Test func eachKindIsAskedOnceAndOnlyTheKindsNotAskedYet() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = FileDescriptor(rawValue: pseudoTerminal.slave)
      let session = try EditingSession(input: terminal, output: terminal)
      try pseudoTerminal.type("\u{1B}[5;3R\r")
      _ = try session.readLine(text: family, hint: "h", dimmed: false)
      _ = written(pseudoTerminal)

      try pseudoTerminal.type("\r")
      _ = try session.readLine(text: family + "b", hint: "h", dimmed: false)
      #expect(!written(pseudoTerminal).contains(question), "the family is measured already")

      // The heart: one column, as xterm draws it.
      try pseudoTerminal.type("\u{1B}[5;2R\r")
      _ = try session.readLine(text: heart + family, hint: "h", dimmed: false)
      let output = written(pseudoTerminal)
      #expect(output.components(separatedBy: question).count == 2)
      #expect(output.contains("\r" + heart + question))
      #expect(!output.contains("\r" + family + question))
      // The prompt, the heart in one column, the family in two (one wide cell).
      #expect(output.hasSuffix("> \(heart)\(family)\u{1B}[K\r\u{1B}[5C"))
      session.finish(saying: nil)
    }

    @Test func aTerminalThatNeverAnswersIsAskedOnceAndDrawsCodePointsApart() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = FileDescriptor(rawValue: pseudoTerminal.slave)
      let session = try EditingSession(input: terminal, output: terminal)
      try pseudoTerminal.type("X\r")
      #expect(
        try session.readLine(text: family, hint: "h", dimmed: false)
          == .submitted(family + "X"))
      let output = written(pseudoTerminal)
      #expect(output.components(separatedBy: question).count == 2)
      #expect(output.hasSuffix("> \(family)X\u{1B}[K\r\u{1B}[9C"), "six columns, as wcwidth adds")

      try pseudoTerminal.type("\r")
      #expect(
        try session.readLine(text: heart + "\u{1F44D}\u{1F3FD}", hint: "h", dimmed: false)
          == .submitted(heart + "\u{1F44D}\u{1F3FD}"))
      let second = written(pseudoTerminal)
      #expect(!second.contains(question), "never asked again")
      #expect(second.hasSuffix("\u{1B}[K\r\u{1B}[7C"), "heart 1, thumbs-up and skin tone 4")
      session.finish(saying: nil)
    }
  }
}
