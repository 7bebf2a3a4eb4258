/// Times vi mode's keys on one note, as `KeyLatencies` times emacs mode's:
/// each key from its arrival at the editor to the end of the render that
/// follows it, in command mode unless the kind says otherwise. Keys that
/// change the text are followed by `u`, timed too, so the note keeps its
/// size.
struct ViKeyLatencies {
  private var state: EditState
  private var screen = KeyLatencies.screen()
  private var random: SeededRandom
  private(set) var samples: [String: [(cpu: UInt64, wall: UInt64)]] = [:]

  /// The kinds of vi key, in the order of the table.
  static let kinds: [String] = [
    "vi h/l", "vi w/b/e", "vi W/B/E", "vi 0/^/$", "vi f/;", "vi x", "vi dw", "vi cw+Esc",
    "vi i, type, Esc", "vi yw/p", "vi ~", "vi .", "vi u",
  ]

  init(note: String, seed: UInt64) {
    var configuration = EditorConfiguration()
    configuration.editingMode = .vi
    state = EditState(text: note, configuration: configuration)
    random = SeededRandom(seed: seed)
    _ = state.handle(.escape)
    _ = screen.renderHintAfresh(state, width: KeyLatencies.width)
    _ = screen.render(state, width: KeyLatencies.width)
  }

  mutating func run(rounds: Int) {
    for _ in 0..<rounds {
      placeCursor()
      time("vi h/l", "l", "h")
      placeCursor()
      time("vi w/b/e", "w", "b", "e")
      placeCursor()
      time("vi W/B/E", "W", "B", "E")
      placeCursor()
      time("vi 0/^/$", "$", "0", "^")
      placeCursor()
      time("vi f/;", "f", "a", ";")
      placeCursor()
      time("vi x", "x")
      time("vi u", "u")
      placeCursor()
      time("vi dw", "d", "w")
      time("vi .", ".")
      time("vi u", "u", "u")
      placeCursor()
      time("vi cw+Esc", "c", "w")
      time("vi i, type, Esc", "a", "b")
      time("vi cw+Esc", .escape)
      time("vi u", "u")
      placeCursor()
      time("vi i, type, Esc", "i", "a", "b")
      time("vi i, type, Esc", .escape)
      time("vi u", "u")
      placeCursor()
      time("vi yw/p", "y", "w", "p")
      time("vi u", "u")
      placeCursor()
      time("vi ~", "~")
      time("vi u", "u")
    }
  }

  /// Moves the cursor to a random Character and draws the line there, untimed.
  private mutating func placeCursor() {
    state.cursor = random.next(below: max(state.buffer.count, 1))
    _ = screen.render(state, width: KeyLatencies.width)
  }

  private mutating func time(_ kind: String, _ keys: Character...) {
    for key in keys { time(kind, .text(String(key))) }
  }

  private mutating func time(_ kind: String, _ key: Key) {
    let start = KeyLatencies.now()
    _ = state.handle(key)
    let output = screen.render(state, width: KeyLatencies.width)
    let end = KeyLatencies.now()
    precondition(output.count < 1 << 20)
    samples[kind, default: []].append((end.cpu - start.cpu, end.wall - start.wall))
  }
}
