import SystemCalls

// Every change of the note, written once: a save (the prompt, `save`,
// `edit`), `undo` and `restore`, and `clear` all go through `replace(with:)`
// under the writer lock, and it runs these steps in this order, which
// doc/DESIGN.md ("Saving", "Versions") lists in the same words:
//
// 1. check the note is still replaceable: a regular file nobody else
//    planted (or none), as the lock found it (`LockedTarget.status`, the one
//    look at the note under the lock); a save whose text was compared with
//    another file (a writer replaced it since) compares it with this one,
//    and one that holds the text already ends the save, nothing written;
// 2. keep the version: the note as a hard link (or a copy) in the versions
//    folder (`VersionWriter.keepNote`; nothing when a save linked it there
//    already, below), unless versions are off (`FILENOTE_VERSIONS=0`) or
//    `save --no-version` (which keeps nothing of this note, not even a
//    version a killed writer made of it);
// 3. make the new file and the versions folder durable: the new file gets
//    the note's mode and owner (0600 for a new note) and is fsynced (a
//    large one was before the lock: `IncomingText.end`); then a save's new
//    file gets a name of its own in the versions folder, a hard link
//    (`VersionWriter.keepNewNote`: only once its bytes are on disk, or a
//    power cut could leave that name on a torn file); then the versions
//    folder, and its parent when it is new, are fsynced, so the version's
//    name and the new file's are on disk before the note is replaced;
// 4. rename the new file over the note (`restore N`: version N's own file,
//    through a second name beside the note; `clear`: remove the note);
// 5. make the folder durable: fsync the note's folder, so the rename is on
//    disk (`restore N` keeps version N's name: the restored text's own);
// 6. prune: the kept version made owner-only, and the oldest versions past
//    the count and the size limit removed (`VersionWriter.prune`).
//
// A failure before step 4 takes the version back (a command that fails
// changes nothing) and leaves the note as it was.
//
// One rule for every fsync here and in the versions: a file's is
// `FileDescriptor.sync()`, and fails the step; a folder's is
// `syncEntries()` (which passes over a file system that cannot sync
// folders), and fails the step before the rename, but not after it (step
// 5: the change has happened, and is what the command reports).

extension LockedTarget {
  /// What takes the note's place.
  enum Successor {
    /// A save's new file beside the note, whose text was compared with the
    /// note file `compared` (nil: there was none).
    case file(TemporaryNoteFile, compared: FileStatus?)
    /// `restore N`: version N's own file; `bytes`, its text, are saved
    /// instead where the file cannot have a second name beside the note.
    case version(KeptVersion, bytes: [UInt8])
    /// `clear`: nothing; the note is removed.
    case nothing
  }

  /// Which versions a change keeps and prunes.
  enum Versions {
    /// As the store says: `FILENOTE_VERSIONS` and `save --no-version`.
    case asSet
    /// As the store says, with this writer, which the caller opened (and closes).
    case opened(VersionWriter)
    /// None kept, none pruned (`clear --all` removes them itself).
    case untouched
  }

  /// What `replace(with:)` did, for the command to tell.
  struct Replacement {
    /// False when nothing changed: the note held the text already, or
    /// there was none to remove.
    var changed = false
    /// The mode the new note shows, open to others, when its file system
    /// could not give it 0600 (see `TemporaryNoteFile.makeDurable`).
    var openMode: UInt32?
    /// The versions pruned past `FILENOTE_VERSIONS` (see `VersionWriter.prune`).
    var pruned = 0
    /// The new file renamed over the note, whose held signals step 5 lets go.
    fileprivate var renamed: TemporaryNoteFile?
  }

  /// Replaces the note with `successor` (or removes it), keeping it as a
  /// version as `versions` says: steps 1–6 above.
  @discardableResult
  func replace(
    with successor: Successor, versions: Versions = .asSet
  ) throws(FilenoteError) -> Replacement {
    var replacement = Replacement()
    let note = try replaceableStatus()
    if holdsText(of: successor, note: note) { return replacement }
    let writer = try keepVersion(of: note, versions: versions, for: successor)
    let ownsWriter: Bool
    if case .opened = versions { ownsWriter = false } else { ownsWriter = true }
    defer { if ownsWriter { writer?.close() } }
    do throws(FilenoteError) {
      replacement.openMode = try makeDurable(successor, note: note, versions: writer)
      try rename(successor, note: note, versions: writer, into: &replacement)
    } catch {
      writer?.abandon()
      throw error
    }
    guard replacement.changed else { return replacement }
    makeFolderDurable(after: replacement.renamed)
    // `restore N` that moved version N's file over the note keeps its name
    // in the versions folder: the restored text's own name there, as a
    // save's new file gets one, so no engine's conflict can lose it
    // (doc/SYNC.md). The save that replaces it keeps it under a new name
    // (`VersionWriter.keepNote`). Copied (another file system), the name
    // goes: the note is another file.
    if case .version(let version, _) = successor, version.place == .versions,
      replacement.renamed != nil
    {
      writer?.removeName(of: version)
    }
    if let writer, writer.store.count > 0 {
      // The restored text's own name (above) is the note's file, no version.
      var restored: FileStatus?
      if case .version = successor, replacement.renamed == nil {
        restored = try? folder.status(of: name)
      }
      replacement.pruned = writer.prune(note: restored)
    }
    return replacement
  }

