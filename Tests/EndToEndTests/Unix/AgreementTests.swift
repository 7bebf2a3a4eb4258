import Foundation
import TestSupport
import Testing

@testable import FilenoteCore

extension UnixIntegrationTests {
  /// `filenote --help`, `filenote help COMMAND`, the man page and README.md
  /// name the same commands and options.
  @Suite struct HelpManPageAndReadmeAgree {
    @Test func helpListsExactlyTheCommandsAndOptions() throws {
      let help = try ExternalProgram.run(try Package.filenoteBinary, ["--help"]).stdout
      // A usage line too wide for its column has its summary on the next line.
      let commands = block("Commands:", of: help).filter { !$0.hasPrefix("   ") }.map {
        $0.split(separator: " ")[0]
      }
      #expect(commands.map(String.init) == Command.names)
      #expect(
        Set(optionNames(inBlock: block("Options:", of: help))) == Set(UnixIntegrationTests.options))
    }

    @Test func theListedOptionsAreTheOnesFilenoteAccepts() throws {
      let binary = try Package.filenoteBinary
      let home = TemporaryFolder(prefix: "filenote-unix")
      // A value for each kind of value an option takes.
      let samples = ["PATH": "x", "N": "30"]
      for option in Option.all {
        // `path` works with any note, or none; an option of some commands
        // goes with the first of them; `--version` stands alone.
        let command =
          Command.all.first { $0.options.contains(option) }?.name
          ?? (option == .version ? nil : "path")
        for name in option.names {
          let value = try option.value.map { value in
            try #require(samples[value.placeholder], "a sample \(value.placeholder) for \(name)")
          }
          // A command that needs a version number gets one; `show --follow`
          // runs until its reader goes: asked for help instead, which a name
          // filenote did not accept would have failed.
          let number = command.flatMap(Command.named)?.arguments == "N" ? ["1"] : []
          let rest = name == "--follow" ? ["--help"] : []
          let arguments =
            (command.map { [$0] } ?? []) + [name] + (value.map { [$0] } ?? []) + number + rest
          let run = try ExternalProgram.run(binary, arguments, environment: ["HOME": home.path])
          #expect(run.status != 2, "filenote \(arguments.joined(separator: " ")): \(run.stderr)")
        }
      }
      let unknown = try ExternalProgram.run(binary, ["--verbose"], environment: ["HOME": home.path])
      #expect(unknown.status == 2)
    }

    @Test func generalHelpHasTheCommonShape() throws {
      let help = try ExternalProgram.run(try Package.filenoteBinary, ["--help"]).stdout
      let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
      try #require(lines.count > 4, "help:\n\(help)")
      #expect(lines[0].hasPrefix("Usage: filenote "))
      #expect(lines[1].isEmpty && !lines[2].isEmpty && lines[3].isEmpty, "one-line description")
      for heading in ["Commands:", "Options:", "Examples:"] {
        #expect(lines.contains { $0 == heading }, "\(heading)")
      }
      #expect(help.contains("man filenote"), "says where to read more")
      #expect(help.contains("FILENOTE_FILE"))
    }

    @Test(arguments: Command.names.filter { $0 != "help" })
    func commandHelpHasTheCommonShape(command: String) throws {
      let binary = try Package.filenoteBinary
      let help = try ExternalProgram.run(binary, ["help", command])
      #expect(help.status == 0)
      let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
      try #require(lines.count > 4, "help:\n\(help.stdout)")
      #expect(lines[0].hasPrefix("Usage: filenote \(command) "))
      #expect(lines[1].isEmpty && !lines[2].isEmpty && lines[3].isEmpty, "one-line description")
      #expect(lines.contains("Options:") && help.stdout.contains("--file PATH"))
      // Its options: every one of its own, and none it does not take.
      let listed = optionNames(inBlock: block("Options:", of: help.stdout))
      let own = try #require(Command.named(command)).options.flatMap(\.names)
      #expect(Set(own).isSubset(of: listed), "\(listed)")
      #expect(Set(listed).isSubset(of: options(of: command)), "\(listed)")
      #expect(lines.contains("Examples:"))
      #expect(lines.contains { $0.hasPrefix("  filenote ") && $0.contains(command) }, "an example")
      #expect(help.stdout.contains("man filenote"), "says where to read more")
      #expect(try ExternalProgram.run(binary, [command, "--help"]).stdout == help.stdout)
    }

