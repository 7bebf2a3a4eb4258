import LineEditor
import SystemCalls

/// The line editor running on the user's terminal: one event pump of keys,
/// signals, resizes and redraws, offering what a caller needs — read a line,
/// ask a y/N question, step out of raw mode for a child process and come back.
///
/// Raw mode starts with the session and ends with `finish(saying:)` (or when
/// the session goes away); the terminal is restored on every way out,
/// including SIGTERM, SIGHUP and SIGINT, which end the process as they would
/// have after the terminal is put back.
public final class EditingSession {
  /// How reading a line ended.
  public enum LineEnding: Equatable, Sendable {
    /// Enter: the line's UTF-8 as it was when Enter was pressed, made from
    /// the editor's chunks without a String in between, so a large note is
    /// not held three times over.
    case submitted([UInt8])
    /// Ctrl-C.
    case cancelled
    /// Ctrl-D on an empty line, or the terminal went away.
    case endOfInput
  }

  /// How long part of an escape sequence waits for the rest of it.
  private static let escapeTimeoutMilliseconds: Int32 = 50
  /// How long an Esc that ended a read waits for more: a terminal writes a
  /// key's sequence at once, so a lone Esc is the Esc key, and a few
  /// milliseconds only cover a write the kernel or a slow link cut in two.
  /// vi's command mode is then drawn at once, far within readline's
  /// `keyseq-timeout` (500 ms), which filenote does not wait for here.
  private static let loneEscapeTimeoutMilliseconds: Int32 = 10
  /// How long a bracketed paste may stay silent before it is taken as
  /// ended without its end marker: long enough for a paste over a slow link
  /// to go on, short enough that a terminal that never sends the marker
  /// does not seem to freeze the prompt.
  private static let pasteTimeoutMilliseconds: Int32 = 1000

  private let terminal: Terminal
  private var state = EditState(text: "")
  /// The readline variables and key bindings lines are edited with (an
  /// inputrc's).
  /// What the user's inputrc set: the editing mode, variables and bindings.
  public let configuration: EditorConfiguration
  /// Set when keys read towards a bound sequence waited
  /// `keyseq-timeout` for the rest of it in vain.
  private var keySequenceTimedOut = false
  /// The mode string the prompt shows now (show-mode-in-prompt).
  private var shownModeString: String?
  /// Whether the hint and the edit line are on screen, so a resize or
  /// resume redraws them.
  private var isEditingLine = false
  /// The question `confirm` is asking, on screen below the line, so a
  /// resume draws it again.
  private var question: [UInt8]?
  private var decoder = KeyDecoder()
  /// The hint and the edit line: what they show and what is on screen.
  private var screen = PromptScreen(prompt: "> ")
  /// The hints of the line and of each version (see `readLine`).
  private var hints: [Hint] = []
  /// Runs the user's editor on the line for Ctrl-X Ctrl-E, with the
  /// terminal as it was before the session (see `runOutsideRawMode`); nil
  /// leaves the key unbound.
  public var editInEditor: ((String) -> LineHandOff)?
  /// Keys typed while the terminal was being asked how wide it draws some
  /// characters, handed out (in order) before anything read after them.
  private var heldKeys: [Key] = []
  /// Runs when SIGTERM, SIGHUP or SIGINT from outside ends the session,
  /// just before the terminal is restored and the process dies of the
  /// signal: the last chance to keep what was typed (see `unsavedEdits`).
  /// Signals are still caught meanwhile, so a second one (a closing
  /// terminal sends SIGHUP and SIGCONT, then maybe SIGTERM) cannot cut it
  /// short.
  public var beforeTermination: (() -> Void)?

  /// Opens the session on the terminal the keys come from (`input`), drawing
  /// on `output`, and enters raw mode; lines are edited with
  /// `configuration` (an inputrc's variables and key bindings).
  public init(
    input: FileDescriptor, output: FileDescriptor,
    configuration: EditorConfiguration = EditorConfiguration()
  ) throws(TerminalError) {
    terminal = try Terminal(fileDescriptor: input.rawValue, outputDescriptor: output.rawValue)
    self.configuration = configuration
    terminal.marksPastes = configuration.enablesBracketedPaste
    try terminal.enterRawMode()
  }

  deinit { terminal.restore() }

  /// The descriptor of the terminal, for a child process that should run
  /// in its foreground (see `ChildProcess.spawn(_:arguments:foregroundOf:)`).
  public var terminalDescriptor: FileDescriptor { terminal.input }

