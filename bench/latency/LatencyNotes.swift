/// The notes the latency benchmark edits, made from a fixed seed so that every
/// run and every machine edits the same text.
enum LatencyNotes {
  /// The words of bench/bench.py's notes: mostly ASCII, some Latin with
  /// accents, some CJK and Greek, so every clustering path is taken.
  static let words =
    ("note buy milk call the plumber tomorrow at nine remember meeting draft "
    + "review send invoice café naïve façade über résumé 日本語 メモ 東京 "
    + "α β γ release build static swift editor cursor window terminal")
    .split(separator: " ").map(String.init)

  /// One line of words separated by spaces, `size` bytes of UTF-8 (padded
  /// with `x` to the exact size).
  static func words(size: Int, seed: UInt64) -> String {
    var random = SeededRandom(seed: seed)
    var text = String()
    text.reserveCapacity(size)
    while true {
      let word = words[random.next(below: words.count)]
      if text.utf8.count + word.utf8.count + 1 > size { break }
      text += word
      text += " "
    }
    return text + String(repeating: "x", count: size - text.utf8.count)
  }

  /// One word of `size` letters and digits, as a pasted key or a minified
  /// line is to readline: nowhere for a word move to stop.
  static func oneWord(size: Int, seed: UInt64) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
    var random = SeededRandom(seed: seed)
    var bytes = [UInt8]()
    bytes.reserveCapacity(size)
    for _ in 0..<size {
      bytes.append(alphabet[random.next(below: alphabet.count)])
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// A small deterministic generator (SplitMix64): the standard library's
/// generator cannot be seeded.
struct SeededRandom {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound`.
  mutating func next(below bound: Int) -> Int {
    Int(next() % UInt64(bound))
  }
}
