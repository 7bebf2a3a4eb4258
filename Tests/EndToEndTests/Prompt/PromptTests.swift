import Foundation
import Testing

/// `filenote` alone, on a real terminal (tmux), as a user meets it: the saved
/// note on an editable line below a hint, Enter saves, Ctrl-C cancels.
///
/// The suites are in the `Prompt*Tests.swift` files; this one holds what
/// they share: a look at the screen with its cursor, and ways to start
/// filenote in a terminal, alone or from a shell.
@Suite("the prompt (filenote on a terminal)")
struct PromptTests {
  /// The hint above the line for the default note of any `TemporaryHome`
  /// with no versions kept, at 80 columns.
  static let hint =
    "~/Documents/datafile.dat · Enter saves · Ctrl-C cancels · Ctrl-X Ctrl-E: editor"

  /// The hint of the default note with no versions kept, cut for a
  /// terminal `columns` wide (the widths the tests use), as the man page's
  /// DESCRIPTION says: the path's tail first, then the keys, then the
  /// whole path.
  static func hint(columns: Int) -> String {
    switch columns {
    case 12: return "…tafile.dat"
    case 14: return "…datafile.dat"
    case 20: return "…/datafile.dat"
    case 25...28: return "~/Documents/datafile.dat"
    case 29...38: return "…/datafile.dat · Enter saves"
    case 39...45: return "~/Documents/datafile.dat · Enter saves"
    case 46...55: return "…/datafile.dat · Enter saves · Ctrl-C cancels"
    case 56...69: return "~/Documents/datafile.dat · Enter saves · Ctrl-C cancels"
    case 70...79: return "…/datafile.dat · Enter saves · Ctrl-C cancels · Ctrl-X Ctrl-E: editor"
    case 80...: return hint
    default: preconditionFailure("no hint written down for \(columns) columns")
    }
  }

  /// One look at the terminal: its lines and where its cursor is.
  struct Screen: CustomStringConvertible {
    /// One per row, each without its trailing blanks.
    let lines: [String]
    let cursor: (column: Int, row: Int)

    init(text: String, cursor: (column: Int, row: Int)) {
      var lines = text.components(separatedBy: "\n")
      if lines.last == "" { lines.removeLast() }
      self.lines = lines
      self.cursor = cursor
    }

    var text: String { lines.joined(separator: "\n") }

    /// The row of the edit line: the last one that starts with the prompt
    /// `> ` (just `>` when the line is empty: trailing blanks are not kept).
    var editRow: Int? { lines.lastIndex { $0.hasPrefix(">") } }

    /// The edit line as shown, `> ` included.
    var editLine: String? { editRow.map { lines[$0] } }

    /// The edit line with a `|` where the cursor is, when the cursor is on
    /// that row: `> buy |milk`. A cursor past the end of the shown text is
    /// after the blanks that capture leaves out (`> one two |`).
    var editLineWithCursor: String? {
      guard let row = editRow, cursor.row == row else { return nil }
      var result = ""
      var column = 0
      for character in lines[row] {
        if column == cursor.column { result.append("|") }
        let width = Screen.columns(of: character)
        if column < cursor.column && cursor.column < column + width {
          result += "<cursor inside \(character)>"
        }
        result.append(character)
        column += width
      }
      if cursor.column >= column {
        result += String(repeating: " ", count: cursor.column - column) + "|"
      }
      return result
    }

    /// The character the cursor is on in the edit line, or nil when the
    /// cursor is past its end or not on it.
    var characterAtCursor: Character? {
      guard let row = editRow, cursor.row == row else { return nil }
      var column = 0
      for character in lines[row] {
        if column == cursor.column { return character }
        column += Screen.columns(of: character)
      }
      return nil
    }

    /// The character just before the cursor in the edit line, or nil.
    var characterBeforeCursor: Character? {
      guard let row = editRow, cursor.row == row else { return nil }
      var column = 0
      var previous: Character?
      for character in lines[row] {
        if column == cursor.column { return previous }
        previous = character
        column += Screen.columns(of: character)
      }
      return column == cursor.column ? previous : nil
    }

    /// The lines that are not blank, top to bottom.
    var nonBlankLines: [String] { lines.filter { !$0.isEmpty } }

    var description: String {
      "\(text)\n[cursor at column \(cursor.column), row \(cursor.row)]"
    }

    /// How many columns a terminal gives `character`, for the characters
    /// these tests use: East Asian wide ones and emoji take two, combining
    /// accents none, the rest (ASCII, the stand-ins `↵ ⇥ ␁`) one.
    static func columns(of character: Character) -> Int {
      guard let first = character.unicodeScalars.first else { return 0 }
      switch first.value {
      case 0x0300...0x036F: return 0
      case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
        return 2
      default: return 1
      }
    }

