/// A line as vi's motions read it: the Characters of a `TextBuffer`, and,
/// while an operator's motion runs, one blank past its end. Readline
/// appends that blank so that a motion after `d`, `c` or `y` can reach the
/// end of the line (`dw` on the last word), and so do these motions.
struct ViLine {
  let buffer: TextBuffer
  /// Where the motions stop: `buffer.count`, or one more with the blank.
  let end: Int

  init(_ buffer: TextBuffer, withTrailingBlank: Bool) {
    self.buffer = buffer
    end = buffer.count + (withTrailingBlank ? 1 : 0)
  }

  /// The Character at `index`, the trailing blank as a space, nil outside
  /// the line.
  func character(at index: Int) -> Character? {
    guard index >= 0 && index < end else { return nil }
    return index < buffer.count ? buffer[index] : " "
  }

  /// The class of the Character at `index`; outside the line, nil, which
  /// is neither word nor blank (readline reads the NUL that ends its line).
  func characterClass(at index: Int) -> ViCharacterClass? {
    character(at: index).map(ViCharacterClass.init)
  }

  func isWord(_ index: Int) -> Bool { characterClass(at: index) == .word }
  func isBlank(_ index: Int) -> Bool { characterClass(at: index) == .blank }
  /// Neither word nor blank: punctuation, or outside the line.
  func isPunctuation(_ index: Int) -> Bool {
    let kind = characterClass(at: index)
    return kind != .word && kind != .blank
  }

  /// The end of the run of Characters of `classes` (vi's classes in
  /// `CharacterKinds`) from `index` on: the first index at or after it
  /// whose Character is of none of them, or `end`. The buffer's chunk
  /// summaries let it pass a long run without reading it.
  func endOfRun(_ classes: CharacterKinds, from index: Int) -> Int {
    guard index < end else { return index }
    var point = index
    if point < buffer.count { point = buffer.endOfRun(of: classes, from: point) }
    // The trailing blank, past the buffer.
    if point == buffer.count && end > buffer.count && classes.contains(.viBlank) {
      point = end
    }
    return point
  }

  /// The start of the run of Characters of `classes` that ends at `index`:
  /// the smallest index from which every Character before `index` is of
  /// one of them.
  func startOfRun(_ classes: CharacterKinds, before index: Int) -> Int {
    var point = index
    if point > buffer.count {
      // Only the trailing blank is past the buffer.
      guard classes.contains(.viBlank) else { return point }
      point = buffer.count
    }
    return buffer.startOfRun(of: classes, before: point)
  }
}
