import SystemCalls

// Versions of the note (doc/DESIGN.md, Versions): every save and every
// `clear` keeps the note it replaces, as `VersionWriter.swift` describes step
// by step.

extension FileStore {
  /// The versions of this note, where a save puts them now: beside the
  /// note's file, in its folder as the walk to the note found it (see
  /// `NoteLocation`). nil when a folder on the way is missing: then none are kept.
  func versionStore() throws(FilenoteError) -> VersionStore? {
    try NoteLocation.resolve(path, missingFolder: nil).map {
      VersionStore(of: $0, count: versionCount)
    }
  }

  /// The text of version `number`, exactly as kept.
  func readVersion(_ number: Int) throws(FilenoteError) -> [UInt8] {
    guard let store = try versionStore() else {
      throw .noVersion(number: number, kept: 0, note: path)
    }
    return try store.read(number: number)
  }

  /// How many versions are kept (listed as `history` lists them).
  func keptVersionCount() throws(FilenoteError) -> Int {
    guard let store = try versionStore() else { return 0 }
    let folder = try store.open()
    defer { folder?.close() }
    return try store.listed(in: folder).count
  }

  /// A kept version as the prompt's Up and Ctrl-R reach it.
  struct VersionText: Sendable {
    /// Its number, as `history` and `show N` name it.
    let number: Int
    /// When its text was saved, in seconds since the epoch.
    let saved: Int64
    let text: String
    /// The listing's entry: a sync engine's conflict copy (settled or
    /// not) says so in its `conflict`.
    let version: KeptVersion
  }

  /// The texts of the kept versions for the prompt's Up and Ctrl-R: the
  /// unsettled conflict copies first (newest first), so that the first Up
  /// shows what another machine saved, then the others, newest first. A
  /// version that cannot be read or is not UTF-8 is left out rather than
  /// repaired (Enter could then save the repair); the others keep their
  /// numbers.
  func versionTexts() throws(FilenoteError) -> [VersionText] {
    guard let store = try versionStore() else { return [] }
    let folder = try store.open()
    defer { folder?.close() }
    let listed = try store.listed(in: folder)
    var texts: [VersionText] = []
    for copies in [true, false] {
      for (index, version) in listed.enumerated() where version.isUnsettledCopy == copies {
        guard let bytes = try? store.read(version, in: folder) else { continue }
        texts.append(
          VersionText(
            number: index + 1, saved: version.saved, text: String(decoding: bytes, as: UTF8.self),
            version: version))
      }
    }
    return texts
  }

  /// The sync engines' conflict copies of the note beside it, not settled
  /// yet (see `VersionStore.conflictCopies()`), newest first.
  func conflictCopies() throws(FilenoteError) -> [KeptVersion] {
    guard let store = try versionStore() else { return [] }
    return KeptVersion.newestFirst(store.conflictCopies())
  }

  /// The number (as `history` gives it) of the newest conflict copy beside
  /// the note when there is no note at all (rclone bisync renames both
  /// texts away); nil when there is a note, or no copy.
  func newestConflictCopyWithoutNote() throws(FilenoteError) -> Int? {
    guard let store = try versionStore(), store.noteStatus == nil else { return nil }
    let folder = try store.open()
    defer { folder?.close() }
    let listed = try store.listed(in: folder)
    guard let newest = KeptVersion.newestFirst(listed.filter(\.isUnsettledCopy)).first else {
      return nil
    }
    return listed.firstIndex(of: newest).map { $0 + 1 }
  }

  /// Settles the conflict copies beside the note (`copies`: those the user
  /// was shown; nil: every one there now), moving them into the versions
  /// (see `VersionWriter+Settling.swift`). Returns how many were settled.
  /// With `FILENOTE_VERSIONS=0` nothing can be settled: `settlingNeedsVersions`.
  @discardableResult
  func settleConflictCopies(_ copies: [KeptVersion]? = nil) throws(FilenoteError) -> Int {
    guard let note = try WritableNote.existing(self) else { return 0 }
    return try note.withLock { locked throws(FilenoteError) in try locked.settle(copies) }
  }

