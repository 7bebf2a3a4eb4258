/// Which mode the vi keys are in, for the hint and the prompt to show it.
public enum ViMode: Equatable, Sendable {
  /// Typing inserts (readline's vi-insert keymap); the mode vi starts in.
  case insert
  /// Keys are commands (readline's vi-command keymap), after Esc.
  case command
  /// Typing overwrites (`R`), until Esc.
  case replace

  /// How the hint names the mode, longest first, as `Hint.mode` takes it:
  /// vim's words, then shorter as the width allows.
  public var hintForms: [String] {
    switch self {
    case .insert: ["-- INSERT --", "INSERT", "INS"]
    case .command: ["-- COMMAND --", "COMMAND", "CMD"]
    case .replace: ["-- REPLACE --", "REPLACE", "REP"]
    }
  }
}
