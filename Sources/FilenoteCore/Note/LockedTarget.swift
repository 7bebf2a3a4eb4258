import SystemCalls

/// The note while its writer lock is held (`FileStore.withWriterLock`):
/// nobody else replaces or removes it until the body returns, so what a
/// writer checks (its version) is still true when it saves.
///
/// Every writer goes through this: the prompt, `save`, `clear`, and the
/// versions and editor code (`edit`, `undo`, `restore`, `clear --all`).
/// The note's status is taken once, when the lock is, and every step under
/// the lock uses it (`LockedTarget+Replacing.swift`): nobody else can change
/// it meanwhile.
final class LockedTarget {
  let target: WriteTarget
  /// The note file's status as the lock found it; nil when there is none.
  let status: FileStatus?

  init(_ target: WriteTarget) throws(FilenoteError) {
    self.target = target
    status = try target.currentStatus()
  }

  /// The note file's path, where its chain of symbolic links ends.
  var path: String { target.location.path }
  /// The note's folder, open for reading (for `openat`, `linkat`, `fsync`
  /// relative to it: never look the folder up again by path).
  var folder: FileDescriptor { target.folder }
  /// The note file's name in `folder`.
  var name: String { target.location.name }

  /// The note file's identity as the lock found it; nil when there is none (nor a note:
  /// a 0-byte file, which a save replaces without asking).
  var identity: FileStore.Identity? { status.flatMap(FileStore.Identity.init(ofNote:)) }

  /// Reads the note as the lock found it; nil when there is none.
  func read() throws(FilenoteError) -> FileStore.Contents? {
    guard let status else { return nil }
    return try FileStore.readNote(name, in: folder, path: path, status: status)
  }

  /// The note file's status, or nil when there is none; refused when it
  /// is a file filenote may not replace or remove: not a regular file, or
  /// planted by someone else (`NoteLocation.refuseOthersName`). Every
  /// change to the note checks this under the lock, just before it.
  func replaceableStatus() throws(FilenoteError) -> FileStatus? {
    guard let status else { return nil }
    guard status.kind == .regular else { throw .notARegularFile(path: path) }
    try target.refuseOthersFile(status)
    return status
  }

  /// The versions of this note, kept with the store's `versionCount`.
  func versionStore() -> VersionStore {
    VersionStore(of: target, count: target.versionCount)
  }
}
