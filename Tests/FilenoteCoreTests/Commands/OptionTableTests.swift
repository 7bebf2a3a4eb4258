import Testing

@testable import FilenoteCore

/// The table of options (`Option.all`) and the options named on each
/// command's row are all there is to an option: parsing and help follow
/// them, so a new option needs nothing else.
@Suite struct OptionTableTests {
  /// The names of the commands whose rows name `option`.
  private static func commands(taking option: Option) -> [String] {
    Command.all.filter { $0.options.contains(option) }.map(\.name)
  }

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
      if Option.common.contains(option) {
        #expect(!option.generalHelp.isEmpty, "\(option.name) is in the general help")
      } else {
        #expect(option.commandHelp != nil, "\(option.name) is in its commands' help")
      }
    }
  }

  @Test(arguments: Option.all.filter { $0.value != nil })
  func anOptionTakesItsValueFromTheNextArgumentOrAfterAnEqualsSign(option: Option) throws {
    let command = Self.commands(taking: option).first ?? "path"
    // A value each kind of value takes.
    let sample = option.value?.placeholder == "N" ? "7" : "value"
    let apart = try parse([command, option.name, sample])
    let joined = try parse([command, option.name + "=" + sample])
    for invocation in [apart, joined] {
      guard case .run(let parsed, let words) = invocation.action else {
        Issue.record("\(option.name) did not run \(command)")
        continue
      }
      #expect(parsed.name == command && words.isEmpty, "the value is not a word")
      if option == .file {
        #expect(invocation.file == sample)
      } else {
        let value = invocation.commandOptions.first { $0.option == option }?.value
        #expect(value != nil && value == option.value?.parse(sample))
      }
    }
    #expect(refusal([command, option.name])?.hasPrefix("option '\(option.name)' needs a ") == true)
    #expect(refusal([command, option.name + "="])?.hasSuffix(", not an empty string") == true)
    let notUTF8 = refusal(raw: [Array(command.utf8), Array((option.name + "=").utf8) + [0xFF]])
    #expect(notUTF8?.hasSuffix("given with '\(option.name)': it is not valid UTF-8") == true)
  }

  @Test(arguments: Option.all.filter { $0.value == nil })
  func aFlagWithAnEqualsSignIsAnUnknownOption(option: Option) {
    let command = Self.commands(taking: option).first ?? "path"
    #expect(
      refusal([command, option.name + "=x"])
        == "unknown option '\(option.name)=x' (see 'filenote --help')")
  }

  @Test(arguments: Option.all.filter { !Option.common.contains($0) })
  func anOptionOfSomeCommandsIsRefusedByTheOthersAndByFilenoteAlone(option: Option) throws {
    // With a value when it takes one, so that only the command can be wrong.
    let given = [option.name] + (option.value == nil ? [] : ["1"])
    let commands = Self.commands(taking: option)
    #expect(!commands.isEmpty, "\(option.name) is an option of some command")
    for command in Command.names where !commands.contains(command) {
      #expect(
        refusal([command] + given)
          == "'\(command)' takes no option '\(option.name)' (see 'filenote help \(command)')")
    }
    #expect(refusal(given) == "unknown option '\(option.name)' (see 'filenote --help')")
    for command in commands {
      // Before or after the command's name alike.
      #expect(try parse(given + [command]).commandOptions.contains(option))
      #expect(try parse([command] + given).commandOptions.contains(option))
    }
  }

  @Test func anOptionGivesTheOptionsItImplies() throws {
    for option in Option.all {
      for implied in option.implies {
        #expect(Self.commands(taking: implied) == Self.commands(taking: option), "\(option.name)")
      }
    }
    let given = try parse(["show", "--width", "30"]).commandOptions
    #expect(given.contains(.line) && given.number(of: .width) == 30)
    #expect(try parse(["--fail", "show"]).commandOptions.contains(.line))
    #expect(try !parse(["show", "1"]).commandOptions.contains(.line))
  }

  @Test func aValueIsParsedAsItsOptionSays() throws {
    #expect(try parse(["show", "--width=007"]).commandOptions.number(of: .width) == 7)
    #expect(
      try parse(["show", "--width", "99999999999999999999999"]).commandOptions.number(of: .width)
        == Int.max)
    for bad in ["0", "-1", "+5", "5x", " 5", "٣"] {
      #expect(
        refusal(["show", "--width", bad])
          == "'--width' takes a number of columns, 1 or more, not '\(bad)'", "\(bad)")
    }
    #expect(try parse(["path", "--file", "a b"]).file == "a b")
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