  /// Step 1's second half (the first is `replaceableStatus()`): whether a
  /// save's text, compared with a note file another writer has replaced
  /// since, is the note `note` already. Then its new file is removed.
  private func holdsText(of successor: Successor, note: FileStatus?) -> Bool {
    guard case .file(let file, let compared) = successor, let note,
      compared.map(FileStore.Identity.init) != FileStore.Identity(note),
      file.hasSameBytes(asNoteOf: self)
    else { return false }
    file.discard()
    return true
  }

  /// Step 2: the writer that kept the note (and prunes at step 6), or nil.
  private func keepVersion(
    of note: FileStatus?, versions: Versions, for successor: Successor
  ) throws(FilenoteError) -> VersionWriter? {
    let store = versionStore()
    switch versions {
    case .untouched:
      return nil
    case .opened(let writer):
      guard store.count > 0 else { return writer }
      var sameSize: (folder: FileDescriptor, name: String, size: Int64)?
      if case .version(let version, let bytes) = successor {
        let file = writer.file(of: version)
        sameSize = (file.folder, file.name, Int64(bytes.count))
      }
      do { try writer.keepNote(note, replacedBy: sameSize) } catch {
        writer.abandon()
        throw error
      }
      return writer
    case .asSet:
      guard store.count > 0 else { return nil }
      // A save's new file gets a name of its own there (step 3), so the
      // folder is made for it; otherwise only when there is a note to keep.
      var isSave = false
      if case .file = successor { isSave = true }
      guard target.keepsReplacedNote else {
        // `save --no-version`: nothing of the replaced note stays, not even
        // its own name there or the version a writer killed before its
        // rename made of this very file, which listings leave out only
        // while it is the note. The new text is kept as any save's.
        let writer = try? VersionWriter.open(store, creating: isSave)
        if let note, let writer {
          for version in writer.entries where version.isFile(note) {
            writer.removeName(of: version)
          }
        }
        if isSave { return writer }
        writer?.close()
        return nil
      }
      guard
        let writer = try VersionWriter.open(
          store, creating: isSave || note?.kind == .regular)
      else {
        return nil
      }
      do { try writer.keepNote(note, replacedBy: nil) } catch {
        writer.abandon()
        writer.close()
        throw error
      }
      return writer
    }
  }

  /// Step 3. Returns the mode a new note shows, when it is open to others.
  private func makeDurable(
    _ successor: Successor, note: FileStatus?, versions writer: VersionWriter?
  ) throws(FilenoteError) -> UInt32? {
    switch successor {
    case .file(let file, _):
      // One after the other: the new file's name in the versions folder
      // only once its bytes are durable, then the folder's fsync.
      let openMode = try file.makeDurable(like: note)
      try writer?.keepNewNote(file.name, in: folder)
      try writer?.makeDurable()
      return openMode
    case .version(let version, _):
      try writer?.makeDurable(version, like: note)
      try writer?.makeDurable()
      return nil
    case .nothing:
      try writer?.makeDurable()
      return nil
    }
  }

  /// Step 4. Sets whether the note changed (not when `clear` found none).
  private func rename(
    _ successor: Successor, note: FileStatus?, versions writer: VersionWriter?,
    into replacement: inout Replacement
  ) throws(FilenoteError) {
    replacement.changed = true
    switch successor {
    case .file(let file, _):
      try file.rename(over: self)
      replacement.renamed = file
    case .version(let version, let bytes):
      guard let writer else { preconditionFailure("restore without its writer") }
      if try writer.moveOverNote(version) { return }
      // Another file system: its bytes are saved instead (the writer holds
      // the versions' lock, so not through `save`).
      let file = try TemporaryNoteFile(for: target, replacing: note)
      do throws(FilenoteError) {
        try file.write(bytes)
        replacement.openMode = try file.makeDurable(like: note)
        try file.rename(over: self)
        replacement.renamed = file
      } catch {
        file.discard()
        throw error
      }
    case .nothing:
      guard let note else {
        replacement.changed = false
        return
      }
      do throws(Errno) {
        try folder.remove(name)
      } catch {
        replacement.changed = false
        if error == .noSuchFileOrDirectory { return }
        throw .system(.remove, .file(path), errno: error)
      }
      // A 0-byte file is removed too, but it was no note (`holdsNote`).
      replacement.changed = note.holdsNote
    }
  }

  /// Step 5: the note's folder fsynced after the rename or removal. The
  /// change has happened and is what the command reports: a folder that
  /// cannot be synced was refused before it (`WriteTarget`), and a failure
  /// now says nothing true about the note, so it is not reported.
  private func makeFolderDurable(after renamed: TemporaryNoteFile?) {
    try? folder.syncEntries()
    renamed?.completeRename()
  }
}
