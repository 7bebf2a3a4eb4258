import Testing

@testable import LineEditor

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

/// The text is kept in chunks of a few kilobytes; these tests cross their
/// boundaries on purpose.
extension TextBufferTests {
  @Suite struct Chunks {
    /// Texts whose Characters span several scalars, next to ASCII and not.
    static let texts: [String] = [
      "", "a", "plain ascii text", "a\r\nb\r\n\r\nc", "\r\r\n\n\r", "e\u{301}x\u{301}\u{308}",
      "\u{301}leading mark", "🇫🇷🇩🇪🇮", "x🇫🇷🇩y🇪", "👨‍👩‍👧 and 👩🏽‍💻!", "\u{1100}\u{1161}\u{11A8}a",
      "\u{915}\u{94D}\u{937}\u{93F} ok", "café naïve 日本語 メモ α β", "tab\there\u{200D}👩",
      "\u{FEFF}\u{600}\u{661}z", "a\u{FE0F}\u{20E3}#\u{FE0F}\u{20E3}",
      // Below U+0300, then next to marks, CR and scalars above it.
      "façade über ǅ\u{AD}\u{85}ÿ", "é\u{301}ñ\r\nß\rü", "Ωmega ɐ\u{2FF}\u{300}",
    ]

    /// Scalars below U+0300 that are not ASCII, and the random pieces.
    static let pieces = RandomizedEdits.pieces + ["é", "ß", "\u{85}", "\u{AD}", "\u{2FF}", "ǅ"]

