/// The in-process half of `make bench`'s per-key latency table (see
/// bench/latency.py, which builds this with the LineEditor sources and judges
/// what it prints).
///
///     latency-bench [--rounds N] [--only NOTE]
///
/// Prints one tab-separated line per note and kind of key: note, kind,
/// samples, then p50, p99 and max of the key's CPU time and the max of its
/// wall-clock time, in nanoseconds; and one `open` line per note with the
/// wall-clock time to build the editor on it.
@main
enum LatencyBench {
  static func main() {
    var rounds = 100
    let arguments = CommandLine.arguments
    if let flag = arguments.firstIndex(of: "--rounds"), flag + 1 < arguments.count,
      let value = Int(arguments[flag + 1]), value > 0
    {
      rounds = value
    }
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
      let opening = KeyLatencies.openingTime(note.text)
      print(note.name, "open", 1, opening, opening, opening, opening, separator: "\t")
      var latencies = KeyLatencies(note: note.text, seed: 9)
      latencies.run(rounds: note.rounds, paste: paste)
      for kind in KeyLatencies.kinds {
        let samples = latencies.samples[kind] ?? []
        let sorted = samples.map(\.cpu).sorted()
        guard let longestWall = samples.map(\.wall).max() else { continue }
        let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        print(
          note.name, kind, sorted.count, sorted[sorted.count / 2], p99, sorted[sorted.count - 1],
          longestWall, separator: "\t")
      }
    }
  }
}
