import Foundation
import Testing

@Suite("filenote path")
struct PathCommand {
  /// Runs filenote with `arguments` and checks that it succeeds and
  /// prints `expected`, the note's path, on a line of its own.
  private func expectPath(
    _ expected: String, in home: TemporaryHome, running arguments: [String] = ["path"],
    environment: [String: String] = [:], folder: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let result = try home.filenote(arguments, environment: environment, in: folder)
      .run(sourceLocation: sourceLocation)
    result.expectSuccess(sourceLocation: sourceLocation)
    #expect(result.stdoutText == expected + "\n", sourceLocation: sourceLocation)
  }

  @Test("is $HOME/Documents/datafile.dat when nothing is configured")
  func defaultPath() throws {
    let home = try TemporaryHome()
    try expectPath(home.home + "/Documents/datafile.dat", in: home)
  }

  @Test("honours XDG_DOCUMENTS_DIR in ~/.config/user-dirs.dirs")
  func userDirsInDotConfig() throws {
    let home = try TemporaryHome()
    try home.write(
      Array(#"XDG_DOCUMENTS_DIR="$HOME/Notes""#.utf8) + [0x0A],
      to: home.home + "/.config/user-dirs.dirs")
    try expectPath(home.home + "/Notes/datafile.dat", in: home)
  }

  @Test("honours user-dirs.dirs in $XDG_CONFIG_HOME")
  func userDirsInXDGConfigHome() throws {
    let home = try TemporaryHome()
    let config = home.work + "/config"
    try home.write(
      Array(#"XDG_DOCUMENTS_DIR="$HOME/Elsewhere""#.utf8) + [0x0A], to: config + "/user-dirs.dirs"
    )
    try expectPath(
      home.home + "/Elsewhere/datafile.dat", in: home, environment: ["XDG_CONFIG_HOME": config])
  }

  @Test("does not read ~/.config/user-dirs.dirs when XDG_CONFIG_HOME names another folder")
  func xdgConfigHomeReplacesDotConfig() throws {
    let home = try TemporaryHome()
    try home.write(
      Array(#"XDG_DOCUMENTS_DIR="$HOME/Notes""#.utf8) + [0x0A],
      to: home.home + "/.config/user-dirs.dirs")
    let empty = home.work + "/empty-config"
    try home.write([], to: empty + "/unrelated")
    try expectPath(
      home.home + "/Documents/datafile.dat", in: home, environment: ["XDG_CONFIG_HOME": empty])
  }

  /// A `user-dirs.dirs` a user or `xdg-user-dirs-update` may have written;
  /// `$WORK` stands for a folder outside the home.
  struct Configuration: Sendable, CustomTestStringConvertible {
    var name: String
    var contents: String
    /// Whether the file goes in `$XDG_CONFIG_HOME` instead of `~/.config`.
    var inXDGConfigHome = false
    var testDescription: String { name }
  }

  static let configurations: [Configuration] = [
    Configuration(name: "$HOME/Notes", contents: #"XDG_DOCUMENTS_DIR="$HOME/Notes""#),
    Configuration(
      name: "in XDG_CONFIG_HOME", contents: #"XDG_DOCUMENTS_DIR="$HOME/Papers""#,
      inXDGConfigHome: true),
    Configuration(name: "an absolute path", contents: #"XDG_DOCUMENTS_DIR="$WORK/Docs""#),
    Configuration(
      name: "a space in the name", contents: #"XDG_DOCUMENTS_DIR="$HOME/My Documents""#),
    Configuration(name: "a non-ASCII name", contents: #"XDG_DOCUMENTS_DIR="$HOME/Документы""#),
    Configuration(name: "${HOME}", contents: #"XDG_DOCUMENTS_DIR="${HOME}/Braced""#),
    Configuration(name: "the home itself", contents: #"XDG_DOCUMENTS_DIR="$HOME""#),
    Configuration(
      name: "the last of two lines",
      contents: "XDG_DOCUMENTS_DIR=\"$HOME/First\"\nXDG_DOCUMENTS_DIR=\"$HOME/Second\""),
    Configuration(
      name: "the file xdg-user-dirs-update writes",
      contents: """
        # This file is written by xdg-user-dirs-update
        # If you want to change or add directories, just edit the line you're
        # interested in. All local changes will be retained on the next run.
        # Format is XDG_xxx_DIR="$HOME/yyy", where yyy is a shell-escaped
        # homedir-relative path, or XDG_xxx_DIR="/yyy", where /yyy is an
        # absolute path. No other format is supported.
        #\u{20}
        XDG_DESKTOP_DIR="$HOME/Desktop"
        XDG_DOWNLOAD_DIR="$HOME/Downloads"
        XDG_TEMPLATES_DIR="$HOME/Templates"
        XDG_PUBLICSHARE_DIR="$HOME/Public"
        XDG_DOCUMENTS_DIR="$HOME/Dokumente"
        XDG_MUSIC_DIR="$HOME/Musik"
        XDG_PICTURES_DIR="$HOME/Bilder"
        XDG_VIDEOS_DIR="$HOME/Videos"
        """),
  ]

  @Test(
    "agrees with xdg-user-dir DOCUMENTS wherever the user configured a documents folder",
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/xdg-user-dir"),
      "needs xdg-user-dir (package xdg-user-dirs)"),
    arguments: configurations)
  func agreesWithXDGUserDir(_ configuration: Configuration) throws {
    let home = try TemporaryHome()
    let contents = configuration.contents.replacingOccurrences(of: "$WORK", with: home.work)
    var environment: [String: String] = [:]
    var file = home.home + "/.config/user-dirs.dirs"
    if configuration.inXDGConfigHome {
      environment["XDG_CONFIG_HOME"] = home.work + "/config"
      file = home.work + "/config/user-dirs.dirs"
    }
    try home.write(Array((contents + "\n").utf8), to: file)

    let desktopAnswer = try home.xdgDocumentsFolder(environment: environment)
    #expect(desktopAnswer != home.home + "/Documents", "the case configures another folder")
    try expectPath(desktopAnswer + "/datafile.dat", in: home, environment: environment)

    // And the first save really goes there, creating the folder.
    try home.run("save", "hello", environment: environment).expectSuccess()
    #expect(home.contents(of: desktopAnswer + "/datafile.dat") == Array("hello".utf8))
    #expect(home.mode(of: desktopAnswer) == (desktopAnswer == home.home ? 0o755 : 0o700))
  }

  @Test(
    "reads user-dirs.dirs as xdg-user-dir does: CRLF line endings, a byte that is not UTF-8 on another line",
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/xdg-user-dir"),
      "needs xdg-user-dir (package xdg-user-dirs)"),
    arguments: ["CRLF", "Latin-1 comment"])
  func userDirsReadAsBytes(kind: String) throws {
    let home = try TemporaryHome()
    let contents =
      kind == "CRLF"
      ? Array(
        "XDG_DESKTOP_DIR=\"$HOME/Desktop\"\r\nXDG_DOCUMENTS_DIR=\"$HOME/Dokumente\"\r\n".utf8)
      : Array("# f".utf8) + [0xFC] + Array("r alle\nXDG_DOCUMENTS_DIR=\"$HOME/Dokumente\"\n".utf8)
    try home.write(contents, to: home.home + "/.config/user-dirs.dirs")

    // The shell keeps the CR of a CRLF line in the value; GLib and users don't.
    let desktopAnswer = try home.xdgDocumentsFolder().trimmingCharacters(in: .newlines)
    #expect(desktopAnswer == home.home + "/Dokumente")
    try expectPath(desktopAnswer + "/datafile.dat", in: home)
  }

  @Test(
    "a user-dirs.dirs that is a FIFO or a link to a device: a one-line error naming it, exit 1, no hang",
    arguments: ["mkfifo \"$f\"", "ln -s /dev/zero \"$f\""])
  func userDirsNotARegularFile(make: String) throws {
    let home = try TemporaryHome()
    let file = home.home + "/.config/user-dirs.dirs"
    // ulimit -v: a read of /dev/zero that never ends must not take the machine with it.
    let result = try home.shell(
      """
      f=\(PromptTests.shellQuoted(file))
      mkdir -p "${f%/*}" && \(make) || exit 99
      ulimit -v 4000000
      for command in path show "save hi"; do
        timeout 20 "$0" $command
        echo "$command: $?"
      done
      """)

    #expect(result.stdoutText == "path: 1\nshow: 1\nsave hi: 1\n", "\(result.stderrText)")
    let lines = result.stderrText.split(separator: "\n")
    #expect(lines.count == 3, "\(result.stderrText)")
    for line in lines {
      #expect(line == "filenote: cannot use \(file): not a regular file")
    }
    #expect(!home.exists(home.documents))
  }

  @Test("a user-dirs.dirs larger than 64 KiB: a one-line error naming it, exit 1")
  func userDirsTooLarge() throws {
    let home = try TemporaryHome()
    let file = home.home + "/.config/user-dirs.dirs"
    try home.write(Array(repeating: UInt8(ascii: "#"), count: 64 * 1024 + 1), to: file)

    let result = try home.run("path")

    result.expectError(status: 1, mentioning: [file, "64 KiB"])
  }

  @Test("--file wins over FILENOTE_FILE, which wins over the default")
  func precedence() throws {
    let home = try TemporaryHome()
    let fromEnvironment = ["FILENOTE_FILE": home.work + "/env.txt"]
    let flag = home.work + "/flag.txt"

    try expectPath(
      flag, in: home, running: ["path", "--file", flag], environment: fromEnvironment)
    try expectPath(home.work + "/env.txt", in: home, environment: fromEnvironment)

    // And save writes where path says.
    try home.run("save", "via env", environment: fromEnvironment).expectSuccess()
    try home.run("save", "via flag", "--file", flag, environment: fromEnvironment).expectSuccess()
    #expect(home.contents(of: home.work + "/env.txt") == Array("via env".utf8))
    #expect(home.contents(of: flag) == Array("via flag".utf8))
    #expect(!home.exists(home.documents))
  }

  @Test("--file is taken before or after the command")
  func fileOptionAnywhere() throws {
    let home = try TemporaryHome()
    let file = home.work + "/n.txt"
    try expectPath(file, in: home, running: ["--file", file, "path"])
    try expectPath(file, in: home, running: ["path", "--file", file])
  }

  @Test("a relative --file is shown as an absolute path")
  func relativeFileShownAbsolute() throws {
    let home = try TemporaryHome()
    try expectPath(
      home.work + "/sub/note.txt", in: home, running: ["path", "--file", "sub/note.txt"],
      folder: home.work)
  }

  @Test(
    "a --file given as ./note.txt or with doubled slashes is named cleanly joined, in path and in errors"
  )
  func dotFileNamedCleanly() throws {
    let home = try TemporaryHome()
    let clean = home.work + "/note.txt"
    try expectPath(clean, in: home, running: ["path", "--file", "./note.txt"], folder: home.work)
    try expectPath(clean, in: home, running: ["path", "--file", home.work + "/.//note.txt"])
    try home.run("show", "--file", "./note.txt", in: home.work)
      .expectError(status: 1, mentioning: [clean + " "])
    try home.run("save", "x", "--file", "./missing/./note.txt", in: home.work)
      .expectError(status: 1, mentioning: [home.work + "/missing"])
  }

  @Test(
    "HOME=/ gives /Documents/datafile.dat")
  func rootHome() throws {
    let home = try TemporaryHome()
    try expectPath("/Documents/datafile.dat", in: home, environment: ["HOME": "/"])
  }

  @Test(
    "a note path that is not UTF-8 (--file, FILENOTE_FILE) is used as given or refused, never changed",
    arguments: [
      #"filenote save x --file "$(printf 'n\377')""#,
      #"FILENOTE_FILE="$(printf 'n\377')" filenote save x"#,
    ])
  func pathNotUTF8(command: String) throws {
    let home = try TemporaryHome()
    let result = try home.shell(
      command + "\n" + #"""
        echo "status $?"
        [ -e "$(printf 'n\357\277\275')" ] && echo "wrote n\u{FFFD}"
        [ -e "$(printf 'n\377')" ] && echo "wrote n\\377"
        true
        """#)
    #expect(!result.stdoutText.contains("wrote n\u{FFFD}"), "\(result.stdoutText)")
    #expect(
      result.stdoutText == "status 0\nwrote n\\377\n" || !result.stdoutText.hasPrefix("status 0"),
      "\(result.stdoutText)")
  }

  @Test("reading (path, show, clear) never creates the documents folder")
  func readingCreatesNothing() throws {
    let home = try TemporaryHome()
    try home.run("path").expectSuccess()
    _ = try home.run("show")
    try home.run("clear").expectSuccess()
    #expect(home.entries(in: home.home) == [])
  }
}
