import SystemCalls

// The rows of the command table that work on the kept versions (the man
// page's VERSIONS); `show N` and `clear --all` are in their own rows.

extension Command {
  static let history = Command(
    name: "history", arguments: "",
    summary: "list the kept versions, newest first",
    description: """
      List the kept versions of the note, newest first, one per line.

      Each save and each clear keeps the note it replaces as a version, in the
      folder .NAME.versions beside the note. A line is: the version's number
      (1 is the one the current note replaced, as 'show N', 'restore N' and
      'undo' count), the date and time it was saved, its size in bytes, and its
      first line (control characters shown as stand-ins; cut to the window's
      width on a terminal, else to its first 256 bytes). The fields are separated by spaces and the first
      line follows the size after two spaces, so scripts can cut them.
      With no versions kept, nothing is printed and the exit status is 0.
      FILENOTE_VERSIONS=N keeps N versions (default 100, 0 keeps none).

      With --json, each version is one JSON object on a line of its own, a format
      that stays: {"number":1,"saved":"2026-12-01T09:15:02+01:00",
      "saved_epoch":1796112902,"size":17,"conflict":false,"first_line":"..."},
      the keys in this order; the first line as it is, JSON-escaped, at most 256
      bytes of it. With no versions kept, it prints nothing and says nothing.
      """,
    examples: [
      "filenote history", "filenote history | head -3",
      "filenote history --json | jq -r .first_line",
    ]
  ) { input throws(FilenoteError) in
    try input.expectNoArguments()
    let store = try input.store()
    if input.options.contains(.json) {
      try VersionHistory(store: store.versionStore()).jsonLines().map(Filenote.printOut)
      return .success
    }
    let lines = try VersionHistory(store: store.versionStore()).lines(
      width: FileDescriptor.standardOutput.isTerminal
        ? (try? FileDescriptor.standardOutput.windowSize().columns) : nil)
    guard let lines else {
      Filenote.report("no versions are kept of \(store.path)")
      return .success
    }
    try Filenote.printOut(lines)
    return .success
  }

  static let undo = Command(
    name: "undo", arguments: "",
    summary: "put the previous version back (again to redo)",
    description: """
      Put version 1, the note the current one replaced, back as the note.

      The note it replaces becomes version 1, so a second 'undo' redoes. Like
      every save it is atomic and durable. It says 'Restored version 1.'
      """,
    examples: ["filenote undo"]
  ) { input throws(FilenoteError) in
    try input.expectNoArguments()
    try input.store().restoreVersion(1)
    try Filenote.printOut(Array("Restored version 1.\n".utf8))
    return .success
  }

  static let restore = Command(
    name: "restore", arguments: "N",
    summary: "put version N back",
    description: """
      Put version N (as 'filenote history' numbers it) back as the note.

      The note it replaces becomes version 1. Like every save it is atomic and
      durable. It says 'Restored version N.'
      """,
    examples: ["filenote restore 3", "filenote show 3 && filenote restore 3"]
  ) { input throws(FilenoteError) in
    guard input.words.count == 1 else {
      throw .usage("'restore' takes one version number (see 'filenote history')")
    }
    let number = try input.versionNumber(input.words[0])
    try input.store().restoreVersion(number)
    try Filenote.printOut(Array("Restored version \(number).\n".utf8))
    return .success
  }
}

extension CommandInput {
  /// A version number as typed: digits only, else a usage error.
  func versionNumber(_ word: [UInt8]) throws(FilenoteError) -> Int {
    guard !word.isEmpty, word.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else {
      let text = String(decoding: word, as: UTF8.self).replacingControlCharacters()
      throw .usage(
        "'\(command.name)' takes a version number, not '\(text)' (see 'filenote history')")
    }
    return Int(String(decoding: word, as: UTF8.self)) ?? Int.max
  }
}
