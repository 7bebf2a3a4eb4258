import LineEditor
import Testing

private let esc = "\u{1B}"
private let pasteStart = "\u{1B}[200~"
private let pasteEnd = "\u{1B}[201~"

/// Joins neighbouring `.text` keys: where text is cut between two `decode`
/// calls depends on the reads, and the editor inserts it the same either way.
private func joiningText(_ keys: [Key]) -> [Key] {
  var joined: [Key] = []
  for key in keys {
    if case .text(let more) = key, case .text(let before)? = joined.last {
      joined[joined.count - 1] = .text(before + more)
    } else {
      joined.append(key)
    }
  }
  return joined
}

/// Checks that `input` decodes to exactly `expected` when fed in one call, to
/// the same keys when fed in two calls split at every byte and when fed one
/// byte at a time, and that nothing is left held back.
private func expectDecoding(
  _ input: [UInt8], as expected: [Key], sourceLocation: SourceLocation = #_sourceLocation
) {
  var whole = KeyDecoder()
  #expect(whole.decode(input) == expected, "fed whole", sourceLocation: sourceLocation)
  #expect(!whole.isWaitingForMoreInput, "fed whole", sourceLocation: sourceLocation)

  for split in 1..<max(input.count, 1) {
    var decoder = KeyDecoder()
    let keys = decoder.decode(input[..<split]) + decoder.decode(input[split...])
    #expect(
      joiningText(keys) == joiningText(expected), "split at byte \(split)",
      sourceLocation: sourceLocation)
    #expect(!decoder.isWaitingForMoreInput, "split at \(split)", sourceLocation: sourceLocation)
  }

  var byteByByte = KeyDecoder()
  let keys = input.flatMap { byteByByte.decode([$0]) }
  #expect(
    joiningText(keys) == joiningText(expected), "fed one byte at a time",
    sourceLocation: sourceLocation)
}

private func expectDecoding(
  _ input: String, as expected: [Key], sourceLocation: SourceLocation = #_sourceLocation
) {
  expectDecoding(Array(input.utf8), as: expected, sourceLocation: sourceLocation)
}

/// An input and the keys it must decode to, named for the test report.
struct DecodingCase: CustomTestStringConvertible, Sendable {
  let name: String
  let bytes: [UInt8]
  let keys: [Key]

  init(_ name: String, _ bytes: [UInt8], _ keys: [Key]) {
    self.name = name
    self.bytes = bytes
    self.keys = keys
  }

  init(_ input: String, _ keys: [Key]) {
    self.init(input.replacing(esc, with: "ESC"), Array(input.utf8), keys)
  }

  var testDescription: String { name }
}

@Suite struct KeyDecoderTests {
  @Test func bytesFromAnySequenceDecodeLikeAnArray() {
    let input = Array("ab\(esc)[1;5Cé\(esc)".utf8) + [0xE2, 0x82]
    var fromArray = KeyDecoder()
    var fromSequence = KeyDecoder()
    let expected: [Key] = [.text("ab"), .arrow(.right, .control), .text("é")]
    #expect(fromArray.decode(input) == expected)
    #expect(fromSequence.decode(AnySequence(input)) == expected)
    #expect(fromSequence.isWaitingForMoreInput)
  }

  @Suite struct Text {
    @Test func printableCharactersReadTogetherBecomeOneTextKey() {
      expectDecoding("hello world", as: [.text("hello world")])
    }

    @Test func multiByteCharactersSurviveBeingSplitAtAnyByte() {
      expectDecoding("héllo 日本 👍🏽 e\u{301}", as: [.text("héllo 日本 👍🏽 e\u{301}")])
    }

    @Test func controlKeysEndTheTextBeforeThem() {
      expectDecoding(
        "ab\rcd\u{7F}é", as: [.text("ab"), .enter, .text("cd"), .backspace, .text("é")])
    }

    @Test func aPartCharacterIsHeldUntilItsLastByteArrives() {
      var decoder = KeyDecoder()
      #expect(decoder.decode([0x61, 0xE2, 0x82]) == [.text("a")])
      #expect(decoder.isWaitingForMoreInput)
      #expect(decoder.decode([0xAC]) == [.text("€")])
      #expect(!decoder.isWaitingForMoreInput)
    }

    @Test func flushDropsAPartCharacter() {
      var decoder = KeyDecoder()
      #expect(decoder.decode([0xF0, 0x9F, 0x91]) == [])
      #expect(decoder.flush() == [])
      #expect(!decoder.isWaitingForMoreInput)
      // The rest of the character, arriving late, is a stray continuation byte.
      #expect(decoder.decode([0x8D, 0x62]) == [.text("b")])
    }

