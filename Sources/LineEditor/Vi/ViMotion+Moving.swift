extension ViMotion {
  /// Where the motion, made `count` times from `position`, takes the
  /// cursor in `line`, as readline's vi mode moves it (a motion that
  /// cannot go on stops where it got to). `.repeatFind` must be resolved
  /// to a `.find` first; it stays where it is.
  func destination(from position: Int, count: Int, in line: ViLine) -> Int {
    let count = Swift.max(count, 1)
    switch self {
    case .left: return Swift.max(position - count, 0)
    case .right:
      // Command mode keeps the cursor on a Character: never past the last.
      return Swift.min(position + count, Swift.max(line.end - 1, 0))
    case .lineStart: return 0
    case .lineEnd: return line.end
    case .firstNonBlank: return line.endOfRun(.viBlank, from: 0)
    case .column: return count > line.end ? line.end : count - 1
    case .nextWordStart(let kind):
      return Self.nextWordStart(from: position, count: count, kind, in: line)
    case .previousWordStart(let kind):
      return Self.previousWordStart(from: position, count: count, kind, in: line)
    case .wordEnd(let kind):
      return Self.wordEnd(from: position, count: count, kind, in: line)
    case .find(let search): return Self.find(search, from: position, count: count, in: line)
    case .repeatFind: return position
    }
  }

  /// `w`: past the word (or the run of punctuation) under the cursor, then
  /// past the blanks after it. `W`: past the non-blanks, then the blanks.
  private static func nextWordStart(
    from position: Int, count: Int, _ kind: ViWordKind, in line: ViLine
  ) -> Int {
    var point = position
    for _ in 0..<count {
      guard point < line.end - 1 else { break }
      if kind == .bigWord || !line.isBlank(point) {
        point = line.endOfRun(runClasses(kind, at: point, in: line), from: point)
      }
      point = line.endOfRun(.viBlank, from: point)
    }
    return point
  }

  /// `b` and `B`: back to the start of the word the cursor is in, or of
  /// the one before when it is at a start already.
  private static func previousWordStart(
    from position: Int, count: Int, _ kind: ViWordKind, in line: ViLine
  ) -> Int {
    var point = position
    for _ in 0..<count {
      guard point > 0 else { break }
      // At the start of a word: step into the blank before it, so the
      // word before is the one reached.
      if !line.isBlank(point) && line.isBlank(point - 1) { point -= 1 }
      if kind == .word {
        // Between a word and punctuation touching it, step back over the
        // boundary for the same reason.
        if line.isWord(point) != line.isWord(point - 1) { point -= 1 }
      }
      if point > 0 && line.isBlank(point) {
        point = Swift.max(line.startOfRun(.viBlank, before: point + 1) - 1, 0)
      }
      guard point > 0 else { continue }
      let start = line.startOfRun(runClasses(kind, at: point, in: line), before: point)
      // Readline stops at the first Character even when it is not in the
      // run (`b` from `q` in `a-q` goes to `a`, where vi goes to `-`).
      point = start >= 2 ? start : 0
    }
    return point
  }

  /// `e` and `E`: one forward, past any blanks, then to the last Character
  /// of the word (or punctuation run, or non-blank run for `E`) reached.
  private static func wordEnd(
    from position: Int, count: Int, _ kind: ViWordKind, in line: ViLine
  ) -> Int {
    var point = position
    for _ in 0..<count {
      guard point < line.end - 1 else { break }
      if !line.isBlank(point) { point += 1 }
      point = line.endOfRun(.viBlank, from: point)
      guard point < line.end else { break }
      point = line.endOfRun(runClasses(kind, at: point, in: line), from: point) - 1
    }
    return point
  }

  /// The classes of the run the Character at `position` is in: the
  /// non-blanks for `W B E`; for `w b e`, the word Characters after one,
  /// the punctuation after one.
  private static func runClasses(
    _ kind: ViWordKind, at position: Int, in line: ViLine
  ) -> CharacterKinds {
    switch kind {
    case .bigWord: [.viWord, .viPunctuation]
    case .word: line.isWord(position) ? .viWord : .viPunctuation
    }
  }

  /// `f F t T`, `count` times: each search goes on from the Character the
  /// last one found (so `t` again finds the same one), and a search that
  /// finds nothing leaves the cursor where the ones before took it.
  private static func find(
    _ search: ViCharacterSearch, from position: Int, count: Int, in line: ViLine
  ) -> Int {
    let step = search.isForward ? 1 : -1
    var result = position
    var index = position
    for _ in 0..<count {
      index += step
      var found = false
      while index >= 0 && index < line.end {
        if line.character(at: index) == search.target {
          found = true
          result = search.stopsBefore ? index - step : index
          break
        }
        index += step
      }
      if !found { break }
    }
    return result
  }
}
