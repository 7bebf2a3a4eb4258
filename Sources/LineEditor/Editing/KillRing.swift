/// Text removed by the kill commands, for the yank commands to put back: the
/// last few kills, newest last, as GNU readline keeps them. Kills are kept as
/// pieces of the text buffer, sharing its storage, so killing and yanking a
/// megabyte copies nothing.
struct KillRing: Sendable {
  /// Which way a kill went from the cursor, which decides where its text joins
  /// the previous kill when kills follow one another.
  enum Direction: Sendable {
    /// Text after the cursor (Ctrl-K, Alt-D): appended to the previous kill.
    case forward
    /// Text before the cursor (Ctrl-U, Ctrl-W, Alt-Backspace): prepended.
    case backward
  }

  /// How many kills are kept; readline keeps 10.
  static let capacity = 10

  /// The kills, oldest first.
  private var entries: [TextBuffer] = []
  /// The entry that yank inserts: the newest kill, or an older one that
  /// yank-pop rotated to.
  private var yankIndex = 0

  /// The text Ctrl-Y inserts, or nil when nothing was killed yet.
  var current: TextBuffer? {
    entries.isEmpty ? nil : entries[yankIndex]
  }

  /// Adds killed text. A kill that directly follows another one extends that
  /// entry instead of making a new one, so that Ctrl-Y gives back everything a
  /// run of kills removed, in the order it stood in the text.
  mutating func add(_ text: TextBuffer, _ direction: Direction, continuingLastKill: Bool) {
    if continuingLastKill, let last = entries.indices.last {
      switch direction {
      case .forward: entries[last] = entries[last] + text
      case .backward: entries[last] = text + entries[last]
      }
    } else {
      entries.append(text)
      if entries.count > Self.capacity {
        entries.removeFirst()
      }
    }
    yankIndex = entries.count - 1
  }

  /// Moves to the kill before the current one, wrapping from the oldest to the
  /// newest, and returns it (yank-pop); nil when nothing was killed yet.
  mutating func rotate() -> TextBuffer? {
    guard !entries.isEmpty else { return nil }
    yankIndex = yankIndex == 0 ? entries.count - 1 : yankIndex - 1
    return entries[yankIndex]
  }
}
