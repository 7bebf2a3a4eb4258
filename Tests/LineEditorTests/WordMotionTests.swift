import Testing

@testable import LineEditor

/// Word moves and kills pass whole chunks that hold no place where a word
/// starts or ends. These tests check, on texts cut into many chunks with long
/// words and long gaps across their boundaries, that every word key stops
/// exactly where a walk Character by Character stops.
@Suite struct WordMotionTests {
  /// Letters, digits, marks, spaces, punctuation, emoji: every kind.
  static let pieces: [String] = [
    "a", "Z", "7", "é", "日", "\u{301}", " ", "\t", "\n", ".", "-", "🇫🇷", "👩‍💻", "\u{A0}", "٣",
    "e\u{301}", "\r\n",
  ]

  /// A text of about 20 KB: runs of one piece, some longer than a chunk,
  /// between short mixed stretches.
  static func text(using random: inout SeededRandomNumbers) -> String {
    var text = ""
    while text.utf8.count < 20_000 {
      let piece = pieces.randomElement(using: &random)!
      let long = Int.random(in: 0..<4, using: &random) == 0
      let run =
        long ? Int.random(in: 500...5_000, using: &random) : Int.random(in: 1...5, using: &random)
      text += String(repeating: piece, count: run)
    }
    return text
  }

  /// The naive reference: readline's definitions, one Character at a time.
  struct Reference {
    let characters: [Character]

    func isWord(_ index: Int) -> Bool {
      characters[index].isLetter || characters[index].isNumber
    }

    func endOfWord(after position: Int) -> Int {
      var index = position
      while index < characters.count, !isWord(index) { index += 1 }
      while index < characters.count, isWord(index) { index += 1 }
      return index
    }

    func startOfWord(before position: Int) -> Int {
      var index = position
      while index > 0, !isWord(index - 1) { index -= 1 }
      while index > 0, isWord(index - 1) { index -= 1 }
      return index
    }

    func startOfWhitespaceDelimitedWord(before position: Int) -> Int {
      var index = position
      while index > 0, characters[index - 1].isWhitespace { index -= 1 }
      while index > 0, !characters[index - 1].isWhitespace { index -= 1 }
      return index
    }

    /// The text without the Characters in `range`.
    func removing(_ range: Range<Int>) -> String {
      String(characters[..<range.lowerBound]) + String(characters[range.upperBound...])
    }
  }

  @Test func everyWordKeyStopsWhereACharacterByCharacterWalkStops() {
    var random = SeededRandomNumbers(seed: 0x57_0D_13)
    for _ in 0..<5 {
      let text = Self.text(using: &random)
      let reference = Reference(characters: Array(text))
      let start = EditState(text: text)
      #expect(start.buffer.chunks.count > 4)
      for _ in 0..<200 {
        let position = Int.random(in: 0...reference.characters.count, using: &random)
        var state = start
        state.cursor = position
        let key = [Key.alt("f"), .alt("b"), .control("w"), .alt("d"), .alt("\u{7F}")]
          .randomElement(using: &random)!
        _ = state.handle(key)
        let expected: (text: String, cursor: Int)
        switch key {
        case .alt("f"): expected = (text, reference.endOfWord(after: position))
        case .alt("b"): expected = (text, reference.startOfWord(before: position))
        case .control("w"):
          let start = reference.startOfWhitespaceDelimitedWord(before: position)
          expected = (reference.removing(start..<position), start)
        case .alt("d"):
          expected = (reference.removing(position..<reference.endOfWord(after: position)), position)
        default:
          let start = reference.startOfWord(before: position)
          expected = (reference.removing(start..<position), start)
        }
        #expect(state.cursor == expected.cursor, "\(key) from \(position)")
        #expect(state.text == expected.text, "\(key) from \(position)")
      }
    }
  }

  @Test func eachChunkKnowsTheKindsOfItsCharactersAfterEdits() {
    var random = SeededRandomNumbers(seed: 0x4B_1D)
    var state = EditState(text: Self.text(using: &random))
    let keys: [Key] = [
      .control("k"), .control("u"), .control("y"), .alt("y"), .control("_"), .control("w"),
      .alt("d"), .backspace, .delete, .text("x"), .text(" "), .control("t"),
      .paste(String(repeating: "word ", count: 2_000)),
      .paste(String(repeating: "7", count: 9_000)),
    ]
    for round in 0..<300 {
      state.cursor = Int.random(in: 0...state.buffer.count, using: &random)
      _ = state.handle(keys.randomElement(using: &random)!)
      guard round % 10 == 0 else { continue }
      for chunk in state.buffer.chunks {
        let kinds = (0..<chunk.count).reduce(into: CharacterKinds()) {
          $0.formUnion(CharacterKinds(chunk[$1]))
        }
        #expect(chunk.kinds == kinds)
      }
    }
  }
}