    /// The width of `text` on the screen.
    static func columns(of text: some StringProtocol) -> Int {
      text.reduce(0) { $0 + columns(of: $1) }
    }
  }

  /// What a file is now: its bytes and which inode holds them since when,
  /// so a test can tell that nothing wrote to it, not even the same bytes.
  struct FileState: Equatable, CustomStringConvertible {
    let bytes: [UInt8]
    let inode: UInt64
    let modified: timespec

    init?(of path: String) {
      var info = stat()
      guard stat(path, &info) == 0, let bytes = FileManager.default.contents(atPath: path) else {
        return nil
      }
      self.bytes = [UInt8](bytes)
      inode = UInt64(info.st_ino)
      modified = info.st_mtim
    }

    static func == (left: FileState, right: FileState) -> Bool {
      left.bytes == right.bytes && left.inode == right.inode
        && left.modified.tv_sec == right.modified.tv_sec
        && left.modified.tv_nsec == right.modified.tv_nsec
    }

    var description: String {
      "\(String(decoding: bytes, as: UTF8.self).debugDescription) in inode \(inode), "
        + "modified at \(modified.tv_sec).\(modified.tv_nsec)"
    }
  }

  /// `filenote` (with `arguments`) started by a plain `/bin/sh` script in a
  /// real terminal, between two `stty -g` of that terminal. After filenote
  /// ends, the script prints its exit status and leaves `cat -v` reading the
  /// terminal, so a paste shows whether bracketed paste was left on.
  ///
  /// `/bin/sh`, not bash: bash puts its own terminal settings back after a
  /// job that a signal killed, which would hide the very bug these tests
  /// look for. filenote is exec'd by a shell that first writes its process
  /// id, so a test can signal filenote itself and nothing else.
  final class ShellRun {
    let session: TmuxSession
    private let home: TemporaryHome

    init(
      home: TemporaryHome, arguments: [String] = [], environment: [String: String?] = [:],
      columns: Int = 80, rows: Int = 24
    ) throws {
      self.home = home
      let binary = try FilenoteProcess.binaryPath()
      let command = ([binary] + arguments).map(PromptTests.shellQuoted).joined(separator: " ")
      // No core file from a test that ends filenote with SIGQUIT. The trap
      // keeps the script alive when Ctrl-C or Ctrl-\ signals the whole
      // foreground group (a plain prompt in the terminal's own mode); unlike
      // an ignored signal, a trapped one is reset to its default in filenote.
      let script = """
        ulimit -c 0
        trap : INT QUIT
        stty -g > stty-before
        sh -c 'echo $$ > filenote.pid; exec "$@"' sh \(command)
        echo "filenote exited: $?"
        stty -g > stty-after
        exec cat -v
        """
      session = try TmuxSession(
        command: script, environment: home.terminalEnvironment(environment), columns: columns,
        rows: rows, workingDirectory: home.work)
    }

    /// filenote's process id, once it runs.
    func filenoteProcessID() throws -> pid_t {
      let path = home.work + "/filenote.pid"
      let deadline = ContinuousClock.now + .seconds(10)
      while ContinuousClock.now < deadline {
        if let text = try? String(contentsOfFile: path, encoding: .utf8),
          let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
          return pid
        }
        usleep(20_000)
      }
      throw TmuxSession.Failure(description: "filenote did not start: \(try session.screen())")
    }

    /// Waits for filenote to end and returns its status as the shell saw it
    /// (128 + the signal for one that killed it).
    func waitForStatus(sourceLocation: SourceLocation = #_sourceLocation) throws -> Int32 {
      let marker = "filenote exited: "
      let screen = try session.waitFor("filenote to exit", sourceLocation: sourceLocation) {
        $0.lines.contains { $0.contains(marker) }
      }
      let line = screen.lines.last { $0.contains(marker) }!
      let status = line.components(separatedBy: marker).last.flatMap { Int32($0) }
      return try #require(status, "no status in \(line)", sourceLocation: sourceLocation)
    }

    /// The terminal's settings (`stty -g`) before filenote started and after
    /// it ended; call it after `waitForStatus`.
    func settingsBeforeAndAfter() throws -> (before: String, after: String) {
      let afterPath = home.work + "/stty-after"
      let deadline = ContinuousClock.now + .seconds(10)
      // The shell writes the file right after printing the status.
      while !FileManager.default.fileExists(atPath: afterPath)
        || (try? String(contentsOfFile: afterPath, encoding: .utf8))?.hasSuffix("\n") != true
      {
        guard ContinuousClock.now < deadline else {
          throw TmuxSession.Failure(description: "stty -g did not run: \(try session.screen())")
        }
        usleep(20_000)
      }
      return (
        try String(contentsOfFile: home.work + "/stty-before", encoding: .utf8),
        try String(contentsOfFile: afterPath, encoding: .utf8)
      )
    }

