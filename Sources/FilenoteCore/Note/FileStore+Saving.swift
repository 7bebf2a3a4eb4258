import SystemCalls

// Saving is atomic and durable, in the order swift-foundation's atomic write
// uses, plus what that write leaves out on Linux (seen with strace on
// swift-foundation 6.3: `Data.write(to:options: .atomic)` creates its
// temporary file 0666 minus the umask, so a new note would be 0644 and an
// existing 0640 note becomes 0644; it replaces a symbolic link with a regular
// file; it does not fsync the folder after the rename; and a killed writer's
// `.dat.nosync*` file stays forever), and it writes nothing at all when the
// text is the note already. Before the writer lock:
//
// 1. follow `datafile.dat` through any symbolic links to the file to replace,
//    one name at a time and only as the kernel's protected_symlinks rule
//    would (`NoteLocation`), and open its folder for reading, which the
//    final fsync needs (a write-only folder fails here, note untouched);
// 2. take the text in (`IncomingText`): checked as UTF-8 as it comes (past
//    its first MiB, while it matches the note, on a second thread one piece
//    behind the compare, `IncomingText.Check`), one trailing line ending
//    left out when it comes from a stream, and compared with the note file,
//    read alongside it: while the two match, nothing is written;
// 3. at the first difference (a text longer than the note differs at once),
//    create a temporary file beside the note, exclusively (O_EXCL), mode
//    0600, and lock it, so a later save can tell a dead writer's leftover
//    from a live one; until the rename, SIGINT, SIGTERM and SIGHUP remove
//    it. Give it the bytes that matched (copied from the note file when
//    they are no longer in memory: the text was the note's for more than a
//    read), then write the rest of the text to it as it comes, its pages
//    sent to disk every 2 MiB;
// 4. at the end: an empty text, or one that is not UTF-8, is refused; a
//    text that matched the whole note, which did not change while it was
//    read, is the note: the save is done, with no file made, no fsync and
//    no lock taken (the temporary files of killed saves beside it are
//    still removed, as step 3 removes them). (When another program wrote
//    into the note file while a text that is gone from memory matched it,
//    the save is refused: `noteChangedWhileSaving`.) Otherwise, for 1 MiB
//    or more, give the file the note's mode and owner and fsync it now, so
//    other writers do not wait for that;
//
// then, holding the writer lock (`WriterLock`), the steps every change of
// the note makes, written once in `LockedTarget+Replacing.swift`: check the
// note is still replaceable, keep the version, make the new file and the
// versions folder durable, rename, make the folder durable, prune.
//
// The prompt and `edit` save text that is whole in memory and must not
// overwrite a note changed since the user opened it: they check the text
// (step 2's checks), then take the writer lock first, save only when the
// note is still the one they opened (`save(_:ifStill:)`), and do steps 2–4
// under it. On any failure the temporary file is removed and the old note
// is untouched.

extension FileStore {
  /// What a save did that the user is told of. Storage never prints: the
  /// command that saved says these (`notices(onTerminal:)`).
  struct Saved: Equatable, Sendable {
    /// Set when the save created the note on a file system that shows it
    /// open to others (it cannot store 0600): `noteNotPrivate`.
    var notPrivate: FilenoteError?
    /// Set when the save removed more than the one version a save pushes
    /// out, because `FILENOTE_VERSIONS` keeps fewer than were kept:
    /// `versionsPruned`, said on a terminal only.
    var pruned: FilenoteError?

    init() {}

    init(_ replacement: LockedTarget.Replacement, of note: WriteTarget) {
      if let mode = replacement.openMode {
        notPrivate = .noteNotPrivate(folder: note.location.folderPath, permissions: mode)
      }
      if replacement.pruned > 1 {
        pruned = .versionsPruned(removed: replacement.pruned, kept: note.versionCount)
      }
    }

    /// What to tell the user, in order; the pruning only on a terminal
    /// (`onTerminal`: standard error is one), where a person reads it.
    func notices(onTerminal: Bool) -> [FilenoteError] {
      var notices: [FilenoteError] = []
      if let notPrivate { notices.append(notPrivate) }
      if onTerminal, let pruned { notices.append(pruned) }
      return notices
    }
  }

