import SystemCalls

/// The note file as a writer finds it: its location resolved (see
/// `NoteLocation`) and its folder open for reading, which the folder's fsync
/// needs. Opening the folder comes first, so a folder that cannot be synced
/// fails the command before anything changes.
final class WriteTarget {
  let location: NoteLocation
  /// The note's folder, open for reading.
  let folder: FileDescriptor
  /// How many versions a save keeps (the store's `versionCount`).
  let versionCount: Int
  /// Whether a save keeps the note it replaces (the store's `keepsReplacedNote`).
  let keepsReplacedNote: Bool
  /// Where storage puts what it has to tell the user (the store's `notices`).
  let notices: Notices

  /// The note of `store`, its missing folders created when the store does
  /// that (the documents folder on the first save).
  convenience init(_ store: FileStore) throws(FilenoteError) {
    // With a missing folder either created or an error, there is always a location.
    guard
      let location = try NoteLocation.resolve(
        store.path, missingFolder: store.createsFolder ? .create : .fail)
    else { throw .system(.use, .file(store.path), errno: .noSuchFileOrDirectory) }
    try self.init(
      location, versionCount: store.versionCount, keepsReplacedNote: store.keepsReplacedNote,
      notices: store.notices)
  }

  /// The note of `store` when its folder exists; nil when it does not (a
  /// writer that removes has nothing to do, and must create nothing).
  static func existing(_ store: FileStore) throws(FilenoteError) -> WriteTarget? {
    try NoteLocation.resolve(store.path, missingFolder: nil).map { location throws(FilenoteError) in
      try WriteTarget(
        location, versionCount: store.versionCount, keepsReplacedNote: store.keepsReplacedNote,
        notices: store.notices)
    }
  }

  private init(
    _ location: NoteLocation, versionCount: Int, keepsReplacedNote: Bool, notices: Notices
  ) throws(FilenoteError) {
    self.location = location
    self.notices = notices
    self.versionCount = versionCount
    self.keepsReplacedNote = keepsReplacedNote
    folder = try location.openFolderForWriting()
  }

  deinit { folder.close() }

  var path: String { location.path }

  /// Runs `body` holding the note's `WriterLock`. `removing`: the writer
  /// removes the note (a lock that cannot be made is then "cannot remove").
  func withLock<Result>(
    removing: Bool = false, _ body: (LockedTarget) throws(FilenoteError) -> Result
  ) throws(FilenoteError) -> Result {
    let (path, folderPath) = (self.path, location.folderPath)
    let lock = try WriterLock(
      noteName: location.name, in: folder, notePath: path
    ) { error in
      removing
        ? .system(.remove, .file(path), errno: error)
        : .system(.createTemporaryFile, .file(folderPath), errno: error)
    }
    defer { lock.release() }
    return try body(LockedTarget(self))
  }

  /// What the note's name is now (never following a link); nil when
  /// missing. A note a sync engine is replacing is waited for
  /// (`EngineReplacement`), so that a save never creates a note the
  /// engine's rename would then replace.
  func currentStatus() throws(FilenoteError) -> FileStatus? {
    do {
      return try folder.status(of: location.name)
    } catch {
      if error == .noSuchFileOrDirectory {
        return EngineReplacement.awaitNote(location.name, in: folder)
      }
      throw .system(.use, .file(path), errno: error)
    }
  }

  /// What the note's name was when the walk reached it (`currentStatus()`
  /// then, without asking again): what a save compares its text with
  /// before it takes the lock.
  var statusAtWalk: FileStatus? {
    location.status ?? EngineReplacement.awaitNote(location.name, in: folder)
  }

  /// Refuses to replace or remove a note file someone else planted (see
  /// `NoteLocation.refuseOthersName`).
  func refuseOthersFile(_ status: FileStatus) throws(FilenoteError) {
    try NoteLocation.refuseOthersName(status, at: path, in: folder, what: .file)
  }
}
