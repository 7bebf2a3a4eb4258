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
    case .firstNonBlank:
      var point = 0
      while point < line.end && line.isBlank(point) { point += 1 }
      return point
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
      if kind == .bigWord {
        while point < line.end && !line.isBlank(point) { point += 1 }
      } else if line.isWord(point) {
        while point < line.end && line.isWord(point) { point += 1 }
      } else if !line.isBlank(point) {
        while point < line.end && line.isPunctuation(point) { point += 1 }
      }
      while point < line.end && line.isBlank(point) { point += 1 }
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
      while point > 0 && line.isBlank(point) { point -= 1 }
      guard point > 0 else { continue }
      let inRun = runTest(kind, from: point, in: line)
      repeat { point -= 1 } while point > 0 && inRun(point)
      // Readline stops at the first Character even when it is not in the
      // run (`b` from `q` in `a-q` goes to `a`, where vi goes to `-`).
      if point > 0 { point += 1 }
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
      while point < line.end && line.isBlank(point) { point += 1 }
      guard point < line.end else { break }
      let inRun = runTest(kind, from: point, in: line)
      while point < line.end && inRun(point) { point += 1 }
      point -= 1
    }
    return point
  }

  /// Whether a Character is in the same run as the one at `position`: a
  /// non-blank for `W B E`; for `w b e`, a word Character after one, a
  /// punctuation Character after one.
  private static func runTest(
    _ kind: ViWordKind, from position: Int, in line: ViLine
  ) -> (Int) -> Bool {
    switch kind {
    case .bigWord: { !line.isBlank($0) }
    case .word: line.isWord(position) ? { line.isWord($0) } : { line.isPunctuation($0) }
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
