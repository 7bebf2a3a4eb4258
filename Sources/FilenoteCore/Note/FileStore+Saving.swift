import SystemCalls

// Saving is atomic and durable, in the order swift-foundation's atomic write
// uses, plus what that write leaves out on Linux (seen with strace on
// swift-foundation 6.3: `Data.write(to:options: .atomic)` creates its
// temporary file 0666 minus the umask, so a new note would be 0644 and an
// existing 0640 note becomes 0644; it replaces a symbolic link with a regular
// file; it does not fsync the folder after the rename; and a killed writer's
// `.dat.nosync*` file stays forever), and it writes nothing at all when the
// text is the note already:
//
// 1. follow `datafile.dat` through any symbolic links to the file to replace,
//    one name at a time and only as the kernel's protected_symlinks rule
//    would (`NoteLocation`), and open its folder for reading, which the
//    final fsync needs (a write-only folder fails here, note untouched);
// 2. take the text in (`IncomingNote`): checked as UTF-8 as it comes (past
//    its first MiB, while it matches the note, on a second thread one piece
//    behind the compare, `IncomingNote.Check`), one trailing line ending
//    left out when it comes from a stream, and compared with the note file,
//    read alongside it: while the two match, nothing is written;
// 3. at the first difference (a text longer than the note differs at once),
//    create a temporary file beside the note, exclusively (O_EXCL), mode
//    0600, and lock it, so a later save can tell a dead writer's leftover
//    from a live one; until the rename, SIGINT, SIGTERM and SIGHUP remove
//    it (with versions off, what was kept is removed first, so a disk the
//    versions filled still takes the note). Give it the bytes that matched (copied from the note file when
//    they are no longer in memory: the text was the note's for more than a
//    read), then write the rest of the text to it as it comes, its pages
//    sent to disk every 2 MiB;
// 4. at the end: an empty text, or one that is not UTF-8, is refused; a
//    text that matched the whole note, which did not change while it was
//    read, is the note: the save is done, with no file made, no fsync and
//    no lock taken (the temporary files of killed saves beside it are
//    still removed, as step 3 removes them). (When another program wrote into the note file while a
//    text that is gone from memory matched it, the save is refused:
//    `noteChangedWhileSaving`.) Otherwise, for 1 MiB or more, give the file
//    the note's mode and owner and fsync it now, so other writers do not
//    wait for that;
// 5. holding the writer lock (`WriterLock`): when the note is no longer the
//    file the text was compared with, compare with the note now (one that
//    holds the text already ends the save, nothing written); give the file
//    the note's mode and owner (0600 for a new note) unless step 4 gave it
//    those, fsync it unless step 4 did,
//    keep the note as a version (`VersionWriter.swift`), rename the file
//    over the note, then fsync the folder so the rename is on disk.
//
// The prompt and `edit` save text that is whole in memory and must not
// overwrite a note changed since the user opened it: they check the text
// (step 2's checks), then take the writer lock first, save only when the
// note is still the one they opened (`save(_:ifStill:)`), and do steps 2–5
// under it. On any failure the temporary file is removed and the old note
// is untouched.

extension FileStore {
  /// What `save(_:ifStill:)` found.
  enum SaveOutcome: Equatable, Sendable {
    /// The note holds the text now (it was written, or was the note already).
    case saved
    /// The note on disk is no longer the one expected, so nothing was
    /// written; it is this one now (nil: there is none).
    case changedOnDisk(now: Identity?)
  }

  /// Saves `bytes` as the note; they must be valid UTF-8 and not empty.
  /// When the note holds them already, nothing is written.
  func save(bytes: [UInt8]) throws(FilenoteError) {
    try IncomingNote.Check.check(bytes)
    let incoming = try IncomingNote(for: WritableNote(self))
    do throws(FilenoteError) {
      try incoming.append(contentsOf: bytes)
      try incoming.finish()
      try incoming.commit()
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
    try IncomingNote.Check.check(bytes)
    do {
      return try WritableNote(self).withLock { locked throws(FilenoteError) in
        let current = try locked.currentIdentity()
        guard current == expected else { return .changedOnDisk(now: current) }
        beforeWriting()
        let incoming = try IncomingNote(for: locked.target, holding: locked)
        do throws(FilenoteError) {
          try incoming.append(contentsOf: bytes)
          try incoming.finish()
          try incoming.commit(replacing: locked)
        } catch {
          incoming.discard()
          throw error
        }
        return .saved
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
  func save(streamingFrom input: FileDescriptor) throws(FilenoteError) {
    var incoming: IncomingNote?
    let check = IncomingNote.Check()
    input.growPipeBuffer()
    do throws(FilenoteError) {
      try IncomingNote.read(input, from: .standardInput, checking: check) {
        piece throws(FilenoteError) in
        // Made at the first byte, so that empty input creates no folder.
        if incoming == nil { incoming = try IncomingNote(for: WritableNote(self)) }
        try incoming!.append(piece)
        check.mayCheckBeside = incoming!.isMatchingNote
      }
      try incoming!.finish()
      try incoming!.commit()
    } catch {
      incoming?.discard()
      throw explainingNoSpace(error)
    }
  }
}
