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
    // What the user typed is never lost: however the prompt ends without
    // saving, an edited line that holds something the note does not is
    // kept in a private file, and the message names it.
    let opened = note?.bytes ?? []
    session.editInEditor = { text in
      Self.edit(text, opened: opened, on: keys, drawingOn: output, environment: environment)
    }
    let keeping = { [unowned session] (cause: FilenoteError?) -> FilenoteError? in
      Self.keep(session.unsavedEdits, unlessItIs: opened, after: cause, environment: environment)
    }
    session.beforeTermination = { keeping(nil).map(Filenote.report) }

    // The note the user agreed to replace: the one read, or one they
    // confirmed overwriting.
    var expected = note?.identity
    var pendingSubmit = false
    // After a save failed, Ctrl-C too keeps the line: the user may not have
    // had a way to save it.
    var saveFailed = false
    // Up and Ctrl-R reach them, a sync engine's conflict copies first;
    // versions that cannot be read are simply not offered (a save then
    // says what is wrong with their folder).
    let versions = (try? store.versionTexts()) ?? []
    // Enter settles the copies the hint told of (doc/SYNC.md), and only
    // those: one that arrives meanwhile is still shown next time.
    let copies = versions.map(\.version).filter(\.isUnsettledCopy)
    var settling: FilenoteError?
    func settle() {
      guard !copies.isEmpty else { return }
      do { try store.settleConflictCopies(copies) } catch { settling = error }
    }
    func finish(saying message: String) {
      session.finish(saying: message)
      if let settling { Filenote.report(settling) }
    }
    var ending: EditingSession.LineEnding
    do {
      // The note is not also kept as a String: "unchanged" compares bytes.
      ending = try session.readLine(
        text: note?.text ?? "",
        hints: [hint(versionsKept: !versions.isEmpty, conflictCopies: copies)]
          + versions.map(hint),
        dimmed: (environment["NO_COLOR"] ?? "").isEmpty, versions: versions.map(\.text))
    } catch {
      session.finish(saying: nil)
      throw keeping(.terminal(error)) ?? .terminal(error)
    }
    while true {
      switch ending {
      case .cancelled:
        session.finish(saying: "Cancelled: nothing was saved.")
        if saveFailed, let kept = keeping(nil) { Filenote.report(kept) }
        return .cancelled
      case .endOfInput:
        // Ctrl-D on an empty line, or the terminal went away.
        session.finish(saying: "Cancelled: nothing was saved.")
        if let kept = keeping(nil) { throw kept }
        return .failure
      case .submitted(let line):
        // Saved as `save` and `edit` save: one trailing line ending (a paste
        // that ended in a newline) is dropped, unless the note opened ended
        // in one itself, which then stays, as `edit` keeps it (its file is
        // the note with a line ending after it).
        let text =
          TrailingLineEnding.length(in: opened) > 0 ? line : TrailingLineEnding.dropped(from: line)
        // Bytes, not String ==, which calls "é" and "e\u{301}" equal.
        let unchanged = line == opened || text == opened
        if unchanged && note == nil {
          settle()
          finish(saying: "Nothing changed.")
          return .success
        }
        if unchanged && expected != nil {
          // Nothing to write, so no lock (the folder may be read-only).
          // Another writer's note stays; a note that vanished is a change
          // on disk: asked about, and "y" saves it back.
          let current: FileStore.Identity?
          do { current = try store.currentIdentity() } catch {
            session.finish(saying: nil)
            throw error
          }
          if current != nil {
            settle()
            finish(saying: "Nothing changed.")
            return .success
          }
          if session.confirm(.overwrite(replacing: nil, of: store)) {
            expected = nil
            pendingSubmit = true
          } else {
            offerWhatIsOnDisk(in: session)
          }
        } else {
          // Saved only when the note is still the one agreed to (the check
          // under the writer lock); never asking while holding it.
          var finished = false
          let outcome = Result { () throws(FilenoteError) -> FileStore.SaveOutcome in
            try store.save(text, ifStill: expected) {
              session.finish(saying: nil)
              finished = true
            }
          }
          switch outcome {
          case .success(.saved):
            session.say("Saved.")
            settle()
            if let settling { Filenote.report(settling) }
            return .success
          case .success(.changedOnDisk(let current)):
            // Asked again at every Enter while the file differs from what was
            // agreed to: "y" agrees to replace the version the check found.
            if session.confirm(.overwrite(replacing: current, of: store)) {
              expected = current
              pendingSubmit = true
            } else {
              offerWhatIsOnDisk(in: session)
            }
          case .failure(.emptyInput):
            // A line emptied by hand is refused (by the save's check) and
            // ends the prompt: there is nothing to keep or fix.
            if !finished { session.finish(saying: nil) }
            throw .emptyInput
          case .failure(let error):
            // The line stays, below the reason: the user may fix the cause
            // (a folder's permissions, a full disk) and press Enter again.
            if !finished { session.finish(saying: nil) }
            session.say("Not saved: \(error.message).")
            // A terminal that cannot be raw again: the prompt cannot stay.
            let failure = error
            do { try session.reopen() } catch { throw keeping(failure) ?? failure }
            saveFailed = true
          }
        }
      }
      if pendingSubmit {
        pendingSubmit = false
        continue  // the same text, checked again under the lock
      }
      do {
        ending = try session.readLineAgain()
      } catch {
        session.finish(saying: nil)
        throw keeping(.terminal(error)) ?? .terminal(error)
      }
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
    texts += versions.map(\.text)
    hints += versions.map(hint)
    // The copies stay as the hint told of them: Enter settles those alone.
    let copies = versions.map(\.version).filter(\.isUnsettledCopy)
    session.replaceVersions(
      texts, hints: [hint(versionsKept: !texts.isEmpty, conflictCopies: copies)] + hints)
  }

  /// The error to report when the prompt ends without saving `line` (what
  /// the user typed, nil when nothing): when it holds text the note it
  /// opened with (`opened`) does not, it is kept in a private file the
  /// error names (see `PrivateTextFile.keep`), after `cause`; otherwise
  /// `cause` alone.
  private static func keep(
    _ line: [UInt8]?, unlessItIs opened: [UInt8], after cause: FilenoteError?,
    environment: Environment
  ) -> FilenoteError? {
    guard let line, PrivateTextFile.needsKeeping(line, opened: opened) else { return cause }
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
      return .kept(because: "Line kept: \(error.message).")
    }
    defer { handOff.finish(keeping: false) }
    if let failure = handOff.runEditor(on: terminal, drawingOn: output) {
      return .kept(because: "Line kept: \(failure).")
    }
    let bytes: [UInt8]
    do { bytes = try handOff.text() } catch {
      return .kept(because: "Line kept: \(error.message).")
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
  private func hint(versionsKept: Bool, conflictCopies copies: [KeptVersion]) -> Hint {
    var path = store.path
    if let home = environment["HOME"], home.count > 1, path.hasPrefix(home + "/") {
      path = "~" + path.dropFirst(home.count)
    }
    return Hint(
      subject: path.replacingControlCharacters(),
      details: ["Enter saves", "Ctrl-C cancels"] + (versionsKept ? ["Up/Ctrl-R: versions"] : [])
        + ["Ctrl-X Ctrl-E: editor"],
      alert: copies.isEmpty ? [] : ConflictNotice(copies: copies).hintForms)
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

  /// `YYYY-MM-DD HH:MM` in local time.
  private static func minute(_ seconds: Int64) -> String {
    String(LocalTime(secondsSinceEpoch: seconds).text.prefix(16))
  }
}
