import SystemCalls

// Settling conflict copies (doc/SYNC.md): once the user has seen that a
// sync engine left copies of the note beside it, and chose the note (Enter
// in the prompt, a saved `edit`, `resolve`) or a copy (`restore N`), the
// copies move into the versions folder. They stay listed and marked, and
// are gone from the note's folder, so the warning ends on every machine
// once the engine has synced the move. Nothing is lost on the way: each
// copy is linked (or, where no hard link can be made, copied) into the
// versions folder, which is fsynced, before its name beside the note goes.

extension VersionWriter {
  /// Moves `copies` (unsettled conflict copies as a listing found them)
  /// into the versions folder, under the names `VersionName.settled` gives
  /// them, owner-only like every version. A copy that is no longer the file
  /// listed (changed or gone since) is left for the next listing to show.
  /// Returns how many were settled.
  @discardableResult
  func settle(_ copies: [KeptVersion]) throws(FilenoteError) -> Int {
    var moved: [String] = []
    for copy in copies where copy.isUnsettledCopy {
      guard let conflict = copy.conflict,
        let info = try? store.noteFolder.status(of: copy.name), copy.isFile(info),
        // The listing counted its names; a file of another user's is never used.
        VersionStore.mayUse(info, knownNames: Int(info.linkCount))
      else { continue }
      let name = try keep(copy.name, as: conflict, status: info)
      if let name {
        let settled = (try? folder.status(of: name)) ?? info
        entries = KeptVersion.newestFirst(
          [
            KeptVersion(
              name: name,
              conflict: ConflictCopyName(engine: conflict.engine, origin: conflict.origin),
              status: settled, kept: info.modified)
          ] + entries.filter { $0.name != name })
      }
      moved.append(copy.name)
    }
    guard !moved.isEmpty else { return 0 }
    // The versions' names on disk before the copies' names go.
    try makeDurable()
    for name in moved {
      do { try store.noteFolder.remove(name) } catch {
        if error != .noSuchFileOrDirectory {
          throw .cannotSettle(path: FileStore.join(store.noteFolderPath, name), errno: error)
        }
      }
    }
    try? store.noteFolder.syncEntries()
    return moved.count
  }

  /// Gives the copy `name` beside the note (`info` as it is now) its
  /// settled name in the versions folder: a hard link, else a copy. Returns
  /// that name, or nil when the versions folder holds this text under it
  /// already (the copy was settled before a kill, or on another machine
  /// whose engine brought the settled version here).
  private func keep(
    _ name: String, as conflict: ConflictCopyName, status info: FileStatus
  ) throws(FilenoteError) -> String? {
    var settled = VersionName.settled(
      conflict, copyName: name, size: info.size, saved: info.modified)
    for attempt in 0..<3 {
      if let existing = try? folder.status(of: settled) {
        if existing.inode == info.inode && existing.device == info.device { return nil }
        if existing.kind == .regular, existing.size == info.size,
          let here = try? store.read(settled, in: folder),
          let there = try? store.read(
            KeptVersion(name: name, place: .noteFolder, status: info), in: folder),
          here == there
        {
          return nil
        }
        // Another text under the name: settle this one under another.
        settled = VersionName.settled(
          conflict, copyName: name + String(attempt) + String(UInt64.random(in: 0...UInt64.max)),
          size: info.size, saved: info.modified)
        continue
      }
      do {
        try store.noteFolder.link(name, to: settled, in: folder)
      } catch {
        guard Self.linkImpossible.contains(error) else {
          throw .cannotSettle(path: FileStore.join(store.noteFolderPath, name), errno: error)
        }
        do throws(FilenoteError) {
          try copy(name, as: settled, modified: info.modified)
        } catch .cannotKeepVersion(_, let errno) {
          throw .cannotSettle(path: FileStore.join(store.noteFolderPath, name), errno: errno)
        }
      }
      needsSync = true
      if let fd = try? folder.open(settled, .readOnly, options: [.nonBlocking, .noFollow]) {
        try? fd.changePermissions(0o600)
        fd.close()
      }
      return settled
    }
    throw .cannotSettle(path: FileStore.join(store.noteFolderPath, name), errno: .fileExists)
  }
}