  /// What the user typed that is not saved (see `EditState.unsavedEdits`):
  /// what must not be lost when the session ends another way than a save.
  public var unsavedEdits: [UInt8]? { state.unsavedEdits }

  // MARK: - What a caller asks for

  /// Edits `text` below a hint, from the start of the cursor's row, the
  /// cursor at the end of the text, until Enter, Ctrl-C or Ctrl-D on an
  /// empty line. `versions` (newest first) are what Up, Down, Ctrl-R and
  /// Ctrl-S reach; Enter gives the line shown. `hints[0]` is the hint of
  /// `text`, `hints[k]` that of version `k` (see `PromptScreen`), each cut to
  /// the width and dimmed when `dimmed`.
  ///
  /// `text` is consumed: the editor keeps it as its own chunks, and a large
  /// note is not also held as a String while it is edited.
  public func readLine(
    text: consuming String, hints: [Hint], dimmed: Bool, versions: [String] = []
  ) throws(TerminalError) -> LineEnding {
    state = EditState(text: consume text, versions: versions, configuration: configuration)
    self.hints = hints
    showModeString()
    screen.show(hints, dimmed: dimmed)
    return try readLineAgain()
  }

  /// Goes on editing the line of the last `readLine`, as it was left, the
  /// hint and the line drawn afresh from the start of the cursor's row
  /// (below a question the user answered no, or a message).
  ///
  /// With a `warning` (why Enter did not take the line), nothing has been
  /// written since the line ended: the hint and the line are redrawn where
  /// they are, `warning` in the hint's place until the line is edited.
  public func readLineAgain(warning: Hint? = nil) throws(TerminalError) -> LineEnding {
    isEditingLine = true
    defer { isEditingLine = false }
    if let warning {
      // A hint not on screen is drawn on the row above the line.
      screen.show(Array(repeating: warning, count: max(hints.count, 1)), dimmed: screen.isDimmed)
      try draw()
    } else {
      try drawHintAndLine()
    }
    var warned = warning != nil
    while true {
      guard let keys = try nextKeys() else { return .endOfInput }
      var changed = false
      // Keys that waited for the rest of a bound sequence in vain are acted
      // on as they are (index -1), before anything read after them.
      let first = keySequenceTimedOut ? -1 : 0
      keySequenceTimedOut = false
      for index in first..<keys.count {
        let ending: LineEnding
        switch index < 0 ? state.finishPendingKeys() : state.handle(keys[index]) {
        case .edited:
          changed = true
          if warned {
            warned = false
            screen.show(hints, dimmed: screen.isDimmed)
          }
          continue
        case .unchanged: continue
        case .submit: ending = .submitted(state.buffer.utf8Bytes)
        case .cancel: ending = .cancelled
        case .endOfInput: ending = .endOfInput
        case .redrawScreen:
          try terminal.write(TerminalCode.clearScreen)
          try drawHintAndLine()
          continue
        case .suspend:
          try suspend()
          continue
        case .editInEditor(let text):
          try handOver(text)
          changed = false
          continue
        }
        // Keys that came in the same read as Enter are on the line too, and
        // Enter during a search puts the found line in the search's place:
        // show the line as it is saved (or dropped). A draw with nothing
        // changed writes nothing.
        try draw()
        return ending
      }
      // One redraw per read, however many keys it brought (a fast paste).
      if state.modeString != shownModeString {
        showModeString()
        changed = true
      }
      if changed { try draw() }
    }
  }

  /// Asks a yes/no question below the line. The first key is the answer,
  /// read as `YesNoQuestion.isYes` reads one: `y` or `Y` is yes, any other
  /// key (Enter, Esc, a space) no. Any failure of the terminal is a no.
  public func confirm(_ question: YesNoQuestion) -> Bool {
    self.question = Array(question.text.utf8)
    defer { self.question = nil }
    try? terminal.write(TerminalCode.newLine + Array(question.text.utf8))
    var answer = false
    while let keys = try? nextKeys() {
      guard let key = keys.first else { continue }
      if case .text(let text) = key { answer = YesNoQuestion.isYes(text.utf8) }
      break
    }
    decoder = KeyDecoder()
    // After "y" the session ends the line itself, as after any Enter.
    try? terminal.write(answer ? Array("y".utf8) : Array("n".utf8) + TerminalCode.newLine)
    if !answer {
      try? terminal.write(
        Array("Not saved; edit on, or Ctrl-C to cancel.".utf8) + TerminalCode.newLine)
      screen.invalidate()
    }
    return answer
  }

