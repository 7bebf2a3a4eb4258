import SystemCalls

// The versions' part of the steps every change of the note makes under the
// writer lock (`LockedTarget+Replacing.swift`, named as there and in
// doc/DESIGN.md), designed so that a kill -9 at any moment leaves every
// version kept before whole and listed once, never lists the current note as
// a version of itself, and never loses the note.
//
// Keep the version (`open`, then `keepNote`):
// - open the versions folder beside the note's file, by name in the note's
//   folder as the walk to the note holds it open, never through a link
//   (creating it mode 0700 on first use), and use it only when it is the
//   user's own and closed to others; take flock(2) on it, which the kernel
//   drops when the writer dies (it predates the writer lock and guards the
//   folder itself); list the names filenote writes there, and remove copies
//   a dead writer left half done (`.copy.*`: only the lock's holder writes
//   one, so any found now is dead);
// - decide whether to keep the note file at all: not when there is none;
//   not when the command changes nothing (a save whose text is the note's
//   never gets here: it compared the two while it read its text,
//   `IncomingText`; `restore N` compares version N with the note here); not
//   when the newest version is that very file (same inode: a writer killed
//   between keeping it and the rename kept it already) or holds the same
//   bytes (two identical neighbours are never listed twice; only when their
//   sizes are equal are the two read);
// - keep it under a name no other machine gives a version
//   (`VersionName.kept`: the time now, to the nanosecond, and a random
//   number; another is drawn when a name filenote did not write is there):
//   a hard link of the note file, so nothing is copied; where a link is
//   impossible (EXDEV, EPERM, EMLINK, no hard links) a copy written to
//   `.copy.<pid>.<random>`, fsynced, then renamed to that name, so no name
//   ever holds half a file.
//
// Make the new file and the versions folder durable (`makeDurable`): fsync
// the folder (and its parent when the folder is new), so the version's name
// is on disk before the note is replaced and a power cut cannot lose both.
// A save makes them after the new file's own fsync and the link of its own
// name (`keepNewNote`), which may be made only once its bytes are durable.
// If the note is not replaced after all, `abandon()` takes the version
// back: a command that fails changes nothing.
//
// Rename: until then the new version and the note are one file: listings
// leave out the version whose inode is the note's, so it is listed only once
// the note has moved on.
//
// Prune (`prune`): make the version owner-only (0600: until the rename it
// was the note, which keeps its own mode); the newest `count` versions and
// at most 64 MiB in all stay (the newest always), the older go, oldest
// first; only names filenote writes are removed, each relative to the open
// folder.
//
// `restore N` keeps the note the same way, then (`makeDurable(_:like:)`,
// `moveOverNote`) gives version N's file the note's mode and fsyncs it,
// links it beside the note under a temporary name, renames that over the
// note, and once the note's folder is fsynced removes version N's name
// (`removeName`): at every instant, also across a power cut, version N is
// still a version or the note, never both listed and never neither (a name
// of it left in the versions folder is the note's file, which listings
// leave out and `keepNote` counts as kept). It keeps its own time. A
// conflict copy beside the note is renamed over the note, within that one
// folder.
//
// Settling conflict copies (`settle`, Sync/) links each into the folder
// under the name `VersionName.settled` gives it, fsyncs the folder, and only
// then removes it from the note's folder: at every instant the copy's text
// is under one name or both (a listing shows one file once), never neither.

/// A writer's hold on the versions folder: open, locked, and listed as the
/// lock found it. Closing it (or the process dying) releases the lock.
final class VersionWriter {
  /// What link(2) answers where a file cannot have a second name: another
  /// file system, a file system without hard links (FAT), too many links.
  static let linkImpossible: [Errno] = [.improperLink, .notPermitted, .tooManyLinks, .notSupported]

