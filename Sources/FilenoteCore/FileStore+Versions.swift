import SystemCalls

// Versions of the note (SPEC "Versions"): every save and every `clear` keeps
// the note it replaces, as `VersionWriter.swift` describes step by step.

extension FileStore {
  /// The versions of this note, where a save puts them now.
  func versionStore() throws(FilenoteError) -> VersionStore {
    VersionStore(
      note: try resolvedTarget(), count: try VersionStore.count(fromSetting: versionsSetting))
  }

  /// The kept versions, newest first (version 1 is the first).
  public func versions() throws(FilenoteError) -> [KeptVersion] {
    try versionStore().listed()
  }

  /// The text of version `number`, exactly as kept.
  public func readVersion(_ number: Int) throws(FilenoteError) -> [UInt8] {
    try versionStore().read(number: number)
  }

  /// The texts of the kept versions, newest first, for the prompt's Up and
  /// Ctrl-R. A version that cannot be read or is not UTF-8 is left out
  /// rather than repaired (Enter could then save the repair).
  public func versionTexts() throws(FilenoteError) -> [String] {
    let store = try versionStore()
    guard let folder = try store.open() else { return [] }
    defer { folder.close() }
    return try store.listed(in: folder).compactMap { version in
      (try? store.read(version.name, in: folder)).map { String(decoding: $0, as: UTF8.self) }
    }
  }

  /// Commits a save with the note it replaces kept as a version (steps
  /// 1–5 and 7–8 around the save's own rename, step 6), or, with
  /// `FILENOTE_VERSIONS=0`, commits it and removes the kept versions.
  func commitKeepingVersion(_ replacement: TemporaryNoteFile) throws(FilenoteError) {
    let store = VersionStore(
      note: replacement.target, count: try VersionStore.count(fromSetting: versionsSetting))
    guard store.count > 0 else {
      try replacement.commit()
      // Versions off: whatever was kept goes, unless the folder is not one
      // filenote may touch (then it has kept nothing there).
      if let writer = try? VersionWriter.open(store, creating: false) { writer.removeAll() }
      return
    }
    // The folder is made when there is a note to keep in it, not before.
    guard let writer = try VersionWriter.open(store, creating: store.hasNote) else {
      return try replacement.commit()
    }
    defer { writer.close() }
    try writer.keepNote(replacedBy: replacement.path)
    do {
      try replacement.commit(beforeRename: writer.makeDurable)
    } catch {
      writer.abandon()
      throw error
    }
    writer.finish()
  }

  /// Puts version `number` back as the note (`undo` is version 1); the
  /// note it replaces becomes version 1. An ordinary save: atomic, durable,
  /// and under the writer lock.
  public func restoreVersion(_ number: Int) throws(FilenoteError) {
    let store = try versionStore()
    guard let writer = try VersionWriter.open(store, creating: false) else {
      throw .noVersion(number: number, kept: 0)
    }
    defer { writer.close() }
    let versions = writer.listed
    guard number >= 1, number <= versions.count else {
      throw .noVersion(number: number, kept: versions.count)
    }
    let version = versions[number - 1]
    // Refused before anything changes when it is not a text the note can hold.
    let bytes = try writer.read(version)
    do {
      if store.count > 0 {
        try writer.keepNote(replacedBy: FileStore.join(store.path, version.name))
      }
      if try !writer.moveOverNote(version) {
        try saveWithoutVersions(bytes)
        writer.forget(version)
      }
    } catch {
      writer.abandon()
      throw error
    }
    if store.count > 0 { writer.finish() } else { writer.removeAll() }
  }

  /// Removes the note and keeps it as version 1 (or, with versions off,
  /// removes the kept ones too). Returns false when there was no note.
  @discardableResult
  public func clearKeepingVersion() throws(FilenoteError) -> Bool {
    let store = try versionStore()
    guard store.count > 0 else { return try clearAll().note }
    guard let writer = try VersionWriter.open(store, creating: store.hasNote)
    else { return try clear() }
    defer { writer.close() }
    let removed: Bool
    do {
      try writer.keepNote(replacedBy: nil)
      try writer.makeDurable()
      removed = try clear()
    } catch {
      writer.abandon()
      throw error
    }
    writer.finish()
    return removed
  }

  /// Removes the note and every kept version. Returns whether there was a
  /// note and how many versions were removed.
  public func clearAll() throws(FilenoteError) -> (note: Bool, versions: Int) {
    let store = VersionStore(note: try resolvedTarget())
    guard let writer = try VersionWriter.open(store, creating: false) else {
      return (try clear(), 0)
    }
    defer { writer.close() }
    let count = writer.listed.count
    let removed = try clear()
    writer.removeAll()
    return (removed, count)
  }

  /// Saves `bytes` as the note without touching the versions (the writer
  /// holding their lock is the caller).
  private func saveWithoutVersions(_ bytes: [UInt8]) throws(FilenoteError) {
    let replacement = try TemporaryNoteFile(
      replacing: resolvedTarget(), createsFolder: createsFolder)
    do {
      try replacement.write(bytes)
      try replacement.commit()
    } catch {
      replacement.discard()
      throw error
    }
  }
}