    static let illFormed: [DecodingCase] = [
      DecodingCase("stray continuation byte", [0x61, 0x80, 0x62], [.text("ab")]),
      DecodingCase("overlong two-byte form of /", [0x61, 0xC0, 0xAF, 0x62], [.text("ab")]),
      DecodingCase("0xC1 lead byte", [0x61, 0xC1, 0x81, 0x62], [.text("ab")]),
      DecodingCase("overlong three-byte form", [0x61, 0xE0, 0x80, 0xAF, 0x62], [.text("ab")]),
      DecodingCase("overlong four-byte form", [0x61, 0xF0, 0x80, 0x80, 0xAF, 0x62], [.text("ab")]),
      DecodingCase("surrogate U+D800", [0x61, 0xED, 0xA0, 0x80, 0x62], [.text("ab")]),
      DecodingCase("beyond U+10FFFF", [0x61, 0xF4, 0x90, 0x80, 0x80, 0x62], [.text("ab")]),
      DecodingCase("0xF5 to 0xFF", [0x61, 0xF5, 0xF8, 0xFE, 0xFF, 0x62], [.text("ab")]),
      DecodingCase("character cut short by ASCII", [0x61, 0xE2, 0x82, 0x62], [.text("ab")]),
      DecodingCase("character cut short by a lead byte", [0xE2, 0xE2, 0x82, 0xAC], [.text("€")]),
      DecodingCase("character cut short by Enter", [0x61, 0xC3, 0x0D], [.text("a"), .enter]),
      DecodingCase("C1 controls", [0x61, 0xC2, 0x80, 0xC2, 0x9B, 0xC2, 0x9F, 0x62], [.text("ab")]),
      DecodingCase("no-break space is not C1", [0x61, 0xC2, 0xA0, 0x62], [.text("a\u{A0}b")]),
      DecodingCase("largest scalar", [0xF4, 0x8F, 0xBF, 0xBF], [.text("\u{10FFFF}")]),
    ]

    @Test(arguments: illFormed)
    func illFormedUTF8IsDroppedAndTheTextAroundItKept(_ example: DecodingCase) {
      expectDecoding(example.bytes, as: example.keys)
    }
  }

  @Suite struct Controls {
    @Test func carriageReturnIsEnterAndLineFeedIsControlJ() {
      // Apart, so that quoted-insert can type a line feed with Ctrl-V Ctrl-J.
      expectDecoding("\r\n", as: [.enter, .control("j")])
    }

    @Test func deleteByteIsBackspace() {
      expectDecoding([0x7F], as: [.backspace])
    }

    @Test func everyOtherC0ControlIsNamedByItsCtrlKey() {
      let names = Array("@abcdefghijklmnopqrstuvwxyz[\\]^_")
      for byte in UInt8(0x00)...0x1F where ![0x0A, 0x0D, 0x1B].contains(byte) {
        var decoder = KeyDecoder()
        #expect(decoder.decode([byte]) == [.control(names[Int(byte)])], "byte \(byte)")
      }
    }

    @Test func tabIsControlIAndCtrlHIsControlH() {
      expectDecoding("\t\u{08}", as: [.control("i"), .control("h")])
    }
  }

