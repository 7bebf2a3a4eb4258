extension DisplayWidth {
  /// Where `text` ends when cut to at most `columns` columns by whole
  /// characters (each as wide as `columns(of:)` counts it), and the columns
  /// the part kept takes: the one way filenote cuts a text to a width, for
  /// the hint, the lines of `history` and the note's one line.
  ///
  /// A text cut to make room for a mark (`…`) is cut to the columns left
  /// once the mark's are taken.
  public static func end(
    of text: some StringProtocol, fittingColumns columns: Int
  ) -> (end: String.Index, columns: Int) {
    var used = 0
    var end = text.startIndex
    while end < text.endIndex {
      let width = self.columns(of: text[end])
      if used + width > columns { break }
      used += width
      end = text.index(after: end)
    }
    return (end, used)
  }
}
