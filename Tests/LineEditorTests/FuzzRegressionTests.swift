import Testing

@testable import LineEditor

/// Editing sessions from the fuzzer (`fuzz/EditorFuzzer.swift`), replayed
/// through `KeyDecoder`, `EditState` and `Renderer` with the fuzzer's main
/// rules, so that `swift test` keeps what fuzzing established.
///
/// Each session is written the way `fuzz/run.sh replay editor FILE` prints
/// an input: the width, the note the prompt opened with, then the reads, the
/// quiet moments (when the decoder is flushed) and the resizes. The seed
/// corpus is here; an input with which the fuzzer finds a defect joins it.
@Suite struct FuzzRegressionTests {
  /// One recorded session.
  struct RecordedSession: Sendable, CustomTestStringConvertible {
    enum Event: Sendable {
      case read([UInt8])
      case quiet
      case resize(Int)
    }

    var name: String
    var width: Int
    var initialText: String
    var events: [Event]

    var testDescription: String { name }
  }

  /// `fuzz/corpus/editor`, file by file.
  static let seedCorpus: [RecordedSession] = [
    RecordedSession(
      name: "combining mark and regional indicators typed apart, then undone", width: 7,
      initialText: "",
      events: [
        .quiet, .read([0x65]), .read([0xCC, 0x81]), .read([0xF0, 0x9F, 0x87, 0xAB]),
        .read([0xF0, 0x9F, 0x87, 0xB7]), .read([0x02]), .read([0x04]), .read([0x1F]),
        .read([0x1F]),
      ]),
    RecordedSession(
      name: "kills, yank and yank-pops, undone", width: 20, initialText: "",
      events: [
        .quiet,
        .read([0x6F, 0x6E, 0x65, 0x20, 0x74, 0x77, 0x6F, 0x20, 0x74, 0x68, 0x72, 0x65, 0x65]),
        .read([0x17]), .read([0x17]), .read([0x19]), .read([0x1B, 0x79]), .read([0x1B, 0x79]),
        .read([0x1F]), .read([0x1F]), .read([0x1F]),
      ]),
    RecordedSession(
      name: "pastes with false end markers, one split over reads, one unfinished", width: 81,
      initialText: "",
      events: [
        .read([
          0x1B, 0x5B, 0x32, 0x30, 0x30, 0x7E, 0x61, 0x1B, 0x5B, 0x32, 0x30, 0x1B, 0x5B, 0x32, 0x30,
          0x31, 0x78, 0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E,
        ]),
        .quiet, .read([0x1B, 0x5B, 0x32, 0x30, 0x30, 0x7E, 0xE4, 0xB8]),
        .read([0xAD, 0x1B, 0x5B, 0x32]), .read([0x30, 0x31, 0x7E]),
        .read([0x1B, 0x5B, 0x32, 0x30, 0x30, 0x7E, 0x74, 0x61, 0x69, 0x6C]),
      ]),
    RecordedSession(
      name: "a deletion that lets two regional indicators form a flag", width: 200,
      initialText: "",
      events: [
        .quiet, .read([0xF0, 0x9F, 0x87, 0xAB, 0xE2, 0x80, 0x8B, 0xF0, 0x9F, 0x87, 0xB7]),
        .read([0x02]), .read([0x02]), .read([0x1B, 0x5B, 0x33, 0x7E]), .read([0x1F]),
        .read([0xD8, 0x80]), .read([0x31]),
        .read([0xE1, 0x84, 0x80, 0xE1, 0x85, 0xA1, 0xE1, 0x86, 0xA8]),
      ]),
    RecordedSession(
      name: "a 3-column terminal resized to 200 before a paste", width: 3, initialText: "abc",
      events: [
        .quiet, .read([0x1B, 0x5B, 0x44]), .read([0x78]), .quiet, .resize(200),
        .read(
          [0xC7, 0x79] + Array("\u{1B}[200~long pasted text that scrolls\u{1B}[201~".utf8)),
      ]),
    RecordedSession(
      name: "escape sequences split across reads", width: 50, initialText: "old note!!",
      events: [
        .read([0x1B]), .read([0x5B]), .read([0x31]), .read([0x3B, 0x35, 0x43]),
        .read([0x1B, 0x5B, 0x33, 0x7E]), .read([0x1B, 0x4F]), .read([0x46]),
        .read([0x1B, 0x5D, 0x30, 0x3B, 0x78, 0x07]), .read([0x1B, 0x5B, 0x5B, 0x42]),
        .read([0x1B]), .quiet, .read([0x1B, 0x62]),
      ]),
    RecordedSession(
      name: "typing, a paste with CRLF, kill and yank, Esc, transpose", width: 80,
      initialText: "hello",
      events: [
        .quiet, .read([0x61, 0x62, 0x1B, 0x5B, 0x31, 0x3B, 0x35, 0x44]),
        .read([
          0x1B, 0x5B, 0x32, 0x30, 0x30, 0x7E, 0x78, 0x0D, 0x0A, 0x79, 0x1B, 0x5B, 0x32, 0x30, 0x31,
          0x7E,
        ]),
        .read([0x01, 0x0B, 0x19]), .quiet, .read([0x1B]), .quiet, .resize(21),
        .read([0x14, 0xE4, 0xB8, 0xAD, 0xF0, 0x9F, 0x87, 0xAB, 0xF0, 0x9F, 0x87, 0xB7]),
      ]),
    RecordedSession(
      name: "wide and zero-width characters on an 11-column terminal", width: 11,
      initialText: "中文\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}abc\tdef\n",
      events: [
        .read([0xCC, 0x81, 0x78]), .read([0x01]), .read([0x1B, 0x5B, 0x43]),
        .read([0x1B, 0x5B, 0x43]), .read([0x1B, 0x5B, 0x43]), .read([0x14]), .read([0x05]),
        .read([0x7F]),
      ]),
  ]

