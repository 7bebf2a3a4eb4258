import LineEditor
import Testing

@Suite struct TextBufferTests {
  @Suite struct Contents {
    @Test func holdsTheCharactersOfTheStringItWasMadeFrom() {
      let text = "he\u{301}llo 👨‍👩‍👧 中文 🇫🇷\n\t"
      let buffer = TextBuffer(text)
      #expect(buffer.count == text.count)
      #expect(buffer.string == text)
      #expect(buffer.description == text)
      #expect(Array(buffer) == Array(text))
      expectClusteredLikeItsString(buffer)
    }

    @Test func anEmptyBufferHasNoCharacters() {
      let buffer = TextBuffer()
      #expect(buffer.isEmpty)
      #expect(buffer.count == 0)
      #expect(buffer.string == "")
      #expect(TextBuffer("").isEmpty)
    }

    @Test func isIndexedFromZeroToCountLikeAnArray() {
      var buffer = TextBuffer("abcdef")
      buffer.insert(contentsOf: "XY", at: 3)  // moves the gap into the middle
      #expect(buffer.indices == 0..<8)
      #expect(buffer.startIndex == 0)
      #expect(buffer.endIndex == 8)
      #expect(buffer.first == "a")
      #expect(buffer.last == "f")
      #expect(buffer[3] == "X")
      #expect(buffer[5] == "d")
      #expect(String(buffer[2..<6]) == "cXYd")
      #expect(String(buffer.reversed()) == "fedYXcba")
      #expect(buffer.index(before: 8) == 7)
      #expect(buffer.distance(from: 1, to: 7) == 6)
    }
  }

  @Suite struct Editing {
    @Test func insertingReturnsTheIndexAfterTheInsertedText() {
      var buffer = TextBuffer("ace")
      #expect(buffer.insert(contentsOf: "b", at: 1) == 2)
      #expect(buffer.insert(contentsOf: "d", at: 3) == 4)
      #expect(buffer.insert(contentsOf: "fg", at: 5) == 7)
      #expect(buffer.insert(contentsOf: ">", at: 0) == 1)
      #expect(buffer.string == ">abcdefg")
      expectClusteredLikeItsString(buffer)
    }

    @Test func removingReturnsWhereTheRemovedTextWas() {
      var buffer = TextBuffer("abcdefgh")
      #expect(buffer.removeSubrange(2..<4) == 2)
      #expect(buffer.string == "abefgh")
      #expect(buffer.removeSubrange(0..<1) == 0)
      #expect(buffer.removeSubrange(3..<5) == 3)
      #expect(buffer.string == "bef")
      #expect(buffer.removeSubrange(0..<3) == 0)
      #expect(buffer.isEmpty)
    }

    @Test func replacingSwapsARangeForNewText() {
      var buffer = TextBuffer("one two three")
      #expect(buffer.replaceSubrange(4..<7, with: "2") == 5)
      #expect(buffer.string == "one 2 three")
      #expect(buffer.replaceSubrange(0..<0, with: "") == 0)
      #expect(buffer.string == "one 2 three")
    }

    @Test func editsAtOppositeEndsKeepTheTextInOrder() {
      var buffer = TextBuffer("middle")
      var model = "middle"
      for round in 0..<200 {
        let letter = String(UnicodeScalar(UInt8(97 + round % 26)))
        buffer.insert(contentsOf: letter, at: 0)
        buffer.insert(contentsOf: letter.uppercased(), at: buffer.count)
        model = letter + model + letter.uppercased()
        if round % 3 == 0 {
          buffer.removeSubrange(buffer.count / 2..<buffer.count / 2 + 1)
          var characters = Array(model)
          characters.remove(at: characters.count / 2)
          model = String(characters)
        }
      }
      #expect(buffer.string == model)
      expectClusteredLikeItsString(buffer)
    }

