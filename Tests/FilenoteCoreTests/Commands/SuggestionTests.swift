import Testing

@testable import FilenoteCore

/// What an unknown command or option gets instead of a bare "unknown": the
/// names of the table it is a near miss of, or the line that saves it.
@Suite struct SuggestionTests {
  private func suggestion(_ words: String..., file: String? = nil) -> Suggestion {
    Suggestion.forCommand(words[0], words: words.map { Array($0.utf8) }, file: file)
  }

  @Test func editsCountAddedDroppedChangedAndSwappedLetters() {
    func distance(_ a: String, _ b: String) -> Int {
      Suggestion.distance(Array(a.utf8), Array(b.utf8))
    }
    #expect(distance("save", "save") == 0)
    #expect(distance("sav", "save") == 1)
    #expect(distance("shwo", "show") == 1)
    #expect(distance("histroy", "history") == 1)
    #expect(distance("", "undo") == 4)
    #expect(distance("todo", "undo") == 2)
    #expect(distance("ca", "abc") == 3)
  }

  @Test(arguments: [
    ("sav", "save"), ("shwo", "show"), ("SHOW", "show"), ("hist", "history"),
    ("histroy", "history"), ("restor", "restore"), ("clera", "clear"), ("edti", "edit"),
  ])
  func aNearMissGetsTheCommandItMissed(typed: String, meant: String) {
    #expect(suggestion(typed, "x") == .names([meant]))
    #expect(suggestion(typed).text == ": did you mean '\(meant)'?")
  }

  @Test(arguments: [
    ("list", "history"), ("cat", "show"), ("rm", "clear"), ("add", "save"), ("ls", "history"),
  ])
  func theWordsOfOtherToolsPointToFilenotesOwn(word: String, command: String) {
    #expect(suggestion(word) == .names([command]))
    #expect(Command.named(command) != nil)
  }

  @Test func everyOtherToolsWordNamesACommandAndIsNotOne() {
    for other in Suggestion.otherToolsWords {
      #expect(Command.named(other.ours) != nil, "\(other.word)")
      #expect(Command.named(other.word) == nil, "\(other.word)")
    }
    for other in Suggestion.otherToolsOptions {
      #expect(Option.named(other.ours) != nil, "\(other.word)")
      #expect(Option.named(other.word) == nil, "\(other.word)")
    }
  }

  @Test func wordsThatReadAsANoteGetTheLineThatSavesThem() {
    #expect(suggestion("buy", "milk") == .save(commandLine: "filenote save buy milk"))
    #expect(
      suggestion("remember to call mom")
        == .save(commandLine: "filenote save 'remember to call mom'"))
    #expect(
      suggestion("todo", "it's", file: "my notes")
        == .save(commandLine: #"filenote save --file 'my notes' todo 'it'\''s'"#))
    #expect(suggestion("-x", "y") == .save(commandLine: "filenote save -- -x y"))
    #expect(suggestion("buy", "milk").text.hasSuffix("; to save it: filenote save buy milk"))
  }

  @Test func aLoneDashOrEmptyWordGetsNothingToSave() {
    #expect(suggestion("-") == .none)
    #expect(suggestion("") == .none)
    #expect(Suggestion.none.text == " (see 'filenote --help')")
  }

  @Test func aMistypedLongOptionGetsTheOptionItMissed() {
    #expect(Suggestion.forOption("--fil") == .names(["--file"]))
    #expect(Suggestion.forOption("--hlep") == .names(["--help"]))
    #expect(Suggestion.forOption("--verison") == .names(["--version"]))
    #expect(Suggestion.forOption("-v") == .names(["--version"]))
    #expect(Suggestion.forOption("-V") == .names(["--version"]))
    #expect(Suggestion.forOption("-x") == .none)
    #expect(Suggestion.forOption("--verbose") == .none)
  }

  @Test func aWordIsQuotedOnlyWhenAShellWouldReadItOtherwise() {
    func quoted(_ text: String) -> String? { ShellWord.quoted(Array(text.utf8)) }
    #expect(quoted("milk") == "milk")
    #expect(quoted("café/a.b=c") == "café/a.b=c")
    #expect(quoted("two words") == "'two words'")
    #expect(quoted("it's") == #"'it'\''s'"#)
    #expect(quoted("$HOME") == "'$HOME'")
    #expect(quoted("~") == "'~'")
    #expect(quoted("") == "''")
    #expect(quoted("a\nb") == nil)
    #expect(quoted("\u{1B}[31m") == nil)
    #expect(ShellWord.quoted([0x61, 0xFF]) == nil)
    #expect(suggestion("a\nb", "c") == .none)
  }
}