  @Suite struct EscapeSequences {
    static let known: [DecodingCase] = [
      DecodingCase("\(esc)[A", [.arrow(.up, .none)]),
      DecodingCase("\(esc)[B", [.arrow(.down, .none)]),
      DecodingCase("\(esc)[C", [.arrow(.right, .none)]),
      DecodingCase("\(esc)[D", [.arrow(.left, .none)]),
      DecodingCase("\(esc)OA", [.arrow(.up, .none)]),
      DecodingCase("\(esc)OB", [.arrow(.down, .none)]),
      DecodingCase("\(esc)OC", [.arrow(.right, .none)]),
      DecodingCase("\(esc)OD", [.arrow(.left, .none)]),
      DecodingCase("\(esc)[H", [.home]),
      DecodingCase("\(esc)OH", [.home]),
      DecodingCase("\(esc)[1~", [.home]),
      DecodingCase("\(esc)[7~", [.home]),
      DecodingCase("\(esc)[F", [.end]),
      DecodingCase("\(esc)OF", [.end]),
      DecodingCase("\(esc)[4~", [.end]),
      DecodingCase("\(esc)[8~", [.end]),
      DecodingCase("\(esc)[3~", [.delete]),
      DecodingCase("\(esc)[1;5C", [.arrow(.right, .control)]),
      DecodingCase("\(esc)[1;5D", [.arrow(.left, .control)]),
      DecodingCase("\(esc)[1;3D", [.arrow(.left, .alt)]),
      DecodingCase("\(esc)[1;2A", [.arrow(.up, .shift)]),
      DecodingCase("\(esc)[1;6B", [.arrow(.down, [.control, .shift])]),
      DecodingCase("\(esc)[1;8C", [.arrow(.right, [.control, .alt, .shift])]),
      DecodingCase("\(esc)[1;9C", [.arrow(.right, .alt)]),
      DecodingCase("\(esc)[1;5H", [.home]),
      DecodingCase("\(esc)[1;2F", [.end]),
      DecodingCase("\(esc)[3;5~", [.delete]),
      DecodingCase("\(esc)O5C", [.arrow(.right, .control)]),
      DecodingCase("\(esc)Oa", [.arrow(.up, .control)]),
      DecodingCase("\(esc)Ob", [.arrow(.down, .control)]),
      DecodingCase("\(esc)Oc", [.arrow(.right, .control)]),
      DecodingCase("\(esc)Od", [.arrow(.left, .control)]),
      DecodingCase("\(esc)[a", [.arrow(.up, .shift)]),
      DecodingCase("\(esc)[d", [.arrow(.left, .shift)]),
    ]

    @Test(arguments: known)
    func keySequencesDecodeToTheirKeys(_ example: DecodingCase) {
      expectDecoding(example.bytes, as: example.keys)
    }

    @Test func sequencesBetweenTextKeepTheOrder() {
      expectDecoding(
        "ab\(esc)[Dc\(esc)[3~d",
        as: [.text("ab"), .arrow(.left, .none), .text("c"), .delete, .text("d")])
    }

    static let unknown: [DecodingCase] = [
      DecodingCase("\(esc)[99~", []),
      DecodingCase("\(esc)[2~", []),
      DecodingCase("\(esc)[15;5~", []),
      DecodingCase("\(esc)[201~", []),
      DecodingCase("\(esc)[1;5Z", []),
      DecodingCase("\(esc)[Z", []),
      DecodingCase("\(esc)[2;5C", []),
      DecodingCase("\(esc)[1;0C", []),
      DecodingCase("\(esc)[1;2;3C", []),
      DecodingCase("\(esc)[1;5:1C", []),
      DecodingCase("\(esc)[>1C", []),
      DecodingCase("\(esc)[?1;2c", []),
      DecodingCase("\(esc)[?2004$y", []),
      DecodingCase("\(esc)[<0;3;4M", []),
      DecodingCase("\(esc)[<64;120;40m", []),
      DecodingCase("\(esc)[12;40R", []),
      DecodingCase("\(esc)OP", []),
      DecodingCase("\(esc)O2Q", []),
      DecodingCase("\(esc)[[A", []),
      DecodingCase("\(esc)]11;rgb:ffff/ffff/ffff\u{07}", []),
      DecodingCase("\(esc)]0;a title with [A in it\(esc)\\", []),
      DecodingCase("\(esc)P1$r0m\(esc)\\", []),
      DecodingCase("\(esc)_Gi=1;OK\(esc)\\", []),
    ]

    @Test(arguments: unknown)
    func unknownSequencesAreSwallowedWhole(_ example: DecodingCase) {
      // Text on both sides shows where the sequence ends: none of it may leak.
      expectDecoding(Array("a".utf8) + example.bytes + Array("b".utf8), as: [.text("ab")])
    }

    @Test func anEscapeInsideAStringEndsItAndStartsANewSequence() {
      expectDecoding("\(esc)]0;title\(esc)[Ax", as: [.arrow(.up, .none), .text("x")])
    }

    @Test func aSequenceBrokenOffByAControlIsDroppedAndTheControlKept() {
      expectDecoding("\(esc)[1;\r", as: [.enter])
      expectDecoding("\(esc)[1;5\(esc)[A", as: [.arrow(.up, .none)])
      expectDecoding("\(esc)Oé", as: [.text("é")])
    }

    @Test func aRunawaySequenceIsDroppedWhole() {
      // Without the length cap this would read as Ctrl-Right.
      let runaway = "\(esc)[" + String(repeating: "0", count: 100) + "1;5C"
      expectDecoding(runaway + "x", as: [.text("x")])
    }

