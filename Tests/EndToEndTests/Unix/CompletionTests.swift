import Foundation
import TestSupport
import Testing

@testable import FilenoteCore

extension UnixIntegrationTests {
  @Suite struct BashCompletion {
    @Test func completesSToSaveAndShow() throws {
      #expect(try complete(["filenote", "s"]) == ["save", "show"])
    }

    @Test func completesDashDashFToFile() throws {
      #expect(try complete(["filenote", "--f"]) == ["--file"])
    }

    @Test func offersEveryCommandAndEveryOption() throws {
      #expect(try complete(["filenote", ""]) == Command.names.sorted())
      #expect(try Set(complete(["filenote", "-"])) == Set(UnixIntegrationTests.options))
    }

    @Test(arguments: Command.names)
    func offersTheOptionsEachCommandTakes(command: String) throws {
      #expect(try Set(complete(["filenote", command, "-"])) == Set(options(of: command)))
      #expect(
        try Set(complete(["filenote", "--file", "x", command, "-"])) == Set(options(of: command)))
    }

    @Test func offersTheVersionNumbersHistoryListsAfterShowRestoreAndForget() throws {
      let home = try TemporaryHome.saving("a", "b", "c")
      let binary = try FilenoteProcess.binaryPath()
      let environment = ["HOME": home.home]
      #expect(try complete([binary, "show", ""], environment: environment) == ["0", "1", "2"])
      for command in ["restore", "forget"] {
        #expect(try complete([binary, command, ""], environment: environment) == ["1", "2"])
      }
      #expect(try complete([binary, "show", "1", ""], environment: environment) == [])
      // The note the command line names.
      try home.run("--file", "todo", "save", "x").expectSuccess()
      try home.run("--file", "todo", "save", "y").expectSuccess()
      let todo = home.work + "/todo"
      #expect(
        try complete([binary, "--file", todo, "forget", ""], environment: environment) == ["1"])
      #expect(
        try complete([binary, "forget", "--file", "=", todo, ""], environment: environment)
          == ["1"])
      #expect(try complete([binary, "show", ""]) == [], "no note, no versions")
    }

    @Test func offersVersionOnlyBeforeACommand() throws {
      #expect(try complete(["filenote", "--v"]) == ["--version"])
      #expect(try complete(["filenote", "save", "--v"]) == [])
      #expect(try complete(["filenote", "save", "--n"]) == ["--no-version"])
    }

    @Test func completesTheShellsAfterInit() throws {
      #expect(try complete(["filenote", "init", ""]) == ["bash", "fish", "zsh"])
      #expect(try complete(["filenote", "init", "z"]) == ["zsh"])
      #expect(try complete(["filenote", "init", "zsh", ""]) == [])
    }

    @Test func offersNothingForTheWidthOfTheLine() throws {
      #expect(try complete(["filenote", "show", "--width", ""]) == [])
      #expect(try complete(["filenote", "show", "--width", "=", ""]) == [])
      #expect(try complete(["filenote", "show", "--width", "30", "--l"]) == ["--line"])
    }

    @Test func completesCommandNamesAfterHelp() throws {
      #expect(try complete(["filenote", "help", "c"]) == ["clear", "copy"])
      #expect(try complete(["filenote", "help", "clear", ""]) == [])
    }

    @Test func offersNoCommandOnceThereIsOne() throws {
      #expect(try complete(["filenote", "save", ""]) == [])
      #expect(try complete(["filenote", "--file", "x", "show", ""]) == [])
    }

    @Test func findsTheCommandAfterTheValueOfFile() throws {
      #expect(try complete(["filenote", "--file", "x", "cl"]) == ["clear"])
      #expect(try complete(["filenote", "--file", "=", "x", "cl"]) == ["clear"])
    }

    @Test func completesFileNamesAfterFile() throws {
      let folder = TemporaryFolder(prefix: "filenote-unix")
      folder.write("notes.txt", "")
      try FileManager.default.createDirectory(
        atPath: folder.path + "/nothing", withIntermediateDirectories: false)
      let afterFile = try complete(["filenote", "--file", "no"], in: folder.path)
      #expect(afterFile == ["notes.txt", "nothing"])
      // `--file=no` reaches bash's completion as the words `--file`, `=`, `no`.
      let afterFileEquals = try complete(["filenote", "--file", "=", "no"], in: folder.path)
      #expect(afterFileEquals == ["notes.txt", "nothing"])
      let afterCommand = try complete(["filenote", "show", "--file", "notes"], in: folder.path)
      #expect(afterCommand == ["notes.txt"])
    }

    @Test func interactiveBashCompletesFileEqualsToAFileName() throws {
      let folder = TemporaryFolder(prefix: "filenote-unix")
      folder.write("notes.txt", "")
      let session = try TmuxSession(
        ["bash", "--norc", "--noprofile", "-i"], in: folder.path, environment: ["PS1": "READY> "])
      // tmux drops the blanks at the end of a line: the prompt shows as "READY>".
      try session.waitFor { $0.contains("READY>") }
      try session.type("source '\(Package.file("completions/filenote.bash"))'; clear\n")
      try session.type("filenote --file=no\t")
      let screen = try session.waitFor { $0.contains("filenote --file=notes.txt") }
      #expect(screen.contains("filenote --file=notes.txt"))
    }

    /// What bash's `_filenote` offers for these words, the last one being
    /// completed, sorted.
    private func complete(
      _ words: [String], in folder: String? = nil, environment: [String: String] = [:]
    ) throws -> [String] {
      let script = """
        source "$1"; shift
        complete -p filenote >/dev/null || exit 3
        COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
        _filenote
        printf '%s\\n' "${COMPREPLY[@]}"
        """
      let bash = try ExternalProgram.run(
        "bash",
        ["--norc", "--noprofile", "-c", script, "bash", Package.file("completions/filenote.bash")]
          + words,
        in: folder, environment: environment)
      try #require(bash.status == 0 && bash.stderr.isEmpty, "bash: \(bash.stderr)")
      return bash.stdout.split(separator: "\n").map(String.init).sorted()
    }
  }

  @Suite struct ZshCompletion {
    @Test func isValidZsh() throws {
      let zsh = try ExternalProgram.run("zsh", ["-n", Package.file("completions/_filenote")])
      #expect(zsh.status == 0 && zsh.stderr.isEmpty, "\(zsh.stderr)")
    }

    @Test func listsSaveAndShowForS() throws {
      let session = try startZsh()
      try session.type("filenote s\t")
      let screen = try session.waitFor { screen in
        let lines = screen.split(separator: "\n")
        return lines.contains { $0.hasPrefix("save ") } && lines.contains { $0.hasPrefix("show ") }
      }
      #expect(!screen.contains("\nclear"), "only the commands that start with s")
    }

    @Test func completesDashDashFToFile() throws {
      let session = try startZsh()
      try session.type("filenote --f\t")
      try session.waitFor { $0.contains("READY> filenote --file=") }
    }

    @Test(
      arguments: Command.all.flatMap { command in
        command.options.map { (command: command.name, option: $0.name) }
      })
    func completesTheOptionsOfACommandAfterIt(command: String, option: String) throws {
      let session = try startZsh()
      // All but the last letter, so that only the option can complete it.
      try session.type("filenote \(command) \(option.dropLast())\t")
      try session.waitFor { $0.contains("READY> filenote \(command) \(option)") }
    }

    @Test func completesAVersionNumberAfterForget() throws {
      let home = try TemporaryHome.saving("a", "wifi: hunter2", "c")
      let session = try startZsh(environment: ["HOME": home.home])
      try session.type("filenote forget \t")
      try session.waitFor { $0.contains("wifi: hunter2") && !$0.contains("0 --") }
      let only = try TemporaryHome.saving("a", "b")
      let second = try startZsh(environment: ["HOME": only.home])
      try second.type("filenote forget \t")
      try second.waitFor { $0.contains("READY> filenote forget 1") }
    }

    @Test func completesTheShellAfterInit() throws {
      let session = try startZsh()
      try session.type("filenote init z\t")
      try session.waitFor { $0.contains("READY> filenote init zsh") }
    }

    @Test func completesCommandNamesAfterHelp() throws {
      let session = try startZsh()
      try session.type("filenote help cl\t")
      try session.waitFor { $0.contains("READY> filenote help clear") }
    }

    @Test func completesFileNamesAfterFile() throws {
      let session = try startZsh { folder in folder.write("notes.txt", "") }
      try session.type("filenote show --file no\t")
      try session.waitFor { $0.contains("READY> filenote show --file notes.txt") }
    }

    /// An interactive zsh in tmux with filenote's completion, at its prompt,
    /// in a fresh folder that `prepare` may fill.
    private func startZsh(
      environment: [String: String] = [:], _ prepare: (TemporaryFolder) throws -> Void = { _ in }
    ) throws -> TmuxSession {
      let home = TemporaryFolder(prefix: "filenote-unix")
      try prepare(home)
      let zshrc = """
        fpath=('\(Package.file("completions"))' $fpath)
        autoload -Uz compinit && compinit -u -D
        PS1='READY> '
        """
      try zshrc.write(toFile: home.path + "/.zshrc", atomically: false, encoding: .utf8)
      // filenote on PATH, as an installed one is.
      let binaryFolder = try (FilenoteProcess.binaryPath() as NSString).deletingLastPathComponent
      let session = try TmuxSession(
        ["zsh", "-i"], in: home.path,
        environment: [
          "ZDOTDIR": home.path,
          "PATH": binaryFolder + ":" + (ExternalProgram.environment([:])["PATH"] ?? ""),
        ].merging(environment) { $1 }, keeping: home)
      // tmux drops the blanks at the end of a line: the prompt shows as "READY>".
      try session.waitFor { $0.contains("READY>") }
      return session
    }
  }

  @Suite struct FishCompletion {
    @Test func isValidFish() throws {
      let fish = try ExternalProgram.run(
        "fish", ["--no-execute", Package.file("completions/filenote.fish")])
      #expect(fish.status == 0 && fish.stderr.isEmpty, "\(fish.stderr)")
    }

    @Test func completesSToSaveAndShow() throws {
      #expect(try complete("filenote s") == ["save", "show"])
    }

    @Test func completesDashDashFToFile() throws {
      #expect(try complete("filenote --f") == ["--file"])
    }

    @Test(arguments: Command.names)
    func offersTheOptionsEachCommandTakes(command: String) throws {
      #expect(try Set(complete("filenote \(command) -")) == Set(options(of: command)))
    }

    @Test func offersTheVersionNumbersHistoryListsAfterShowRestoreAndForget() throws {
      let home = try TemporaryHome.saving("a", "b", "c")
      #expect(try complete("filenote show ", home: home.home) == ["0", "1", "2"])
      #expect(try complete("filenote forget ", home: home.home) == ["1", "2"])
      #expect(try complete("filenote restore 1 ", home: home.home) == [])
      #expect(try complete("filenote show ") == [], "no note, no versions")
    }

    @Test func offersVersionOnlyBeforeACommand() throws {
      #expect(try complete("filenote --v") == ["--version"])
      #expect(try complete("filenote save --v") == [])
    }

    @Test func offersEveryCommandAndNoFileNamesFirst() throws {
      #expect(try complete("filenote ") == Command.names.sorted())
    }

    @Test func completesTheShellsAfterInit() throws {
      #expect(try complete("filenote init ") == ["bash", "fish", "zsh"])
      #expect(try complete("filenote show --width 30 --l") == ["--line"])
    }

    @Test func completesCommandNamesAfterHelpAndNothingAfterSave() throws {
      #expect(try complete("filenote help c") == ["clear", "copy"])
      #expect(try complete("filenote save ") == [])
    }

    @Test func completesFileNamesAfterFile() throws {
      let folder = TemporaryFolder(prefix: "filenote-unix")
      folder.write("notes.txt", "")
      #expect(try complete("filenote --file no", in: folder.path) == ["notes.txt"])
      #expect(try complete("filenote --file x ", in: folder.path) == Command.names.sorted())
    }

    /// The completions fish offers for this command line, without their descriptions, sorted.
    private func complete(
      _ line: String, in folder: String? = nil, home homePath: String? = nil
    ) throws -> [String] {
      let home = TemporaryFolder(prefix: "filenote-unix")
      // filenote on PATH, as an installed one is.
      let binaryFolder = try (FilenoteProcess.binaryPath() as NSString).deletingLastPathComponent
      let fish = try ExternalProgram.run(
        "fish",
        [
          "--no-config", "-c", "source $argv[1]; complete --do-complete=$argv[2]",
          Package.file("completions/filenote.fish"), line,
        ],
        in: folder,
        environment: [
          "HOME": homePath ?? home.path,
          "PATH": binaryFolder + ":" + (ExternalProgram.environment([:])["PATH"] ?? ""),
        ])
      try #require(fish.status == 0 && fish.stderr.isEmpty, "fish: \(fish.stderr)")
      return fish.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        .sorted()
    }
  }
}
