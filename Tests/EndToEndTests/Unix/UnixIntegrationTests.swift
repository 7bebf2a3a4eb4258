import Foundation
import TestSupport
import Testing

@testable import FilenoteCore

/// filenote fits in on a Unix machine: `make install` lays out the binary, the
/// man page and the shell completions; the man page renders cleanly; the
/// completions complete; and the help, the man page and README.md tell the
/// same story.
///
/// These tests run the real tools: make, groff, man (man-db), bash, zsh, fish
/// and tmux. A missing tool fails the test with the package to install.
@Suite struct UnixIntegrationTests {
  /// The names of the options every command takes, from the table
  /// `Invocation.parse` reads (`--file=PATH` is `--file`).
  static let options = Option.common.flatMap(\.names)

  /// The names of the options `command` takes, as its help lists them: its
  /// own and the common ones that are about it (not `--version`).
  static func options(of command: String) -> [String] {
    ((Command.named(command)?.options ?? []) + Option.common).filter { $0.commandHelp != nil }
      .flatMap(\.names)
  }

  /// The files `make install` puts under `$(DESTDIR)$(PREFIX)`, each with the
  /// file of this package it is a copy of (nil for the binary) and its mode.
  static let installedFiles: [(path: String, source: String?, mode: Int)] = [
    ("bin/filenote", nil, 0o755),
    ("share/man/man1/filenote.1", "doc/filenote.1", 0o644),
    ("share/bash-completion/completions/filenote", "completions/filenote.bash", 0o644),
    ("share/zsh/site-functions/_filenote", "completions/_filenote", 0o644),
    ("share/fish/vendor_completions.d/filenote.fish", "completions/filenote.fish", 0o644),
  ]
}

// MARK: - What the tests run

extension UnixIntegrationTests {
  /// This package's files, found from this source file's path.
  enum Package {
    static let root: String = {
      var components = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
      components.removeLast(4)  // Tests/EndToEndTests/<folder>/UnixIntegrationTests.swift
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
      "fish": "fish", "tmux": "tmux", "readelf": "binutils",
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
      let scratch = TemporaryFolder(prefix: "filenote-unix")
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

  /// An interactive program in a detached tmux session of its own (its own
  /// server socket, so parallel tests never meet), typed into and read back
  /// through tmux. The server is killed when the session goes.
  final class TmuxSession {
    private let socket: String
    private let scratch: TemporaryFolder
    private let kept: TemporaryFolder?

    /// How long to wait for the screen to show something: only a guard that
    /// keeps a broken completion from hanging the suite; nothing measures it.
    static let patience: TimeInterval = 20

    init(
      _ command: [String], in folder: String, environment: [String: String] = [:],
      keeping kept: TemporaryFolder? = nil
    ) throws {
      scratch = TemporaryFolder(prefix: "filenote-unix")
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
      tags(inSection: name).flatMap { tag in
        tag.components(separatedBy: ", ").compactMap { item in
          item.split(separator: " ").first.map(String.init)
        }
      }
    }

    /// The tags of a section's `.TP` paragraphs (the line after `.TP`), as
    /// plain text: `.BR clear " [\fB\-\-all\fR]"` gives `clear [--all]`.
    func tags(inSection name: String) -> [String] {
      let body = Array(section(name))
      return body.indices.filter { body[$0].hasPrefix(".TP") && $0 + 1 < body.count }.map {
        Self.plainText(ofLine: body[$0 + 1])
      }
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