    @Test func growsWhenTheGapFillsUp() {
      var buffer = TextBuffer("[]")
      var index = 1
      for _ in 0..<5_000 {
        index = buffer.insert(contentsOf: "é", at: index)
      }
      #expect(buffer.count == 5_002)
      #expect(buffer.string == "[" + String(repeating: "é", count: 5_000) + "]")
    }
  }

  /// Keys arrive one scalar at a time; the buffer must end up with the
  /// Characters Swift makes of the whole text.
  @Suite struct Clustering {
    /// Inserts each scalar of `text` at the end, one at a time.
    private func typed(_ text: String, into start: String = "") -> TextBuffer {
      var buffer = TextBuffer(start)
      for scalar in text.unicodeScalars {
        buffer.insert(contentsOf: String(scalar), at: buffer.count)
        expectClusteredLikeItsString(buffer)
      }
      return buffer
    }

    @Test func aCombiningAccentJoinsTheLetterBeforeIt() {
      let buffer = typed("e\u{301}")
      #expect(buffer.count == 1)
      #expect(buffer.first == "e\u{301}")
    }

    @Test func twoRegionalIndicatorsMakeOneFlag() {
      #expect(typed("🇫🇷").count == 1)
      #expect(Array(typed("🇫🇷🇩🇪")) == ["🇫🇷", "🇩🇪"])
    }

    @Test func hangulJamoTypedOneByOneMakeOneSyllable() {
      let buffer = typed("\u{1100}\u{1161}\u{11A8}")
      #expect(buffer.count == 1)
      #expect(buffer.first == "\u{1100}\u{1161}\u{11A8}")
    }

    @Test func anEmojiZWJSequenceTypedOneScalarAtATimeIsOneCharacter() {
      let buffer = typed("👨‍👩‍👧")
      #expect(buffer.count == 1)
      #expect(buffer.string == "👨‍👩‍👧")
    }

    @Test func wideCharactersStaySeparate() {
      #expect(Array(typed("中文")) == ["中", "文"])
    }

    @Test func aLineFeedAfterACarriageReturnJoinsIt() {
      #expect(Array(typed("\r\n")) == ["\r\n"])
    }

    @Test func insertingBetweenPairedFlagsRepairsThePairingAfterIt() {
      var buffer = TextBuffer("🇫🇷🇩🇪")
      buffer.insert(contentsOf: "🇮", at: 1)
      expectClusteredLikeItsString(buffer)
      #expect(Array(buffer) == ["🇫🇷", "🇮🇩", "🇪"])
    }

    /// The characters right next to an edit are not always enough: deleting
    /// `x` from 🇫 x 🇷🇩 🇪 re-pairs every indicator after it.
    @Test func deletingBetweenRegionalIndicatorsRepairsThePairingAfterTheNextCharacter() {
      var buffer = TextBuffer("🇫x🇷🇩🇪")
      #expect(Array(buffer) == ["🇫", "x", "🇷🇩", "🇪"])
      #expect(buffer.removeSubrange(1..<2) == 1)
      expectClusteredLikeItsString(buffer)
      #expect(Array(buffer) == ["🇫🇷", "🇩🇪"])
    }

    @Test func anEmojiInsertedBeforeAJoinerJoinsTheEmojiAfterIt() {
      var buffer = TextBuffer("\u{200D}👩!")
      #expect(buffer.count == 3)
      #expect(buffer.insert(contentsOf: "👨", at: 0) == 1)
      expectClusteredLikeItsString(buffer)
      #expect(Array(buffer) == ["👨\u{200D}👩", "!"])
    }

    @Test func removingAFlagLeavesTheOtherWhole() {
      var buffer = TextBuffer("🇫🇷🇩🇪")
      buffer.removeSubrange(0..<1)
      #expect(Array(buffer) == ["🇩🇪"])
      buffer.insert(contentsOf: "🇫🇷", at: 1)
      #expect(Array(buffer) == ["🇩🇪", "🇫🇷"])
    }

    @Test func aBaseInsertedBeforeALoneAccentTakesItAndTheIndexMovesPastBoth() {
      var buffer = TextBuffer("\n\u{301}z")
      #expect(buffer.count == 3)
      #expect(buffer.insert(contentsOf: "e", at: 1) == 2)
      #expect(Array(buffer) == ["\n", "e\u{301}", "z"])
    }

