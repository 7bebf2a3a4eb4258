import LineEditor

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The line editor session: the saved note on one editable line, Enter saves,
/// Ctrl-C cancels. The terminal is restored on every way out.
struct EditingPrompt {
  let store: FileStore
  let environment: [String: String]

  /// How long a lone Esc waits for the rest of a sequence.
  private static let escapeTimeoutMilliseconds: Int32 = 50

  private static let dim = "\u{1B}[2m"
  private static let normal = "\u{1B}[22m"
  private static let clearScreen = "\u{1B}[H\u{1B}[2J"

  /// How a session ended.
  private enum Ending {
    /// The edited text's UTF-8, made from the editor's chunks without a
    /// String in between: a large note is not held three times over.
    case submit([UInt8])
    case cancel
    case endOfInput
  }

  func run() throws(FilenoteError) -> ExitCode {
    // Read first: a note that is not UTF-8 is refused before the terminal changes.
    let note = try store.read()
    let terminal: Terminal
    do {
      // Draw where the keys come from, even when standard output is redirected.
      let output = isatty(STDOUT_FILENO) == 1 ? STDOUT_FILENO : STDIN_FILENO
      terminal = try Terminal(fileDescriptor: STDIN_FILENO, outputDescriptor: output)
      try terminal.enterRawMode()
    } catch {
      throw .system(action: "cannot use", path: "the terminal", errno: Errno(error.errno))
    }
    defer { terminal.restore() }

    var session = Session(
      terminal: terminal, state: EditState(text: note?.text ?? ""), hint: hint())
    var version = note?.version
    while true {
      let ending: Ending
      do {
        ending = try session.edit()
      } catch {
        terminal.restore()
        throw .system(action: "cannot use", path: "the terminal", errno: Errno(error.errno))
      }
      switch ending {
      case .cancel:
        session.finish(saying: "Cancelled: nothing was saved.")
        return .cancelled
      case .endOfInput:
        session.finish(saying: "Cancelled: nothing was saved.")
        return .failure
      case .submit(let text):
        // Bytes, not String ==, which calls "é" and "e\u{301}" equal.
        let unchanged = text == (note?.bytes ?? [])
        if unchanged && note != nil || text.isEmpty && note == nil {
          session.finish(saying: "Nothing changed.")
          return .success
        }
        if text.isEmpty {
          session.finish(saying: nil)
          throw .emptyInput
        }
        let current: FileStore.Version?
        do {
          current = try store.currentVersion()
        } catch {
          session.finish(saying: nil)
          throw error
        }
        if current != version {
          guard
            session.confirm(
              "The note was changed on disk since you opened it. Overwrite it? [y/N] ")
          else { continue }
          version = current
        }
        session.finish(saying: nil)
        try store.save(bytes: text)
        session.say("Saved.")
        return .success
      }
    }
  }

  /// The line above the prompt: where the note is, how to save and cancel.
  private func hint() -> (text: String, columns: Int) {
    var path = store.path
    if let home = environment["HOME"], home.count > 1, path.hasPrefix(home + "/") {
      path = "~" + path.dropFirst(home.count)
    }
    let text = "\(path.replacingControlCharacters()) · Enter saves · Ctrl-C cancels"
    let columns = text.reduce(0) { $0 + DisplayWidth.columns(of: $1) }
    let useColor = (environment["NO_COLOR"] ?? "").isEmpty
    return (useColor ? Self.dim + text + Self.normal : text, columns)
  }

  /// The running editor: state, screen and keyboard.
  private struct Session {
    let terminal: Terminal
    var state: EditState
    let hint: String
    /// The hint's width on screen, escape sequences left out.
    let hintColumns: Int
    var decoder = KeyDecoder()
    var renderer = Renderer(prompt: "> ")
    /// The terminal width of the last draw.
    var width = 0
    /// Set after a suspend, until the next key: a SIGCONT then is the one
    /// that resumed it, not a new stop.
    var resumedFromSuspend = false

    init(terminal: Terminal, state: EditState, hint: (text: String, columns: Int)) {
      self.terminal = terminal
      self.state = state
      self.hint = hint.text
      self.hintColumns = hint.columns
      try? terminal.write(Array((hint.text + "\r\n").utf8))
    }

