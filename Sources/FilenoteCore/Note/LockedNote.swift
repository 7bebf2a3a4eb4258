import SystemCalls

/// The note while its writer lock is held (`FileStore.withWriterLock`):
/// nobody else replaces or removes it until the body returns, so what a
/// writer checks (its version) is still true when it saves.
///
/// Every writer goes through this: the prompt, `save`, `clear`, and the
/// versions and editor code (`edit`, `undo`, `restore`, `clear --all`).
final class LockedNote {
  let target: WritableNote

  init(_ target: WritableNote) { self.target = target }

  /// The note file's path, where its chain of symbolic links ends.
  var path: String { target.location.path }
  /// The note's folder, open for reading (for `openat`, `linkat`, `fsync`
  /// relative to it: never look the folder up again by path).
  var folder: FileDescriptor { target.folder }
  /// The note file's name in `folder`.
  var name: String { target.location.name }

  /// The note file's identity now; nil when there is none.
  func currentIdentity() throws(FilenoteError) -> FileStore.Identity? {
    try target.currentStatus().flatMap(FileStore.Identity.init(ofNote:))
  }

  /// Reads the note now; nil when there is none.
  func read() throws(FilenoteError) -> FileStore.Note? {
    guard let status = try target.currentStatus() else { return nil }
    return try FileStore.readNote(target.location.name, in: folder, path: path, status: status)
  }

  /// The note file's status now, or nil when there is none; refused when
  /// it is a file filenote may not replace or remove: not a regular file,
  /// or planted by someone else (`NoteLocation.refuseOthersName`). Every
  /// change to the note checks this under the lock, just before it.
  func replaceableStatus() throws(FilenoteError) -> FileStatus? {
    guard let status = try target.currentStatus() else { return nil }
    guard status.kind == .regular else { throw .notARegularFile(path: path) }
    try target.refuseOthersFile(status)
    return status
  }

  /// Removes the note file (only a regular file; through a symbolic link,
  /// the file it points to, and the link stays). False when there was no
  /// note: no file, or an empty one (`holdsNote`), which is removed too.
  func remove() throws(FilenoteError) -> Bool {
    guard let status = try replaceableStatus() else { return false }
    do {
      try folder.remove(name)
    } catch {
      if error == .noSuchFileOrDirectory { return false }
      throw .system(.remove, .file(path), errno: error)
    }
    target.syncFolderAfterChange()
    return status.holdsNote
  }
}
