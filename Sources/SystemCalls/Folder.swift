import Glibc

/// An open folder, and the calls that work on names inside it (`openat`,
/// `linkat`, `unlinkat`…) so that nothing can redirect them: once the folder
/// is open, a link or a rename elsewhere on its path does not change which
/// folder the names are looked up in.
///
/// Like `FileDescriptor`, it does not close itself: the owner closes it in a
/// `defer`.
public struct Folder: Sendable {
  /// The folder's descriptor (O_RDONLY | O_DIRECTORY).
  public let descriptor: FileDescriptor

  /// Opens the folder at `path` without following a symbolic link in its
  /// last component: a link there fails with `tooManySymbolicLinkLevels`,
  /// anything else than a folder with `notDirectory`.
  public static func open(_ path: String) throws(Errno) -> Folder {
    let fd = try valueOrErrno {
      Glibc.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    }
    return Folder(descriptor: FileDescriptor(rawValue: fd))
  }

  public func close() { descriptor.close() }

  /// The names in the folder (without `.` and `..`), in the order it lists them.
  public func names() throws(Errno) -> [String] {
    // fdopendir takes the descriptor over: give it a copy to close.
    let copy = try valueOrErrno { dup(descriptor.rawValue) }
    guard let directory = fdopendir(copy) else {
      let failure = Errno.current
      Glibc.close(copy)
      throw failure
    }
    defer { closedir(directory) }
    // The copy shares the descriptor's offset: start from the first entry.
    rewinddir(directory)
    return FileSystem.entries(of: directory)
  }

  /// fstatat(2) of `name` in the folder, never following a symbolic link.
  public func status(of name: String) throws(Errno) -> FileStatus {
    var info = stat()
    try valueOrErrno { fstatat(descriptor.rawValue, name, &info, AT_SYMLINK_NOFOLLOW) }
    return FileStatus(info)
  }

  /// openat(2) of `name` in the folder; a symbolic link there is never
  /// followed (it fails with `tooManySymbolicLinkLevels`).
  public func open(
    _ name: String, _ mode: FileDescriptor.AccessMode,
    options: FileDescriptor.OpenOptions = [], permissions: UInt32 = 0
  ) throws(Errno) -> FileDescriptor {
    let flags = mode.flags | options.rawValue | O_NOFOLLOW | O_CLOEXEC
    let fd = try valueOrErrno { openat(descriptor.rawValue, name, flags, mode_t(permissions)) }
    return FileDescriptor(rawValue: fd)
  }

  /// linkat(2): gives the file at `path` (not following a link there) a
  /// second name, `name`, in this folder.
  public func link(_ path: String, as name: String) throws(Errno) {
    try valueOrErrno { linkat(AT_FDCWD, path, descriptor.rawValue, name, 0) }
  }

  /// renameat(2) of `name` in this folder to `path`.
  public func rename(_ name: String, to path: String) throws(Errno) {
    try valueOrErrno { renameat(descriptor.rawValue, name, AT_FDCWD, path) }
  }

  /// renameat(2) of `name` to `newName`, both in this folder.
  public func rename(_ name: String, toName newName: String) throws(Errno) {
    try valueOrErrno { renameat(descriptor.rawValue, name, descriptor.rawValue, newName) }
  }

  /// unlinkat(2) of the file `name` in this folder (a link is removed, not followed).
  public func remove(_ name: String) throws(Errno) {
    try valueOrErrno { unlinkat(descriptor.rawValue, name, 0) }
  }

  /// fsync(2) of the folder: its entries are on disk when it returns.
  /// File systems that cannot sync a folder (EINVAL, EROFS) count as synced.
  public func sync() throws(Errno) {
    do {
      try descriptor.sync()
    } catch  where error == .invalidArgument || error == .readOnlyFileSystem {
    }
  }

  /// Waits for, then takes, the exclusive advisory lock on the folder
  /// (flock(2)); the kernel releases it when the descriptor is closed or
  /// the process dies.
  public func lockExclusive() throws(Errno) {
    try valueOrErrno { flock(descriptor.rawValue, LOCK_EX) }
  }
}