    @Test func manPageDocumentsEveryCommandAndOption() throws {
      let man = try ManPageSource()
      let commands = man.tagNames(inSection: "COMMANDS").filter { $0 != "(none)" }
      #expect(commands == Command.names)
      // Each command's entry shows it as its usage line does, with its own options.
      #expect(
        man.tags(inSection: "COMMANDS").filter { $0 != "(none)" } == Command.all.map(\.synopsis))
      let synopsis = man.plainText(ofSection: "SYNOPSIS")
      for command in Command.names {
        #expect(synopsis.contains("filenote \(command)"), "SYNOPSIS shows \(command)")
      }
      let options = man.tagNames(inSection: "OPTIONS").compactMap { word in
        word.hasPrefix("-") ? String(word.prefix { $0 != "=" }) : nil
      }
      #expect(Set(options) == Set(UnixIntegrationTests.options + ["--"]))
      for option in UnixIntegrationTests.options {
        #expect(words(in: synopsis).contains(option), "SYNOPSIS shows \(option)")
      }
    }

    /// Each command's line in the man page's SYNOPSIS is its usage line from
    /// the command table (`Command.synopsis`), with `[--file PATH]` after
    /// its name but for `init` and `help`, which read no note.
    @Test func manPageSynopsisShowsEachCommandAsTheTableDoes() throws {
      let man = try ManPageSource()
      var lines: [[String]] = [[]]
      for line in man.section("SYNOPSIS") where !line.hasPrefix(".\\\"") {
        if line == ".br" {
          lines.append([])
        } else {
          lines[lines.count - 1].append(ManPageSource.plainText(ofLine: line))
        }
      }
      let synopsis = lines.map { $0.joined(separator: " ") }
      let expected = Command.all.map { command in
        let rest = command.synopsis.dropFirst(command.name.count)
        let file = ["init", "help"].contains(command.name) ? "" : " [--file PATH]"
        return "filenote " + command.name + file + rest
      }
      #expect(
        synopsis == ["filenote [--file PATH]"] + expected + ["filenote -h | --help | --version"])
    }

    /// The completions describe each command in the words of its summary in
    /// the command table, which `filenote --help` shows, and offer the
    /// commands in its order.
    @Test func completionsDescribeEachCommandInTheWordsOfHelp() throws {
      let summaries = Command.all.map { "\($0.name):\($0.summary)" }
      let zsh = try String(contentsOfFile: Package.file("completions/_filenote"), encoding: .utf8)
      // `commands=(`, then one `'name:summary'` a line, then `)`.
      let array = try #require(zsh.firstRange(of: "\ncommands=(\n").map { zsh[$0.upperBound...] })
      let zshItems = array.split(separator: "\n").prefix { $0 != ")" }.map {
        String($0.drop { $0 == " " }.dropFirst().dropLast())
      }
      #expect(zshItems == summaries)

      let fish = try String(
        contentsOfFile: Package.file("completions/filenote.fish"), encoding: .utf8
      )
      .replacingOccurrences(of: "\\\n    ", with: "")
      let start = "complete -c filenote -n __filenote_needs_command -a "
      let fishItems = fish.split(separator: "\n").filter { $0.hasPrefix(start) }.compactMap {
        line -> String? in
        let rest = line.dropFirst(start.count)
        guard let d = rest.firstRange(of: " -d '"), rest.hasSuffix("'") else { return nil }
        return rest[..<d.lowerBound] + ":" + rest[d.upperBound...].dropLast()
      }
      #expect(fishItems == summaries)
      let names = Command.names.joined(separator: " ")
      #expect(fish.contains("-n __filenote_needs_help_topic -a '\(names)'\n"))

      let bash = try String(
        contentsOfFile: Package.file("completions/filenote.bash"), encoding: .utf8)
      #expect(bash.contains("local commands='\(names)'\n"))
    }

    /// The completions describe each option in the words of the help that
    /// lists it: a command's own as that command's help does, the common
    /// ones as `filenote --help` does (`--file` as a command's help does).
    @Test func completionsDescribeEachOptionInTheWordsOfHelp() throws {
      let zsh = try String(contentsOfFile: Package.file("completions/_filenote"), encoding: .utf8)
        .replacingOccurrences(of: #"'\''"#, with: "'")
      let fish = try String(
        contentsOfFile: Package.file("completions/filenote.fish"), encoding: .utf8
      )
      .replacingOccurrences(of: "\\\n    ", with: "").replacingOccurrences(of: #"\'"#, with: "'")
      let fishLines = fish.split(separator: "\n").filter { $0.hasPrefix("complete -c filenote ") }
      var described: [(option: Option, words: String, command: String?)] = [
        (.file, Option.file.commandHelp ?? "", nil), (.help, Option.help.generalHelp[0], nil),
        (.version, Option.version.generalHelp[0], nil),
      ]
      for command in Command.all {
        described += command.options.map { ($0, $0.commandHelp ?? "", command.name) }
      }
      for (option, words, command) in described {
        let bracket = option.value == nil ? "[" : "=["
        // `'--all[words]'`, or `{-y,--yes}'[words]'` for an option with two names.
        let zshForms = [
          "'\(option.name)\(bracket)\(words)]", "\(option.name)}'\(bracket)\(words)]",
        ]
        #expect(zshForms.contains { zsh.contains($0) }, "zsh: \(option.name)")
        let long = "-l " + option.name.dropFirst(2)
        #expect(
          fishLines.contains { line in
            line.contains(long + " ") && line.hasSuffix(" -d '\(words)'")
              && (command.map { line.contains("'__filenote_after \($0)'") } ?? true)
          }, "fish: \(option.name)")
      }
    }

    @Test func readmeDocumentsEveryCommandAndOption() throws {
      let readme = try String(contentsOfFile: Package.file("README.md"), encoding: .utf8)
      let usage = section("## Usage", of: readme)
      for command in Command.names {
        #expect(usage.contains("filenote \(command)"), "README's usage shows \(command)")
      }
      for option in Option.all.flatMap(\.names) {
        #expect(words(in: usage).contains(option), "README's usage shows \(option)")
      }
    }

    @Test func readmeIsAtMost12KBAndLeadsWithWhatWhyAndInstall() throws {
      let readme = try String(contentsOfFile: Package.file("README.md"), encoding: .utf8)
      #expect(readme.utf8.count <= 12_000, "README.md is \(readme.utf8.count) bytes")
      let headings = readme.split(separator: "\n").filter { $0.hasPrefix("## ") }
      #expect(Array(headings.prefix(2)) == ["## Why", "## Install"], "\(headings)")
      #expect(readme.hasPrefix("# filenote\n\nfilenote remembers one note"))
    }

    /// Every document a Swift file names (`doc/SYNC.md`, `CONTRIBUTING.md`)
    /// is one a clone holds, found from the repository's root or, as a
    /// file in a folder names its neighbours, from that folder.
    @Test func everyDocumentASwiftFileNamesIsInTheRepository() throws {
      let folders = ["Sources", "Tests", "fuzz"]
      var missing: [String] = []
      for folder in folders {
        let files = FileManager.default.enumerator(atPath: Package.file(folder))!
        while let relative = files.nextObject() as? String {
          guard relative.hasSuffix(".swift") else { continue }
          let path = folder + "/" + relative
          let text = try String(contentsOfFile: Package.file(path), encoding: .utf8)
          let named = text.matches(of: /[A-Za-z0-9_.\/-]*[A-Za-z0-9_-]\.md\b/).map {
            String($0.output)
          }
          let here = (path as NSString).deletingLastPathComponent
          for document in Set(named)
          where !FileManager.default.fileExists(atPath: Package.file(document))
            && !FileManager.default.fileExists(atPath: Package.file(here + "/" + document))
          {
            missing.append("\(path) names \(document)")
          }
        }
      }
      #expect(missing.isEmpty, "\(missing)")
    }

    /// Storage (the note, its versions, sync-engine support) never prints:
    /// what it has to tell comes back in a save's outcome or in `Notices`,
    /// and the command that ran says it.
    @Test func storageCodeNeverPrintsNorAsksWhereOutputGoes() throws {
      var printing: [String] = []
      for folder in ["Note", "Versions", "Sync"] {
        let path = "Sources/FilenoteCore/" + folder
        let files = FileManager.default.enumerator(atPath: Package.file(path))!
        while let relative = files.nextObject() as? String {
          guard relative.hasSuffix(".swift") else { continue }
          let text = try String(
            contentsOfFile: Package.file(path + "/" + relative), encoding: .utf8)
          for line in text.split(separator: "\n")
          where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
            && line.contains(/Filenote\.(report|printError|printOut)|standardError|standardOutput/)
          {
            printing.append("\(path)/\(relative): \(line)")
          }
        }
      }
      #expect(printing.isEmpty, "\(printing)")
    }

    @Test func readmeSaysHowToReadTheManPageAndEnableEachCompletion() throws {
      let readme = try String(contentsOfFile: Package.file("README.md"), encoding: .utf8)
      let text = section("## Man page and shell completions", of: readme)
      #expect(text.contains("man -l doc/filenote.1"))
      for file in UnixIntegrationTests.installedFiles.compactMap(\.source) {
        #expect(text.contains(file), "README names \(file)")
        #expect(FileManager.default.fileExists(atPath: Package.file(file)))
      }
      for shell in ["bash", "zsh", "fish"] {
        #expect(text.contains("**\(shell)**"), "README says how to enable the \(shell) completion")
      }
    }

    /// The lines after `heading` up to the next empty line.
    private func block(_ heading: String, of text: String) -> [Substring] {
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      guard let start = lines.firstIndex(where: { $0 == heading }) else { return [] }
      return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
    }

    /// The option names at the start of the lines of an "Options:" block
    /// (`  -h, --help   show help` names `-h` and `--help`).
    private func optionNames(inBlock lines: [Substring]) -> [String] {
      lines.flatMap { line -> [String] in
        let trimmed = line.drop { $0 == " " }
        guard trimmed.hasPrefix("-") else { return [] }
        // A label too wide for its column stands alone, its text below.
        let label = trimmed.firstRange(of: "  ").map { trimmed[..<$0.lowerBound] } ?? trimmed
        return label.split(separator: ", ").map {
          String($0.split(separator: " ")[0])
        }
      }
    }

    /// A Markdown section: from its heading to the next heading of its level.
    private func section(_ heading: String, of markdown: String) -> String {
      guard let start = markdown.range(of: "\n" + heading + "\n") else { return "" }
      let rest = markdown[start.upperBound...]
      let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
      return String(rest[..<end])
    }

    /// The words of a text, split at anything that cannot be part of an option name.
    private func words(in text: String) -> Set<String> {
      Set(
        text.split { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }.map(String.init))
    }
  }
}
