import Testing

@testable import LineEditor

/// `ViCommandParser` alone: keys in, `ViCommand`s out, no text anywhere.
@Suite struct ViCommandParserTests {
  /// What the parser makes of `keys`, typed one Character a key: the
  /// results of the keys in order.
  private func parse(_ keys: String) -> [ViCommandParser.Result] {
    var parser = ViCommandParser()
    return keys.map { parser.parse(.text(String($0))) }
  }

  private func command(_ keys: String) -> ViCommand? {
    guard case .command(let command) = parse(keys).last else { return nil }
    return command
  }

  @Test func aMotionAloneIsAMoveWithNoCount() {
    #expect(command("w") == ViCommand(count: nil, action: .move(.nextWordStart(.word))))
    #expect(command("B") == ViCommand(count: nil, action: .move(.previousWordStart(.bigWord))))
    #expect(command("$") == ViCommand(count: nil, action: .move(.lineEnd)))
  }

  @Test func zeroIsTheLineStartUnlessACountIsBeingTyped() {
    #expect(command("0") == ViCommand(count: nil, action: .move(.lineStart)))
    #expect(command("10l") == ViCommand(count: 10, action: .move(.right)))
  }

  @Test func theCountsBeforeAndAfterAnOperatorMultiply() {
    #expect(parse("2d3") == [.pending, .pending, .pending])
    #expect(command("2d3w") == ViCommand(count: 6, action: .apply(.delete, .nextWordStart(.word))))
  }

  @Test func anOperatorTwiceIsTheWholeLine() {
    #expect(command("dd") == ViCommand(count: nil, action: .applyToLine(.delete)))
    #expect(command("cc") == ViCommand(count: nil, action: .applyToLine(.change)))
    #expect(command("yy") == ViCommand(count: nil, action: .applyToLine(.yank)))
    #expect(parse("dc").last == .rejected)
  }

  @Test func findAndReplaceTakeTheNextCharacterWhateverItIs() {
    let search = ViCharacterSearch(target: "w", isForward: false, stopsBefore: true)
    #expect(command("Tw") == ViCommand(count: nil, action: .move(.find(search))))
    #expect(command("3ré") == ViCommand(count: 3, action: .replaceCharacters("é")))
    #expect(
      command("dfd")
        == ViCommand(
          count: nil,
          action: .apply(.delete, .find(.init(target: "d", isForward: true, stopsBefore: false)))))
  }

  @Test func escDropsTheKeysOfACommandBeingTyped() {
    var parser = ViCommandParser()
    #expect(parser.parse(.text("2")) == .pending)
    #expect(parser.parse(.text("d")) == .pending)
    #expect(parser.isPending)
    #expect(parser.parse(.escape) == .rejected)
    #expect(!parser.isPending)
    #expect(parser.parse(.text("x")) == .command(ViCommand(count: nil, action: .deleteCharacters)))
  }

  @Test func aKeyThatIsNoMotionAfterAnOperatorIsRejected() {
    #expect(parse("dx").last == .rejected)
    #expect(parse("d").last == .pending)
  }

  @Test func theUppercaseOperatorsGoToTheEndOfTheLine() {
    #expect(command("D") == ViCommand(count: nil, action: .apply(.delete, .lineEnd)))
    #expect(command("C") == ViCommand(count: nil, action: .apply(.change, .lineEnd)))
    #expect(command("S") == ViCommand(count: nil, action: .applyToLine(.change)))
  }

  @Test func hashAndStarAreNotCommandsInANote() {
    #expect(parse("#") == [.rejected])
    #expect(parse("*") == [.rejected])
  }

  @Test func aCountCannotGrowWithoutBound() {
    let keys = String(repeating: "9", count: 30) + "l"
    #expect(command(keys)?.count == ViCommandParser.countLimit)
  }
}
