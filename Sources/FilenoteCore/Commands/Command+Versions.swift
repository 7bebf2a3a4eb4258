import SystemCalls
import TerminalSession

// The rows of the command table that work on the kept versions (the man
// page's VERSIONS); `show N` and `clear --all` are in their own rows.

extension Command {
  // swift-format-ignore: OnlyOneTrailingClosureArgument
  static let history = Command(
    name: "history", arguments: "", ownOptions: { [.json] },
    summary: "list the note (0) and its kept versions, newest first",
    description: """
      List the note as 0, then its kept versions, newest first, one a line.

      Each save and each clear keeps the note it replaces as a version, in the
      folder .NAME.versions beside the note. A line is: the number (1 is the
      version the current note replaced, as 'show N', 'restore N', 'forget N'
      and 'undo' count), the date and time its text was saved (a restored
      version keeps its own, so dates need not follow the numbers), its size in
      bytes, and its first line: control characters shown as stand-ins, then
      '↵…' when more lines follow, '…' when it is cut (to the window's width on
      a terminal, else to its first 256 bytes). The first line follows the size
      after two spaces. On a terminal, a header comes first and each line also
      says how long ago its text was saved.
      With no note and no versions, nothing is printed and the exit status is 0.
      FILENOTE_VERSIONS=N keeps N versions (default 100, 0 keeps none).
      A sync engine's conflict copies of the note are listed among them,
      marked [conflict copy, ENGINE, ...] (see 'filenote help resolve').

      With --json, each version is one JSON object on a line of its own, a format
      that stays: {"number":1,"saved":"2026-12-01T09:15:02+01:00",
      "saved_epoch":1796112902,"size":17,"conflict":false,"first_line":"...",
      "engine":null,"origin":null,"unsettled":false}, the keys in this order;
      the first line as it is, JSON-escaped, at most 256 bytes of it. With no
      versions kept, it prints nothing and says nothing.
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
    let output = FileDescriptor.standardOutput
    let width = output.isTerminal ? (try? output.windowSize().columns) : nil
    let lines = try VersionHistory(store: store.versionStore()).lines(
      width: width, now: width.map { _ in LocalTime.secondsSinceEpochNow })
    if width != nil, let notice = try store.versionStore()?.refusedNotice() {
      Filenote.report(notice)
    }
    guard let lines else {
      Filenote.report("no note and no versions are kept in \(store.path)")
      return .success
    }
    try Filenote.printOut(lines)
    return .success
  }

  // swift-format-ignore: OnlyOneTrailingClosureArgument
  static let undo = Command(
    name: "undo", arguments: "", ownOptions: { [] },
    summary: "put the previous version back (again to redo)",
    description: """
      Put version 1, the note the current one replaced, back as the note.

      The note it replaces becomes version 1, so a second 'undo' redoes. Like
      every save it is atomic and durable. It says 'Restored version 1.'
      """,
    examples: ["filenote undo"]
  ) { input throws(FilenoteError) in
    try input.expectNoArguments()
    let store = try input.store()
    do throws(FilenoteError) {
      try refuseUnkept(1, in: store)
      try restored(1, store.restoreVersion(1))
    } catch .noVersion(number: 1, kept: 0, note: _) {
      throw .nothingToUndo(path: store.path)
    }
    return .success
  }

  // swift-format-ignore: OnlyOneTrailingClosureArgument
  static let restore = Command(
    name: "restore", arguments: "N", ownOptions: { [] },
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
    let store = try input.store()
    try refuseUnkept(number, in: store)
    try restored(number, store.restoreVersion(number))
    return .success
  }

  /// Refuses `undo` or `restore N` when version `number` is not kept,
  /// before the writer lock is taken: taking it creates a lock file, which
  /// in a folder that refuses one would be the error instead, and a
  /// command that has nothing to do creates nothing. (Checked again under
  /// the lock.)
  private static func refuseUnkept(_ number: Int, in store: FileStore) throws(FilenoteError) {
    let kept = try store.keptVersionCount()
    guard number >= 1, number <= kept else {
      throw .noVersion(number: number, kept: kept, note: store.path)
    }
  }

  // swift-format-ignore: OnlyOneTrailingClosureArgument
  static let forget = Command(
    name: "forget", arguments: "N", ownOptions: { [.yes] },
    summary: "remove version N for good (a secret saved by mistake)",
    description: """
      Remove version N (as 'filenote history' numbers it) for good.

      For a secret saved by mistake: the version's file is removed (as rm
      removes it, under the writer lock) and no command shows it again; the
      older versions move up one number. On a terminal, filenote shows the
      version's line and asks first, and anything but y or yes keeps it
      (status 1); with --yes, or when standard input is not a terminal, it
      does not ask. 0, the note itself, is not a version: 'filenote clear'
      removes the note (keeping it as version 1). It says 'Forgot version N.'

