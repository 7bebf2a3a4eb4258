import LineEditor

extension String {
  /// The text with each newline and control character replaced by the
  /// stand-in the line editor draws for it, for showing a note or a path on
  /// one line.
  func replacingControlCharacters() -> String {
    String(map { DisplayWidth.standIn(for: $0) ?? $0 })
  }
}
