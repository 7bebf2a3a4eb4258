import Testing

@testable import LineEditor

/// Text of more than a chunk (a long paste, a yanked or undone kill) is
/// spliced in chunk by chunk and re-clustered only where it meets the text
/// around it; these tests check the result against Swift clustering the
/// whole text afresh.
@Suite struct TextBufferSplicingTests {
  /// A text of several chunks that starts and ends with scalars that join
  /// their neighbours (marks, joiners, regional indicators, CR LF, jamo).
  static func longText(using random: inout SeededRandomNumbers) -> String {
    let pieces = TextBufferTests.RandomizedEdits.pieces
    var text = ""
    for _ in 0..<Int.random(in: 1...3, using: &random) {
      text += pieces.randomElement(using: &random)!
    }
    let body = ["note café ", "日本語", "🇫🇷", "x", "e\u{301}"].randomElement(using: &random)!
    text += String(repeating: body, count: Int.random(in: 800...3_000, using: &random))
    for _ in 0..<Int.random(in: 1...3, using: &random) {
      text += pieces.randomElement(using: &random)!
    }
    return text
  }

  @Test func aSplicedTextIsClusteredAsSwiftClustersTheWholeAndItsChangeUndoesIt() {
    var random = SeededRandomNumbers(seed: 0x5B_11CE)
    var buffer = TextBuffer(Self.longText(using: &random))
    var model = Array(buffer.string)
    for _ in 0..<60 {
      let lower = Int.random(in: 0...model.count, using: &random)
      let upper = min(model.count, lower + Int.random(in: 0...3_000, using: &random))
      let text = Self.longText(using: &random)
      let before = buffer
      let change = buffer.replace(lower..<upper, with: TextBuffer(text))
      model = Array(String(model[..<lower]) + text + String(model[upper...]))

      #expect(buffer.count == model.count)
      #expect(sameScalars(Array(buffer), model))
      expectChunksAreBalanced(buffer)
      #expect((0...buffer.count).contains(change.endOfNewText))

      var undone = buffer
      undone.replace(change.position..<change.position + change.insertedCount, with: change.removed)
      #expect(change.removedCount == change.removed.count)
      #expect(sameScalars(Array(undone), Array(before)))
    }
  }

  @Test func aSliceHoldsTheCharactersOfItsRange() {
    let text = String(repeating: "slice 🇫🇷 e\u{301} 日本 ", count: 1_000)
    let buffer = TextBuffer(text)
    let characters = Array(text)
    for range in [0..<0, 0..<1, 3..<9_000, 4_000..<characters.count, 0..<characters.count] {
      #expect(sameScalars(Array(buffer.slice(range)), Array(characters[range])))
    }
  }

  @Test func killingAndYankingALongTextPutsBackExactlyWhatWasThere() {
    let text = String(repeating: "a long note, 🇫🇷 and e\u{301}, ", count: 4_000)
    var state = EditState(text: text)
    state.cursor = 1_234
    _ = state.handle(.control("k"))
    #expect(state.text == String(Array(text)[..<1_234]))
    _ = state.handle(.control("y"))
    #expect(state.text == text)
    #expect(state.cursor == state.buffer.count)
    _ = state.handle(.control("_"))
    _ = state.handle(.control("_"))
    #expect(state.text == text)
    #expect(state.cursor == 1_234)
  }
}