  let store: VersionStore
  /// The versions folder, open for reading and locked.
  let folder: FileDescriptor
  /// Every version, newest first, as of the lock and this writer's changes.
  var entries: [KeptVersion]
  /// The name this writer kept, to make owner-only once the note has moved on.
  private var keptName: String?
  /// The note's own name in the folder, which a save gave it: made
  /// owner-only too once the note has moved on, but left when a change
  /// fails (the text is still the note's).
  private var ownName: String?
  /// The name this writer gave a save's new file (`keepNewNote`), taken
  /// back when the save fails.
  private var newName: String?
  /// Whether that name is all this writer put in the folder (the first
  /// save: no note to keep).
  private var holdsOnlyNewNote = false
  private var isOpen = true
  /// Whether this writer made the folder, whose own entry is then not on
  /// disk until its parent is synced (`makeDurable`).
  private var isNew = false
  /// Whether something was linked or renamed into the folder that
  /// `makeDurable` must make durable.
  var needsSync = false

  /// Lists the folder once, for the versions and for what a dead writer left.
  private init(store: VersionStore, folder: FileDescriptor) throws(FilenoteError) {
    self.store = store
    self.folder = folder
    let names = try store.names(in: folder)
    entries = store.entries(named: names, in: folder)
    removeDeadCopies(among: names)
  }

  deinit { close() }

  /// Releases the lock.
  func close() {
    if isOpen { folder.close() }
    isOpen = false
  }

  /// The versions as `history` numbers them, with the note's unsettled
  /// conflict copies (see `VersionStore.listed(in:)`).
  var listed: [KeptVersion] {
    store.listed(entries: entries, in: folder)
  }

  /// How many of `listed` are versions (in the versions folder).
  var listedVersionCount: Int {
    listed.reduce(0) { $0 + ($1.isUnsettledCopy ? 0 : 1) }
  }

  /// The bytes of `version`, refused when they are not UTF-8.
  func read(_ version: KeptVersion) throws(FilenoteError) -> [UInt8] {
    try store.read(version, in: folder)
  }

  /// Keeping the version, first: opens and locks the folder; when there is
  /// none, creates it (`creating`) or returns nil.
  static func open(_ store: VersionStore, creating: Bool) throws(FilenoteError) -> VersionWriter? {
    var created = false
    for _ in 0..<20 {
      guard let folder = try store.open() else {
        guard creating else { return nil }
        created = try create(store) || created
        continue
      }
      do {
        try folder.lockExclusive()
      } catch {
        folder.close()
        throw .cannotKeepVersion(path: store.folderPath, errno: error)
      }
      // `clear --all` removes the folder under the lock: use this one only
      // if it is still the one under its name.
      if let mine = try? folder.status(),
        let now = try? store.noteFolder.status(of: store.folderName),
        mine.inode == now.inode && mine.device == now.device
      {
        let writer: VersionWriter
        do { writer = try VersionWriter(store: store, folder: folder) } catch {
          folder.close()
          throw error
        }
        writer.isNew = created
        return writer
      }
      folder.close()
    }
    throw .cannotKeepVersion(path: store.folderPath, errno: .resourceBusy)
  }

  /// Creates the folder, mode exactly 0700 whatever the umask, and syncs
  /// its parent so the folder survives a crash with what goes in it.
  private static func create(_ store: VersionStore) throws(FilenoteError) -> Bool {
    do {
      try store.noteFolder.makeFolder(store.folderName, permissions: 0o700)
    } catch {
      if error == .fileExists { return false }
      throw .cannotKeepVersion(path: store.folderPath, errno: error)
    }
    do {
      let folder = try store.noteFolder.open(
        store.folderName, .readOnly, options: [.directory, .noFollow])
      defer { folder.close() }
      // Where the file system cannot narrow it, `VersionStore.open()` judges
      // the folder as it is.
      try ModeChange.request(folder, 0o700)
    } catch {
      throw .cannotKeepVersion(path: store.folderPath, errno: error)
    }
    return true
  }

  private func removeDeadCopies(among names: [String]) {
    for name in names where KeptVersion.isCopy(name) && isRegularFile(name) {
      try? folder.remove(name)
    }
  }

