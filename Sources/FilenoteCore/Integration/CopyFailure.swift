import SystemCalls

/// Why `filenote copy` put nothing on the clipboard, as its message says it.
enum CopyFailure: Equatable, Sendable {
  /// Neither the terminal nor a clipboard tool could take the text.
  case nowhere(terminal: TerminalReason, tools: ToolsReason)
  /// The tool could not be started (or waited for).
  case cannotRun(tool: String, errno: Errno)
  /// The tool ran and did not exit 0.
  case toolFailed(tool: String, termination: ChildProcess.Termination)

  /// Why the terminal was not sent the text.
  enum TerminalReason: Equatable, Sendable {
    /// `--desktop` asked for a tool.
    case notAsked
    /// No `/dev/tty` to write to (a desktop shortcut, a service).
    case noTerminal
    /// `TERM` is `dumb` or unset: a terminal without escape sequences.
    case dumbTerminal
    /// `VTE_VERSION` is set: GNOME Terminal and the other terminals built on
    /// VTE ignore OSC 52.
    case vte
    /// The text is larger than a terminal takes (`OSC52.textLimit`).
    case tooLarge(size: Int)

    var words: String {
      switch self {
      case .notAsked: return ""
      case .noTerminal: return "there is no terminal (/dev/tty) to send it to"
      case .dumbTerminal: return "TERM says the terminal takes no escape sequences"
      case .vte:
        return "the terminal ignores OSC 52 (VTE_VERSION is set: GNOME Terminal and the like)"
      case .tooLarge(let size):
        return
          "the text is \(size) bytes, more than the \(OSC52.textLimit) a terminal takes (OSC 52)"
      }
    }
  }

  /// Why no clipboard tool was used.
  enum ToolsReason: Equatable, Sendable {
    /// Neither `WAYLAND_DISPLAY` nor `DISPLAY` is set.
    case noDisplay
    /// None of these tools is installed (on `PATH`).
    case notInstalled([String])

    var words: String {
      switch self {
      case .noDisplay:
        return "neither WAYLAND_DISPLAY nor DISPLAY is set for wl-copy, xclip or xsel"
      case .notInstalled(let names):
        return names.joined(separator: " or ") + (names.count == 1 ? " is" : " are")
          + " not installed"
      }
    }
  }

  /// The line after `filenote: `.
  var message: String {
    switch self {
    case .nowhere(let terminal, let tools):
      guard terminal != .notAsked else {
        return "cannot copy to the clipboard with --desktop: \(tools.words)"
      }
      return "cannot copy to the clipboard: \(terminal.words), and \(tools.words)"
    case .cannotRun(let tool, let errno):
      return "cannot copy to the clipboard: cannot run \(tool): \(errno)"
    case .toolFailed(let tool, let termination):
      let ending: String
      switch termination {
      case .exited(let status): ending = "exited with status \(status)"
      case .killed(let signal): ending = "was killed by signal \(signal.rawValue)"
      }
      return "cannot copy to the clipboard: \(tool) \(ending)"
    }
  }
}