    @Test func aLongSequenceWithinTheCapStillDecodes() {
      let long = "\(esc)[" + String(repeating: "0", count: 50) + "1;5C"
      expectDecoding(long, as: [.arrow(.right, .control)])
    }

    @Test func anUnterminatedSequenceIsHeldAndDroppedByFlush() {
      var decoder = KeyDecoder()
      #expect(decoder.decode(Array("\(esc)[1;5".utf8)) == [])
      #expect(decoder.isWaitingForMoreInput)
      #expect(decoder.flush() == [])
      #expect(!decoder.isWaitingForMoreInput)
      #expect(decoder.decode(Array("C".utf8)) == [.text("C")])
    }

    @Test func anUnterminatedStringIsDroppedByFlush() {
      var decoder = KeyDecoder()
      #expect(decoder.decode(Array("\(esc)]11;rgb:ff".utf8)) == [])
      #expect(decoder.flush() == [])
      #expect(decoder.decode(Array("x".utf8)) == [.text("x")])
    }
  }

  @Suite struct AltKeys {
    static let altKeys: [DecodingCase] = [
      DecodingCase("\(esc)b", [.alt("b")]),
      DecodingCase("\(esc)F", [.alt("F")]),
      DecodingCase("\(esc).", [.alt(".")]),
      DecodingCase("\(esc) ", [.alt(" ")]),
      DecodingCase("\(esc)\u{7F}", [.alt("\u{7F}")]),
      DecodingCase("\(esc)é", [.alt("é")]),
      DecodingCase("\(esc)日", [.alt("日")]),
      DecodingCase("\(esc)👍", [.alt("👍")]),
      DecodingCase("a\(esc)bc", [.text("a"), .alt("b"), .text("c")]),
    ]

    @Test(arguments: altKeys)
    func escapeThenACharacterIsThatCharacterWithAlt(_ example: DecodingCase) {
      expectDecoding(example.bytes, as: example.keys)
    }

    @Test func escapeEscapeIsEscapeThenDecodingGoesOnAtTheSecond() {
      expectDecoding("\(esc)\(esc)[C", as: [.escape, .arrow(.right, .none)])
      expectDecoding("\(esc)\(esc)b", as: [.escape, .alt("b")])
      expectDecoding("\(esc)\(esc)\(esc)x", as: [.escape, .escape, .alt("x")])
    }

    @Test func escapeThenAControlIsEscapeThenTheControl() {
      expectDecoding("\(esc)\r", as: [.escape, .enter])
      expectDecoding("\(esc)\u{01}", as: [.escape, .control("a")])
    }

    @Test func escapeThenIllFormedUTF8IsDropped() {
      expectDecoding([0x1B, 0xFF, 0x61], as: [.text("a")])
      expectDecoding([0x1B, 0xC3, 0x61], as: [.text("a")])
      expectDecoding([0x1B, 0xE0, 0x80, 0x80, 0x61], as: [.text("a")])
      expectDecoding([0x1B, 0xC2, 0x85, 0x61], as: [.text("a")])
    }
  }

  @Suite struct LoneEscape {
    @Test func aLoneEscapeIsHeldUntilFlushMakesItEscape() {
      var decoder = KeyDecoder()
      #expect(decoder.decode([0x1B]) == [])
      #expect(decoder.isWaitingForMoreInput)
      #expect(decoder.flush() == [.escape])
      #expect(!decoder.isWaitingForMoreInput)
      #expect(decoder.decode(Array("b".utf8)) == [.text("b")])
    }

    @Test func onlyAnEscapeAloneIsHeldAsALoneEscape() {
      // The session waits a few milliseconds for it, 50 for the rest.
      var decoder = KeyDecoder()
      _ = decoder.decode([0x1B])
      #expect(decoder.isHoldingLoneEscape)
      _ = decoder.decode(Array("[1;".utf8))
      #expect(!decoder.isHoldingLoneEscape && decoder.isWaitingForMoreInput)
      #expect(decoder.decode(Array("5C".utf8)) == [.arrow(.right, .control)])
      _ = decoder.decode([0xC3])
      #expect(!decoder.isHoldingLoneEscape && decoder.isWaitingForMoreInput)
    }

    @Test func aHeldEscapeJoinsTheNextReadWhenNotFlushed() {
      var decoder = KeyDecoder()
      #expect(decoder.decode(Array("a\(esc)".utf8)) == [.text("a")])
      #expect(decoder.decode(Array("b".utf8)) == [.alt("b")])
    }