  /// Keeps the note file (`note`, as the writer lock found it) as the
  /// newest version, unless there is nothing to keep. `replacement` is the
  /// file about to replace the note and its size, when it may hold the
  /// same bytes (`restore N`): then the command changes nothing and nothing
  /// is kept. nil when the note is being removed, or when a save compared
  /// its text with the note already (a save never gets here with the
  /// note's own text: `IncomingText`).
  func keepNote(
    _ note: FileStatus?,
    replacedBy replacement: (folder: FileDescriptor, name: String, size: Int64)?
  ) throws(FilenoteError) {
    // The save itself refuses anything else; an empty file is no note.
    guard let note, note.holdsNote else { return }
    // Kept already: a save linked it when it saved it (`keepNewNote`), or a
    // writer killed before its rename kept it.
    if let newest = entries.first, newest.isFile(note) {
      ownName = newest.name
      // Any older name of it is stale (below): one name of its own is enough.
      for stale in entries.dropFirst() where stale.isFile(note) {
        if (try? folder.remove(stale.name)) != nil { needsSync = true }
      }
      entries.removeAll { $0.isFile(note) && $0.name != newest.name }
      return
    }
    // An older name of the note's very file: a power cut during `restore N`
    // left version N's name behind. Kept again beside it, the text would be
    // listed twice, and left where it is, it would not be version 1: the
    // stale name goes (the file stays the note) and the note is kept below
    // as the newest.
    for stale in entries where stale.isFile(note) {
      do { try folder.remove(stale.name) } catch {
        throw .cannotKeepVersion(path: store.folderPath, errno: error)
      }
      needsSync = true
    }
    entries.removeAll { $0.isFile(note) }
    let noteFile = (store.noteFolder, store.noteName)
    if let newest = entries.first, newest.size == note.size,
      Self.sameBytes(noteFile, (folder, newest.name))
    {
      return
    }
    if let replacement, replacement.size == note.size,
      Self.sameBytes(noteFile, (replacement.folder, replacement.name))
    {
      return
    }

    let (name, now) = unusedName()
    do {
      try store.noteFolder.link(store.noteName, to: name, in: folder)
    } catch {
      guard Self.linkImpossible.contains(error) else {
        throw .cannotKeepVersion(path: store.folderPath, errno: error)
      }
      try copyNote(as: name, modified: note.modified)
    }
    keptName = name
    needsSync = true
    let kept = (try? folder.status(of: name)) ?? note
    entries = KeptVersion.newestFirst(
      [KeptVersion(name: name, status: kept, kept: now)] + entries)
  }

  /// A version's name for a file kept now that no file in the folder
  /// has (another is drawn when a name filenote did not write, a link or
  /// a folder, is there: it never blocks a save), and that moment.
  private func unusedName() -> (String, (seconds: Int64, nanoseconds: Int64)) {
    let now = LocalTime.now
    var name = ""
    for _ in 0..<8 {
      name = VersionName.kept(at: now, random: UInt64.random(in: 0...UInt64.max))
      if (try? folder.status(of: name)) == nil { break }
    }
    return (name, now)
  }

  /// Gives a save's new file (`name` in `source`, the note's folder), its
  /// bytes and mode already durable, a name of its own in the folder, so
  /// that from the moment the save returns its text is a file that no
  /// other save on any machine names alike: a sync engine carries it as a
  /// new file, whatever it does with the note itself (doc/SYNC.md). A hard
  /// link, made before the rename and made durable with the kept version
  /// by `makeDurable()`; the note and this name are one text, listed as
  /// the note. Where no hard link can be made, nothing: the next save keeps
  /// the note as a copy, as before.
  func keepNewNote(_ name: String, in source: FileDescriptor) throws(FilenoteError) {
    let (own, _) = unusedName()
    do {
      try source.link(name, to: own, in: folder)
    } catch {
      guard Self.linkImpossible.contains(error) else {
        throw .cannotKeepVersion(path: store.folderPath, errno: error)
      }
      return
    }
    newName = own
    holdsOnlyNewNote = !needsSync
    needsSync = true
  }

