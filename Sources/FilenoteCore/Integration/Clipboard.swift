import SystemCalls

/// `filenote copy`: puts text on the clipboard of the terminal the user
/// sits at, and only when asked (nothing else in filenote touches the
/// clipboard).
///
/// The ways, in order:
///
/// 1. Inside tmux (`TMUX` set): `tmux load-buffer -w -`, which sets tmux's
///    own buffer and sends the text on to the terminal tmux runs in by OSC
///    52. A sequence written to the pane would not get there with tmux's
///    defaults (3.3: `set-clipboard external` drops an application's OSC 52,
///    `allow-passthrough off` drops a wrapped one); when tmux cannot be run
///    or fails (before 3.2, `-w` is unknown), the sequence wrapped for
///    passthrough is written instead.
/// 2. OSC 52 written to the terminal (`/dev/tty`), unless there is none,
///    `TERM` is `dumb` or unset, the terminal is known to ignore it (VTE)
///    or the text is over `OSC52.textLimit`.
/// 3. A clipboard tool for the display (`ClipboardTool.candidates`), also
///    the only way with `--desktop`.
///
/// When none can, a `CopyFailure` says why each could not.
struct Clipboard {
  let environment: Environment

  /// How the text was copied, as `filenote copy` says it.
  enum Way: Equatable {
    case tmux
    case terminal
    case tool(String)

    var words: String {
      switch self {
      case .tmux: return "through tmux"
      case .terminal: return "through the terminal (OSC 52)"
      case .tool(let name): return "with " + name
      }
    }
  }

  /// Puts `bytes` on the clipboard; `desktop` asks for a clipboard tool.
  func copy(_ bytes: [UInt8], desktop: Bool) throws(FilenoteError) -> Way {
    let terminalReason: CopyFailure.TerminalReason
    if desktop {
      terminalReason = .notAsked
    } else {
      let insideTmux = !(environment["TMUX"] ?? "").isEmpty
      if insideTmux, let tmux = environment.program(named: "tmux"),
        (try? ClipboardTool(name: "tmux", arguments: ["load-buffer", "-w", "-"])
          .run(at: tmux, input: bytes)) != nil
      {
        return .tmux
      }
      switch terminal(for: bytes) {
      case .open(let terminal):
        defer { terminal.close() }
        do {
          try terminal.writeAll(OSC52.sequence(for: bytes, throughTmux: insideTmux))
        } catch {
          throw .system(.write, .terminal, errno: error)
        }
        return .terminal
      case .unavailable(let reason):
        terminalReason = reason
      }
    }
    let tools = ClipboardTool.candidates(in: environment)
    guard !tools.isEmpty else {
      throw .copy(.nowhere(terminal: terminalReason, tools: .noDisplay))
    }
    for tool in tools {
      if let path = environment.program(named: tool.name) {
        try tool.run(at: path, input: bytes)
        return .tool(tool.name)
      }
    }
    throw .copy(.nowhere(terminal: terminalReason, tools: .notInstalled(tools.map(\.name))))
  }

  /// The terminal to write OSC 52 to, or why there is none.
  private enum TerminalAnswer {
    /// Open for writing; the caller closes it.
    case open(FileDescriptor)
    case unavailable(CopyFailure.TerminalReason)
  }

  /// The terminal to write OSC 52 for `bytes` to, or why there is none.
  private func terminal(for bytes: [UInt8]) -> TerminalAnswer {
    guard
      let terminal = try? FileDescriptor.open(
        "/dev/tty", .writeOnly, options: [.noControllingTerminal])
    else { return .unavailable(.noTerminal) }
    let term = environment["TERM"] ?? ""
    var reason: CopyFailure.TerminalReason?
    if !terminal.isTerminal {
      reason = .noTerminal
    } else if term.isEmpty || term == "dumb" {
      reason = .dumbTerminal
    } else if !(environment["VTE_VERSION"] ?? "").isEmpty && (environment["TMUX"] ?? "").isEmpty {
      reason = .vte
    } else if bytes.count > OSC52.textLimit {
      reason = .tooLarge(size: bytes.count)
    }
    guard let reason else { return .open(terminal) }
    terminal.close()
    return .unavailable(reason)
  }

}