    @Test func escapeEscapeAtTheEndHoldsTheSecond() {
      var decoder = KeyDecoder()
      #expect(decoder.decode([0x1B, 0x1B]) == [.escape])
      #expect(decoder.isWaitingForMoreInput)
      #expect(decoder.flush() == [.escape])
    }

    @Test func flushWithNothingHeldGivesNothing() {
      var decoder = KeyDecoder()
      #expect(decoder.flush() == [])
      #expect(decoder.decode(Array("ab".utf8)) == [.text("ab")])
      #expect(decoder.flush() == [])
    }

    @Test func flushDropsEscapeWithAPartCharacter() {
      var decoder = KeyDecoder()
      #expect(decoder.decode([0x1B, 0xE6, 0x97]) == [])
      #expect(decoder.flush() == [])
      #expect(!decoder.isWaitingForMoreInput)
    }
  }

  @Suite struct BracketedPaste {
    @Test func aPasteIsOneKeyWithItsBody() {
      expectDecoding(pasteStart + "hello world" + pasteEnd, as: [.paste("hello world")])
    }

    @Test func thePasteBodyIsKeptExactlyAsReceived() {
      let body =
        "line 1\nline 2\r\n\ttabbed \u{7F}\u{01} 日本👍🏽 \(esc)b \(esc)[A \(esc)\(esc) \(pasteStart)"
        + " \(esc)[201x \(esc)[2\(esc)[2 \(esc)[20"
      expectDecoding(pasteStart + body + pasteEnd, as: [.paste(body)])
    }

    @Test func textAroundAPasteStaysOutsideIt() {
      expectDecoding(
        "ab" + pasteStart + "x\ny" + pasteEnd + "cd\r",
        as: [.text("ab"), .paste("x\ny"), .text("cd"), .enter])
    }

    @Test func anEmptyPasteIsAnEmptyPasteKey() {
      expectDecoding(pasteStart + pasteEnd, as: [.paste("")])
    }

    @Test func illFormedUTF8InAPasteIsDropped() {
      let input =
        Array(pasteStart.utf8) + [0x61, 0xFF, 0x62, 0xE2, 0x82, 0x0A, 0xED, 0xA0, 0x80, 0x63, 0xE2]
        + Array(pasteEnd.utf8)
      expectDecoding(input, as: [.paste("ab\nc")])
    }

    @Test func flushDoesNotEndAnUnterminatedPaste() {
      var decoder = KeyDecoder()
      #expect(decoder.decode(Array((pasteStart + "abc\(esc)[20").utf8)) == [])
      #expect(decoder.isWaitingForMoreInput)
      #expect(decoder.flush() == [])
      #expect(decoder.isWaitingForMoreInput)
      #expect(decoder.decode(Array("1~".utf8)) == [.paste("abc")])
      #expect(!decoder.isWaitingForMoreInput)
    }

    @Test func aPasteWhoseEndNeverComesEndsWhenItFallsSilentAndKeysActAfterIt() {
      var decoder = KeyDecoder()
      #expect(decoder.decode(Array((pasteStart + "pasted").utf8)) == [])
      #expect(decoder.isInsidePaste)
      #expect(decoder.flush() == [])
      #expect(decoder.flushPaste() == [.paste("pasted")])
      #expect(!decoder.isInsidePaste)
      #expect(!decoder.isWaitingForMoreInput)
      #expect(decoder.decode([0x03, 0x0D, 0x04]) == [.control("c"), .enter, .control("d")])
      #expect(decoder.decode([0x1B]) == [])
      #expect(decoder.flush() == [.escape])
    }

    @Test func aPasteCutInsideItsEndMarkerEndsWithoutTheMarkersStart() {
      var decoder = KeyDecoder()
      #expect(decoder.decode(Array((pasteStart + "abc\(esc)[20").utf8)) == [])
      #expect(decoder.flushPaste() == [.paste("abc")])
      #expect(decoder.decode(Array("x".utf8)) == [.text("x")])
    }

    @Test func aCharacterCutShortBySilenceIsDroppedFromThePaste() {
      var decoder = KeyDecoder()
      #expect(decoder.decode(Array(pasteStart.utf8) + [0x61, 0xE2, 0x82]) == [])
      #expect(decoder.flushPaste() == [.paste("a")])
      #expect(decoder.decode(Array("é".utf8)) == [.text("é")])
    }

