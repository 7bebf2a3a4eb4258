import SystemCalls

// The rows of the command table that bring the note to where the user looks
// (doc/INTEGRATION.md): the shell's code for prompts and keys, and the
// clipboard; `show --line` and `history --json` are options of their rows.

extension Command {
  // swift-format-ignore: OnlyOneTrailingClosureArgument
  static let copy = Command(
    name: "copy", arguments: "[N]", ownOptions: { [.desktop] },
    summary: "put the note, or version N, on the clipboard",
    description: """
      Put the note (or version N) on the clipboard of the terminal you sit at.

      The text goes to the terminal as OSC 52, which most terminals take (xterm
      once allowed, see the man page); inside tmux, through 'tmux load-buffer -w',
      which sets tmux's buffer and the clipboard of the terminal tmux runs in. A
      terminal takes at most 75000 bytes. With --desktop, or where the terminal
      cannot (no terminal, TERM=dumb, GNOME Terminal and other VTE terminals, a
      larger note), wl-copy (Wayland), then xclip or xsel (X11) put it on the
      desktop's clipboard; when none can, nothing is copied and the message says
      why. Nothing else in filenote touches the clipboard. It says how it copied.
      """,
    examples: ["filenote copy", "filenote copy 1", "filenote copy --desktop"]
  ) { input throws(FilenoteError) in
    // Reading only: FILENOTE_VERSIONS is not this command's business.
    let store = try input.store(ignoringVersionCount: true)
    guard let (bytes, version) = try input.noteOrVersion(of: store) else {
      throw .noNote(path: store.path, versionsKept: try store.keptVersionCount())
    }
    let what = version.map { "version \($0)" } ?? "the note"
    let way = try Clipboard(environment: input.environment).copy(
      bytes, desktop: input.options.contains(.desktop))
    try Filenote.printOut(Array("Copied \(what) to the clipboard \(way.words).\n".utf8))
    return .success
  }

  // swift-format-ignore: OnlyOneTrailingClosureArgument
  static let initScript = Command(
    name: "init", arguments: "SHELL", ownOptions: { [] },
    summary: "print the shell code for the prompt segment and keys",
    description: """
      Print the code that puts the note in your shell's prompt and on two keys.

      Evaluate it in your shell's start-up file: eval "$(filenote init bash)" in
      ~/.bashrc, eval "$(filenote init zsh)" in ~/.zshrc, filenote init fish |
      source in ~/.config/fish/config.fish. It defines filenote_prompt, which
      prints the note as one line for your prompt (zsh: also the variable
      filenote_prompt_line; never run as code, whatever the note holds;
      FILENOTE_PROMPT_WIDTH columns, 30 by default), and binds
      Alt-M to open the note in filenote's prompt from the command line, which
      comes back as it was, and Alt-J to save the command line as the note. No
      shell binds these keys by default; FILENOTE_NO_KEYS=1 binds neither. The
      comments of the code say how to use other keys.
      """,
    examples: [
      "eval \"$(filenote init bash)\"", "filenote init fish | source",
      "filenote init zsh > ~/.zsh/filenote.zsh",
    ]
  ) { input throws(FilenoteError) in
    let shells = ShellScript.allCases.map(\.rawValue).joined(separator: ", ")
    guard input.words.count == 1 else {
      throw .usage("'init' takes the name of a shell: \(shells) (see 'filenote help init')")
    }
    let name = String(decoding: input.words[0], as: UTF8.self)
    guard let shell = ShellScript.named(name) else {
      throw .usage(
        "no code for the shell '\(name)' (shells: \(shells))")
    }
    try Filenote.printOut(Array(shell.text.utf8))
    return .success
  }

  /// `show --line [--width N] [--follow] [--fail] [N]`: the note (or version N) as
  /// one inert line (`NoteLine`), nothing at all when there is no note; with
  /// `--follow`, again at each change (`NoteFollower`).
  static func showLine(_ input: CommandInput) throws(FilenoteError) -> ExitCode {
    let columns = lineColumns(input)
    // Reading only, on every prompt: FILENOTE_VERSIONS is left unread, as
    // by `show`.
    let store = try input.store(ignoringVersionCount: true)
    if input.options.contains(.follow) {
      guard input.words.isEmpty else {
        throw .usage("'--follow' follows the note, not a version (see 'filenote help show')")
      }
      return try NoteFollower(store: store, columns: columns).run()
    }
    // No note: nothing at all, and success, so that a bar hides its module;
    // a script that asked (--fail) is told by the status alone.
    let noNote: ExitCode = input.options.contains(.failWithoutNote) ? .failure : .success
    let line: String
    if input.words.isEmpty || input.words == [[UInt8(ascii: "0")]] {
      // The note: only the beginning the line shows is read (`NoteLine`).
      guard let (fd, _, path) = try store.open() else { return noNote }
      defer { fd.close() }
      line = try NoteLine.line(reading: fd, path: path, columns: columns)
    } else {
      guard let (bytes, _) = try input.noteOrVersion(of: store) else { return noNote }
      line = NoteLine.line(of: bytes, columns: columns)
    }
    try Filenote.printOut(Array((line + "\n").utf8))
    return .success
  }

  /// The width of `show --line`: `--width N`, else the terminal's on a
  /// terminal, else `NoteLine.defaultColumns`.
  private static func lineColumns(_ input: CommandInput) -> Int {
    if let columns = input.options.number(of: .width) { return columns }
    let terminal =
      FileDescriptor.standardOutput.isTerminal
      ? (try? FileDescriptor.standardOutput.windowSize().columns) : nil
    return terminal.flatMap { $0 > 0 ? $0 : nil } ?? NoteLine.defaultColumns
  }
}

extension CommandInput {
  /// What a command that shows the note or version N (one word at most)
  /// works on: the note's bytes, or version N's and N; nil when no note is
  /// saved. 0 is the note itself, as `history` lists it.
  func noteOrVersion(
    of store: FileStore
  ) throws(FilenoteError) -> (bytes: [UInt8], version: Int?)? {
    guard words.count <= 1 else {
      throw .usage(
        "'\(command.name)' takes one version number at most "
          + "(see 'filenote help \(command.name)')")
    }
    if let word = words.first, case let number = try versionNumber(word), number != 0 {
      return (try store.readVersion(number), number)
    }
    return try store.read().map { ($0.bytes, nil) }
  }
}