  @Test(arguments: seedCorpus)
  func aSeedSessionKeepsEveryRule(session: RecordedSession) {
    replay(session)
  }

  // MARK: - Replaying

  /// Plays `session` as the prompt would and expects the fuzzer's rules to hold.
  private func replay(_ session: RecordedSession) {
    var decoder = KeyDecoder()
    var referenceDecoder = KeyDecoder()
    var bytesSinceQuiet: [UInt8] = []
    var keysSinceQuiet: [Key] = []
    var state = EditState(text: session.initialText)
    var renderer = Renderer(prompt: "> ")
    var width = session.width

    func handle(_ keys: [Key]) {
      keysSinceQuiet += keys
      for key in keys {
        _ = state.handle(key)
        #expect((0...state.buffer.count).contains(state.cursor), "cursor after \(key)")
      }
      expectBufferHoldsTheCharactersOfItsText(state)
      expectRenderFits(renderer.render(state.buffer, cursor: state.cursor, width: width), width)
      #expect(renderer.drawnColumns <= width - 1)
    }

    func quiet() {
      handle(decoder.flush())
      let atOnce = referenceDecoder.decode(bytesSinceQuiet) + referenceDecoder.flush()
      #expect(joiningText(keysSinceQuiet) == joiningText(atOnce), "keys depend on reads")
      bytesSinceQuiet = []
      keysSinceQuiet = []
    }

    for event in session.events {
      switch event {
      case .read(let bytes):
        bytesSinceQuiet += bytes
        handle(decoder.decode(bytes))
      case .quiet:
        quiet()
      case .resize(let newWidth):
        width = newWidth
        renderer.invalidate()
      }
    }
    quiet()

    var undoing = state
    while undoing.handle(.control("_")) == .edited {
      #expect((0...undoing.buffer.count).contains(undoing.cursor))
    }
    #expect(undoing.text.unicodeScalars.elementsEqual(session.initialText.unicodeScalars))
  }

  private func expectBufferHoldsTheCharactersOfItsText(
    _ state: EditState, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let characters = Array(state.text)
    #expect(characters.count == state.buffer.count, sourceLocation: sourceLocation)
    #expect(
      zip(characters, state.buffer).allSatisfy {
        $0.unicodeScalars.elementsEqual($1.unicodeScalars)
      }, sourceLocation: sourceLocation)
  }

  /// No control byte but CR and ESC is written, and the cursor is left
  /// inside the terminal.
  private func expectRenderFits(
    _ bytes: [UInt8], _ width: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let controls = bytes.filter { ($0 < 0x20 && $0 != 0x0D && $0 != 0x1B) || $0 == 0x7F }
    #expect(controls.isEmpty, sourceLocation: sourceLocation)
    guard bytes.last == UInt8(ascii: "C"), let escape = bytes.lastIndex(of: 0x1B) else { return }
    let digits = bytes[(escape + 2)..<(bytes.count - 1)]
    let column = Int(String(decoding: digits, as: UTF8.self)) ?? .max
    #expect(column <= width - 1, sourceLocation: sourceLocation)
  }

  /// A decoder makes one `.text` per read, so reads split text keys.
  private func joiningText(_ keys: [Key]) -> [Key] {
    var joined: [Key] = []
    for key in keys {
      if case .text(let text) = key, case .text(let previous) = joined.last {
        joined[joined.count - 1] = .text(previous + text)
      } else {
        joined.append(key)
      }
    }
    return joined
  }
}
