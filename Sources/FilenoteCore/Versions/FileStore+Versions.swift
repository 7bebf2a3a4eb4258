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

  /// Puts version `number` back as the note (`undo` is version 1); the
  /// note it replaces becomes version 1. An ordinary save: atomic, durable,
  /// and under the writer lock.
  public func restoreVersion(_ number: Int) throws(FilenoteError) {
    let count = try VersionStore.count(fromSetting: versionsSetting)
    try withWriterLock { locked throws(FilenoteError) in
      // The version moves over the note by name: the same refusals as a save.
      _ = try locked.replaceableStatus()
      let store = VersionStore(note: locked.path, count: count)
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
      do throws(FilenoteError) {
        if store.count > 0 {
          try writer.keepNote(
            replacedBy: (FileStore.join(store.path, version.name), Int64(bytes.count)))
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
      if store.count > 0 { writer.finish() } else { writer.removeAll() }
    }
  }

  /// Removes the note and keeps it as version 1 (or, with versions off,
  /// removes the kept ones too). Returns false when there was none.
  @discardableResult
  public func clearKeepingVersion() throws(FilenoteError) -> Bool {
    let count = try VersionStore.count(fromSetting: versionsSetting)
    guard count > 0 else { return try clearAll().note }
    guard let note = try WritableNote.existing(self) else { return false }
    return try note.withLock(removing: true) { locked throws(FilenoteError) in
      let store = VersionStore(note: locked.path, count: count)
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
  /// note and how many versions were removed.
  public func clearAll() throws(FilenoteError) -> (note: Bool, versions: Int) {
    guard let note = try WritableNote.existing(self) else { return (false, 0) }
    return try note.withLock(removing: true) { locked throws(FilenoteError) in
      guard let writer = try VersionWriter.open(VersionStore(note: locked.path), creating: false)
      else { return (try locked.remove(), 0) }
      defer { writer.close() }
      let count = writer.listed.count
      let removed = try locked.remove()
      writer.removeAll()
      return (removed, count)
    }
  }
}

extension LockedNote {
  /// Commits a save with the note it replaces kept as a version (steps
  /// 1–5 and 7–8 of `VersionWriter.swift` around the save's own rename,
  /// step 6), or, with `FILENOTE_VERSIONS=0`, commits it and removes the
  /// kept versions. The writer lock is held (this is a `LockedNote`).
  func commitKeepingVersion(_ replacement: TemporaryNoteFile) throws(FilenoteError) {
    let store = VersionStore(
      note: path, count: try VersionStore.count(fromSetting: target.versionsSetting))
    guard store.count > 0 else {
      try replacement.commit(replacing: self)
      // Versions off: whatever was kept goes, unless the folder is not one
      // filenote may touch (then it has kept nothing there).
      if let writer = try? VersionWriter.open(store, creating: false) { writer.removeAll() }
      return
    }
    // The folder is made when there is a note to keep in it, not before.
    guard let writer = try VersionWriter.open(store, creating: store.hasNote) else {
      return try replacement.commit(replacing: self)
    }
    defer { writer.close() }
    // The save has compared its text with this very note (`IncomingNote`).
    try writer.keepNote(replacedBy: nil)
    do {
      try replacement.commit(replacing: self, beforeRename: writer.makeDurable)
    } catch {
      writer.abandon()
      throw error
    }
    writer.finish()
  }
}
