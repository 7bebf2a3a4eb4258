/// The in-process half of `make bench`'s per-key latency table (see
/// bench/latency.py, which builds this with the LineEditor sources and judges
/// what it prints).
///
///     latency-bench [--rounds N] [--trials N] [--only NOTE]
///     latency-bench --inputrc       # the inputrc parse time instead
///
/// Runs the same seeded keys `trials` times on each note and keeps, for each
/// key, the fastest of its CPU times. Prints one tab-separated line per note
/// and kind of key: note, kind, samples, then p50, p99 and max of those
/// times and the longest wall-clock time of any trial, in nanoseconds; and
/// one `open` line per note with the fastest wall-clock time to build the
/// editor on it.
@main
enum LatencyBench {
  static func main() {
    let arguments = CommandLine.arguments
    if arguments.contains("--inputrc") {
      let (fastest, median) = InputrcParseTime.measure(runs: 200)
      print("inputrc", "parse", 200, fastest, median, separator: "\t")
      return
    }
    /// The positive number after `flag`, or `otherwise`.
    func number(after flag: String, otherwise: Int) -> Int {
      guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count,
        let value = Int(arguments[index + 1]), value > 0
      else { return otherwise }
      return value
    }
    let rounds = number(after: "--rounds", otherwise: 100)
    let trials = number(after: "--trials", otherwise: 3)
    let kib = 1024
    let mib = 1024 * kib
    let notes: [(name: String, text: String, rounds: Int)] = [
      ("1 KB", LatencyNotes.words(size: kib, seed: 4), rounds),
      ("1 MiB of words", LatencyNotes.words(size: mib, seed: 5), rounds),
      ("1 MiB one word", LatencyNotes.oneWord(size: mib, seed: 6), rounds),
      ("16 MiB of words", LatencyNotes.words(size: 16 * mib, seed: 7), max(rounds / 4, 1)),
    ]
    let paste = LatencyNotes.words(size: 64 * kib, seed: 8)
    let only = arguments.firstIndex(of: "--only").flatMap {
      $0 + 1 < arguments.count ? arguments[$0 + 1] : nil
    }
    for note in notes where only == nil || note.name == only {
      // Every trial types the same keys on the same states (the same seed),
      // so sample i of each is the same key: its fastest time is what the key
      // costs, the others' excess what the machine did meanwhile.
      var fastest: [String: [UInt64]] = [:]
      var longestWall: [String: UInt64] = [:]
      for _ in 0..<trials {
        var latencies = KeyLatencies(note: note.text, seed: 9)
        latencies.run(rounds: note.rounds, paste: paste)
        // vi mode's keys, on the same note: the same targets hold.
        var viLatencies = ViKeyLatencies(note: note.text, seed: 10)
        viLatencies.run(rounds: note.rounds)
        for (kind, samples) in latencies.samples.merging(viLatencies.samples, uniquingKeysWith: +) {
          let cpu = samples.map(\.cpu)
          fastest[kind] = fastest[kind].map { zip($0, cpu).map { Swift.min($0, $1) } } ?? cpu
          longestWall[kind] = Swift.max(longestWall[kind] ?? 0, samples.map(\.wall).max() ?? 0)
        }
      }
      let opening = (0..<trials).map { _ in KeyLatencies.openingTime(note.text) }.min() ?? 0
      print(note.name, "open", 1, opening, opening, opening, opening, separator: "\t")
      for kind in KeyLatencies.kinds + ViKeyLatencies.kinds {
        guard let sorted = fastest[kind]?.sorted(), !sorted.isEmpty else { continue }
        let p99 = sorted[Swift.min(sorted.count - 1, sorted.count * 99 / 100)]
        print(
          note.name, kind, sorted.count, sorted[sorted.count / 2], p99, sorted[sorted.count - 1],
          longestWall[kind] ?? 0, separator: "\t")
      }
    }
  }
}
