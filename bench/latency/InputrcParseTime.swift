/// How long the inputrc parser takes on a 300-line inputrc of the kinds of
/// line users write (bindings in every notation, macros, variables,
/// conditionals): the figure `make bench` holds to 0.3 ms, the most an
/// inputrc may add to the prompt's first paint.
enum InputrcParseTime {
  /// 300 lines: a dozen kinds, repeated with different keys.
  static let inputrc: [UInt8] = {
    var lines: [String] = []
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    var index = 0
    while lines.count < 300 {
      let letter = letters[index % letters.count]
      switch index % 12 {
      case 0: lines.append("\"\\C-x\(letter)\": backward-kill-word")
      case 1: lines.append("Control-\(letter): beginning-of-line")
      case 2: lines.append("\"\\M-\(letter)\": upcase-word")
      case 3: lines.append("\"\\e[1;5\(letter.uppercased())\": forward-word")
      case 4: lines.append("\"\\C-x\\C-\(letter)\": \"macro text \(index)\"")
      case 5: lines.append("set completion-ignore-case on")
      case 6: lines.append("$if mode=emacs")
      case 7: lines.append("\"\\033[\(index)~\": history-search-backward")
      case 8: lines.append("$endif")
      case 9: lines.append("# a comment about the next binding, \(index)")
      case 10: lines.append("set keyseq-timeout \(index)")
      default: lines.append("\"\\x18\(letter)\": no-such-function")
      }
      index += 1
    }
    return Array(lines.joined(separator: "\n").utf8)
  }()

  /// The fastest and the median wall-clock time of `runs` parses, in
  /// nanoseconds.
  static func measure(runs: Int) -> (fastest: UInt64, median: UInt64) {
    var times: [UInt64] = []
    let clock = ContinuousClock()
    for _ in 0..<runs {
      var configuration: EditorConfiguration?
      let elapsed = clock.measure {
        configuration = InputrcParser.configuration(
          from: inputrc, path: "/bench/inputrc", terminalName: "xterm", include: { _ in nil })
      }
      precondition(configuration?.emacsBindings.isEmpty == false, "nothing was bound")
      let (seconds, attoseconds) = elapsed.components
      times.append(UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000))
    }
    times.sort()
    return (times[0], times[times.count / 2])
  }
}