    @Test func anAccentInsertedInTheMiddleJoinsTheLetterBeforeIt() {
      var buffer = TextBuffer("ab")
      #expect(buffer.insert(contentsOf: "\u{301}", at: 1) == 1)
      #expect(Array(buffer) == ["a\u{301}", "b"])
    }

    @Test func removingTheCharacterBetweenALetterAndALoneAccentJoinsThem() {
      var buffer = TextBuffer("e\n\u{301}")
      #expect(buffer.removeSubrange(1..<2) == 1)
      #expect(Array(buffer) == ["e\u{301}"])
    }
  }

  @Suite struct RandomizedEdits {
    /// Scalars that interact across Character boundaries, and some that do not.
    static let pieces: [String] = [
      "a", "b", " ", "e", "\u{301}", "\u{308}", "🇫", "🇷", "🇩", "\u{200D}", "👩", "👨", "\u{FE0F}",
      "\u{1100}", "\u{1161}", "\u{11A8}", "\u{AC00}", "中", "\r", "\n", "\u{915}", "\u{94D}",
      "\u{937}", "🏽", "x\u{301}y", "🇫🇷", "\u{200D}👩",
    ]

    @Test func theBufferMatchesAPlainStringAfterEveryEdit() {
      var random = SeededRandomNumbers(seed: 20_240_611)
      var buffer = TextBuffer()
      var model = ""
      for _ in 0..<3_000 {
        let characters = Array(model)
        let count = characters.count
        let start = Int.random(in: 0...count, using: &random)
        let maximumLength = count > 40 ? 4 : 1
        let end = Swift.min(count, start + Int.random(in: 0...maximumLength, using: &random))
        let text =
          count > 60 || Bool.random(using: &random)
          ? "" : Self.pieces.randomElement(using: &random)!
        let returned = buffer.replaceSubrange(start..<end, with: text)
        let before = String(characters[..<start]) + text
        model = before + String(characters[end...])

        #expect(buffer.count == model.count)
        #expect(sameScalars(Array(buffer), Array(model)), "\(scalars(Array(buffer)))")
        // The returned index is the first boundary at or after the new text.
        #expect((0...buffer.count).contains(returned))
        let utf8Before = before.utf8.count
        #expect(buffer[..<returned].reduce(0) { $0 + $1.utf8.count } >= utf8Before)
        if returned > 0 {
          #expect(buffer[..<(returned - 1)].reduce(0) { $0 + $1.utf8.count } < utf8Before)
        }
      }
    }
  }
}

/// Checks the invariant every edit keeps: the buffer holds exactly the
/// Characters Swift makes of its text, scalar for scalar.
func expectClusteredLikeItsString(
  _ buffer: TextBuffer, sourceLocation: SourceLocation = #_sourceLocation
) {
  let characters = Array(buffer)
  let clustered = Array(buffer.string)
  #expect(
    sameScalars(characters, clustered),
    "buffer \(scalars(characters)) but string \(scalars(clustered))",
    sourceLocation: sourceLocation)
}

/// Whether two lists of Characters are the same scalar for scalar (`==` on
/// Characters compares canonical equivalence, which is too lenient here).
func sameScalars(_ left: [Character], _ right: [Character]) -> Bool {
  left.count == right.count
    && zip(left, right).allSatisfy { $0.unicodeScalars.elementsEqual($1.unicodeScalars) }
}

/// Characters as lists of scalar values, for failure messages.
func scalars(_ characters: [Character]) -> String {
  let described = characters.map { character in
    character.unicodeScalars.map { String($0.value, radix: 16, uppercase: true) }
      .joined(separator: " ")
  }
  return "[" + described.joined(separator: ", ") + "]"
}

/// SplitMix64: a tiny generator with a fixed seed, so randomized tests replay
/// the same sequence on every run.
struct SeededRandomNumbers: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}