  /// Puts version `number` back as the note (`undo` is version 1); the
  /// note it replaces becomes version 1. An ordinary save: atomic, durable,
  /// and under the writer lock.
  @discardableResult
  func restoreVersion(_ number: Int) throws(FilenoteError) -> Restored {
    // No folder, no version: and a command that fails creates nothing, so
    // the documents folder is not made for it.
    guard let note = try WritableNote.existing(self) else {
      throw .noVersion(number: number, kept: 0, note: path)
    }
    return try note.withLock { locked throws(FilenoteError) in
      // The version moves over the note by name: the same refusals as a save.
      _ = try locked.replaceableStatus()
      let store = locked.versionStore()
      // Conflict copies can be there without a versions folder: one is made
      // for the note the restore keeps, once N is known to be one of them
      // (a command that fails creates nothing).
      var opened = try VersionWriter.open(store, creating: false)
      if opened == nil && store.count > 0 {
        let listed = try store.listed(in: nil)
        guard number >= 1, number <= listed.count else {
          throw .noVersion(number: number, kept: listed.count, note: locked.path)
        }
        opened = try VersionWriter.open(store, creating: true)
      }
      guard let writer = opened else {
        throw .noVersion(number: number, kept: 0, note: locked.path)
      }
      defer { writer.close() }
      let versions = writer.listed
      guard number >= 1, number <= versions.count else {
        throw .noVersion(number: number, kept: versions.count, note: locked.path)
      }
      let version = versions[number - 1]
      // Refused before anything changes when it is not a text the note can hold.
      let bytes = try writer.read(version)
      // The note holds that text already: nothing is moved or touched (a
      // time changed alone would travel to other machines through a sync
      // engine for nothing, doc/SYNC.md). A copy the user chose is settled.
      if try locked.read()?.bytes == bytes {
        var settled = 0
        if version.isUnsettledCopy && store.count > 0 {
          settled = max(0, ((try? writer.settle(writer.listed.filter(\.isUnsettledCopy))) ?? 0) - 1)
          writer.finish()
        }
        return Restored(wasConflictCopy: version.isUnsettledCopy, settledCopies: settled)
      }
      do throws(FilenoteError) {
        if store.count > 0 {
          try writer.keepNote(replacedBy: (store.path(of: version), Int64(bytes.count)))
        }
        if try !writer.moveOverNote(version) {
          // Another file system: its bytes are saved instead (the writer
          // holds the versions' lock, so not through `save`).
          let replacement = try TemporaryNoteFile(for: locked.target)
          do throws(FilenoteError) {
            try replacement.write(bytes)
            try replacement.commit(replacing: locked)
          } catch {
            replacement.discard()
            throw error
          }
          writer.forget(version)
        }
      } catch {
        writer.abandon()
        throw error
      }
      // The user chose among the conflict copies: the others are settled
      // (kept as versions, still listed). Whatever fails there leaves them
      // beside the note, still listed: the restore itself is done.
      var settled = 0
      if version.isUnsettledCopy && store.count > 0 {
        settled = (try? writer.settle(writer.listed.filter(\.isUnsettledCopy))) ?? 0
      }
      if store.count > 0 { writer.finish() } else { writer.removeAll() }
      return Restored(wasConflictCopy: version.isUnsettledCopy, settledCopies: settled)
    }
  }

  /// What `restoreVersion` did.
  struct Restored: Equatable, Sendable {
    /// Whether the version put back was a sync engine's conflict copy.
    let wasConflictCopy: Bool
    /// How many other conflict copies were settled with it.
    let settledCopies: Int
  }

  /// Removes the note and keeps it as version 1 (or, with versions off,
  /// removes the kept ones too). Returns false when there was none.
  @discardableResult
  func clearKeepingVersion() throws(FilenoteError) -> Bool {
    guard versionCount > 0 else { return try clearAll(ignoringUnusableFolder: true).note }
    guard let note = try WritableNote.existing(self) else { return false }
    return try note.withLock(removing: true) { locked throws(FilenoteError) in
      let store = locked.versionStore()
      guard let writer = try VersionWriter.open(store, creating: store.hasNote) else {
        return try locked.remove()
      }
      defer { writer.close() }
      let removed: Bool
      do throws(FilenoteError) {
        try writer.keepNote(replacedBy: nil)
        try writer.makeDurable()
        removed = try locked.remove()
      } catch {
        writer.abandon()
        throw error
      }
      writer.finish()
      return removed
    }
  }

  /// Removes the note and every kept version. Returns whether there was a
  /// note and how many versions were removed. A versions folder filenote
  /// may not use refuses the whole command, unless `ignoringUnusableFolder`
  /// (`clear` with versions off, which must not fail because of versions:
  /// the note goes, and the folder, which it has kept nothing in, stays).
  func clearAll(
    ignoringUnusableFolder: Bool = false
  ) throws(FilenoteError) -> (note: Bool, versions: Int) {
    guard let note = try WritableNote.existing(self) else { return (false, 0) }
    return try note.withLock(removing: true) { locked throws(FilenoteError) in
      let opened: VersionWriter?
      do throws(FilenoteError) {
        opened = try VersionWriter.open(locked.versionStore(), creating: false)
      } catch {
        guard ignoringUnusableFolder else { throw error }
        opened = nil
      }
      guard let writer = opened else { return (try locked.remove(), 0) }
      defer { writer.close() }
      let count = writer.listedVersionCount
      let removed = try locked.remove()
      writer.removeAll()
      return (removed, count)
    }
  }
}

