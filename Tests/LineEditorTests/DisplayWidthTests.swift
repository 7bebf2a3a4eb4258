import Testing

@testable import LineEditor

@Suite struct DisplayWidthTests {
  @Suite struct Columns {
    @Test(arguments: ["a", "Z", "0", " ", "~", "é", "ß", "Ж", "α"] as [Character])
    func aPlainLetterOrSymbolTakesOneColumn(_ character: Character) {
      #expect(DisplayWidth.columns(of: character) == 1)
    }

    @Test(arguments: ["中", "한", "あ", "Ａ", "〇", "\u{3000}"] as [Character])
    func eastAsianWideAndFullwidthTakeTwoColumns(_ character: Character) {
      #expect(DisplayWidth.columns(of: character) == 2)
    }

    /// The shortcut without property look-ups, on every scalar it answers for.
    @Test func plainScalarsTakeTheColumnsTheirPropertiesGive() {
      var answered = 0
      for value in UInt32(0)...0x10FFFF {
        guard let scalar = Unicode.Scalar(value) else { continue }
        let character = Character(scalar)
        guard let plain = DisplayWidth.plainColumns(of: character) else { continue }
        answered += 1
        let byProperties = DisplayWidth.columnsByProperties(of: character)
        #expect(plain == byProperties, "U+\(String(value, radix: 16, uppercase: true))")
        #expect(plain > 0, "U+\(String(value, radix: 16, uppercase: true)) needs no stand-in")
        #expect(WidthKind(of: character) == nil)
      }
      #expect(answered > 35_000)  // the blocks of StandaloneScalars, less controls and U+00AD
      #expect(DisplayWidth.plainColumns(of: "\u{AD}") == nil)
      #expect(DisplayWidth.plainColumns(of: "e\u{301}") == nil)
      #expect(DisplayWidth.plainColumns(of: "\t") == nil)
    }

    @Test func aBaseWithACombiningMarkTakesTheColumnsOfItsBase() {
      #expect(DisplayWidth.columns(of: "e\u{301}") == 1)
      #expect(DisplayWidth.columns(of: "中\u{301}\u{302}") == 2)
    }

    @Test func anEmojiZWJSequenceTakesTwoColumnsAsAWhole() {
      let family: Character = "👨‍👩‍👧"
      #expect(family.unicodeScalars.count == 5)
      #expect(DisplayWidth.columns(of: family) == 2)
      // A text-style base joined by ZWJ is a picture too: rainbow flag.
      #expect(DisplayWidth.columns(of: "🏳\u{FE0F}\u{200D}🌈") == 2)
    }

    @Test func aFlagTakesTwoColumnsAsAWhole() {
      #expect(DisplayWidth.columns(of: "🇫🇷") == 2)
    }

    @Test func variationSelector16MakesATextEmojiTwoColumnsWide() {
      #expect(DisplayWidth.columns(of: "☺") == 1)
      #expect(DisplayWidth.columns(of: "☺\u{FE0F}") == 2)
      #expect(DisplayWidth.columns(of: "1\u{FE0F}\u{20E3}") == 2)
    }

    @Test func variationSelector16AfterANonEmojiChangesNothing() {
      #expect(DisplayWidth.columns(of: "a\u{FE0F}") == 1)
    }

    @Test func emojiPresentationAndSkinTonesTakeTwoColumns() {
      #expect(DisplayWidth.columns(of: "😀") == 2)
      #expect(DisplayWidth.columns(of: "👍🏽") == 2)
    }

    @Test(
      arguments: ["\u{200B}", "\u{200D}", "\u{FE0F}", "\u{301}", "\u{20DD}", "\u{FEFF}"]
        as [Character])
    func aLoneZeroWidthCharacterTakesNoColumns(_ character: Character) {
      #expect(DisplayWidth.columns(of: character) == 0)
    }

    @Test func hangulJamoJoinTheirSyllable() {
      let syllable: Character = "\u{1112}\u{1161}\u{11AB}"  // 한 spelled as three jamo
      #expect(syllable.unicodeScalars.count == 3)
      #expect(DisplayWidth.columns(of: syllable) == 2)
      #expect(DisplayWidth.columns(of: "\u{1161}") == 0)
      #expect(DisplayWidth.columns(of: "\u{11AB}") == 0)
    }

    @Test func aPrependedFormatCharacterDoesNotHideItsCluster() {
      // The compiler's own grapheme check rejects this as a Character literal.
      let text = "\u{0600}1"
      #expect(text.count == 1)
      #expect(DisplayWidth.columns(of: text.first!) == 1)
    }

    @Test(
      arguments: ["\n", "\r\n", "\t", "\u{0}", "\u{1B}", "\u{7F}", "\u{85}", "\u{2028}"]
        as [Character])
    func controlCharactersTakeNoColumnsOfTheirOwn(_ character: Character) {
      #expect(DisplayWidth.columns(of: character) == 0)
    }

