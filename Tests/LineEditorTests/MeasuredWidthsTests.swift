import Testing

@testable import LineEditor

private let family: Character = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
/// A woman with a skin tone, joined to a laptop.
private let coder: Character = "\u{1F469}\u{1F3FD}\u{200D}\u{1F4BB}"

@Suite struct MeasuredWidthsTests {
  @Suite struct Kinds {
    @Test func theCharactersTerminalsDisagreeOnAreEachOfTheirKind() {
      #expect(WidthKind(of: family) == .joinedEmoji)
      #expect(WidthKind(of: "\u{1F1EB}\u{1F1F7}") == .flag)
      #expect(WidthKind(of: "\u{1F44D}\u{1F3FD}") == .skinTone)
      #expect(WidthKind(of: "\u{2764}\u{FE0F}") == .emojiVariation)
      #expect(WidthKind(of: "1\u{FE0F}\u{20E3}") == .emojiVariation, "a keycap")
    }

    @Test func aJoinedSequenceIsJoinedWhateverItsPiecesAre() {
      #expect(WidthKind(of: coder) == .joinedEmoji)
      #expect(WidthKind(of: "\u{1F469}\u{200D}\u{2764}\u{FE0F}\u{200D}\u{1F468}") == .joinedEmoji)
    }

    @Test(
      arguments: [
        "a", "Z", "中", "e\u{301}", "\r\n", "\u{2764}", "\u{1F44D}", "\u{1F1EB}", "\u{1F3FD}",
        "a\u{FE0F}", "1\u{20E3}", "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}",
      ] as [Character])
    func everyOtherCharacterIsOfNoKind(character: Character) {
      #expect(WidthKind(of: character) == nil)
    }

    @Test func eachKindsSampleIsOfThatKind() {
      for kind in WidthKind.allCases {
        #expect(WidthKind(of: kind.sample) == kind)
      }
    }
  }

  @Suite struct Recording {
    @Test func aWidthDrawingThePiecesApartIsRecordedAsApart() {
      var widths = MeasuredWidths()
      widths.record(6, for: .joinedEmoji)
      widths.record(2, for: .flag)
      widths.record(4, for: .skinTone)
      widths.record(1, for: .emojiVariation)
      for kind in WidthKind.allCases {
        #expect(widths[kind] == .apart, "\(kind.name)")
      }
      #expect(widths.isComplete)
    }

    @Test func anyOtherWidthIsOneCharacterThatWide() {
      var widths = MeasuredWidths()
      widths.record(2, for: .joinedEmoji)
      widths.record(4, for: .flag)
      widths.record(2, for: .skinTone)
      widths.record(2, for: .emojiVariation)
      #expect(widths[.joinedEmoji] == .whole(columns: 2))
      #expect(widths[.flag] == .whole(columns: 4))
      #expect(widths[.skinTone] == .whole(columns: 2))
      #expect(widths[.emojiVariation] == .whole(columns: 2))
    }

    @Test func assumingApartKeepsWhatWasMeasured() {
      var widths = MeasuredWidths()
      widths.record(2, for: .skinTone)
      widths.assumeApartWhereUnmeasured([.flag])
      #expect(widths[.flag] == .apart)
      #expect(widths[.joinedEmoji] == nil)
      #expect(!widths.isComplete)
      widths.assumeApartWhereUnmeasured()
      #expect(widths[.skinTone] == .whole(columns: 2))
      #expect(widths[.joinedEmoji] == .apart)
      #expect(widths.isComplete)
    }
  }

  @Suite struct Columns {
    @Test func nothingMeasuredIsTheWidthDisplayWidthGives() {
      let widths = MeasuredWidths()
      for character in [family, coder, "\u{2764}\u{FE0F}", "a", "中"] as [Character] {
        #expect(widths.columns(of: character) == DisplayWidth.columns(of: character))
      }
    }

    @Test func codePointsApartAreCountedAsWcwidthCountsThem() {
      #expect(DisplayWidth.columns(ofCodePoint: "\u{1F1EB}") == 1, "a regional indicator")
      #expect(DisplayWidth.columns(ofCodePoint: "\u{1F44D}") == 2)
      #expect(DisplayWidth.columns(ofCodePoint: "\u{1F3FD}") == 2)
      #expect(DisplayWidth.columns(ofCodePoint: "\u{2764}") == 1)
      #expect(DisplayWidth.columns(ofCodePoint: "\u{FE0F}") == 0)
      #expect(DisplayWidth.columns(ofCodePoint: "\u{200D}") == 0)
    }

    @Test func aJoinedSequenceApartIsItsPiecesEachDrawnAsItsOwnKind() {
      var widths = MeasuredWidths()
      widths[.joinedEmoji] = .apart
      widths[.skinTone] = .apart
      #expect(widths.columns(of: family) == 6)
      #expect(widths.columns(of: coder) == 6, "woman and skin tone apart, then the laptop")
      widths[.skinTone] = .whole(columns: 2)
      #expect(widths.columns(of: coder) == 4)
    }

    @Test func aWholeKindIsItsMeasuredWidth() {
      var widths = MeasuredWidths()
      widths[.joinedEmoji] = .whole(columns: 2)
      #expect(widths.columns(of: coder) == 2)
      #expect(widths.columns(of: "a") == 1)
    }

    @Test func theKindsToMeasureAreNamedOnceInOrderAndOnlyWhileUnmeasured() {
      var renderer = Renderer(prompt: "> ")
      let line = Array("x\u{2764}\u{FE0F}\u{1F44D}\u{1F3FD}\u{2764}\u{FE0F}\(family)中")
      _ = renderer.render(line, cursor: 0, width: 80)
      #expect(renderer.unmeasuredKinds == [.joinedEmoji, .skinTone, .emojiVariation])
      renderer.widths.record(1, for: .emojiVariation)
      _ = renderer.render(line, cursor: 0, width: 80)
      #expect(renderer.unmeasuredKinds == [.joinedEmoji, .skinTone])
      _ = renderer.render(Array("plain text, 中文"), cursor: 0, width: 80)
      #expect(renderer.unmeasuredKinds == [])
    }
  }
}