  /// Steps out of raw mode for `body` (the user's editor, started with
  /// `ChildProcess.spawn(_:arguments:foregroundOf: terminalDescriptor)`):
  /// the terminal is as it was before the session while `body` runs, then
  /// raw again, and the hint and the line are drawn afresh below whatever
  /// `body` left on the screen.
  public func runOutsideRawMode<Result>(_ body: () -> Result) throws(TerminalError) -> Result {
    try runOutsideRawMode(body, redraw: { _ throws(TerminalError) in try drawHintAndLine() })
  }

  /// `runOutsideRawMode`, with `redraw` run on `body`'s result once the
  /// terminal is raw again, the cursor on the row below the line.
  private func runOutsideRawMode<Result>(
    _ body: () -> Result, redraw: (Result) throws(TerminalError) -> Void
  ) throws(TerminalError) -> Result {
    try terminal.write(TerminalCode.newLine)
    terminal.restore()
    let result = body()
    try terminal.enterRawMode()
    try redraw(result)
    return result
  }

  /// Ctrl-X Ctrl-E: the line goes to `editInEditor` outside raw mode. Its
  /// text replaces the line, and the prompt's rows are drawn again where
  /// they are, as after a resize: an editor leaves the screen as it found
  /// it (a full-screen one draws on the terminal's alternate screen), the
  /// cursor on the row below the line. Or its one-line reason is written
  /// there, over whatever the editor left (a shell's error), and the hint
  /// and the line are drawn afresh below it.
  private func handOver(_ text: String) throws(TerminalError) {
    guard let editInEditor else { return }
    let redraw = { (handOff: LineHandOff) throws(TerminalError) -> Void in
      switch handOff {
      case .replaced(let text):
        self.state.replaceText(with: text)
        try self.terminal.write(TerminalCode.cursorUp(1))
        try self.redrawAfterResize()
      case .kept(let reason):
        // From the first column, over whatever the terminal echoed last (^C).
        try self.terminal.write(
          TerminalCode.carriageReturn + Array(reason.utf8) + TerminalCode.clearToEndOfLine
            + TerminalCode.newLine)
        try self.drawHintAndLine()
      }
    }
    _ = try runOutsideRawMode({ editInEditor(text) }, redraw: redraw)
  }

  /// Leaves the edit line, restores the terminal and prints a last word.
  /// Once finished (until `reopen`), only the word is printed.
  public func finish(saying message: String?) {
    if terminal.isRaw {
      try? terminal.write(TerminalCode.newLine)
      terminal.restore()
    }
    if let message { say(message) }
  }

  /// Puts the terminal back in raw mode after `finish(saying:)`, for a
  /// caller that stays in the prompt after all (a save that failed):
  /// `readLineAgain` then goes on with the line as it was, drawn afresh.
  public func reopen() throws(TerminalError) {
    try terminal.enterRawMode()
  }

  /// Puts `versions` (newest first) where Up and Ctrl-R reach from now on,
  /// with `hints` for the line (`hints[0]`) and for each of them (see
  /// `readLine`); the line on screen becomes the line being edited (see
  /// `EditState.replaceVersions(with:)`).
  public func replaceVersions(_ versions: [String], hints: [Hint]) {
    state.replaceVersions(with: versions)
    self.hints = hints
    screen.show(hints, dimmed: screen.isDimmed)
  }

  /// A line on the terminal, after the editor is gone.
  public func say(_ message: String) {
    try? terminal.write(Array((message + "\n").utf8))
  }

  // MARK: - The event pump