    @Test func ideographsNewerThanTheTableAreStillWide() {
      // CJK Unified Ideographs Extension H (Unicode 15), unassigned in the
      // generated table's Unicode 14: the default for the plane is Wide.
      #expect(DisplayWidth.columns(of: "\u{31350}") == 2)
    }
  }

  @Suite struct WideTable {
    @Test func rangesAreSortedAndSeparate() {
      let ranges = DisplayWidth.wideRanges
      #expect(!ranges.isEmpty)
      for (before, after) in zip(ranges, ranges.dropFirst()) {
        #expect(before.upperBound + 1 < after.lowerBound, "\(before) and \(after)")
      }
    }

    @Test func theSearchFindsBothEndsOfEveryRangeAndNothingJustOutside() {
      for range in DisplayWidth.wideRanges {
        for value in [range.lowerBound, range.upperBound] {
          #expect(DisplayWidth.isEastAsianWide(Unicode.Scalar(value)!), "U+\(hex(value))")
        }
        for value in [range.lowerBound - 1, range.upperBound + 1] {
          guard let scalar = Unicode.Scalar(value) else { continue }
          #expect(!DisplayWidth.isEastAsianWide(scalar), "U+\(hex(value))")
        }
      }
    }

    private func hex(_ value: UInt32) -> String {
      String(value, radix: 16, uppercase: true)
    }
  }

  @Suite struct StandIns {
    @Test(
      arguments: [
        ("\n", "\u{21B5}"), ("\r\n", "\u{21B5}"), ("\t", "\u{21E5}"), ("\r", "\u{240D}"),
        ("\u{0}", "\u{2400}"), ("\u{1}", "\u{2401}"), ("\u{1B}", "\u{241B}"),
        ("\u{1F}", "\u{241F}"), ("\u{7F}", "\u{2421}"), ("\u{80}", "\u{FFFD}"),
        ("\u{85}", "\u{FFFD}"), ("\u{9F}", "\u{FFFD}"), ("\u{2028}", "\u{FFFD}"),
        ("\u{2029}", "\u{FFFD}"),
      ] as [(Character, Character)])
    func aControlCharacterHasAVisibleStandIn(_ control: Character, _ standIn: Character) {
      #expect(DisplayWidth.standIn(for: control) == standIn)
      #expect(DisplayWidth.columns(of: standIn) == 1)
    }

    @Test func aLoneCombiningMarkIsShownOnADottedCircle() {
      #expect(DisplayWidth.standIn(for: "\u{301}") == "\u{25CC}\u{301}")
      #expect(DisplayWidth.columns(of: "\u{25CC}\u{301}") == 1)
    }

    @Test(arguments: ["\u{200B}", "\u{200D}", "\u{202E}", "\u{FEFF}", "\u{1161}"] as [Character])
    func anInvisibleCharacterIsShownAsAReplacementCharacter(_ character: Character) {
      #expect(DisplayWidth.standIn(for: character) == "\u{FFFD}")
    }

    @Test(arguments: ["a", "中", "e\u{301}", "👨‍👩‍👧", "\u{25CC}"] as [Character])
    func aPrintableCharacterIsDrawnAsItself(_ character: Character) {
      #expect(DisplayWidth.standIn(for: character) == nil)
    }

    @Test func everyScalarIsDrawnOneOrTwoColumnsWideOrAsAOneColumnStandIn() {
      var failures: [String] = []
      for value in UInt32(0)...0x10_FFFF {
        guard let scalar = Unicode.Scalar(value) else { continue }
        let character = Character(scalar)
        let drawn = DisplayWidth.standIn(for: character)
        let columns = DisplayWidth.columns(of: drawn ?? character)
        if drawn == nil ? !(1...2).contains(columns) : columns != 1 {
          failures.append(String(value, radix: 16))
        }
      }
      #expect(failures.isEmpty, "U+\(failures.prefix(10))")
    }
  }

  @Suite struct Cutting {
    private func kept(_ text: String, _ columns: Int) -> (String, Int) {
      let cut = DisplayWidth.end(of: text, fittingColumns: columns)
      return (String(text[..<cut.end]), cut.columns)
    }

    @Test func aTextIsCutByWholeCharactersToTheColumnsGiven() {
      #expect(kept("hello", 3) == ("hel", 3))
      #expect(kept("hello", 9) == ("hello", 5))
      #expect(kept("hello", 0) == ("", 0))
      // A wide character that does not fit whole is left out.
      #expect(kept("a中b", 2) == ("a", 1))
      #expect(kept("a中b", 3) == ("a中", 3))
      // A combining mark stays with its letter.
      #expect(kept("e\u{301}x", 1) == ("e\u{301}", 1))
    }
  }
}
