import LineEditor
import SystemCalls
import TerminalSession

/// The prompt on a terminal that can move its cursor: read the note, edit it
/// in an `EditingSession`, check that nobody changed it meanwhile, save.
struct EditingPrompt {
  let store: FileStore
  let environment: Environment
  /// Where the prompt draws (see `Prompt.openTerminal()`); keys come from
  /// standard input.
  let terminal: FileDescriptor

  func run() throws(FilenoteError) -> ExitCode {
    // Read first: a note that is not UTF-8 is refused before the terminal changes.
    let note = try store.read()
    let opened = note?.bytes ?? []
    let session = try openSession(opened: opened)
    // Up and Ctrl-R reach them, a sync engine's conflict copies first;
    // versions that cannot be read are simply not offered (a save then
    // says what is wrong with their folder).
    let versions = (try? store.versionTexts()) ?? []
    // Enter settles the copies the hint told of, and only those: one that
    // arrives meanwhile is still shown next time.
    let copies = versions.map(\.version).filter(\.isUnsettledCopy)
    // What an earlier prompt could not save comes first under Up.
    let kept = KeptText.find(in: environment)
    let saving = CheckedSave(store: store, copies: copies, say: session.say)
    // The note the user agreed to replace: the one read, or one they
    // confirmed overwriting.
    var expected = note?.identity
    // After a save failed, Ctrl-C too keeps the line: the user may not have
    // had a way to save it.
    var saveFailed = false
    // The note is not also kept as a String: "unchanged" compares bytes.
    var ending = try reading(in: session, opened: opened) { () throws(TerminalError) in
      try session.readLine(
        text: note?.text ?? "",
        hints: [
          hint(
            versionsKept: !versions.isEmpty, conflictCopies: copies, kept: kept.count,
            mergeMarkers: MergeMarkers.found(in: opened), in: session)
        ] + kept.map(hint) + versions.map(hint),
        dimmed: (environment["NO_COLOR"] ?? "").isEmpty,
        versions: kept.map(\.text) + versions.map(\.text))
    }
    while true {
      switch ending {
      case .cancelled:
        session.finish(saying: "Cancelled: nothing was saved.")
        if saveFailed, let kept = Self.keep(session, opened: opened, after: nil, environment) {
          Filenote.report(kept)
        }
        return .cancelled
      case .endOfInput:
        // Ctrl-D on an empty line, or the terminal went away.
        session.finish(saying: "Cancelled: nothing was saved.")
        if let kept = Self.keep(session, opened: opened, after: nil, environment) { throw kept }
        return .failure
      case .submitted(let line):
        var warning: Hint?
        switch try enter(line, opened: note, in: session, saving: saving, over: &expected) {
        case .ended(let status): return status
        case .editingOn: break
        case .editingOnAfterFailure: saveFailed = true
        case .emptied:
          warning = hint(versionsKept: !versions.isEmpty, conflictCopies: [], in: session)
          warning?.alert = Self.emptied
        }
        ending = try reading(in: session, opened: opened) { () throws(TerminalError) in
          try session.readLineAgain(warning: warning)
        }
      }
    }
  }

  /// Why Enter on a line emptied by hand saved nothing, and how to remove
  /// the note on purpose: the hint's alert, longest form first.
  private static let emptied = [
    "Not saved: a note cannot be empty ('filenote clear' removes it)",
    "Not saved: a note cannot be empty", "Not saved: empty",
  ]

  /// What Enter led to.
  private enum AfterEnter {
    /// The prompt is over, with this status.
    case ended(ExitCode)
    /// The line is edited on (the user answered no to overwriting).
    case editingOn
    /// The line is edited on, below the reason the save failed.
    case editingOnAfterFailure
    /// The line was emptied by hand: nothing to save, and it is edited on.
    case emptied
  }