  /// "Make the new file and the versions folder durable", the versions'
  /// part, right before the note is replaced: the folder (and, when it is new, its parent) fsynced, so the kept
  /// version's name, and the new note's own, are on disk first.
  func makeDurable() throws(FilenoteError) {
    guard needsSync else { return }
    if let failure = syncFolders() {
      // Not kept after all: the note stays, so its second name goes, and
      // the new file, which will not be the note, has none.
      if let keptName { try? folder.remove(keptName) }
      if let newName { try? folder.remove(newName) }
      keptName = nil
      newName = nil
      throw .cannotKeepVersion(path: store.folderPath, errno: failure)
    }
    needsSync = false
  }

  /// The fsyncs of `makeDurable()`; what failed, if anything.
  private func syncFolders() -> Errno? {
    do throws(Errno) {
      try folder.syncEntries()
      // A new folder's own name, before the note it keeps is replaced.
      // When it keeps no note (the first save), the note folder's fsync
      // after the rename makes it durable with the new note, which is
      // soon enough: until then there is nothing in it to lose.
      if isNew && !holdsOnlyNewNote { try store.noteFolder.syncEntries() }
      return nil
    } catch {
      return error
    }
  }

  /// Keeping the note where no hard link can be made: a copy of the note file,
  /// complete and on disk before it gets its version's name.
  private func copyNote(
    as name: String, modified: (seconds: Int64, nanoseconds: Int64)
  ) throws(FilenoteError) {
    try copy(store.noteName, as: name, modified: modified)
  }

