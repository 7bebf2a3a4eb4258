import Foundation

/// A real terminal for end-to-end tests: a private tmux server running one
/// shell command in a window of a known size, which a test types into and
/// reads the screen of, as a user would.
///
/// Each session has its own server (its socket lives in a temporary folder),
/// so sessions never see each other or the user's own tmux. The server is
/// killed and the folder removed by `kill()`, at the latest when the session
/// is released.
///
///     let session = try TmuxSession(command: "filenote", environment: ["HOME": home])
///     try session.waitUntil { $0.contains("Enter saves") }
///     try session.send(text: "hello")
///     try session.send(keys: "Enter")
///     #expect(try session.waitForExit() == .exited(0))
final class TmuxSession {
  /// Why a session could not be started or driven; the message says what
  /// was expected and, for a timeout, what the screen showed instead.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// How the command ended.
  enum ExitStatus: Equatable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// It was killed by this signal (a shell would report 128 + it).
    case killed(by: Int32)

    var description: String {
      switch self {
      case .exited(let status): return "exited with status \(status)"
      case .killed(let signal): return "killed by signal \(signal)"
      }
    }
  }

  /// What the command's environment holds unless the test says otherwise.
  /// Nothing else from the test process leaks in (not HOME, not
  /// XDG_CONFIG_HOME), so a test cannot touch the real user's files by
  /// accident. TERM is what tmux emulates.
  static let baseEnvironment: [String: String] = [
    "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
    "TERM": "screen",
    "LANG": "C.UTF-8",
  ]

  /// The tmux target naming the session's only pane.
  private static let target = "test"

  private let tmuxPath: URL
  private let directory: URL
  /// The tmux server, run in the foreground (`-D`) as our own child.
  private let server = Process()
  private var isKilled = false

  /// Starts `command` (run by `/bin/sh -c`) in a `columns` × `rows` window.
  ///
  /// The shell stays the pane's process, between the command and the
  /// signals a test sends with `processID()`, unless the command starts
  /// with `exec` (dash does not exec the last command by itself): use
  /// `init(executable:arguments:…)` to run one program.
  ///
  /// The command's environment is `baseEnvironment` updated with
  /// `environment`, where a nil value removes the variable:
  /// `["HOME": home, "TERM": nil]`. It starts in `workingDirectory`, or
  /// the session's own temporary folder when nil. When the command exits,
  /// its pane stays, so the last screen can still be read.
  init(
    command: String, environment: [String: String?] = [:], columns: Int = 80, rows: Int = 24,
    workingDirectory: String? = nil
  ) throws {
    tmuxPath = try TmuxSession.locateTmux()
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("tmux-session-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
    do {
      try startServer()
      var variables = TmuxSession.baseEnvironment
      for (name, value) in environment { variables[name] = value }
      let assignments = variables.sorted { $0.key < $1.key }.map { shellQuoted("\($0)=\($1)") }
      // env -i: tmux adds variables of its own (TMUX, TMUX_PANE, TERM); the
      // command gets exactly the ones above. --default-signal: tmux leaves
      // SIGTTIN and SIGTTOU ignored in its panes, and the command should
      // start as it would in a plain terminal (GNU env, coreutils 8.31).
      let paneCommand =
        "exec env -i --default-signal \(assignments.joined(separator: " ")) "
        + "/bin/sh -c \(shellQuoted(command))"
      try tmux(
        "new-session", "-d", "-s", TmuxSession.target, "-x", "\(columns)", "-y", "\(rows)",
        "-c", workingDirectory ?? directory.path, paneCommand)
    } catch {
      kill()
      throw error
    }
  }

  /// Starts `executable` with `arguments` in a `columns` × `rows` window as
  /// the pane's own process (no shell in between), so `processID()` is the
  /// program's and its exit status or signal is reported as it is. The
  /// environment and working directory are as for `init(command:…)`.
  convenience init(
    executable: String, arguments: [String] = [], environment: [String: String?] = [:],
    columns: Int = 80, rows: Int = 24, workingDirectory: String? = nil
  ) throws {
    let words = ([executable] + arguments).map(shellQuoted)
    try self.init(
      command: "exec " + words.joined(separator: " "), environment: environment,
      columns: columns, rows: rows, workingDirectory: workingDirectory)
  }

  deinit { kill() }

  /// Presses keys named as tmux names them: `"Enter"`, `"C-c"`, `"Escape"`,
  /// `"Left"`, `"M-b"`, `"BSpace"`, `"C-z"`…
  func send(keys: String...) throws {
    try tmux(["send-keys", "-t", TmuxSession.target, "--"] + keys)
  }

  /// Types `text` exactly, with no key names interpreted: `send(text: "C-c")`
  /// types the three characters.
  func send(text: String) throws {
    try tmux("send-keys", "-t", TmuxSession.target, "-l", "--", text)
  }

  /// What the window shows now: one line per row, each without its trailing
  /// blanks.
  func screen() throws -> String {
    try tmux("capture-pane", "-p", "-t", TmuxSession.target)
  }

  /// What the window shows as `screen()` reads it, but each line the
  /// terminal wrapped onto several rows joined again into one.
  func screenJoiningWrappedLines() throws -> String {
    try tmux("capture-pane", "-p", "-J", "-t", TmuxSession.target)
  }

  /// The rows that scrolled off the top of the window (tmux's history),
  /// then the screen, as `screen()` reads it.
  func screenWithHistory() throws -> String {
    try tmux("capture-pane", "-p", "-S", "-", "-t", TmuxSession.target)
  }

  /// The screen as `screen()` reads it and the cursor as `cursor()` does, read
  /// by one tmux command list, which the server runs without taking in the
  /// program's output in between: the two belong together.
  func screenAndCursor() throws -> (screen: String, cursor: (column: Int, row: Int)) {
    let output = try tmux(
      "display-message", "-p", "-t", TmuxSession.target, "#{cursor_x} #{cursor_y}", ";",
      "capture-pane", "-p", "-t", TmuxSession.target)
    guard let endOfFirstLine = output.firstIndex(of: "\n") else {
      throw Failure(description: "tmux did not report the cursor")
    }
    let numbers = output[..<endOfFirstLine].split(separator: " ").compactMap { Int($0) }
    guard numbers.count == 2 else { throw Failure(description: "tmux did not report the cursor") }
    return (String(output[output.index(after: endOfFirstLine)...]), (numbers[0], numbers[1]))
  }

  /// The screen as `screen()` reads it, with each change of text attribute
  /// (dim, reverse, colours) written as the SGR sequence that sets it.
  func styledScreen() throws -> String {
    try tmux("capture-pane", "-p", "-e", "-t", TmuxSession.target)
  }

  /// Pastes `text` as a terminal does: wrapped in the bracketed-paste
  /// markers when the program asked for them (and only then), and with each
  /// line feed sent as a carriage return, as a terminal sends a pasted line
  /// break, unless `keepingLineFeeds`.
  func paste(_ text: String, keepingLineFeeds: Bool = false) throws {
    try tmux("set-buffer", "-b", "test-paste", "--", text)
    try tmux(
      ["paste-buffer", "-p", "-d", "-b", "test-paste", "-t", TmuxSession.target]
        + (keepingLineFeeds ? ["-r"] : []))
  }

  /// Where the cursor is, counted from 0 at the top left.
  func cursor() throws -> (column: Int, row: Int) {
    let numbers = try tmux(
      "display-message", "-p", "-t", TmuxSession.target, "#{cursor_x} #{cursor_y}"
    )
    .split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    guard numbers.count == 2 else { throw Failure(description: "tmux did not report the cursor") }
    return (numbers[0], numbers[1])
  }

  /// Reads the screen every 20 ms until `predicate` accepts it, and returns
  /// that screen. Throws, showing the last screen, when `timeout` passes
  /// first.
  @discardableResult
  func waitUntil(
    timeout: Duration = .seconds(10), file: String = #fileID, line: Int = #line,
    _ predicate: (String) -> Bool
  ) throws -> String {
    let deadline = ContinuousClock.now + timeout
    while true {
      let screen = try screen()
      if predicate(screen) { return screen }
      guard ContinuousClock.now < deadline else {
        throw Failure(
          description: "\(file):\(line): the screen was not as expected after \(timeout); "
            + "it shows:\n\(screen)")
      }
      usleep(20_000)
    }
  }

  /// Resizes the window, as a user dragging its corner does: the command
  /// gets SIGWINCH. tmux applies it to the terminal shortly after returning,
  /// so wait for the command's reaction with `waitUntil`.
  func resize(columns: Int, rows: Int) throws {
    try tmux("resize-window", "-t", TmuxSession.target, "-x", "\(columns)", "-y", "\(rows)")
  }

  /// The process id of the pane's process, to send it signals: the
  /// program for `init(executable:…)` or a command starting with `exec`,
  /// otherwise the shell running the command.
  func processID() throws -> pid_t {
    let text = try tmux("display-message", "-p", "-t", TmuxSession.target, "#{pane_pid}")
    guard let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      throw Failure(description: "tmux did not report the pane's process id")
    }
    return pid
  }

  /// How the command ended, or nil while it runs.
  func exitStatus() throws -> ExitStatus? {
    let fields = try tmux(
      "display-message", "-p", "-t", TmuxSession.target,
      "#{pane_dead}|#{pane_dead_status}|#{pane_dead_signal}|#{pane_pid}"
    ).trimmingCharacters(in: .whitespacesAndNewlines).split(
      separator: "|", omittingEmptySubsequences: false)
    guard fields.count == 4, fields[0] == "1" else { return nil }
    if let status = Int32(fields[1]) { return .exited(status) }
    if let signal = Int32(fields[2]) { return .killed(by: signal) }
    // tmux may never learn the status: Debian's tmux records panes with
    // libutempter, which sets SIGCHLD to its default (discard) while its
    // helper runs, and a command ending in that moment is never reaped.
    // The kernel still holds the status of the unreaped process.
    guard let pid = pid_t(fields[3]) else { return nil }
    return TmuxSession.statusOfUnreapedProcess(pid)
  }

  /// The exit status of zombie process `pid`, from `/proc/<pid>/stat`
  /// (Linux); nil when it is not a zombie.
  private static func statusOfUnreapedProcess(_ pid: pid_t) -> ExitStatus? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let endOfName = stat.lastIndex(of: ")")
    else { return nil }
    // After the command name in parentheses: field 3 (state) onwards;
    // field 52 is the status as waitpid would report it.
    let fields = stat[stat.index(after: endOfName)...].split(whereSeparator: \.isWhitespace)
    guard fields.count > 49, fields[0] == "Z", let status = Int32(fields[49]) else { return nil }
    let signal = status & 0x7F
    return signal == 0 ? .exited((status >> 8) & 0xFF) : .killed(by: signal)
  }

  /// Waits for the command to end and says how it did; throws, showing the
  /// screen, when it is still running after `timeout`.
  func waitForExit(
    timeout: Duration = .seconds(10), file: String = #fileID, line: Int = #line
  ) throws -> ExitStatus {
    let deadline = ContinuousClock.now + timeout
    while true {
      if let status = try exitStatus() { return status }
      guard ContinuousClock.now < deadline else {
        throw Failure(
          description: "\(file):\(line): the command was still running after \(timeout); "
            + "the screen shows:\n\(try screen())")
      }
      usleep(20_000)
    }
  }

  /// Kills the server (and with it the command, by SIGHUP) and removes the
  /// temporary folder. Calling it again does nothing.
  func kill() {
    guard !isKilled else { return }
    isKilled = true
    if server.isRunning {
      _ = try? tmux("kill-server")
      let deadline = ContinuousClock.now + .seconds(5)
      while server.isRunning && ContinuousClock.now < deadline { usleep(20_000) }
      if server.isRunning { sendSignal(SIGKILL, to: server.processIdentifier) }
      server.waitUntilExit()
    }
    try? FileManager.default.removeItem(at: directory)
  }

  // MARK: - Running tmux

  /// Starts this session's tmux server and waits until it answers.
  ///
  /// In the foreground (`-D`) and as a child of this process, not as the
  /// daemon a first `tmux new-session` would fork: Foundation's `Process`
  /// learns that a child ended when a socket the child inherited closes, and
  /// a daemon forked by that child would inherit it too and keep it open for
  /// its whole life, so waiting for the client would never end.
  private func startServer() throws {
    // A file of our own instead of -f /dev/null: these options must be set
    // before the command starts, or a quick command could exit first.
    let configuration = """
      set -g status off
      set -g default-shell /bin/sh
      set -g remain-on-exit on
      set -gq remain-on-exit-format ""
      """
    let configurationFile = directory.appendingPathComponent("tmux.conf")
    try configuration.write(to: configurationFile, atomically: false, encoding: .utf8)
    server.executableURL = tmuxPath
    server.arguments = ["-u", "-D", "-S", socketPath, "-f", configurationFile.path]
    server.environment = TmuxSession.tmuxEnvironment
    server.standardInput = FileHandle.nullDevice
    server.standardOutput = FileHandle.nullDevice
    server.standardError = FileHandle.nullDevice
    // The server passes its signal mask on to the command. Tests run on
    // threads that block most signals, and a command started with SIGTERM,
    // SIGWINCH or SIGTSTP blocked would not behave as it does for a user.
    try withNoSignalBlocked { try server.run() }
    // Only ask once it listens: a new-session finding no server would start
    // a daemon of its own.
    let deadline = ContinuousClock.now + .seconds(10)
    while (try? tmux("show-options", "-g", "status")) == nil {
      guard server.isRunning, ContinuousClock.now < deadline else {
        throw Failure(
          description: "the tmux server did not start (\(tmuxPath.path) -D needs tmux 3.2 or later)"
        )
      }
      usleep(5_000)
    }
  }

  private var socketPath: String { directory.appendingPathComponent("socket").path }

  /// The test process's environment without what would make tmux think it
  /// runs inside another tmux (and refuse to nest).
  private static var tmuxEnvironment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["TMUX"] = nil
    environment["TMUX_PANE"] = nil
    return environment
  }

  /// Where tmux is installed; a failure that says how to install it when it
  /// is not in any of `searchPath`.
  static func locateTmux(searchPath: [String]? = nil) throws -> URL {
    let folders =
      searchPath
      ?? (["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]
        + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init))
    for folder in folders {
      let candidate = URL(fileURLWithPath: folder).appendingPathComponent("tmux")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw Failure(
      description: "tmux is not installed: the end-to-end tests run filenote in a real terminal "
        + "made by tmux; install it (apt-get install tmux, brew install tmux)")
  }

  @discardableResult
  private func tmux(_ arguments: String...) throws -> String {
    try tmux(arguments)
  }

  /// Runs one tmux command against this session's server and returns what
  /// it printed.
  @discardableResult
  private func tmux(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = tmuxPath
    // -u: the pane's text comes back as UTF-8 whatever the test's locale.
    process.arguments = ["-u", "-S", socketPath] + arguments
    process.environment = TmuxSession.tmuxEnvironment
    // Files, not pipes: nothing has to be drained while waiting for tmux,
    // however much it prints.
    let outputFile = directory.appendingPathComponent("tmux-output")
    let errorFile = directory.appendingPathComponent("tmux-errors")
    for file in [outputFile, errorFile] {
      guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
        throw Failure(description: "cannot create \(file.path)")
      }
    }
    let output = try FileHandle(forWritingTo: outputFile)
    let errors = try FileHandle(forWritingTo: errorFile)
    defer {
      try? output.close()
      try? errors.close()
    }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    process.waitUntilExit()
    let printed = try Data(contentsOf: outputFile)
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      let complaint = (try? Data(contentsOf: errorFile)) ?? Data()
      throw Failure(
        description: "tmux \(arguments.first ?? "") failed: "
          + String(decoding: complaint, as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines))
    }
    return String(decoding: printed, as: UTF8.self)
  }
}

/// Runs `body` on this thread with no signal blocked, so that a process it
/// starts inherits an empty signal mask.
private func withNoSignalBlocked<Result>(_ body: () throws -> Result) rethrows -> Result {
  var nothing = sigset_t()
  sigemptyset(&nothing)
  var previous = sigset_t()
  pthread_sigmask(SIG_SETMASK, &nothing, &previous)
  defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
  return try body()
}

/// kill(2); inside `TmuxSession` the name is its own `kill()`.
private func sendSignal(_ signal: Int32, to process: pid_t) {
  _ = kill(process, signal)
}

/// `text` in single quotes for /bin/sh, whatever it contains.
private func shellQuoted(_ text: String) -> String {
  "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
}