  /// Enter on `line`: saved as `save` and `edit` save, over the note as it
  /// was `opened` (or as the user agreed to replace it since: `expected`).
  private func enter(
    _ line: [UInt8], opened note: FileStore.Contents?, in session: EditingSession,
    saving: CheckedSave, over expected: inout FileStore.Identity?
  ) throws(FilenoteError) -> AfterEnter {
    let opened = note?.bytes ?? []
    // One trailing line ending (a paste that ended in a newline) is
    // dropped, unless the note opened ended in one itself, which then
    // stays, as `edit` keeps it (its file is the note with a line ending
    // after it).
    let text =
      TrailingLineEnding.length(in: opened) > 0 ? line : TrailingLineEnding.dropped(from: line)
    // Bytes, not String ==, which calls "é" and "e\u{301}" equal.
    if line == opened || text == opened, expected != nil || note == nil {
      // Nothing to write, so no lock (the folder may be read-only).
      // Another writer's note stays; a note that vanished is a change
      // on disk: asked about, and "y" saves it back.
      let current: FileStore.Identity?
      do { current = note == nil ? nil : try store.currentIdentity() } catch {
        session.finish(saying: nil)
        throw error
      }
      if note == nil || current != nil {
        session.finish(saying: "Nothing changed.")
        saving.settle()
        forgetKept(line, text)
        return .ended(.success)
      }
      guard session.confirm(.overwrite(replacing: nil, of: store)) else {
        offerWhatIsOnDisk(in: session)
        return .editingOn
      }
      expected = nil
    }
    do {
      // Asked again at every Enter while the file differs from what was
      // agreed to: "y" agrees to replace the version the check found.
      let outcome = try saving.save(
        text, over: &expected, asking: { session.confirm($0) ? .yes : .no },
        beforeWriting: { session.finish(saying: nil) })
      guard outcome == .saved else {
        offerWhatIsOnDisk(in: session)
        return .editingOn
      }
      forgetKept(line, text)
      return .ended(.success)
    } catch .emptyInput {
      // A line emptied by hand is refused (by the save's check, before
      // anything is written): the prompt stays, saying why.
      return .emptied
    } catch {
      // The line stays, below the reason: the user may fix the cause
      // (a folder's permissions, a full disk) and press Enter again.
      session.finish(saying: "Not saved: \(error.message.replacingControlCharacters()).")
      // A terminal that cannot be raw again: the prompt cannot stay.
      let failure = error
      do { try session.reopen() } catch {
        throw Self.keep(session, opened: opened, after: failure, environment) ?? failure
      }
      return .editingOnAfterFailure
    }
  }

  /// The editing session on the terminal, with Ctrl-X Ctrl-E bound to the
  /// user's editor. What the user typed is never lost: however the prompt
  /// ends without saving, an edited line that holds something the note as
  /// it was `opened` does not is kept in a private file the message names.
  private func openSession(opened: [UInt8]) throws(FilenoteError) -> EditingSession {
    let session: EditingSession
    do {
      session = try EditingSession(
        input: .standardInput, output: terminal, configuration: InputrcFile.read(environment))
    } catch {
      throw .terminal(error)
    }
    let environment = environment
    let keys = session.terminalDescriptor
    let output = terminal
    session.editInEditor = { text in
      Self.edit(text, opened: opened, on: keys, drawingOn: output, environment: environment)
    }
    session.beforeTermination = { [unowned session] in
      Self.keep(session, opened: opened, after: nil, environment).map(Filenote.report)
    }
    return session
  }

  /// Reads keys with `read`; when the terminal fails, the prompt ends,
  /// keeping what the user typed (see `keep`).
  private func reading(
    in session: EditingSession, opened: [UInt8],
    _ read: () throws(TerminalError) -> EditingSession.LineEnding
  ) throws(FilenoteError) -> EditingSession.LineEnding {
    do {
      return try read()
    } catch {
      session.finish(saying: nil)
      throw Self.keep(session, opened: opened, after: .terminal(error), environment)
        ?? .terminal(error)
    }
  }

  /// After the user answered no to overwriting the note changed on disk:
  /// Up reaches that note now, then the versions as they are now (the note
  /// the prompt opened with among them, when the other save kept it).
  private func offerWhatIsOnDisk(in session: EditingSession) {
    let onDisk = (try? store.read()) ?? nil
    let versions = (try? store.versionTexts()) ?? []
    var texts: [String] = []
    var hints: [Hint] = []
    if let onDisk {
      texts.append(onDisk.text)
      hints.append(
        Hint(
          subject: "the note on disk",
          details: [
            Self.minute(onDisk.identity.modified.seconds), "Enter saves it", "Down: newer",
            "Ctrl-C cancels",
          ]))
    }
    let kept = KeptText.find(in: environment)
    texts += kept.map(\.text) + versions.map(\.text)
    hints += kept.map(hint) + versions.map(hint)
    // The copies stay as the hint told of them: Enter settles those alone.
    let copies = versions.map(\.version).filter(\.isUnsettledCopy)
    session.replaceVersions(
      texts,
      hints: [
        hint(
          versionsKept: !texts.isEmpty, conflictCopies: copies, kept: kept.count,
          mergeMarkers: onDisk.map { MergeMarkers.found(in: $0.bytes) } ?? false, in: session)
      ]
        + hints)
  }

  /// Once the note holds `line` (as typed, or as saved: `text`), the kept
  /// texts that hold it are no longer needed: saving one removes its file.
  private func forgetKept(_ line: [UInt8], _ text: [UInt8]) {
    for kept in KeptText.find(in: environment) where kept.bytes == line || kept.bytes == text {
      kept.remove()
    }
  }

  /// The error to report when the prompt ends without saving what the
  /// user typed in `session`: when that holds text the note it opened with
  /// (`opened`) does not, it is kept in a private file the error names (see
  /// `PrivateTextFile.keep`), after `cause`; otherwise `cause` alone.
  private static func keep(
    _ session: EditingSession, opened: [UInt8], after cause: FilenoteError?,
    _ environment: Environment
  ) -> FilenoteError? {
    guard let line = session.unsavedEdits, PrivateTextFile.needsKeeping(line, opened: opened)
    else { return cause }
    return PrivateTextFile.keep(line, after: cause, environment: environment)
  }