    /// Runs the editor until Enter, Ctrl-C or Ctrl-D on an empty line.
    mutating func edit() throws(TerminalError) -> Ending {
      try draw()
      while true {
        let timeout = decoder.isWaitingForMoreInput ? EditingPrompt.escapeTimeoutMilliseconds : nil
        let keys: [Key]
        switch try terminal.read(timeoutMilliseconds: timeout) {
        case .input(let bytes):
          resumedFromSuspend = false
          keys = decoder.decode(bytes)
        case .timeout:
          keys = decoder.flush()
        case .endOfFile:
          return .endOfInput
        case .signal(.windowResized):
          try redrawAfterResize()
          continue
        case .signal(.suspendRequested):
          try suspend()
          continue
        case .signal(.continued):
          try terminal.enterRawMode()
          if resumedFromSuspend {
            // The SIGCONT that ended our own suspend (after `bg` and `fg`
            // it comes late): that resume was redrawn already.
            resumedFromSuspend = false
            continue
          }
          // Stopped from outside (SIGSTOP, or SIGTTOU when started in the
          // background): the shell has written below the line meanwhile.
          try terminal.write(Array("\r\n".utf8))
          try redrawAfterResume()
          continue
        case .signal(.terminationRequested(let signalNumber)):
          try? terminal.write(Array("\r\n".utf8))
          terminal.terminate(by: signalNumber)
        }
        var changed = false
        for key in keys {
          let ending: Ending
          switch state.handle(key) {
          case .edited:
            changed = true
            continue
          case .unchanged: continue
          case .submit: ending = .submit(state.buffer.utf8Bytes)
          case .cancel: ending = .cancel
          case .endOfInput: ending = .endOfInput
          case .redrawScreen:
            try terminal.write(Array((EditingPrompt.clearScreen + hint + "\r\n").utf8))
            renderer.invalidate()
            changed = true
            continue
          case .suspend:
            try suspend()
            continue
          }
          // Keys that came in the same read as Enter are on the line too:
          // show the line as it is saved (or dropped).
          if changed { try draw() }
          return ending
        }
        // One redraw per read, however many keys it brought (a fast paste).
        if changed { try draw() }
      }
    }

    mutating func draw() throws(TerminalError) {
      width = terminal.size.columns
      try terminal.write(renderer.render(state.buffer, cursor: state.cursor, width: width))
    }

    /// When the hint or the drawn line is at least as wide as the old or the
    /// new width, the terminal may have rewrapped them onto more or fewer rows
    /// (most terminals rewrap on resize; xterm cuts instead), and where the
    /// line starts is then unknown: start over on a cleared screen so no
    /// stale row stays. Otherwise redrawing the line in place is enough.
    mutating func redrawAfterResize() throws(TerminalError) {
      let narrowest = min(terminal.size.columns, width)
      if renderer.drawnColumns >= narrowest || hintColumns >= narrowest {
        try terminal.write(Array((EditingPrompt.clearScreen + hint + "\r\n").utf8))
      }
      renderer.invalidate()
      try draw()
    }

    mutating func suspend() throws(TerminalError) {
      try terminal.write(Array("\r\n".utf8))
      try terminal.suspend()
      try redrawAfterResume()
      resumedFromSuspend = true
    }

    /// After `fg` the shell has drawn its own lines: start afresh below them.
    mutating func redrawAfterResume() throws(TerminalError) {
      try terminal.write(Array((hint + "\r\n").utf8))
      renderer.invalidate()
      try draw()
    }

    /// Asks a yes/no question below the line; true only for "y".
    mutating func confirm(_ question: String) -> Bool {
      try? terminal.write(Array(("\r\n" + question).utf8))
      var answer = false
      reading: while true {
        // A lone Esc waits for the rest of a sequence only briefly, then is an answer.
        let timeout = decoder.isWaitingForMoreInput ? EditingPrompt.escapeTimeoutMilliseconds : nil
        guard let event = try? terminal.read(timeoutMilliseconds: timeout) else { break }
        let keys: [Key]
        switch event {
        case .input(let bytes): keys = decoder.decode(bytes)
        case .timeout: keys = decoder.flush()
        case .signal(.windowResized), .signal(.continued): continue
        case .signal(.terminationRequested(let signalNumber)):
          try? terminal.write(Array("\r\n".utf8))
          terminal.terminate(by: signalNumber)
        case .signal(.suspendRequested):
          try? terminal.suspend()
          continue
        case .endOfFile: break reading
        }
        guard let key = keys.first else { continue }
        answer = key == .text("y") || key == .text("Y")
        break reading
      }
      decoder = KeyDecoder()
      // After "y" the session ends the line itself, as after any Enter.
      try? terminal.write(Array((answer ? "y" : "n\r\n").utf8))
      if !answer {
        try? terminal.write(Array(("Not saved; edit on, or Ctrl-C to cancel.\r\n").utf8))
        renderer.invalidate()
      }
      return answer
    }

    /// Leaves the edit line, restores the terminal and prints a last word.
    func finish(saying message: String?) {
      try? terminal.write(Array("\r\n".utf8))
      terminal.restore()
      if let message { say(message) }
    }

    /// A line on the terminal, after the editor is gone.
    func say(_ message: String) {
      try? terminal.write(Array((message + "\n").utf8))
    }
  }
}
