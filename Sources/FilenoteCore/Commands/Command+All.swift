import SystemCalls

// The table of commands: one row per command, with its help and its code.
// The order is the order of `filenote --help`.

extension Command {
  /// Every command, as `filenote --help` lists them.
  static let all: [Command] = [
    save, show, edit, history, undo, restore, forget, resolve, copy, initScript, path, clear, help,
  ]

  // swift-format-ignore: OnlyOneTrailingClosureArgument
  static let save = Command(
    name: "save", arguments: "[TEXT ...]", ownOptions: { [.noVersion] },
    summary: "save TEXT (words joined by one space), or standard input",
    description: """
      Save TEXT as the note, its words joined by one space, or standard input.

      Without TEXT (or with '-'), standard input is saved byte for byte, except
      that exactly one trailing line ending is removed, so 'echo hi | filenote save'
      saves "hi". The input must be valid UTF-8 and not empty; otherwise nothing
      is saved. The save is atomic: the old note stays until the new one is
      completely on disk. The note it replaces is kept as version 1, except
      with --no-version, which keeps nothing of it (for a secret; the other
      versions stay as they are).
      """,
    examples: [
      "filenote save call the plumber",
      "printf 'line 1\\nline 2\\n' | filenote save",
      "filenote save < notes.txt",
      "filenote save --no-version < secret.txt",
    ]
  ) { input throws(FilenoteError) in
    let words = input.words
    var store = try input.store()
    if input.options.contains(.noVersion) { store.keepsReplacedNote = false }
    if words.isEmpty || words == [Array("-".utf8)] {
      if FileDescriptor.standardInput.isTerminal {
        Filenote.report("reading the note from the terminal; end it with Ctrl-D on a new line")
      }
      Filenote.report(try store.save(streamingFrom: .standardInput))
    } else {
      Filenote.report(try store.save(bytes: Array(words.joined(separator: [UInt8(ascii: " ")]))))
    }
    return .success
  }

  // swift-format-ignore: OnlyOneTrailingClosureArgument
  static let show = Command(
    name: "show", arguments: "[N]",
    ownOptions: { [.raw, .line, .width, .follow, .failWithoutNote] },
    summary: "print the saved note, or version N",
    description: """
      Print the saved note, or with N version N, ending in one newline.

      A newline is added only when the note does not end with one of its own.

      On a terminal, control characters (ESC, CR alone, DEL, C1, bidirectional
      controls; not newline or tab) are drawn as the prompt's stand-ins, so no
      escape sequence in the note reaches the terminal; --raw prints them as
      they are. Piped or redirected, the bytes are printed as saved.

      When no note is saved (a 0-byte file is none), nothing is printed on
      standard output and the exit status is 1. N counts as 'filenote history'
      does: 0 is the note itself, 1 the version it replaced; a number that is
      not kept is an error (status 1).

      With --line, the note is printed as one line for a prompt or a status bar:
      line breaks, tabs and other control characters as the prompt's stand-ins
      (so no escape sequence reaches the terminal), cut to --width N columns
      with '…'; with no note, nothing at all, status 0. --follow prints the line
      again each time it changes (a save here or by a sync engine), without
      polling, until the reader goes away. With --fail, no note still
      prints nothing but exits with status 1, for a script's test. --width,
      --follow and --fail imply --line.
      """,
    examples: [
      "filenote show", "filenote show | wc -c", "filenote show 1", "filenote show --raw",
      "filenote show --line --width 30",
      "filenote show --line --follow",
    ]
  ) { input throws(FilenoteError) in
    // --width, --follow and --fail imply it (`Option.implies`).
    if input.options.contains(.line) { return try showLine(input) }
    guard input.words.count <= 1 else {
      throw .usage("'show' takes one version number at most (see 'filenote help show')")
    }
    let store = try input.store(ignoringVersionCount: true)
    var bytes: [UInt8]
    // 0 is the note itself, as `history` lists it: `show 0` is `show`.
    if let word = input.words.first, try input.versionNumber(word) != 0 {
      // Reads the versions only when asked to: plain `show` never looks at them.
      bytes = try store.readVersion(input.versionNumber(word))
    } else {
      // Only someone at a terminal is told of conflict copies (one line on
      // standard error; standard output stays the note alone), so a script
      // pays nothing for the listing it needs.
      let copies =
        FileDescriptor.standardError.isTerminal ? (try? store.conflictCopies()) ?? [] : []
      guard let note = try store.read() else {
        if !copies.isEmpty {
          throw .noNoteButConflictCopies(path: store.path, count: copies.count)
        }
        throw .noNote(path: store.path, versionsKept: try store.keptVersionCount())
      }
      if !copies.isEmpty { Filenote.report(ConflictNotice(copies: copies).showLine) }
      if FileDescriptor.standardError.isTerminal && MergeMarkers.found(in: note.bytes) {
        Filenote.report(MergeMarkers.showLine)
      }
      bytes = note.bytes
    }
    // One newline ends the note, unless it ends with its own (another
    // tool's, as `echo` and editors write).
    if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
    // On a terminal, no control character of the note reaches it as is
    // (`TerminalText`), unless --raw asks; the table of options is looked
    // at only when one was given (CONTRIBUTING.md, Hot path).
    if FileDescriptor.standardOutput.isTerminal
      && (input.options.isEmpty || !input.options.contains(.raw))
    {
      try TerminalText.write(bytes, to: Filenote.printOut)
    } else {
      try Filenote.printOut(bytes)
    }
    return .success
  }

