import Testing

@testable import FilenoteCore

/// The table of options (`Option.all`) is all there is to an option: parsing
/// and help follow each row, so a new row needs nothing else.
@Suite struct OptionTableTests {
  /// `Invocation.parse` of these words, as raw bytes.
  private func parse(_ words: [String]) throws(FilenoteError) -> Invocation {
    try Invocation.parse(words.map { Array($0.utf8) })
  }

  /// The usage message `parse` refuses these words with, nil when it takes them.
  private func refusal(_ words: [String]) -> String? {
    refusal(raw: words.map { Array($0.utf8) })
  }

  private func refusal(raw words: [[UInt8]]) -> String? {
    do {
      _ = try Invocation.parse(words)
      return nil
    } catch {
      guard case .usage(let message) = error else { return "not a usage error: \(error)" }
      return message
    }
  }

  @Test func noTwoOptionsShareAName() {
    let names = Option.all.flatMap(\.names)
    for name in names {
      #expect(names.filter { $0 == name }.count == 1, "\(name)")
      #expect(name.hasPrefix("--") || (name.count == 2 && name.hasPrefix("-")), "\(name)")
    }
  }

  @Test func everyOptionHasTheHelpOfEveryListThatShowsIt() {
    for option in Option.all {
      if option.commands == nil {
        #expect(!option.generalHelp.isEmpty, "\(option.name) is in the general help")
      } else {
        #expect(option.commandHelp != nil, "\(option.name) is in its commands' help")
      }
    }
  }

  @Test(arguments: Option.all.filter { $0.value != nil })
  func anOptionTakesItsValueFromTheNextArgumentOrAfterAnEqualsSign(option: Option) throws {
    let command = option.commands?.first ?? "path"
    let apart = try parse([command, option.name, "value"])
    let joined = try parse([command, option.name + "=value"])
    for invocation in [apart, joined] {
      guard case .run(let parsed, let words) = invocation.action else {
        Issue.record("\(option.name) did not run \(command)")
        continue
      }
      #expect(parsed.name == command && words.isEmpty, "the value is not a word")
      let value = option == .file ? invocation.file : invocation.commandOptions.last?.value
      #expect(value == "value")
    }
    #expect(refusal([command, option.name])?.hasPrefix("option '\(option.name)' needs a ") == true)
    #expect(refusal([command, option.name + "="])?.hasSuffix(", not an empty string") == true)
    let notUTF8 = refusal(raw: [Array(command.utf8), Array((option.name + "=").utf8) + [0xFF]])
    #expect(notUTF8?.hasSuffix("given with '\(option.name)': it is not valid UTF-8") == true)
  }

  @Test(arguments: Option.all.filter { $0.value == nil })
  func aFlagWithAnEqualsSignIsAnUnknownOption(option: Option) {
    let command = option.commands?.first ?? "path"
    #expect(
      refusal([command, option.name + "=x"])
        == "unknown option '\(option.name)=x' (see 'filenote --help')")
  }

  @Test(arguments: Option.all.filter { $0.commands != nil })
  func anOptionOfSomeCommandsIsRefusedByTheOthersAndByFilenoteAlone(option: Option) throws {
    // With a value when it takes one, so that only the command can be wrong.
    let given = [option.name] + (option.value == nil ? [] : ["1"])
    for command in Command.names where !(option.commands ?? []).contains(command) {
      #expect(
        refusal([command] + given)
          == "'\(command)' takes no option '\(option.name)' (see 'filenote help \(command)')")
    }
    #expect(refusal(given) == "unknown option '\(option.name)' (see 'filenote --help')")
    for command in option.commands ?? [] {
      // Before or after the command's name alike.
      #expect(try parse(given + [command]).commandOptions.contains(option))
      #expect(try parse([command] + given).commandOptions.contains(option))
    }
  }

  @Test func aCommandsOwnOptionsShowInItsUsageLineAndItsHelp() throws {
    let clear = try #require(Command.named("clear"))
    #expect(clear.synopsis == "clear [--all]")
    #expect(HelpText.help(of: clear).contains("\n  --all         remove every kept version too\n"))
    #expect(!HelpText.general.contains("\n  --all "))
  }

  @Test func aLabelTooWideForItsColumnPutsItsTextOnTheNextLine() {
    let text = HelpText.rows(
      [("--short", ["fits", "and goes on"]), ("--much-too-wide", ["below it"])], column: 10)
    #expect(
      text == """
          --short   fits
                    and goes on
          --much-too-wide
                    below it
        """)
  }
}