    /// Whether `chunks` hold exactly the Characters and bytes of `text`.
    private func expectChunks(
      _ chunks: [TextChunk], holdExactly text: String,
      sourceLocation: SourceLocation = #_sourceLocation
    ) {
      let characters = chunks.flatMap { chunk in (0..<chunk.count).map { chunk[$0] } }
      #expect(
        sameScalars(characters, Array(text)), "\(scalars(characters))",
        sourceLocation: sourceLocation)
      #expect(
        Array(chunks.map(\.text).joined().utf8) == Array(text.utf8), sourceLocation: sourceLocation)
      #expect(chunks.allSatisfy { !$0.isEmpty }, sourceLocation: sourceLocation)
    }

    @Test func loadingCutsTheTextBetweenTheCharactersSwiftMakesOfIt() {
      for text in Self.texts + [Self.texts.joined(), Self.texts.joined(separator: "\u{301}")] {
        for target in 1...12 {
          let limits = TextChunk.Limits(target: target, minimum: target / 2, maximum: 2 * target)
          let chunks = TextChunk.chunks(of: text, limits: limits)
          expectChunks(chunks, holdExactly: text)
          expectChunks(chunks, within: limits, textLength: text.utf8.count)
        }
      }
    }

    @Test func loadingClustersLikeSwiftWhateverTheMixOfScalars() {
      var random = SeededRandomNumbers(seed: 0xC4_0C5)
      for _ in 0..<300 {
        let text = (0..<Int.random(in: 1...30, using: &random)).map { _ in
          Self.pieces.randomElement(using: &random)!
        }.joined()
        let target = Int.random(in: 1...16, using: &random)
        let limits = TextChunk.Limits(target: target, minimum: target / 2, maximum: target + 3)
        let chunks = TextChunk.chunks(of: text, limits: limits)
        expectChunks(chunks, holdExactly: text)
        expectChunks(chunks, within: limits, textLength: text.utf8.count)
      }
    }

    /// Checks how text is cut: no chunk over the maximum unless it is one
    /// long Character; every chunk but the last filled to at least half the
    /// target, unless the next one is a long Character; the last one at
    /// least the minimum, unless it did not fit with the one before.
    private func expectChunks(
      _ chunks: [TextChunk], within limits: TextChunk.Limits, textLength: Int,
      sourceLocation: SourceLocation = #_sourceLocation
    ) {
      let sizes = chunks.map(\.utf8Count)
      #expect(
        chunks.allSatisfy { $0.utf8Count <= limits.maximum || $0.count == 1 }, "\(sizes)",
        sourceLocation: sourceLocation)
      guard textLength >= limits.target else { return }
      for (chunk, next) in zip(chunks, chunks.dropFirst()) {
        #expect(
          2 * chunk.utf8Count >= limits.target || chunk.utf8Count + next.utf8Count > limits.maximum,
          "\(sizes)", sourceLocation: sourceLocation)
      }
      if chunks.count > 1, let last = chunks.last {
        #expect(
          last.utf8Count >= limits.minimum
            || chunks[chunks.count - 2].utf8Count + last.utf8Count > limits.maximum,
          "\(sizes)", sourceLocation: sourceLocation)
      }
    }

    @Test func aLongNoteIsCutIntoChunksOfAFewKilobytes() {
      let text = String(repeating: "note café 日本語 🇫🇷 e\u{301} ", count: 2_000)
      let buffer = TextBuffer(text)
      #expect(buffer.count == text.count)
      #expect(buffer.string == text)
      #expect(buffer.chunkSizes.count > 20)
      #expect(buffer.chunkSizes.allSatisfy { $0.bytes <= TextBuffer.chunkLimits.maximum })
      expectClusteredLikeItsString(buffer)
    }

    @Test func flagsAcrossAChunkBoundaryStayPaired() {
      let text = String(repeating: "🇫🇷", count: 3_000)
      var buffer = TextBuffer(text)
      #expect(buffer.chunkSizes.count > 1)
      #expect(buffer.count == 3_000)
      #expect(buffer.allSatisfy { $0 == "🇫🇷" })
      // Removing one indicator re-pairs every one after it, across chunks.
      #expect(buffer.removeSubrange(0..<1) == 0)
      expectClusteredLikeItsString(buffer)
      #expect(buffer.count == 2_999)
      #expect(buffer.string == String(repeating: "🇫🇷", count: 2_999))
    }

    @Test func aCharacterLongerThanAChunkGetsAChunkOfItsOwn() {
      let long = "a" + String(repeating: "\u{301}", count: TextBuffer.chunkLimits.maximum)
      var buffer = TextBuffer("x" + long + "y")
      #expect(Array(buffer).count == 3)
      #expect(buffer.insert(contentsOf: "z", at: 2) == 3)
      #expect(buffer.insert(contentsOf: "\u{308}", at: 2) == 2)
      expectClusteredLikeItsString(buffer)
      #expect(sameScalars(Array(buffer), ["x", Character(long + "\u{308}"), "z", "y"]))
      #expect(
        buffer.chunkSizes.allSatisfy {
          $0.bytes <= TextBuffer.chunkLimits.maximum || $0.characters == 1
        })
    }

    /// Three chunks' worth of ASCII, so that chunk boundaries fall exactly
    /// every `target` Characters.
    static let ascii = String(
      repeating: "0123456789abcdef", count: 3 * TextBuffer.chunkLimits.target / 16)

    @Test func aMarkInsertedAtAChunkBoundaryJoinsTheCharacterBeforeIt() {
      let boundary = TextBuffer.chunkLimits.target
      #expect(TextBuffer(Self.ascii).chunkSizes.first?.characters == boundary)
      for position in (boundary - 2)...(boundary + 2) {
        var buffer = TextBuffer(Self.ascii)
        #expect(buffer.insert(contentsOf: "\u{301}", at: position) == position)
        #expect(buffer.count == Self.ascii.count)
        #expect(buffer[position - 1].unicodeScalars.last == "\u{301}")
        expectClusteredLikeItsString(buffer)
      }
    }

    @Test func removingTheCharacterThatStartsAChunkRejoinsIndicatorsAcrossIt() {
      let boundary = TextBuffer.chunkLimits.target
      // 🇫 ends the first chunk; x starts the second.
      let text =
        String(repeating: "-", count: boundary - 4) + "🇫x🇷🇩🇪"
        + String(repeating: "-", count: 2 * boundary - 17)
      var buffer = TextBuffer(text)
      #expect(buffer.chunkSizes.first?.bytes == boundary)
      #expect(buffer.removeSubrange((boundary - 3)..<(boundary - 2)) == boundary - 3)
      expectClusteredLikeItsString(buffer)
      #expect(Array(buffer[(boundary - 4)..<(boundary - 2)]) == ["🇫🇷", "🇩🇪"])
    }

    @Test func anEditSpanningManyChunksJoinsWhatIsLeftOnEitherSide() {
      var buffer = TextBuffer(Self.ascii)
      var model = Array(Self.ascii)
      let range = 100..<(2 * TextBuffer.chunkLimits.target + 100)
      #expect(buffer.replaceSubrange(range, with: "<é>") == 103)
      model.replaceSubrange(range, with: Array("<é>"))
      #expect(sameScalars(Array(buffer), model))
      #expect(buffer.removeSubrange(0..<buffer.count) == 0)
      #expect(buffer.isEmpty)
      #expect(buffer.chunkSizes.count == 1)
      #expect(buffer.insert(contentsOf: "again", at: 0) == 5)
      #expect(buffer.string == "again")
    }

    @Test func aChunkLeftAlmostEmptyByADeletionJoinsANeighbour() {
      let boundary = TextBuffer.chunkLimits.target
      var buffer = TextBuffer(Self.ascii)
      #expect(buffer.chunkSizes.count == 3)
      // Most of the middle chunk, and only of it.
      buffer.removeSubrange((boundary + 50)..<(2 * boundary - 50))
      var model = Array(Self.ascii)
      model.removeSubrange((boundary + 50)..<(2 * boundary - 50))
      #expect(Array(buffer) == model)
      #expect(buffer.chunkSizes.count == 2)
      expectChunksAreBalanced(buffer)
    }

    @Test func aLongPasteOfLongCharactersLeavesNoChunkTooSmall() {
      // 5,104 families of 25 bytes: cut into chunks of their share of the
      // bytes, rounded up to whole Characters, the last would get 500 bytes.
      let family = "👨‍👩‍👧‍👦"
      #expect(family.utf8.count == 25)
      var buffer = TextBuffer()
      buffer.insert(contentsOf: String(repeating: family, count: 5_104), at: 0)
      #expect(buffer.count == 5_104)
      #expect(buffer.chunkSizes.allSatisfy { $0.bytes >= TextBuffer.chunkLimits.minimum })
      expectChunksAreBalanced(buffer)
    }

    @Test func aLongPasteIsCutIntoChunksAndDeletingItMergesThemAgain() {
      var buffer = TextBuffer("[]")
      let paste = String(repeating: "pasted 日本語 text ", count: 1_000)
      #expect(buffer.insert(contentsOf: paste, at: 1) == paste.count + 1)
      #expect(buffer.string == "[" + paste + "]")
      #expect(buffer.chunkSizes.count > 5)
      expectChunksAreBalanced(buffer)
      for _ in 0..<paste.count {
        buffer.removeSubrange(1..<2)
      }
      #expect(buffer.string == "[]")
      #expect(buffer.chunkSizes.count == 1)
    }

    /// A random mix of short and long edits anywhere in a text of a few
    /// chunks, checked against a plain array of Characters that Swift
    /// clusters afresh after every edit.
    @Test func aLongTextMatchesAnArrayOfItsCharactersAfterEveryEdit() {
      var random = SeededRandomNumbers(seed: 0x0C_4A_2E)
      let start = String(repeating: "note café 🇫🇷 ", count: 300)
      var buffer = TextBuffer(start)
      var model = Array(start)
      for round in 0..<1_000 {
        let count = model.count
        let lower = Int.random(in: 0...count, using: &random)
        let length =
          Int.random(in: 0..<15, using: &random) == 0
          ? Int.random(in: 0...2_500, using: &random) : Int.random(in: 0...2, using: &random)
        let upper = min(count, lower + length)
        var text = ""
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
          text = String(repeating: "long paste ", count: Int.random(in: 1...150, using: &random))
        case 1...5: text = RandomizedEdits.pieces.randomElement(using: &random)!
        default: break
        }
        buffer.replaceSubrange(lower..<upper, with: text)
        model = Array(String(model[..<lower]) + text + String(model[upper...]))

        #expect(buffer.count == model.count)
        // Around the edit, Character by Character; everywhere, now and then.
        let near = max(lower - 3, 0)..<min(lower + text.count + 3, model.count)
        #expect(sameScalars(Array(buffer[near]), Array(model[near])))
        expectChunksAreBalanced(buffer)
        if round % 100 == 0 {
          #expect(sameScalars(Array(buffer), model))
        }
      }
      #expect(sameScalars(Array(buffer), model))
      #expect(buffer.string == String(model))
      expectChunksAreBalanced(buffer)
    }
  }
}

/// Checks that the chunks stay within their bounds, so an edit stays cheap:
/// none is empty unless the text is, none is over the maximum unless it is
/// one long Character, and at most one is under the minimum.
func expectChunksAreBalanced(
  _ buffer: TextBuffer, sourceLocation: SourceLocation = #_sourceLocation
) {
  let sizes = buffer.chunkSizes
  #expect(
    sizes.count == 1 || sizes.allSatisfy { $0.characters > 0 }, sourceLocation: sourceLocation)
  #expect(
    sizes.allSatisfy { $0.bytes <= TextBuffer.chunkLimits.maximum || $0.characters == 1 },
    sourceLocation: sourceLocation)
  #expect(
    sizes.filter { $0.bytes < TextBuffer.chunkLimits.minimum }.count <= 1,
    "\(sizes.map(\.bytes))", sourceLocation: sourceLocation)
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