  /// What `save(_:ifStill:)` found.
  enum SaveOutcome: Equatable, Sendable {
    /// The note holds the text now (it was written, or was the note already).
    case saved(Saved)
    /// The note on disk is no longer the one expected, so nothing was
    /// written; it is this one now (nil: there is none).
    case changedOnDisk(now: Identity?)
  }

  /// Saves `bytes` as the note; they must be valid UTF-8 and not empty.
  /// When the note holds them already, nothing is written.
  @discardableResult
  func save(bytes: [UInt8]) throws(FilenoteError) -> Saved {
    try IncomingText.Check.check(bytes)
    let note = try WriteTarget(self)
    let incoming = IncomingText(for: note, status: note.statusAtWalk)
    do throws(FilenoteError) {
      try incoming.append(contentsOf: bytes)
      return try Self.replace(note, with: incoming.end())
    } catch {
      incoming.discard()
      throw explainingNoSpace(error)
    }
  }

  /// Saves `bytes` (valid UTF-8, not empty) when the note on disk is still
  /// `expected` (nil: no note), the one the user opened; otherwise writes
  /// nothing and says what the note is now. The check and the save are made
  /// under the writer lock, so a writer that saved in between is always
  /// seen. `beforeWriting` runs once the check has passed, before anything
  /// is written (the prompt gives the terminal back there).
  func save(
    _ bytes: [UInt8], ifStill expected: Identity?, beforeWriting: () -> Void = {}
  ) throws(FilenoteError) -> SaveOutcome {
    try IncomingText.Check.check(bytes)
    do {
      return try WriteTarget(self).withLock { locked throws(FilenoteError) in
        guard locked.identity == expected else { return .changedOnDisk(now: locked.identity) }
        beforeWriting()
        let incoming = IncomingText(for: locked.target, status: locked.status)
        do throws(FilenoteError) {
          try incoming.append(contentsOf: bytes)
          guard let successor = try incoming.end() else { return .saved(Saved()) }
          return .saved(Saved(try locked.replace(with: successor), of: locked.target))
        } catch {
          incoming.discard()
          throw error
        }
      }
    } catch {
      throw explainingNoSpace(error)
    }
  }

  /// Saves what `input` delivers until end of file, streaming: memory does
  /// not grow with the input. Exactly one trailing line ending ("\n" or
  /// "\r\n") is removed. Input that is empty after that, or not UTF-8, is
  /// refused and the note is left as it was; input that is the note
  /// already writes nothing.
  @discardableResult
  func save(streamingFrom input: FileDescriptor) throws(FilenoteError) -> Saved {
    var incoming: IncomingText?
    let check = IncomingText.Check()
    input.growPipeBuffer()
    // From a regular file, the text's length is known before it is read:
    // its bytes from here, less at most a line ending of two.
    var possibleCounts: ClosedRange<Int64>?
    if let info = try? input.status(), info.kind == .regular,
      let position = try? input.position(), position <= info.size
    {
      possibleCounts = max(0, info.size - position - 2)...(info.size - position)
    }
    do throws(FilenoteError) {
      try IncomingText.read(input, from: .standardInput, checking: check) {
        piece throws(FilenoteError) in
        // Made at the first byte, so that empty input creates no folder.
        if incoming == nil {
          let note = try WriteTarget(self)
          incoming = IncomingText(for: note, status: note.statusAtWalk)
          incoming!.possibleCounts = possibleCounts
        }
        try incoming!.append(piece)
        check.mayCheckBeside = incoming!.isMatchingNote
      }
      return try Self.replace(incoming!.note, with: incoming!.end())
    } catch {
      incoming?.discard()
      throw explainingNoSpace(error)
    }
  }

  /// The end of a save that compared its text before taking the writer
  /// lock: the note replaced under it, unless its text is the note already.
  private static func replace(
    _ note: WriteTarget, with successor: LockedTarget.Successor?
  ) throws(FilenoteError) -> Saved {
    guard let successor else { return Saved() }
    return try note.withLock { locked throws(FilenoteError) in
      Saved(try locked.replace(with: successor), of: note)
    }
  }
}
