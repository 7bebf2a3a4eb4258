/// What handing the line to the user's editor (Ctrl-X Ctrl-E) gave back:
/// see `EditingSession.editInEditor`.
public enum LineHandOff: Equatable, Sendable {
  /// The editor's text, which replaces the line.
  case replaced(String)
  /// The line stays as it was; the message (one line) says why.
  case kept(because: String)
}
