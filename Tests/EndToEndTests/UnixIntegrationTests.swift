import FilenoteCore
import Foundation
import Testing

/// filenote fits in on a Unix machine: `make install` lays out the binary, the
/// man page and the shell completions; the man page renders cleanly; the
/// completions complete; and the help, the man page and README.md tell the
/// same story.
///
/// These tests run the real tools: make, groff, man (man-db), bash, zsh, fish
/// and tmux. A missing tool fails the test with the package to install.
@Suite struct UnixIntegrationTests {
  /// The options `Invocation.parse` accepts (`--file=PATH` is `--file`).
  static let options = Command.commonOptions

  /// The files `make install` puts under `$(DESTDIR)$(PREFIX)`, each with the
  /// file of this package it is a copy of (nil for the binary) and its mode.
  static let installedFiles: [(path: String, source: String?, mode: Int)] = [
    ("bin/filenote", nil, 0o755),
    ("share/man/man1/filenote.1", "doc/filenote.1", 0o644),
    ("share/bash-completion/completions/filenote", "completions/filenote.bash", 0o644),
    ("share/zsh/site-functions/_filenote", "completions/_filenote", 0o644),
    ("share/fish/vendor_completions.d/filenote.fish", "completions/filenote.fish", 0o644),
  ]

  @Suite struct MakeInstall {
    @Test func installLaysOutExactlyTheBinaryTheManPageAndTheCompletions() throws {
      let stage = try ScratchFolder()
      try Make.run([
        "install-files", "BINARY=\(try Package.filenoteBinary)", "DESTDIR=\(stage.path)",
      ])

      let expected = UnixIntegrationTests.installedFiles.map { "usr/local/" + $0.path }
      #expect(try stage.regularFiles() == expected.sorted())
      for file in UnixIntegrationTests.installedFiles {
        let installed = stage.path + "/usr/local/" + file.path
        #expect(try permissions(of: installed) == file.mode, "mode of \(file.path)")
        if let source = file.source {
          #expect(
            FileManager.default.contentsEqual(atPath: installed, andPath: Package.file(source)),
            "\(file.path) is a copy of \(source)")
        }
      }
      let version = try ExternalProgram.run(
        stage.path + "/usr/local/bin/filenote", ["--version"], in: stage.path)
      #expect(version.stdout == HelpText.version + "\n")
    }

    @Test func prefixMovesEveryInstalledFile() throws {
      let stage = try ScratchFolder()
      try Make.run([
        "install-files", "BINARY=\(try Package.filenoteBinary)", "DESTDIR=\(stage.path)",
        "PREFIX=/opt/filenote",
      ])
      let expected = UnixIntegrationTests.installedFiles.map { "opt/filenote/" + $0.path }
      #expect(try stage.regularFiles() == expected.sorted())
    }

    @Test func uninstallRemovesExactlyTheInstalledFiles() throws {
      let stage = try ScratchFolder()
      let binary = try Package.filenoteBinary
      try Make.run(["install-files", "BINARY=\(binary)", "DESTDIR=\(stage.path)"])
      // Another program's files in the same folders must survive.
      let neighbours = ["usr/local/bin/other", "usr/local/share/man/man1/other.1"]
      for neighbour in neighbours {
        try stage.createEmptyFile(neighbour)
      }

      try Make.run(["uninstall", "DESTDIR=\(stage.path)"])
      #expect(try stage.regularFiles() == neighbours.sorted())
    }

    @Test func installBuildsTheReleaseBinaryAndInstallsThatOne() throws {
      let stage = try ScratchFolder()
      // -n prints the commands without running them (and passes -n on to
      // the sub-make that installs the files).
      let plan = try Make.run(["-n", "install", "DESTDIR=\(stage.path)"]).stdout
      let lines = plan.split(separator: "\n").map(String.init)
      let build = lines.firstIndex { $0.contains("swift build -c release") }
      let copy = lines.firstIndex {
        $0.contains(".build/release/filenote")
          && $0.contains("\(stage.path)/usr/local/bin/filenote")
      }
      #expect(build != nil && copy != nil && build! < copy!, "make -n install printed:\n\(plan)")
      #expect(try stage.regularFiles() == [], "make -n installs nothing")
    }