    /// Whether the terminal still wraps pastes in bracketed-paste markers,
    /// which only a program that asked for them wants: pastes a word to the
    /// `cat -v` that runs after filenote and looks at what arrives.
    func bracketedPasteIsOn() throws -> Bool {
      let word = "pasted-after-filenote"
      try session.paste(word)
      let screen = try session.waitFor("the paste to arrive") { $0.text.contains(word) }
      return screen.text.contains("[200~")
    }

    /// Checks that the terminal is as it was before filenote: the same
    /// settings, and bracketed paste off.
    func expectTerminalRestored(sourceLocation: SourceLocation = #_sourceLocation) throws {
      let settings = try settingsBeforeAndAfter()
      #expect(
        settings.after == settings.before, "stty -g before and after filenote",
        sourceLocation: sourceLocation)
      #expect(
        try bracketedPasteIsOn() == false, "bracketed paste is off after filenote",
        sourceLocation: sourceLocation)
    }
  }

  /// `text` in single quotes for `/bin/sh`, whatever it contains.
  static func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }
}

extension TmuxSession {
  /// The screen and the cursor, read together.
  func look() throws -> PromptTests.Screen {
    let (text, cursor) = try screenAndCursor()
    return PromptTests.Screen(text: text, cursor: cursor)
  }

  /// Looks at the screen every 20 ms until `predicate` accepts it, and
  /// returns that look. Throws, showing the last look, when `timeout` passes
  /// first: it only keeps a broken prompt from hanging the suite.
  @discardableResult
  func waitFor(
    _ what: String, timeout: Duration = .seconds(10),
    sourceLocation: SourceLocation = #_sourceLocation,
    _ predicate: (PromptTests.Screen) -> Bool
  ) throws -> PromptTests.Screen {
    let deadline = ContinuousClock.now + timeout
    while true {
      let screen = try look()
      if predicate(screen) { return screen }
      guard ContinuousClock.now < deadline else {
        throw Failure(
          description: "\(sourceLocation): waited \(timeout) for \(what); the screen shows:\n"
            + screen.description)
      }
      usleep(20_000)
    }
  }

  /// Waits until the edit line is `expected`: with a `|` where the cursor
  /// must be (`"> buy |milk"`), or without one when the cursor does not
  /// matter.
  @discardableResult
  func waitForEditLine(
    _ expected: String, timeout: Duration = .seconds(10),
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> PromptTests.Screen {
    let withCursor = expected.contains("|")
    return try waitFor(
      "the edit line \(expected.debugDescription)", timeout: timeout,
      sourceLocation: sourceLocation
    ) { screen in
      (withCursor ? screen.editLineWithCursor : screen.editLine) == expected
    }
  }

  /// Types `marker` and waits until the edit line ends with it: every key
  /// sent before has been read and handled by then, and the prompt still
  /// runs. Then Backspace takes the marker away again.
  func roundTrip(marker: String = "#", sourceLocation: SourceLocation = #_sourceLocation) throws {
    try send(text: marker)
    try waitFor("the prompt to echo \(marker)", sourceLocation: sourceLocation) {
      $0.editLineWithCursor?.hasSuffix(marker + "|") == true
    }
    try send(keys: "BSpace")
    try waitFor("the prompt to take back \(marker)", sourceLocation: sourceLocation) {
      $0.editLineWithCursor.map { !$0.hasSuffix(marker + "|") } == true
    }
  }
}

extension TemporaryHome {
  /// This home's environment for a program in a terminal, updated with
  /// `extra` (where nil removes a variable: `["TERM": nil]`).
  func terminalEnvironment(_ extra: [String: String?] = [:]) -> [String: String?] {
    var variables: [String: String?] = environment.mapValues { $0 }
    for (name, value) in extra { variables[name] = value }
    return variables
  }

  /// `filenote` with `arguments` as the only program of a real terminal of
  /// `columns` × `rows`, in this home.
  func terminal(
    running arguments: [String] = [], environment extra: [String: String?] = [:],
    columns: Int = 80, rows: Int = 24
  ) throws -> TmuxSession {
    try TmuxSession(
      executable: FilenoteProcess.binaryPath(), arguments: arguments,
      environment: terminalEnvironment(extra), columns: columns, rows: rows,
      workingDirectory: work)
  }