  // swift-format-ignore: OnlyOneTrailingClosureArgument
  static let edit = Command(
    name: "edit", arguments: "", ownOptions: { [] },
    summary: "edit the note in your editor ($VISUAL, $EDITOR)",
    description: """
      Edit the note in your editor: $VISUAL, else $EDITOR, else vi.

      The note (empty when there is none) is copied to a private temporary
      file, mode 0600 in a folder only you can enter under $TMPDIR or /tmp,
      and the editor runs on it in the terminal. When the editor exits 0,
      what it left is saved as 'save' saves: it must be valid UTF-8 and not
      empty, and one trailing line ending is removed. Nothing is written when
      the text is unchanged. When the note was changed on disk while the
      editor was open, you are asked before it is overwritten; without a
      yes, nothing is saved and the message names the file that keeps what
      you wrote. Otherwise the temporary file is always removed.

      Needs a terminal; 'filenote save' saves text from standard input.
      """,
    examples: ["filenote edit", "EDITOR=nano filenote edit", "VISUAL='code --wait' filenote edit"]
  ) { input throws(FilenoteError) in
    try input.expectNoArguments()
    return try EditorRun(store: input.store(), environment: input.environment).run()
  }

  // swift-format-ignore: OnlyOneTrailingClosureArgument
  static let path = Command(
    name: "path", arguments: "", ownOptions: { [] },
    summary: "print where the note is stored",
    description: """
      Print where the note is stored.

      That is <documents>/datafile.dat, where <documents> is the folder
      'xdg-user-dir DOCUMENTS' names (XDG_DOCUMENTS_DIR in
      ${XDG_CONFIG_HOME:-~/.config}/user-dirs.dirs), else ~/Documents.
      FILENOTE_FILE or --file name another file.
      """,
    examples: ["filenote path", "od -c \"$(filenote path)\""]
  ) { input throws(FilenoteError) in
    try input.expectNoArguments()
    try Filenote.printOut(Array((input.store().path + "\n").utf8))
    return .success
  }

  // swift-format-ignore: OnlyOneTrailingClosureArgument
  static let clear = Command(
    name: "clear", arguments: "", ownOptions: { [.allVersions] },
    summary: "remove the saved note (--all: and every version)",
    description: """
      Remove the saved note; it is kept as version 1, so 'undo' brings it back.

      Succeeds quietly when there is no note. When the note file is a symbolic
      link, the file it points to is removed and the link stays. Only a regular
      file is removed: a FIFO, a device, a socket or a folder is refused. With
      --all, every kept version is removed too (nothing can bring them back),
      and filenote says how many.
      """,
    examples: ["filenote clear", "filenote clear --all"]
  ) { input throws(FilenoteError) in
    try input.expectNoArguments()
    let store = try input.store()
    guard input.options.contains(.allVersions) else {
      try store.clearKeepingVersion()
      return .success
    }
    let removed = try store.clearAll()
    let versions = removed.versions == 1 ? "1 version" : "\(removed.versions) versions"
    try Filenote.printOut(
      Array(
        (removed.note
          ? "Removed the note and \(versions).\n" : "No note was saved; removed \(versions).\n")
          .utf8))
    return .success
  }

  // swift-format-ignore: OnlyOneTrailingClosureArgument
  static let help = Command(
    name: "help", arguments: "[COMMAND]", ownOptions: { [] },
    summary: "show the help, or the help of COMMAND",
    description: nil, examples: []
  ) { input throws(FilenoteError) in
    guard input.words.count <= 1 else {
      throw .usage("'help' takes one command name at most (see 'filenote --help')")
    }
    let topic = input.words.first.map { String(decoding: $0, as: UTF8.self) }
    var text = HelpText.general
    if let topic {
      guard let command = Command.named(topic) else {
        let near = Suggestion.commands(meantBy: topic)
        throw .usage(
          "no help for unknown command '\(topic)'"
            + (near.isEmpty
              ? " (commands: \(names.joined(separator: ", ")))" : Suggestion.names(near).text))
      }
      text = HelpText.help(of: command)
    }
    try Filenote.printOut(Array((text + "\n").utf8))
    return .success
  }
}
