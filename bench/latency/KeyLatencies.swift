#if canImport(Glibc)
  import Glibc
#endif

/// Times each kind of key on one note: from the key's arrival at the editor
/// to the end of the render that follows it, as the prompt does it (one
/// `EditState.handle` and one `PromptScreen.render` per key: the line, and
/// the hint above it when it changes).
///
/// Each sample puts the cursor at a random place first (untimed, with a render
/// so that the view is where a user would have it), then times one key. Keys
/// that change the text are followed by the keys that take the change back,
/// themselves timed under their own kind, so the note keeps its size: Ctrl-K,
/// Ctrl-Y, Alt-Y, undo, undo, and so on.
struct KeyLatencies {
  /// The terminal width the renderer draws for, and the one a resize goes to.
  static let width = 80
  static let resizedWidth = 120

  private var state: EditState
  private var screen = Self.screen()
  private var random: SeededRandom
  private var width = Self.width
  /// Nanoseconds of each timed key, by kind: the time the key took the
  /// process (its thread's CPU time, user and system), and the wall-clock
  /// time, which also counts whatever else the machine ran meanwhile.
  private(set) var samples: [String: [(cpu: UInt64, wall: UInt64)]] = [:]

  init(note: String, seed: UInt64) {
    state = EditState(text: note)
    random = SeededRandom(seed: seed)
    _ = screen.renderHintAfresh(state, width: width)
    _ = screen.render(state, width: width)
  }

  /// The prompt's rows with the hint of the default note, as it opens.
  static func screen() -> PromptScreen {
    var screen = PromptScreen(prompt: "> ")
    let hint = Hint(
      subject: "~/Documents/datafile.dat",
      details: ["Enter saves", "Ctrl-C cancels", "Ctrl-X Ctrl-E: editor"])
    screen.show([hint], dimmed: true)
    return screen
  }

  /// The kinds of key, in the order of the table, with the keys each sample
  /// times (every key of a sample is timed under the kind it names).
  static let kinds: [String] = [
    "type", "Backspace", "Delete", "Left/Right", "Alt-B/Alt-F", "Home/End", "Ctrl-K", "Ctrl-U",
    "Ctrl-W", "Alt-D", "Alt-Backspace", "Ctrl-Y", "Alt-Y", "Ctrl-T", "undo", "paste 64 KB",
    "resize",
  ]

  /// Runs `rounds` rounds; each round times every kind at least once.
  mutating func run(rounds: Int, paste: String) {
    for _ in 0..<rounds {
      placeCursor()
      time("type", .text("a"))
      time("Backspace", .backspace)
      placeCursor()
      time("type", .text("語"))
      time("Left/Right", .arrow(.left, .none))
      time("Delete", .delete)
      placeCursor()
      time("Left/Right", .arrow(.left, .none))
      time("Left/Right", .arrow(.right, .none))
      placeCursor()
      time("Alt-B/Alt-F", .alt("b"))
      placeCursor()
      time("Alt-B/Alt-F", .alt("f"))
      placeCursor()
      time("Home/End", .home)
      time("Home/End", .end)
      placeCursor()
      time("Ctrl-K", .control("k"))
      time("Ctrl-Y", .control("y"))
      time("undo", .control("_"))
      time("undo", .control("_"))
      placeCursor()
      time("Ctrl-U", .control("u"))
      time("Ctrl-Y", .control("y"))
      // The yank replaced by the kill before it (Ctrl-K's), then both undone.
      time("Alt-Y", .alt("y"))
      time("undo", .control("_"))
      time("undo", .control("_"))
      placeCursor()
      time("Ctrl-W", .control("w"))
      time("undo", .control("_"))
      placeCursor()
      time("Alt-D", .alt("d"))
      time("undo", .control("_"))
      placeCursor()
      time("Alt-Backspace", .alt("\u{7F}"))
      time("undo", .control("_"))
      placeCursor()
      time("Ctrl-T", .control("t"))
      time("undo", .control("_"))
      placeCursor()
      time("paste 64 KB", .paste(paste))
      time("undo", .control("_"))
      timeResize()
    }
  }

  /// Moves the cursor to a random place and draws the line there, untimed.
  private mutating func placeCursor() {
    state.cursor = random.next(below: state.buffer.count + 1)
    _ = screen.render(state, width: width)
  }

  private mutating func time(_ kind: String, _ key: Key) {
    let start = Self.now()
    _ = state.handle(key)
    let output = screen.render(state, width: width)
    record(kind, since: start, keeping: output)
  }

  /// A resize as the prompt handles one: back to the hint's row, both rows
  /// drawn at the new width.
  private mutating func timeResize() {
    width = width == Self.width ? Self.resizedWidth : Self.width
    let start = Self.now()
    let output = screen.renderHintInPlace(state, width: width) + screen.render(state, width: width)
    record("resize", since: start, keeping: output)
  }

  private mutating func record(
    _ kind: String, since start: (cpu: UInt64, wall: UInt64), keeping output: [UInt8]
  ) {
    let end = Self.now()
    // The output is used, so the render cannot be optimised away.
    precondition(output.count < 1 << 20)
    samples[kind, default: []].append((end.cpu - start.cpu, end.wall - start.wall))
  }

  /// This thread's CPU time and the monotonic clock, in nanoseconds.
  static func now() -> (cpu: UInt64, wall: UInt64) {
    (nanoseconds(CLOCK_THREAD_CPUTIME_ID), nanoseconds(CLOCK_MONOTONIC))
  }

  private static func nanoseconds(_ clock: clockid_t) -> UInt64 {
    var time = timespec()
    clock_gettime(clock, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  /// How long building the editor for `note` takes (opening the prompt).
  static func openingTime(_ note: String) -> UInt64 {
    let start = nanoseconds(CLOCK_MONOTONIC)
    var screen = Self.screen()
    let state = EditState(text: note)
    let output = screen.renderHintAfresh(state, width: width) + screen.render(state, width: width)
    precondition(!output.isEmpty)
    return nanoseconds(CLOCK_MONOTONIC) - start
  }
}