  /// Waits for keys, reacting to every signal on the way (a resize redraws,
  /// Ctrl-Z from outside suspends, SIGTERM ends the process with the terminal
  /// restored). Returns the keys of one read, possibly none; nil when the
  /// terminal went away.
  private func nextKeys() throws(TerminalError) -> [Key]? {
    if !heldKeys.isEmpty {
      defer { heldKeys = [] }
      return heldKeys
    }
    var timeout =
      decoder.isInsidePaste
      ? Self.pasteTimeoutMilliseconds
      : decoder.isHoldingLoneEscape
        ? Self.loneEscapeTimeoutMilliseconds
        : decoder.isWaitingForMoreInput ? Self.escapeTimeoutMilliseconds : nil
    let keySequenceTimeout = Int32(
      clamping: configuration.keySequenceTimeoutMilliseconds)
    let awaitsSequence =
      timeout == nil && state.isWaitingForMoreKeys && keySequenceTimeout > 0
    if awaitsSequence { timeout = keySequenceTimeout }
    switch try terminal.read(timeoutMilliseconds: timeout) {
    case .input(let bytes):
      return decoder.decode(bytes)
    case .timeout where awaitsSequence:
      keySequenceTimedOut = true
      return []
    case .timeout where decoder.isInsidePaste:
      // A paste whose end marker never came ends here, its text inserted;
      // the keys after it are keys again.
      return decoder.flushPaste()
    case .timeout:
      // A lone Esc waits for the rest of a sequence only briefly, then is a key.
      return decoder.flush()
    case .endOfFile:
      return nil
    case .signal(.windowResized):
      if isEditingLine { try redrawAfterResize() }
    case .signal(.suspendRequested):
      try suspend()
    case .signal(.continued):
      // Stopped from outside (SIGSTOP, or SIGTTOU when started in the
      // background or resumed with `bg`), or a SIGCONT that stopped nothing:
      // which one cannot be told, so redraw what is shown in place, which
      // adds no copy either way (after `fg` the shell's job line gives way
      // to the hint).
      try terminal.enterRawMode()
      try redrawInPlace()
    case .signal(.terminationRequested(let signalNumber)):
      try? terminal.write(TerminalCode.newLine)
      beforeTermination?()
      terminal.terminate(by: signalNumber)
    }
    return []
  }

  // MARK: - Drawing

  /// Puts the mode string (show-mode-in-prompt) before `> `, as the edit
  /// state's keymap asks now.
  private func showModeString() {
    let modeString = state.modeString
    guard modeString != shownModeString else { return }
    shownModeString = modeString
    screen.prompt = (modeString ?? "") + "> "
  }

  /// Brings the hint and the line up to date at the terminal's width now
  /// (see `PromptScreen.render`), after asking the terminal how wide it
  /// draws the kinds of character (see `WidthKind`) the line would have
  /// drawn at a guessed width: a render is tried on a copy of the screen,
  /// and only a render with nothing left to guess is kept. A line without
  /// such characters costs nothing more; each kind is asked once.
  private func draw() throws(TerminalError) {
    let width = terminal.size.columns
    while true {
      var trial = screen
      let bytes = trial.render(state, width: width)
      let kinds = trial.unmeasuredKinds
      if kinds.isEmpty || width < WidthProbe.minimumColumns {
        screen = trial
        try terminal.write(bytes)
        return
      }
      var widths = screen.widths
      heldKeys += try WidthProbe.measure(kinds, into: &widths, on: terminal, decoding: &decoder)
      screen.widths = widths  // which forgets the line: the samples were drawn on it
    }
  }

  /// The hint and the line drawn again where the terminal put them at its
  /// new width (see `PromptScreen.renderHintInPlace`): only those rows, never
  /// the screen above them.
  private func redrawAfterResize() throws(TerminalError) {
    try terminal.write(screen.renderHintInPlace(state, width: terminal.size.columns))
    try draw()
  }

  /// Ctrl-Z, or SIGTSTP from outside: leave the line, stop, and draw what
  /// was shown (the hint and the line, or the question) again after `fg`.
  private func suspend() throws(TerminalError) {
    try terminal.write(TerminalCode.newLine)
    try terminal.suspend()
    try redrawAfterResume()
  }

  /// After `fg` the shell has drawn its own lines: start afresh below them.
  private func redrawAfterResume() throws(TerminalError) {
    if isEditingLine {
      try drawHintAndLine()
    } else if let question {
      try terminal.write(question)
    }
  }

  /// The hint and, below it, the line, from the start of the cursor's row.
  private func drawHintAndLine() throws(TerminalError) {
    try terminal.write(screen.renderHintAfresh(state, width: terminal.size.columns))
    try draw()
  }

  /// Draws what is shown again where it is, the cursor being on its last
  /// row: the question on its row; the hint and the line from the hint's
  /// first row down.
  private func redrawInPlace() throws(TerminalError) {
    if isEditingLine {
      try redrawAfterResize()
    } else if let question {
      try terminal.write(
        TerminalCode.carriageReturn + TerminalCode.clearToEndOfLine + question)
    }
  }
}