extension FileStore {
  /// `error` with what the kept versions hold added, when it is a save
  /// that ran out of space and versions hold some of it: the user is told
  /// how much, and how to free it.
  func explainingNoSpace(_ error: FilenoteError) -> FilenoteError {
    guard case .system(.save, .file(let path), let errno) = error, errno == .noSpace,
      let store = try? versionStore(), let folder = try? store.open()
    else { return error }
    defer { folder.close() }
    guard let versions = try? store.listed(in: folder), !versions.isEmpty else { return error }
    return .noSpaceWithVersions(
      path: path, folder: store.path, count: versions.count,
      size: versions.reduce(0) { $0 + $1.size })
  }
}

extension WritableNote {
  /// `LockedNote.removeVersionsWhenOff()` for a save that does not hold the
  /// writer lock yet: it takes it only when there is a versions folder.
  func removeVersionsWhenOff() throws(FilenoteError) {
    guard versionCount == 0, (try? folder.status(of: VersionStore(of: self).name)) != nil
    else { return }
    try withLock { locked in locked.removeVersionsWhenOff() }
  }
}

extension LockedNote {
  /// With versions off, removes what was kept before a save writes the new
  /// note, so that a save works on a disk the versions filled. Versions
  /// filenote may not use are left alone (it has kept nothing there).
  func removeVersionsWhenOff() {
    guard target.versionCount == 0,
      let writer = try? VersionWriter.open(versionStore(), creating: false)
    else { return }
    writer.removeAll()
  }

  /// The versions of this note, kept with the store's `versionCount`.
  func versionStore() -> VersionStore {
    VersionStore(of: target, count: target.versionCount)
  }

  /// Settles `copies` (nil: every conflict copy beside the note now) into
  /// the versions; see `FileStore.settleConflictCopies`.
  @discardableResult
  func settle(_ copies: [KeptVersion]?) throws(FilenoteError) -> Int {
    let store = versionStore()
    let found = copies ?? store.conflictCopies()
    guard !found.isEmpty else { return 0 }
    guard store.count > 0 else { throw .settlingNeedsVersions }
    guard let writer = try VersionWriter.open(store, creating: true) else { return 0 }
    defer { writer.close() }
    let settled = try writer.settle(found)
    writer.finish()
    return settled
  }

  /// Commits a save with the note it replaces kept as a version (steps
  /// 1–5 and 7–8 of `VersionWriter.swift` around the save's own rename,
  /// step 6), or, with `FILENOTE_VERSIONS=0`, commits it and removes the
  /// kept versions, or, for `save --no-version`, commits it keeping nothing
  /// of the note it replaces and the other versions as they are. The writer lock is held (this is a `LockedNote`).
  func commitKeepingVersion(_ replacement: TemporaryNoteFile) throws(FilenoteError) {
    let store = versionStore()
    guard store.count > 0 else {
      try replacement.commit(replacing: self)
      // Versions off: whatever was kept goes, unless the folder is not one
      // filenote may touch (then it has kept nothing there).
      if let writer = try? VersionWriter.open(store, creating: false) { writer.removeAll() }
      return
    }
    guard target.keepsReplacedNote else {
      // `save --no-version`: nothing of the replaced note stays, not even
      // the version a writer killed before its rename made of this very
      // file, which listings leave out only while it is the note.
      if let writer = try? VersionWriter.open(store, creating: false), let note = store.noteStatus {
        for version in writer.entries where version.isFile(note) { writer.forget(version) }
        writer.close()
      }
      return try replacement.commit(replacing: self)
    }
    // The folder is made when there is a note to keep in it, not before.
    guard let writer = try VersionWriter.open(store, creating: store.hasNote) else {
      return try replacement.commit(replacing: self)
    }
    defer { writer.close() }
    // The save has compared its text with this very note (`IncomingNote`).
    try writer.keepNote(replacedBy: nil)
    // The versions folder's fsync beside the new note's own, when that is
    // still to come (a large note's was made before the lock).
    let beside = replacement.isSynced ? nil : try? HelperThread()
    defer { beside?.end() }
    if let beside { writer.startMakingDurable(on: beside) }
    do {
      try replacement.commit(replacing: self, beforeRename: writer.makeDurable)
    } catch {
      writer.abandon()
      throw error
    }
    writer.finish()
  }
}
