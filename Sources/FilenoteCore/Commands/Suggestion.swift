/// What filenote suggests when a command line names a command or option it
/// does not know: the names of the table (`Command.all`, `Option.all`) the
/// word is a near miss of (`sav`, `SHOW`, `hist`, `--fil`), the command
/// another tool's word stands for (`list`, `cat`, `rm`, `add`, `ls`), or,
/// for words that read as a note (`filenote buy milk`), the command line
/// that would save them. Nothing is ever run or saved for the user: exit 2.
enum Suggestion: Equatable, Sendable {
  /// Nothing to suggest.
  case none
  /// The names the user may have meant, best first.
  case names([String])
  /// The command line that saves the words as the note, quoted for a shell.
  case save(commandLine: String)

  /// A word another tool uses for what a command or option of filenote does.
  struct OtherToolsWord {
    let word: String
    /// filenote's name for it.
    let ours: String
  }

  /// The words of other tools (package managers, `ls`, `cat`, `rm`, git, todo
  /// lists) that users type for filenote's commands.
  static let otherToolsWords = [
    OtherToolsWord(word: "list", ours: "history"),
    OtherToolsWord(word: "ls", ours: "history"),
    OtherToolsWord(word: "log", ours: "history"),
    OtherToolsWord(word: "versions", ours: "history"),
    OtherToolsWord(word: "cat", ours: "show"),
    OtherToolsWord(word: "print", ours: "show"),
    OtherToolsWord(word: "get", ours: "show"),
    OtherToolsWord(word: "rm", ours: "clear"),
    OtherToolsWord(word: "remove", ours: "clear"),
    OtherToolsWord(word: "delete", ours: "clear"),
    OtherToolsWord(word: "add", ours: "save"),
    OtherToolsWord(word: "set", ours: "save"),
    OtherToolsWord(word: "write", ours: "save"),
    OtherToolsWord(word: "redo", ours: "undo"),
    OtherToolsWord(word: "revert", ours: "restore"),
  ]

  /// The one-letter options of other tools that filenote spells out:
  /// most print their version with `-v` or `-V`.
  static let otherToolsOptions = [
    OtherToolsWord(word: "-v", ours: "--version"),
    OtherToolsWord(word: "-V", ours: "--version"),
  ]

  /// For an unknown command `name`, the first of `words` (the words of the
  /// command line, the options left out); `file` is the `--file` given.
  static func forCommand(_ name: String, words: [[UInt8]], file: String?) -> Suggestion {
    let meant = commands(meantBy: name)
    if !meant.isEmpty { return .names(meant) }
    // `filenote save -` would read standard input instead.
    guard !words.isEmpty, words != [Array("-".utf8)], !words[0].isEmpty else { return .none }
    var line = ["filenote", "save"]
    if let file {
      guard let path = ShellWord.quoted(Array(file.utf8)) else { return .none }
      line += ["--file", path]
    }
    if words.contains(where: { $0.first == UInt8(ascii: "-") }) { line.append("--") }
    for word in words {
      // A word no quoting writes on one line: no line to copy, then.
      guard let quoted = ShellWord.quoted(word) else { return .none }
      line.append(quoted)
    }
    return .save(commandLine: line.joined(separator: " "))
  }

  /// The commands an unknown `name` may stand for: the one another tool's
  /// word is filenote's name for, else its near misses.
  static func commands(meantBy name: String) -> [String] {
    let lowered = lowercased(name)
    if let other = otherToolsWords.first(where: { $0.word == lowered }) { return [other.ours] }
    return nearMisses(of: name, among: Command.names)
  }

  /// For an unknown option `name` (`--fil`): the long options it is a near
  /// miss of. A one-letter option gets none, every other one being as near,
  /// unless other tools use it for one of filenote's (`-v`).
  static func forOption(_ name: String) -> Suggestion {
    if let other = otherToolsOptions.first(where: { $0.word == name }) {
      return .names([other.ours])
    }
    guard name.hasPrefix("--"), name.utf8.count > 3 else { return .none }
    let near = nearMisses(of: name, among: Option.all.map(\.name))
    return near.isEmpty ? .none : .names(near)
  }

  /// What to try, to end an error's message: `" (see 'filenote --help')"`
  /// when there is nothing better.
  var text: String {
    switch self {
    case .none:
      return " (see 'filenote --help')"
    case .names(let names):
      return ": did you mean " + names.map { "'\($0)'" }.joined(separator: " or ") + "?"
    case .save(let commandLine):
      return "; to save it: " + commandLine
    }
  }

  /// The names `word` is a near miss of, nearest first: the same in
  /// another case, a prefix of only one name (`hist`), or at most one edit
  /// (a letter added, dropped, changed, or two swapped) for every three
  /// letters (`sav`, `shwo`, `histroy`).
  static func nearMisses(of word: String, among names: [String]) -> [String] {
    let typed = Array(lowercased(word).utf8)
    guard !typed.isEmpty else { return [] }
    let prefixed = names.filter { $0.utf8.count > typed.count && $0.utf8.starts(with: typed) }
    let dashes = typed.prefix { $0 == UInt8(ascii: "-") }.count
    if prefixed.count == 1 && typed.count - dashes >= 2 { return prefixed }
    let allowed = max(1, (typed.count - dashes) / 3)
    let distances = names.map { distance(typed, Array($0.utf8)) }
    guard let nearest = distances.min(), nearest <= allowed else { return [] }
    return zip(names, distances).filter { $0.1 == nearest }.map(\.0)
  }

  /// The edits that turn `a` into `b`: letters added, dropped or changed,
  /// and two neighbours swapped (the optimal string alignment distance).
  static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    // Three rows of the table: two back, the last, and this one.
    var twoBack = [Int](repeating: 0, count: b.count + 1)
    var last = Array(0...b.count)
    var row = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      row[0] = i
      for j in 1...b.count {
        let change = a[i - 1] == b[j - 1] ? 0 : 1
        row[j] = min(last[j] + 1, row[j - 1] + 1, last[j - 1] + change)
        if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
          row[j] = min(row[j], twoBack[j - 2] + 1)
        }
      }
      (twoBack, last, row) = (last, row, twoBack)
    }
    return last[b.count]
  }

  /// `text` with its ASCII capitals made small: `SHOW` is a near miss of `show`.
  private static func lowercased(_ text: String) -> String {
    String(
      decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
  }
}
