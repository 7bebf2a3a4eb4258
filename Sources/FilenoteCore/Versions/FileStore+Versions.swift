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
      VersionStore(of: $0, count: versionCount, notices: notices)
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
    guard let note = try WriteTarget.existing(self) else { return 0 }
    return try note.withLock { locked throws(FilenoteError) in try locked.settle(copies) }
  }

  /// Puts version `number` back as the note (`undo` is version 1); the
  /// note it replaces becomes version 1. An ordinary save: atomic, durable,
  /// and under the writer lock.
  @discardableResult
  func restoreVersion(_ number: Int) throws(FilenoteError) -> Restored {
    // No folder, no version: and a command that fails creates nothing, so
    // the documents folder is not made for it.
    guard let note = try WriteTarget.existing(self) else {
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
      var replacement = LockedTarget.Replacement()
      if try locked.read()?.bytes != bytes {
        replacement = try locked.replace(
          with: .version(version, bytes: bytes), versions: .opened(writer))
      }
      // The user chose among the conflict copies: the others are settled
      // (kept as versions, still listed). Whatever fails there leaves them
      // beside the note, still listed: the restore itself is done.
      var settled = 0
      if version.isUnsettledCopy && store.count > 0 {
        settled = (try? writer.settle(writer.listed.filter(\.isUnsettledCopy))) ?? 0
        // Unchanged, the one chosen is the note: it was not settled.
        if !replacement.changed { settled = max(0, settled - 1) }
        writer.prune(note: store.noteStatus)
      }
      return Restored(
        wasConflictCopy: version.isUnsettledCopy, settledCopies: settled,
        saved: Saved(replacement, of: locked.target))
    }
  }

  /// What `restoreVersion` did.
  struct Restored: Equatable, Sendable {
    /// Whether the version put back was a sync engine's conflict copy.
    let wasConflictCopy: Bool
    /// How many other conflict copies were settled with it.
    let settledCopies: Int
    /// What the user is told of the save.
    var saved = Saved()
  }

  /// Removes the note and keeps it as version 1 (with versions off, keeps
  /// nothing and removes none kept). Returns false when there was none.
  @discardableResult
  func clearKeepingVersion() throws(FilenoteError) -> Bool {
    guard let note = try WriteTarget.existing(self) else { return false }
    return try note.withLock(removing: true) { locked throws(FilenoteError) in
      try locked.replace(with: .nothing).changed
    }
  }

  /// Removes the note and every kept version. Returns whether there was a
  /// note and how many versions were removed. A versions folder filenote
  /// may not use refuses the whole command.
  func clearAll() throws(FilenoteError) -> (note: Bool, versions: Int) {
    guard let note = try WriteTarget.existing(self) else { return (false, 0) }
    return try note.withLock(removing: true) { locked throws(FilenoteError) in
      let writer = try VersionWriter.open(locked.versionStore(), creating: false)
      defer { writer?.close() }
      let count = writer?.listedVersionCount ?? 0
      let removed = try locked.replace(with: .nothing, versions: .untouched).changed
      writer?.removeAll()
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
      path: path, folder: store.folderPath, count: versions.count,
      size: versions.reduce(0) { $0 + $1.size })
  }
}

extension LockedTarget {
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
    writer.prune(note: store.noteStatus)
    return settled
  }
}
