import Testing

/// No message moves the cursor, sets a title or writes the clipboard: the
/// arguments, paths and environment values a message names reach standard
/// error with their control characters as stand-ins (README, Errors and exit
/// codes).
@Suite("control characters in messages")
struct MessageControlCharacters {
  /// A shell word (for `printf`, in double quotes) of ESC sequences that
  /// color, clear the screen, set the title, write the clipboard; a C1 CSI
  /// (U+009B); a right-to-left override; and a byte that is not UTF-8.
  static let hostile =
    #"a\033[31mb\033[2J\033]0;title\007\033]52;c;aGk=\007\302\233c\342\200\256d\377e"#

  /// Standard error holds no byte a terminal acts on: no C0 control but the
  /// final newline, no DEL, no C1 or bidirectional control, no byte that is
  /// not UTF-8; and it shows the stand-ins of what was given.
  static func expectInert(
    _ result: FilenoteProcess.Result, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let line = result.stderr.dropLast(result.stderr.last == 0x0A ? 1 : 0)
    #expect(!line.isEmpty, "a message", sourceLocation: sourceLocation)
    #expect(
      !line.contains { $0 < 0x20 || $0 == 0x7F }, "\(result.stderrText)",
      sourceLocation: sourceLocation)
    let text = String(validating: line, as: UTF8.self)
    #expect(text != nil, "UTF-8: \(result.stderrText)", sourceLocation: sourceLocation)
    let controls = (text ?? "").unicodeScalars.filter {
      (0x80...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value)
        || (0x2066...0x2069).contains($0.value)
    }
    #expect(controls.isEmpty, "\(result.stderrText)", sourceLocation: sourceLocation)
    #expect(
      result.stderrText.contains("\u{241B}[31m"), "ESC drawn as ␛", sourceLocation: sourceLocation)
  }

  @Test(
    "an argument a usage error names is shown with stand-ins",
    arguments: [
      "filenote path \"$w\"", "filenote \"$w\"", "filenote \"--$w\"", "filenote show \"$w\"",
      "filenote init \"$w\"", "filenote help \"$w\"",
      "filenote show --line --width \"$(printf %s \"$w\" | tr -d '\\377')\"",
      "filenote restore \"$w\"", "filenote --version \"$w\"",
    ])
  func anArgument(command: String) throws {
    let home = try TemporaryHome()
    let result = try home.shell("w=$(printf \"\(Self.hostile)\"); \(command)")
    #expect(result.status == 2)
    Self.expectInert(result)
  }

  @Test(
    "a documents folder named in user-dirs.dirs is shown with stand-ins when a command names it",
    arguments: [["show", "99"], ["restore", "1"], ["save", "x"], ["show"], ["undo"]])
  func aDocumentsFolder(arguments: [String]) throws {
    let home = try TemporaryHome()
    // A file where a folder of the path should be: `save` cannot create it.
    let script = """
      d=$(printf "$HOME/\(Self.hostile)" | tr -d '\\377')
      printf '' > "$d"
      mkdir -p "$HOME/.config"
      printf 'XDG_DOCUMENTS_DIR="%s/Docs"\\n' "$d" > "$HOME/.config/user-dirs.dirs"
      filenote \(arguments.joined(separator: " "))
      """
    let result = try home.shell(script)
    #expect(result.status == 1)
    Self.expectInert(result)
  }

  @Test(
    "a path or a value from the environment is shown with stand-ins",
    arguments: [
      "FILENOTE_VERSIONS=\"$w\" filenote save x", "FILENOTE_FILE=\"$HOME/$w\" filenote show",
      "filenote --file \"$HOME/$w\" show 1", "FILENOTE_FILE=\"$HOME/$w/n\" filenote save x",
    ])
  func anEnvironmentValue(command: String) throws {
    let home = try TemporaryHome()
    let result = try home.shell("w=$(printf \"\(Self.hostile)\" | tr -d '\\377'); \(command)")
    #expect(result.status != 0)
    Self.expectInert(result)
  }
}
