extension TextBuffer {
  /// The end of the run of Characters of `kind` that starts at `position`:
  /// the index of the first Character at or after it that is not of `kind`,
  /// or `count`. (With several kinds, a Character of any of them is in the
  /// run: vi's non-blanks are `[.viWord, .viPunctuation]`.)
  ///
  /// A chunk that holds only Characters of `kind` is passed whole, so the
  /// cost is the chunks passed plus the Characters read in the chunk where
  /// the run ends, never a Character-by-Character walk over a long word.
  func endOfRun(of kind: CharacterKinds, from position: Int) -> Int {
    guard position < count else { return count }
    var chunk = chunkIndex(containing: position)
    var index = position - chunkStarts[chunk]
    while chunk < chunks.count {
      if !chunks[chunk].kinds.isDisjoint(with: kind.opposite) {
        while index < chunks[chunk].count {
          if chunks[chunk].kinds(at: index).isDisjoint(with: kind) {
            return chunkStarts[chunk] + index
          }
          index += 1
        }
      }
      chunk += 1
      index = 0
    }
    return count
  }

  /// The start of the run of Characters of `kind` that ends at `position`:
  /// the smallest index from which every Character before `position` is of
  /// `kind`. Passes whole chunks as ``endOfRun(of:from:)`` does.
  func startOfRun(of kind: CharacterKinds, before position: Int) -> Int {
    guard position > 0 else { return 0 }
    var chunk = chunkIndex(containing: position - 1)
    // How many of the chunk's Characters stand before `position`.
    var index = position - chunkStarts[chunk]
    while chunk >= 0 {
      if !chunks[chunk].kinds.isDisjoint(with: kind.opposite) {
        while index > 0 {
          if chunks[chunk].kinds(at: index - 1).isDisjoint(with: kind) {
            return chunkStarts[chunk] + index
          }
          index -= 1
        }
      }
      chunk -= 1
      if chunk >= 0 {
        index = chunks[chunk].count
      }
    }
    return 0
  }
}