  /// Ctrl-X Ctrl-E: the line in the user's editor (see `EditorHandOff`);
  /// its text when it exits 0 and that is UTF-8, else why the line stays.
  /// A signal that ends filenote meanwhile keeps the editor's file unless
  /// it holds the note as it was `opened`.
  private static func edit(
    _ text: String, opened: [UInt8], on terminal: FileDescriptor,
    drawingOn output: FileDescriptor, environment: Environment
  ) -> LineHandOff {
    let handOff: EditorHandOff
    do {
      handOff = try EditorHandOff(
        Array(text.utf8), keepingOnSignalUnless: opened, environment: environment)
    } catch {
      return .kept(because: "Line kept: \(error.message.replacingControlCharacters()).")
    }
    defer { handOff.finish(keeping: false) }
    if let failure = handOff.runEditor(on: terminal, drawingOn: output) {
      return .kept(because: "Line kept: \(failure).")
    }
    let bytes: [UInt8]
    do { bytes = try handOff.text() } catch {
      return .kept(because: "Line kept: \(error.message.replacingControlCharacters()).")
    }
    if let offset = UTF8Validator.firstInvalidOffset(in: bytes) {
      return .kept(
        because:
          "Line kept: the editor's text is not valid UTF-8 (first bad byte at offset \(offset)).")
    }
    return .replaced(String(decoding: bytes, as: UTF8.self))
  }

  /// The line above the prompt: how many conflict copies a sync engine
  /// left beside the note and that Up reaches them (first, at every width:
  /// an alert), where the note is, how to save and cancel, then the keys
  /// that reach the versions (when some are kept) and the editor, as the
  /// width allows (see `Hint`).
  private func hint(
    versionsKept: Bool, conflictCopies copies: [KeptVersion], kept: Int = 0,
    mergeMarkers: Bool = false, in session: EditingSession
  ) -> Hint {
    let alert: [String]
    if !copies.isEmpty {
      alert = ConflictNotice(copies: copies).hintForms.map {
        mergeMarkers ? $0 + ", merge markers" : $0
      }
    } else {
      alert = mergeMarkers ? MergeMarkers.hintForms : Self.keptNotice(kept)
    }
    return Hint(
      subject: displayed(store.path),
      details: ["Enter saves", "Ctrl-C cancels"] + (versionsKept ? ["Up/Ctrl-R: versions"] : [])
        + [Self.editorKey(in: session)],
      alert: alert)
  }

  /// How the hint names the key to the editor: in vi mode `v` of command
  /// mode, since in its insert mode Ctrl-X types itself, as readline's does.
  private static func editorKey(in session: EditingSession) -> String {
    session.configuration.editingMode == .vi ? "Esc v: editor" : "Ctrl-X Ctrl-E: editor"
  }

  /// The line above a version recalled with Up or Ctrl-R: which one (a
  /// conflict copy says so, and where it came from), and when its text was
  /// saved, as `history` names it (to the minute).
  private func hint(_ version: FileStore.VersionText) -> Hint {
    var subject = "version \(version.number)"
    if let conflict = version.version.conflict {
      subject =
        (version.version.isUnsettledCopy ? "conflict copy " : "settled conflict copy ")
        + "\(version.number) (\(conflict.source.replacingControlCharacters()))"
    }
    return Hint(
      subject: subject,
      details: [Self.minute(version.saved), "Enter saves it", "Down: newer", "Ctrl-C cancels"])
  }

  /// `path` as a hint shows it: `~` for the home folder, control
  /// characters as stand-ins.
  private func displayed(_ path: String) -> String {
    var path = path
    if let home = environment["HOME"], home.count > 1, path.hasPrefix(home + "/") {
      path = "~" + path.dropFirst(home.count)
    }
    return path.replacingControlCharacters()
  }

  /// The hint's alert when `count` texts an earlier prompt could not save
  /// are kept (see `KeptText`), longest form first; none when there are none.
  private static func keptNotice(_ count: Int) -> [String] {
    switch count {
    case 0: return []
    case 1:
      return [
        "Unsaved text kept from an earlier prompt: Up shows it",
        "Unsaved text kept: Up shows it", "Unsaved text: Up",
      ]
    default:
      return [
        "\(count) unsaved texts kept from earlier prompts: Up shows them",
        "\(count) unsaved texts kept: Up", "\(count) unsaved: Up",
      ]
    }
  }

  /// The line above a kept text recalled with Up or Ctrl-R: where it is
  /// (the name `filenote forget` takes), when it was kept, and the keys.
  private func hint(_ kept: KeptText) -> Hint {
    Hint(
      subject: "unsaved text in " + displayed(kept.path),
      details: [
        Self.minute(kept.modified), "Enter saves it", "Down: newer",
        "'filenote forget PATH' removes it", "Ctrl-C cancels",
      ])
  }

  /// `YYYY-MM-DD HH:MM` in local time.
  private static func minute(_ seconds: Int64) -> String {
    String(LocalTime(secondsSinceEpoch: seconds).text.prefix(16))
  }
}