    private func permissions(of path: String) throws -> Int? {
      try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }
  }

  @Suite struct ManPage {
    @Test func groffRendersItWithoutAWarning() throws {
      let groff = try ExternalProgram.run(
        "groff", ["-man", "-ww", "-z", "-Tutf8", Package.file("doc/filenote.1")])
      #expect(groff.status == 0)
      #expect(groff.stdout.isEmpty)
      #expect(groff.stderr.isEmpty)
    }

    @Test func manRendersItWithoutAWarningAt80Columns() throws {
      let man = try ExternalProgram.run(
        "man", ["--warnings", "-l", Package.file("doc/filenote.1")],
        environment: ["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"])
      #expect(man.status == 0)
      #expect(man.stderr.isEmpty)
      #expect(man.stdout.contains("FILENOTE(1)"))
      let long = man.stdout.split(separator: "\n").filter { $0.count > 80 }
      #expect(long.isEmpty, "lines wider than 80 columns: \(long)")
    }

    @Test func hasTheSectionsTheIssueAsksForInOrder() throws {
      let required = [
        "NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "KEYS", "FILES",
        "ENVIRONMENT", "EXIT STATUS", "EXAMPLES",
      ]
      let sections = try ManPageSource().sectionNames
      #expect(sections.filter(required.contains) == required)
    }

    @Test func documentsEveryKeyOfThePrompt() throws {
      // SPEC's list under "The prompt", and the keys the prompt adds to it.
      let keys = [
        "Enter", "Ctrl-C", "Ctrl-D", "Left", "Right", "Home", "End", "Ctrl-A", "Ctrl-E",
        "Ctrl-B", "Ctrl-F", "Alt-B", "Alt-F", "Ctrl-Left", "Ctrl-Right", "Backspace", "Delete",
        "Ctrl-H", "Ctrl-K", "Ctrl-U", "Ctrl-W", "Alt-D", "Alt-Backspace", "Ctrl-Y", "Alt-Y",
        "Ctrl-T", "Ctrl-_", "Ctrl-L", "Ctrl-Z", "Tab",
        // Ctrl-X Ctrl-E: a tag's first word.
        "Ctrl-X",
      ]
      let documented = try ManPageSource().tagNames(inSection: "KEYS")
      #expect(Set(keys).subtracting(documented).isEmpty, "keys missing from KEYS")
    }

    @Test func documentsTheEnvironmentFilenoteReads() throws {
      let variables = try ManPageSource().tagNames(inSection: "ENVIRONMENT")
      #expect(
        variables == [
          "FILENOTE_FILE", "FILENOTE_VERSIONS", "HOME", "XDG_CONFIG_HOME", "NO_COLOR", "TERM",
          "VISUAL", "EDITOR", "TMPDIR",
        ])
    }

    @Test func documentsEveryExitStatus() throws {
      let statuses = [ExitCode.success, .failure, .usage, .cancelled].map { "\($0.rawValue)" }
      #expect(try ManPageSource().tagNames(inSection: "EXIT STATUS") == statuses)
    }

    @Test func namesTheVersionThatFilenotePrints() throws {
      let header = try ManPageSource().lines.first { $0.hasPrefix(".TH ") }
      #expect(header?.contains("\"\(HelpText.version)\"") == true)
      let version = try ExternalProgram.run(try Package.filenoteBinary, ["--version"])
      #expect(version.stdout == HelpText.version + "\n")
    }
  }

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

    @Test func completesCommandNamesAfterHelp() throws {
      #expect(try complete(["filenote", "help", "c"]) == ["clear"])
      #expect(try complete(["filenote", "help", "clear", ""]) == [])
    }

    @Test func offersNoCommandOnceThereIsOne() throws {
      #expect(try complete(["filenote", "save", ""]) == [])
      #expect(try complete(["filenote", "--file", "x", "show", ""]) == [])
    }

    @Test func findsTheCommandAfterTheValueOfFile() throws {
      #expect(try complete(["filenote", "--file", "x", "c"]) == ["clear"])
      #expect(try complete(["filenote", "--file", "=", "x", "c"]) == ["clear"])
    }

    @Test func completesFileNamesAfterFile() throws {
      let folder = try ScratchFolder()
      try folder.createEmptyFile("notes.txt")
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
      let folder = try ScratchFolder()
      try folder.createEmptyFile("notes.txt")
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
    private func complete(_ words: [String], in folder: String? = nil) throws -> [String] {
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
        in: folder)
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

    @Test func completesCommandNamesAfterHelp() throws {
      let session = try startZsh()
      try session.type("filenote help cl\t")
      try session.waitFor { $0.contains("READY> filenote help clear") }
    }

    @Test func completesFileNamesAfterFile() throws {
      let session = try startZsh { folder in try folder.createEmptyFile("notes.txt") }
      try session.type("filenote show --file no\t")
      try session.waitFor { $0.contains("READY> filenote show --file notes.txt") }
    }

    /// An interactive zsh in tmux with filenote's completion, at its prompt,
    /// in a fresh folder that `prepare` may fill.
    private func startZsh(_ prepare: (ScratchFolder) throws -> Void = { _ in }) throws
      -> TmuxSession
    {
      let home = try ScratchFolder()
      try prepare(home)
      let zshrc = """
        fpath=('\(Package.file("completions"))' $fpath)
        autoload -Uz compinit && compinit -u -D
        PS1='READY> '
        """
      try zshrc.write(toFile: home.path + "/.zshrc", atomically: false, encoding: .utf8)
      let session = try TmuxSession(
        ["zsh", "-i"], in: home.path, environment: ["ZDOTDIR": home.path], keeping: home)
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

    @Test func offersEveryCommandAndNoFileNamesFirst() throws {
      #expect(try complete("filenote ") == Command.names.sorted())
    }

    @Test func completesCommandNamesAfterHelpAndNothingAfterSave() throws {
      #expect(try complete("filenote help c") == ["clear"])
      #expect(try complete("filenote save ") == [])
    }

    @Test func completesFileNamesAfterFile() throws {
      let folder = try ScratchFolder()
      try folder.createEmptyFile("notes.txt")
      #expect(try complete("filenote --file no", in: folder.path) == ["notes.txt"])
      #expect(try complete("filenote --file x ", in: folder.path) == Command.names.sorted())
    }

    /// The completions fish offers for this command line, without their descriptions, sorted.
    private func complete(_ line: String, in folder: String? = nil) throws -> [String] {
      let home = try ScratchFolder()
      let fish = try ExternalProgram.run(
        "fish",
        [
          "--no-config", "-c", "source $argv[1]; complete --do-complete=$argv[2]",
          Package.file("completions/filenote.fish"), line,
        ],
        in: folder, environment: ["HOME": home.path])
      try #require(fish.status == 0 && fish.stderr.isEmpty, "fish: \(fish.stderr)")
      return fish.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        .sorted()
    }
  }

  /// `filenote --help`, `filenote help COMMAND`, the man page and README.md
  /// name the same commands and options.
  @Suite struct HelpManPageAndReadmeAgree {
    @Test func helpListsExactlyTheCommandsAndOptions() throws {
      let help = try ExternalProgram.run(try Package.filenoteBinary, ["--help"]).stdout
      let commands = block("Commands:", of: help).map { $0.split(separator: " ")[0] }
      #expect(commands.map(String.init) == Command.names)
      #expect(
        Set(optionNames(inBlock: block("Options:", of: help))) == Set(UnixIntegrationTests.options))
    }

    @Test func theListedOptionsAreTheOnesFilenoteAccepts() throws {
      let binary = try Package.filenoteBinary
      let home = try ScratchFolder()
      for arguments in [["--help"], ["-h"], ["--version"], ["path", "--file", "x"]] {
        let run = try ExternalProgram.run(binary, arguments, environment: ["HOME": home.path])
        #expect(run.status == 0, "filenote \(arguments.joined(separator: " ")): \(run.stderr)")
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
      #expect(lines.contains("Examples:"))
      #expect(lines.contains { $0.hasPrefix("  filenote ") && $0.contains(command) }, "an example")
      #expect(help.stdout.contains("man filenote"), "says where to read more")
      #expect(try ExternalProgram.run(binary, [command, "--help"]).stdout == help.stdout)
    }

    @Test func manPageDocumentsEveryCommandAndOption() throws {
      let man = try ManPageSource()
      let commands = man.tagNames(inSection: "COMMANDS").filter { $0 != "(none)" }
      #expect(commands == Command.names)
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

    @Test func readmeDocumentsEveryCommandAndOption() throws {
      let readme = try String(contentsOfFile: Package.file("README.md"), encoding: .utf8)
      let usage = section("## Usage", of: readme)
      for command in Command.names {
        #expect(usage.contains("filenote \(command)"), "README's usage shows \(command)")
      }
      for option in UnixIntegrationTests.options {
        #expect(words(in: usage).contains(option), "README's usage shows \(option)")
      }
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
        guard trimmed.hasPrefix("-"), let gap = trimmed.firstRange(of: "  ") else { return [] }
        return trimmed[..<gap.lowerBound].split(separator: ", ").map {
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

// MARK: - What the tests run

extension UnixIntegrationTests {
  /// This package's files, found from this source file's path.
  enum Package {
    static let root: String = {
      var components = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
      components.removeLast(3)  // Tests/EndToEndTests/UnixIntegrationTests.swift
      return components.joined(separator: "/")
    }()

    static func file(_ relative: String) -> String { root + "/" + relative }

    /// The `filenote` binary under test: `$FILENOTE_BINARY` when set, else the
    /// one SwiftPM built beside this test bundle, else `.build/debug/filenote`.
    static var filenoteBinary: String {
      get throws {
        if let binary = ProcessInfo.processInfo.environment["FILENOTE_BINARY"], !binary.isEmpty {
          return binary
        }
        let testBundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let candidates = [
          testBundle.deletingLastPathComponent().appendingPathComponent("filenote").path,
          file(".build/debug/filenote"),
        ]
        guard let found = candidates.first(where: FileManager.default.isExecutableFile) else {
          throw ExternalProgram.Failure(
            message: "no filenote binary in \(candidates); run swift build")
        }
        return found
      }
    }
  }

  /// `make` in the package root.
  enum Make {
    @discardableResult
    static func run(_ arguments: [String]) throws -> ExternalProgram.Run {
      let make = try ExternalProgram.run("make", ["-C", Package.root] + arguments)
      try #require(make.status == 0, "make \(arguments.joined(separator: " ")): \(make.stderr)")
      return make
    }
  }

  /// One run of another program to the end, with a small clean environment:
  /// nothing of the test's own (a parent `make`'s MAKEFLAGS, a PREFIX) leaks in.
  enum ExternalProgram {
    struct Run {
      var status: Int32
      var stdout: String
      var stderr: String
    }

    struct Failure: Error, CustomStringConvertible {
      var message: String
      var description: String { message }
    }

    /// The Debian package of each tool, for the message when one is missing.
    static let packages = [
      "make": "make", "groff": "groff", "man": "man-db", "bash": "bash", "zsh": "zsh",
      "fish": "fish", "tmux": "tmux",
    ]

    static func environment(_ extra: [String: String]) -> [String: String] {
      let path =
        ProcessInfo.processInfo.environment["PATH"]
        ?? "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
      let base = ["PATH": path, "HOME": "/nonexistent", "LANG": "C.UTF-8", "TERM": "dumb"]
      return base.merging(extra) { _, new in new }
    }

    /// The full path of a program: `name` itself when it has a slash, else
    /// the first executable of that name in PATH.
    static func locate(_ name: String) throws -> String {
      if name.contains("/") { return name }
      let path = environment([:])["PATH"]!
      for folder in path.split(separator: ":") {
        let candidate = "\(folder)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      }
      throw Failure(
        message: "this test needs '\(name)': apt-get install \(packages[name] ?? name)")
    }

    /// Runs the program with standard input from /dev/null and returns what
    /// it printed. Output goes through files, not pipes, so a chatty program
    /// can never block on a full pipe. (posix_spawn and waitpid rather than
    /// Foundation's `Process`, whose `waitUntilExit` was seen never to return
    /// for a `tmux new-session -d` that had long exited.)
    static func run(
      _ program: String, _ arguments: [String], in folder: String? = nil,
      environment extra: [String: String] = [:]
    ) throws -> Run {
      let executable = try locate(program)
      let scratch = try ScratchFolder()
      let stdoutPath = scratch.path + "/stdout"
      let stderrPath = scratch.path + "/stderr"

      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

      // The child starts in `folder` through `env --chdir` (Glibc's
      // posix_spawn_file_actions_addchdir_np is not visible to Swift, and the
      // test process must not change its own directory under parallel tests).
      let env = try locate("env")
      let command = [env, "--chdir", folder ?? scratch.path, executable] + arguments
      let argv = command.map { strdup($0) } + [nil]
      let envp = environment(extra).map { strdup("\($0.key)=\($0.value)") } + [nil]
      defer { for pointer in argv + envp { free(pointer) } }
      // A child inherits the spawning thread's signal mask and ignored
      // signals; a test thread may block some (tmux then never hears of its
      // children), so the child starts with none blocked and all defaults.
      var attributes = posix_spawnattr_t()
      posix_spawnattr_init(&attributes)
      defer { posix_spawnattr_destroy(&attributes) }
      var noSignals = sigset_t()
      var allSignals = sigset_t()
      sigemptyset(&noSignals)
      sigfillset(&allSignals)
      posix_spawnattr_setsigmask(&attributes, &noSignals)
      posix_spawnattr_setsigdefault(&attributes, &allSignals)
      posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

      var pid: pid_t = 0
      let spawned = posix_spawn(&pid, env, &actions, &attributes, argv, envp)
      guard spawned == 0 else {
        throw Failure(message: "cannot run \(executable): \(String(cString: strerror(spawned)))")
      }
      var status: Int32 = 0
      while waitpid(pid, &status, 0) == -1 {
        guard errno == EINTR else {
          throw Failure(message: "waitpid \(executable): \(String(cString: strerror(errno)))")
        }
      }
      // WIFEXITED and WEXITSTATUS are C macros: the low 7 bits are the
      // signal that ended the child (0 when it exited), the next byte its status.
      let signal = status & 0x7f
      return Run(
        status: signal == 0 ? (status >> 8) & 0xff : 128 + signal,
        stdout: try String(contentsOfFile: stdoutPath, encoding: .utf8),
        stderr: try String(contentsOfFile: stderrPath, encoding: .utf8))
    }
  }

  /// A fresh folder under the temporary folder, removed with its contents
  /// when the last reference goes.
  final class ScratchFolder {
    let path: String

    init() throws {
      var template = Array((NSTemporaryDirectory() + "/filenote-unix.XXXXXX").utf8CString)
      guard let made = mkdtemp(&template) else {
        throw ExternalProgram.Failure(message: "mkdtemp: \(String(cString: strerror(errno)))")
      }
      path = String(
        decoding: UnsafeRawBufferPointer(start: made, count: strlen(made)), as: UTF8.self)
    }

    deinit {
      try? FileManager.default.removeItem(atPath: path)
    }

    /// Creates an empty file at a path relative to the folder.
    func createEmptyFile(_ relative: String) throws {
      guard FileManager.default.createFile(atPath: path + "/" + relative, contents: nil) else {
        throw ExternalProgram.Failure(message: "cannot create \(path)/\(relative)")
      }
    }

    /// The regular files below the folder, as sorted relative paths.
    func regularFiles() throws -> [String] {
      let all = try FileManager.default.subpathsOfDirectory(atPath: path)
      return try all.filter { relative in
        let attributes = try FileManager.default.attributesOfItem(atPath: path + "/" + relative)
        return attributes[.type] as? FileAttributeType == .typeRegular
      }.sorted()
    }
  }

  /// An interactive program in a detached tmux session of its own (its own
  /// server socket, so parallel tests never meet), typed into and read back
  /// through tmux. The server is killed when the session goes.
  final class TmuxSession {
    private let socket: String
    private let scratch: ScratchFolder
    private let kept: ScratchFolder?

    /// How long to wait for the screen to show something: only a guard that
    /// keeps a broken completion from hanging the suite; nothing measures it.
    static let patience: TimeInterval = 20

    init(
      _ command: [String], in folder: String, environment: [String: String] = [:],
      keeping kept: ScratchFolder? = nil
    ) throws {
      scratch = try ScratchFolder()
      socket = scratch.path + "/tmux.socket"
      self.kept = kept
      let variables = ExternalProgram.environment(
        ["HOME": folder, "TERM": "xterm"].merging(environment) { _, new in new })
      let start = try tmux(
        ["new-session", "-d", "-x", "100", "-y", "30", "-c", folder, "--", "env", "-i"]
          + variables.map { "\($0.key)=\($0.value)" }.sorted() + command)
      try #require(start.status == 0, "tmux new-session: \(start.stderr)")
    }

    deinit {
      _ = try? tmux(["kill-server"])
    }

    /// Types text; `\n` is Enter and `\t` is Tab.
    func type(_ text: String) throws {
      var literal = ""
      func flush() throws {
        if !literal.isEmpty { try tmux(["send-keys", "-l", literal]) }
        literal = ""
      }
      for character in text {
        switch character {
        case "\n":
          try flush()
          try tmux(["send-keys", "Enter"])
        case "\t":
          try flush()
          try tmux(["send-keys", "Tab"])
        default: literal.append(character)
        }
      }
      try flush()
    }

    /// Waits until the screen satisfies `isReady`, and returns it; fails the
    /// test with the last screen seen when that does not happen.
    @discardableResult
    func waitFor(_ isReady: (String) -> Bool) throws -> String {
      let deadline = Date().addingTimeInterval(Self.patience)
      var screen = ""
      while Date() < deadline {
        screen = try tmux(["capture-pane", "-p"]).stdout
        if isReady(screen) { return screen }
        usleep(50_000)
      }
      Issue.record("the screen never showed what the test waited for:\n\(screen)")
      throw ExternalProgram.Failure(message: "timed out waiting for the screen")
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> ExternalProgram.Run {
      let run = try ExternalProgram.run("tmux", ["-S", socket] + arguments)
      if run.status != 0 && arguments != ["kill-server"] {
        throw ExternalProgram.Failure(message: "tmux \(arguments): \(run.stderr)")
      }
      return run
    }
  }

  /// `doc/filenote.1`, read as far as these tests need: its `.SH` sections and
  /// the tags of their `.TP` paragraphs, as plain text.
  struct ManPageSource {
    let lines: [String]

    init() throws {
      let text = try String(contentsOfFile: Package.file("doc/filenote.1"), encoding: .utf8)
      lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    var sectionNames: [String] {
      lines.filter { $0.hasPrefix(".SH ") }.map { Self.plainText(ofLine: $0) }
    }

    /// The source lines of a section, without its `.SH` line.
    func section(_ name: String) -> ArraySlice<String> {
      guard
        let start = lines.firstIndex(where: {
          $0.hasPrefix(".SH ") && Self.plainText(ofLine: $0) == name
        })
      else { return [] }
      let rest = lines[(start + 1)...]
      return rest.prefix { !$0.hasPrefix(".SH ") }
    }

    func plainText(ofSection name: String) -> String {
      section(name).filter { !$0.hasPrefix(".\\\"") }.map(Self.plainText).joined(separator: "\n")
    }

    /// What the `.TP` paragraphs of a section define: the first word of each
    /// comma-separated item of their tags (the line after `.TP`), so
    /// `.BR \-h ", " \-\-help` gives `-h` and `--help`, and
    /// `.BR save " [\fITEXT\fR .\|.\|.]"` gives `save`.
    func tagNames(inSection name: String) -> [String] {
      let body = Array(section(name))
      var names: [String] = []
      for (index, line) in body.enumerated() where line.hasPrefix(".TP") && index + 1 < body.count {
        let tag = Self.plainText(ofLine: body[index + 1])
        for item in tag.components(separatedBy: ", ") {
          if let word = item.split(separator: " ").first { names.append(String(word)) }
        }
      }
      return names
    }

    /// What a line of roff shows, give or take spacing: macro arguments
    /// unquoted (the font-alternating macros join theirs, as roff does) and
    /// the escapes this page uses turned into the characters they stand for.
    static func plainText(ofLine line: String) -> String {
      var text = line
      if line.hasPrefix(".") {
        let macro = line.dropFirst().prefix { $0 != " " }
        let arguments = Self.arguments(String(line.dropFirst(1 + macro.count)))
        let alternating = ["BR", "RB", "BI", "IB", "IR", "RI"].contains(macro)
        text = arguments.joined(separator: alternating ? "" : " ")
      }
      for (escape, character) in [
        ("\\-", "-"), ("\\fB", ""), ("\\fI", ""), ("\\fR", ""), ("\\fP", ""), ("\\|", ""),
        ("\\&", ""), ("\\(dq", "\""), ("\\(aq", "'"), ("\\(rs", "\\"),
      ] {
        text = text.replacingOccurrences(of: escape, with: character)
      }
      return text
    }

    /// A macro's arguments: words separated by spaces, or "double-quoted".
    private static func arguments(_ text: String) -> [String] {
      var arguments: [String] = []
      var current = ""
      var quoted = false
      var inArgument = false
      for character in text {
        if character == "\"" {
          quoted.toggle()
          inArgument = true
        } else if character == " " && !quoted {
          if inArgument { arguments.append(current) }
          current = ""
          inArgument = false
        } else {
          current.append(character)
          inArgument = true
        }
      }
      if inArgument { arguments.append(current) }
      return arguments
    }
  }
}