  /// A copy of the file `source` in the note's folder, written under a
  /// temporary name and fsynced before it gets the name `name`.
  func copy(
    _ source: String, as name: String, modified: (seconds: Int64, nanoseconds: Int64)
  ) throws(FilenoteError) {
    let copyName = ProcessFileName.make(prefix: KeptVersion.copyPrefix)
    do throws(Errno) {
      let source = try store.noteFolder.open(
        source, .readOnly, options: [.noFollow, .nonBlocking])
      defer { source.close() }
      let copy = try folder.open(
        copyName, .writeOnly, options: [.create, .exclusiveCreate, .noFollow], permissions: 0o600)
      defer { copy.close() }
      let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
      defer { chunk.deallocate() }
      while true {
        let count = try source.read(into: chunk)
        if count == 0 { break }
        try copy.writeAll(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
      }
      // History shows when the text was saved, as a link would keep it.
      try copy.setModificationTime(seconds: modified.seconds, nanoseconds: modified.nanoseconds)
      try copy.sync()
      // A rename, which file systems without hard links can do too; the
      // caller has checked that `name` is free, under the folder's lock.
      try folder.rename(copyName, to: name, in: folder)
    } catch {
      try? folder.remove(copyName)
      throw .cannotKeepVersion(path: store.folderPath, errno: error)
    }
  }

  /// The folder and name of `version`'s file.
  func file(of version: KeptVersion) -> (folder: FileDescriptor, name: String) {
    (version.place == .versions ? folder : store.noteFolder, version.name)
  }

  /// `restore N`, "make the new file ... durable": version N's file gets
  /// the mode of the note it replaces (`note`; 0600 for none) and is
  /// fsynced.
  func makeDurable(_ version: KeptVersion, like note: FileStatus?) throws(FilenoteError) {
    let (source, name) = file(of: version)
    do throws(Errno) {
      let fd = try source.open(name, .readOnly, options: [.nonBlocking, .noFollow])
      defer { fd.close() }
      try ModeChange.request(fd, note?.permissions ?? 0o600)
      try fd.sync()
    } catch {
      throw .system(.save, .file(store.path(of: version)), errno: error)
    }
  }

  /// `restore N`, "rename": moves version N's file over the note in one
  /// rename, after `makeDurable(_:like:)` and `makeDurable()`; its name in
  /// the versions folder goes once the note's folder is durable (`removeName(of:)`).
  /// - Returns: false when its file cannot be renamed there (another file
  ///   system): the caller then saves its bytes instead.
  func moveOverNote(_ version: KeptVersion) throws(FilenoteError) -> Bool {
    let source = file(of: version).folder
    let file = store.path(of: version)
    if version.place == .noteFolder {
      // A conflict copy is beside the note already: one rename in one
      // folder, made durable by that folder's fsync.
      do {
        try source.rename(version.name, to: store.noteName, in: store.noteFolder)
      } catch {
        throw .system(.save, .file(file), errno: error)
      }
      return true
    }
    // A rename from the versions folder to the note's is two names, each
    // made durable by its own folder's fsync: a power cut between them can
    // keep the removal and lose the new name, and the text is then neither
    // the note nor a version. So the version's file is first linked beside
    // the note under a temporary name and renamed over the note within
    // that one folder; only once that is on disk does its name in
    // the versions folder go. Until then the listing leaves it out (it is
    // the note's file), and `keepNote` counts it as kept.
    let temporary = ProcessFileName.make(
      prefix: TemporaryNoteFile.namePrefix(forNote: store.noteName), suffix: ".tmp")
    do {
      try folder.link(version.name, to: temporary, in: store.noteFolder)
    } catch {
      // No second name on this file system: the note's bytes are saved instead.
      if Self.linkImpossible.contains(error) {
        return false
      }
      throw .system(.save, .file(file), errno: error)
    }
    do {
      try store.noteFolder.rename(temporary, to: store.noteName, in: store.noteFolder)
    } catch {
      try? store.noteFolder.remove(temporary)
      throw .system(.save, .file(file), errno: error)
    }
    return true
  }

  /// Undoes `keepNote` when the note could not be replaced or removed after
  /// all: a command that fails changes nothing, so the version kept for it
  /// goes (a link is the note itself; a copy would list the note twice),
  /// and so does the folder when this writer made it and it is empty.
  func abandon() {
    for name in [keptName, newName].compactMap({ $0 }) {
      try? folder.remove(name)
      try? folder.syncEntries()
      entries.removeAll { $0.name == name }
    }
    keptName = nil
    newName = nil
    needsSync = false
    if isNew && entries.isEmpty { try? store.noteFolder.removeFolder(store.folderName) }
  }

  /// Removes the name `version` has in its folder, and makes that durable:
  /// after its file, or its bytes, became the note (`restore N`), or for
  /// `save --no-version`. Not `forget N` (`removeForGood`).
  func removeName(of version: KeptVersion) {
    let source = version.place == .versions ? folder : store.noteFolder
    try? source.remove(version.name)
    try? source.syncEntries()
    if version.place == .versions { entries.removeAll { $0.name == version.name } }
  }

  /// `forget N`: removes `version`'s file for good, inside the folder,
  /// and syncs the folder so a crash does not bring the name back. Returns
  /// whether the file had other names (hard links made outside filenote),
  /// which still hold its text.
  func removeForGood(_ version: KeptVersion) throws(FilenoteError) -> Bool {
    // Its text is listed once, but may be in more files (two machines kept
    // it, or it was saved again): they go too, so no command shows it again.
    let text = try? read(version)
    var twins: [KeptVersion] = []
    if let text {
      for other in entries + store.conflictCopies()
      where other.size == version.size && !other.isSameFile(as: version) {
        if (try? read(other)) == text { twins.append(other) }
      }
    }
    let linked = try remove(version)
    for twin in twins { _ = try? remove(twin) }
    // The version is gone, which is what `forget` reports: failing now would
    // make a second `forget N` remove the next one. (The folder was opened
    // for reading and synced by every save; its fsync failing says nothing
    // true about the versions.)
    try? folder.syncEntries()
    try? store.noteFolder.syncEntries()
    return linked
  }

  /// Removes `version`'s file, in the versions folder or beside the note
  /// (an unsettled conflict copy). Returns whether it had other hard links.
  private func remove(_ version: KeptVersion) throws(FilenoteError) -> Bool {
    let source = version.place == .versions ? folder : store.noteFolder
    let status: FileStatus
    do throws(Errno) {
      status = try source.status(of: version.name)
      // Only the regular file the listing found: never a name swapped since.
      guard status.kind == .regular, version.isFile(status) else {
        throw Errno.noSuchFileOrDirectory
      }
      try source.remove(version.name)
    } catch {
      throw .system(.remove, .file(store.path(of: version)), errno: error)
    }
    if version.place == .versions { entries.removeAll { $0.name == version.name } }
    return status.linkCount > 1
  }

  /// Prune, after the note was replaced or removed: the version
  /// kept made owner-only (until then it was the note, which keeps its own
  /// mode), then the newest `count` versions and at most the size limit in
  /// all stay (the newest always), the older go, oldest first; only names
  /// filenote writes are removed, each relative to the open folder.
  /// Failures here change nothing that was saved, so they are not errors.
  /// Returns how many went because of the count (not the size).
  @discardableResult
  func prune(note: FileStatus? = nil) -> Int {
    if let kept = keptName ?? ownName,
      let fd = try? folder.open(kept, .readOnly, options: [.nonBlocking, .noFollow])
    {
      try? fd.changePermissions(0o600)
      fd.close()
    }
    keptName = nil
    ownName = nil
    newName = nil
    var count = 0
    var total: Int64 = 0
    var isFull = false
    var doomed: [String] = []
    var isPastCount = false
    // The note's own file is not a version: a save's own name for its new
    // note is not among them (`keepNewNote`), `restore N` says which file
    // its version N's name now is (`note`: the restored text's own name),
    // and a clear leaves none; a writer that changed no note says which
    // file it is (`note`).
    for entry in entries {
      if let note, entry.isFile(note) { continue }
      if !isFull && count < store.count
        && (count == 0 || total + entry.size <= store.maximumTotalSize)
      {
        count += 1
        total += entry.size
        continue
      }
      // Once one does not fit, none older stays.
      if !isFull { isPastCount = count >= store.count }
      isFull = true
      doomed.append(entry.name)
    }
    // Oldest out first, so a writer killed halfway leaves the newest ones:
    // never a newer version gone while an older one stays.
    var removed = false
    for name in doomed.reversed() where (try? folder.remove(name)) != nil {
      removed = true
    }
    if removed {
      entries = entries.filter { (try? folder.status(of: $0.name)) != nil }
      try? folder.syncEntries()
    }
    return isPastCount ? doomed.count : 0
  }

  /// Removes every version (and copy) filenote wrote, and the folder when
  /// nothing else is left in it. Returns how many versions were listed.
  @discardableResult
  func removeAll() -> Int {
    let count = listedVersionCount
    if let names = try? folder.names() {
      // And the engines' conflict copies of versions, which are listed as versions.
      for name in names
      where (KeptVersion.isWrittenByFilenote(name) || entries.contains { $0.name == name })
        && isRegularFile(name)
      {
        try? folder.remove(name)
      }
    }
    entries = []
    try? folder.syncEntries()
    // Still under the lock: a writer waiting for it sees the folder gone
    // (see `open`) and makes a new one. Its removal is not fsynced: the
    // versions' own removals are durable by now, so a power cut can bring
    // back only the empty folder, which holds no version (the power-cut
    // group shows no case needs that fsync: reliability/POWERCUT.md).
    try? store.noteFolder.removeFolder(store.folderName)
    return count
  }

  /// Whether `name` is a regular file: anything else (a link named like a
  /// version, a folder) was not written by filenote and is left alone.
  func isRegularFile(_ name: String) -> Bool {
    (try? folder.status(of: name))?.kind == .regular
  }

  /// Whether two files, each named in an open folder, hold the same bytes
  /// (false when either cannot be read).
  static func sameBytes(
    _ first: (folder: FileDescriptor, name: String),
    _ second: (folder: FileDescriptor, name: String)
  ) -> Bool {
    let options: FileDescriptor.OpenOptions = [.noFollow, .nonBlocking]
    guard let a = try? first.folder.open(first.name, .readOnly, options: options) else {
      return false
    }
    defer { a.close() }
    guard let b = try? second.folder.open(second.name, .readOnly, options: options) else {
      return false
    }
    defer { b.close() }
    return a.hasSameBytes(as: b)
  }
}