  /// A real terminal of `columns` × `rows` running the `/bin/sh` command
  /// that `command` makes of filenote's path (shell-quoted), in this home.
  func terminal(
    environment extra: [String: String?] = [:], columns: Int = 80, rows: Int = 24,
    command: (_ filenote: String) -> String
  ) throws -> TmuxSession {
    let binary = PromptTests.shellQuoted(try FilenoteProcess.binaryPath())
    return try TmuxSession(
      command: command(binary), environment: terminalEnvironment(extra), columns: columns,
      rows: rows, workingDirectory: work)
  }

  /// Saves `note` (unless nil: then the prompt opens on whatever is there),
  /// starts the prompt in a terminal and waits until it is drawn with the
  /// cursor at the end of the line: until the line is `> note|` when the
  /// note is plain text that fits.
  func openPrompt(
    on note: String?, arguments: [String] = [], environment: [String: String?] = [:],
    columns: Int = 80, rows: Int = 24, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> TmuxSession {
    if let note { try writeNote(note) }
    let session = try terminal(
      running: arguments, environment: environment, columns: columns, rows: rows)
    if let text = note, text.count + 3 <= columns,
      text.allSatisfy({ $0.asciiValue.map { (0x20..<0x7F).contains($0) } == true })
    {
      try session.waitForEditLine("> \(text)|", sourceLocation: sourceLocation)
    } else {
      try session.waitFor("the prompt to open", sourceLocation: sourceLocation) {
        $0.editLineWithCursor?.hasSuffix("|") == true
      }
    }
    return session
  }
}

extension TemporaryHome {
  /// Saves `note` and dates it back, and returns what the note file is then:
  /// for a test that checks nothing writes the note, where a write of the
  /// very same bytes must still show.
  func writeBackdatedNote(
    _ note: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> PromptTests.FileState {
    try writeNote(note)
    try backdate(notePath)
    return try #require(PromptTests.FileState(of: notePath), sourceLocation: sourceLocation)
  }

  /// `writeBackdatedNote`, then the prompt open on that note with the
  /// cursor at its end; `before` is the note file from before the prompt
  /// started, so that a write on opening shows too.
  func openPrompt(
    onBackdated note: String, columns: Int = 80,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> (session: TmuxSession, before: PromptTests.FileState) {
    let before = try writeBackdatedNote(note, sourceLocation: sourceLocation)
    let session = try openPrompt(on: nil, columns: columns, sourceLocation: sourceLocation)
    try session.waitForEditLine("> \(note)|", sourceLocation: sourceLocation)
    return (session, before)
  }

  /// Waits for the prompt in `session` to end and checks that it ended
  /// with `status`, writing nothing: the note file is still `before`. When
  /// `lastLine` is given, it must be the last line on the screen.
  func expectPromptEnded(
    _ session: TmuxSession, status: Int32, noteStill before: PromptTests.FileState,
    lastLine: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    #expect(
      try session.waitForExit(file: sourceLocation.fileID, line: sourceLocation.line)
        == .exited(status), sourceLocation: sourceLocation)
    #expect(PromptTests.FileState(of: notePath) == before, sourceLocation: sourceLocation)
    if let lastLine {
      // On a busy machine tmux may mark the pane dead before it has drawn
      // the last output it read: wait for the line rather than look once.
      try session.waitFor("the last line \"\(lastLine)\"", sourceLocation: sourceLocation) {
        $0.nonBlankLines.last == lastLine
      }
    }
  }

  /// Presses Enter in the prompt of `session` and checks that filenote
  /// exits 0 with `text` saved as the note.
  func expectEnterSaves(
    _ text: String, in session: TmuxSession, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try session.send(keys: "Enter")
    #expect(
      try session.waitForExit(file: sourceLocation.fileID, line: sourceLocation.line)
        == .exited(0), sourceLocation: sourceLocation)
    #expect(note == text, sourceLocation: sourceLocation)
  }

  /// Checks that the note is `text` and that nothing else is in the
  /// documents folder: no temporary file was left behind.
  func expectNoteAlone(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(note == text, sourceLocation: sourceLocation)
    #expect(
      entriesBesideVersions(in: documents) == ["datafile.dat"], sourceLocation: sourceLocation)
  }

  /// The names in `folder`, sorted, without the versions folder a save that
  /// replaced a note keeps there (`.NAME.versions`).
  func entriesBesideVersions(in folder: String) -> [String] {
    entries(in: folder).filter { !($0.hasPrefix(".") && $0.hasSuffix(".versions")) }
  }
}
