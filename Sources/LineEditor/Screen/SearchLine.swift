/// What the edit line shows while an incremental search (Ctrl-R, Ctrl-S) is in
/// progress: readline's search prompt, then the line found, with the match
/// highlighted and the cursor at its start. `Renderer.render(_:width:)` draws
/// it.
public struct SearchLine: Sendable {
  /// `(reverse-i-search)'milk': `, `(failed reverse-i-search)'milk': `,
  /// `(i-search)'milk': ` or `(failed i-search)'milk': `.
  public let prompt: String
  /// The line found (or the line the search started from).
  public let buffer: TextBuffer
  /// Where the cursor is in `buffer`.
  public let cursor: Int
  /// The Characters of `buffer` the query matched; nil while nothing is
  /// found.
  public let match: Range<Int>?
}