      'filenote forget FILE', FILE the absolute path of text a prompt could
      not save (the message and the next prompt's hint name it), removes
      that file and its private folder.
      """,
    examples: ["filenote forget 1", "filenote show 2 && filenote forget 2", "filenote forget -y 1"]
  ) { input throws(FilenoteError) in
    guard input.words.count == 1 else {
      throw .usage("'forget' takes one version number (see 'filenote history')")
    }
    // The path of text a prompt kept (see KeptText), as its hint names it.
    if input.words[0].first == UInt8(ascii: "/") {
      let path = String(decoding: input.words[0], as: UTF8.self)
      try KeptText.forget(path)
      try Filenote.printOut(Array("Forgot \(path.replacingControlCharacters()).\n".utf8))
      return .success
    }
    let number = try input.versionNumber(input.words[0])
    let store = try input.store()
    var expected: KeptVersion?
    if !input.options.contains(.yes) && FileDescriptor.standardInput.isTerminal {
      // Asked before any lock is taken; the answer holds for this version
      // only, which is checked again under the lock.
      let (version, line) = try VersionHistory(store: store.versionStore()).line(
        of: number, note: store.path)
      Filenote.printError(line)
      guard
        YesNoQuestion.forget(number).ask(reading: .standardInput, writingTo: .standardError)
          == .yes
      else { throw .notForgotten(number: number) }
      expected = version
    }
    if try store.forgetVersion(number, ifStill: expected) {
      Filenote.report(
        "version \(number)'s file has other hard links, which still hold its text")
    }
    try Filenote.printOut(Array("Forgot version \(number).\n".utf8))
    return .success
  }

  /// What `undo` and `restore N` say: `Restored version N.`, and when it was
  /// a conflict copy, that the conflict is settled.
  private static func restored(_ number: Int, _ outcome: FileStore.Restored) throws(FilenoteError) {
    Filenote.report(outcome.saved)
    var message = "Restored version \(number).\n"
    if outcome.wasConflictCopy {
      message += settledMessage(outcome.settledCopies, after: "It was a conflict copy")
    }
    try Filenote.printOut(Array(message.utf8))
  }

  // swift-format-ignore: OnlyOneTrailingClosureArgument
  static let resolve = Command(
    name: "resolve", arguments: "", ownOptions: { [] },
    summary: "keep the note; take conflict copies into the versions",
    description: """
      Keep the current note, and take the conflict copies beside it into the versions.

      When the note's folder is kept alike on several machines by a sync engine
      (Syncthing, Dropbox, Nextcloud, OneDrive, Unison, rclone bisync), and two
      machines changed the note before seeing each other's change, the engine
      keeps one text as the note and puts the other in a conflict copy beside
      it. 'filenote history' lists such copies among the versions, marked, and
      the prompt, 'edit' and 'show' on a terminal say that they are there.
      'resolve' moves them into the versions folder: they stay listed (still
      marked), 'show N' and 'restore N' still take them, and the warning ends on
      every machine once the engine has synced. Enter in the prompt, a saved
      'edit', and 'restore N' of a conflict copy settle them too; 'save' does
      not. It says how many copies it settled. When the engine left no note at
      all (rclone bisync renames both texts away), the newest copy becomes the
      note, as 'restore N' of it would, and the others are settled.
      """,
    examples: ["filenote history && filenote resolve", "filenote restore 2"]
  ) { input throws(FilenoteError) in
    try input.expectNoArguments()
    let store = try input.store()
    if let number = try store.newestConflictCopyWithoutNote() {
      let outcome = try store.restoreVersion(number)
      Filenote.report(outcome.saved)
      var message = "There was no note: the newest conflict copy, version \(number), is the note.\n"
      if outcome.settledCopies > 0 { message += settledMessage(outcome.settledCopies, after: nil) }
      try Filenote.printOut(Array(message.utf8))
      return .success
    }
    let settled = try store.settleConflictCopies()
    let message =
      settled == 0
      ? "No conflict copies to settle.\n" : settledMessage(settled, after: nil)
    try Filenote.printOut(Array(message.utf8))
    return .success
  }

  /// What `resolve` and `restore N` of a conflict copy say they settled:
  /// `Settled 2 conflict copies: 'filenote history' lists them as versions.`
  private static func settledMessage(_ count: Int, after: String?) -> String {
    let listed = count == 1 ? "lists it as a version" : "lists them as versions"
    guard let after else {
      let copies = count == 1 ? "1 conflict copy" : "\(count) conflict copies"
      return "Settled \(copies): 'filenote history' \(listed).\n"
    }
    guard count > 0 else { return after + ": the conflict is settled.\n" }
    return after + "; settled \(count == 1 ? "the other" : "the \(count) others") too: "
      + "'filenote history' \(listed).\n"
  }
}

extension CommandInput {
  /// A version number as typed: digits only, else a usage error.
  func versionNumber(_ word: [UInt8]) throws(FilenoteError) -> Int {
    guard let number = DecimalNumber.value(of: word) else {
      let text = String(decoding: word, as: UTF8.self)
      throw .usage(
        "'\(command.name)' takes a version number, not '\(text)' (see 'filenote history')")
    }
    return number
  }
}