    @Test func flushPasteOutsideAPasteGivesNothingAndKeepsAHeldEscape() {
      var decoder = KeyDecoder()
      #expect(!decoder.isInsidePaste)
      #expect(decoder.flushPaste() == [])
      #expect(decoder.decode([0x1B]) == [])
      #expect(!decoder.isInsidePaste)
      #expect(decoder.flushPaste() == [])
      #expect(decoder.decode(Array("b".utf8)) == [.alt("b")])
    }

    @Test func aPasteOfTwoMebibytesInFourKibibyteReadsDecodesWhole() {
      let line = "Zeile mit Umlauten äöü, 日本語, 👍🏽, tab\t, cr\r, esc \(esc)[201 and \(esc)x\n"
      var body = ""
      while body.utf8.count < 2 << 20 { body += line }
      let input = Array((pasteStart + body + pasteEnd).utf8)

      var decoder = KeyDecoder()
      var keys: [Key] = []
      var start = 0
      while start < input.count {
        let end = min(start + 4096, input.count)
        keys += decoder.decode(input[start..<end])
        start = end
      }
      #expect(keys == [.paste(body)])
      #expect(!decoder.isWaitingForMoreInput)
    }
  }
}

extension KeyDecoderTests {
  /// Cursor position reports (`ESC [ row ; column R`), the terminal's answer
  /// to the session asking how wide it draws a character.
  @Suite struct CursorReports {
    /// Decodes `input` with `awaited` reports asked for, fed whole, split at
    /// every byte and one byte at a time; expects the same keys and reports
    /// each way.
    func expectDecoding(
      _ input: String, awaiting awaited: Int, as keys: [Key],
      reports: [KeyDecoder.CursorReport], sourceLocation: SourceLocation = #_sourceLocation
    ) {
      let bytes = Array(input.utf8)
      var feeds: [[ArraySlice<UInt8>]] = [[bytes[...]], bytes.map { [$0][...] }]
      for split in 1..<bytes.count { feeds.append([bytes[..<split], bytes[split...]]) }
      for feed in feeds {
        var decoder = KeyDecoder()
        for _ in 0..<awaited { decoder.expectCursorReport() }
        var decoded: [Key] = []
        for part in feed { decoded += decoder.decode(part) }
        #expect(
          joiningText(decoded) == keys, "fed in \(feed.count)", sourceLocation: sourceLocation)
        #expect(decoder.takeCursorReports() == reports, sourceLocation: sourceLocation)
        #expect(decoder.takeCursorReports() == [], "taken once", sourceLocation: sourceLocation)
        #expect(!decoder.isWaitingForMoreInput, sourceLocation: sourceLocation)
      }
    }

    @Test func anAwaitedReportIsNoKeyAndKeysAroundItKeepTheirOrder() {
      expectDecoding(
        "a\(esc)[A\(esc)[12;34Rb\(esc)[B", awaiting: 1,
        as: [.text("a"), .arrow(.up, .none), .text("b"), .arrow(.down, .none)],
        reports: [.init(row: 12, column: 34)])
    }

    @Test func reportsAreTakenInTheOrderTheyCame() {
      expectDecoding(
        "\(esc)[3;7Rx\(esc)[3;5R", awaiting: 2, as: [.text("x")],
        reports: [.init(row: 3, column: 7), .init(row: 3, column: 5)])
    }

    @Test func aReportNobodyAwaitsIsSwallowedLikeAnUnknownKey() {
      // ESC [ 1 ; 5 R is also Ctrl-F3 in some terminals: never text, never a report.
      expectDecoding("x\(esc)[1;5Ry", awaiting: 0, as: [.text("xy")], reports: [])
      expectDecoding(
        "\(esc)[2;3R\(esc)[1;5R", awaiting: 1, as: [], reports: [.init(row: 2, column: 3)])
    }

    @Test func aReportThatCameTooLateIsSwallowed() {
      var decoder = KeyDecoder()
      decoder.expectCursorReport()
      #expect(decoder.isAwaitingCursorReport)
      decoder.stopAwaitingCursorReports()
      #expect(!decoder.isAwaitingCursorReport)
      #expect(decoder.decode(Array("\(esc)[4;9Rz".utf8)) == [.text("z")])
      #expect(decoder.takeCursorReports() == [])
    }

    @Test func otherSequencesEndingInRAreNoReport() {
      expectDecoding(
        "\(esc)[5R\(esc)[1;2;3R\(esc)[?1;2Rq", awaiting: 1, as: [.text("q")], reports: [])
    }
  }
}
