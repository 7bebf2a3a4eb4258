import Glibc

// Calls on names relative to an open folder (openat, fstatat, readlinkat,
// renameat, linkat, unlinkat, mkdirat). A path is looked up again at every call; a
// name in a folder held open is not, so what was checked is what is used.

extension FileDescriptor.OpenOptions {
  /// O_PATH: a handle on the folder or file itself, good for walking and
  /// `status()`, not for reading, syncing or locking. (Glibc's module does
  /// not export it: the value is Linux's.)
  public static let pathOnly = FileDescriptor.OpenOptions(rawValue: 0o10_000_000)
}

extension FileDescriptor {
  /// The root folder, as a handle to walk a path from (`pathOnly`).
  public static func openRoot() throws(Errno) -> FileDescriptor {
    try open("/", .readOnly, options: [.pathOnly, .directory])
  }

  /// openat(2): opens `name` in this folder; always close-on-exec.
  public func open(
    _ name: String, _ mode: AccessMode, options: OpenOptions = [], permissions: UInt32 = 0
  ) throws(Errno) -> FileDescriptor {
    let fd = try valueOrErrno {
      openat(rawValue, name, mode.flags | options.rawValue | O_CLOEXEC, mode_t(permissions))
    }
    return FileDescriptor(rawValue: fd)
  }

  /// fstatat(2) without following a symbolic link: what `name` in this folder is.
  public func status(of name: String) throws(Errno) -> FileStatus {
    var info = stat()
    try valueOrErrno { fstatat(rawValue, name, &info, AT_SYMLINK_NOFOLLOW) }
    return FileStatus(info)
  }

  /// readlinkat(2): where the symbolic link `name` in this folder points, as stored.
  public func destination(ofLink name: String) throws(Errno) -> [UInt8] {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = try valueOrErrno { readlinkat(rawValue, name, &buffer, buffer.count - 1) }
    return buffer[0..<length].map { UInt8(bitPattern: $0) }
  }

  /// renameat(2): `name` in this folder becomes `newName` in `folder`.
  public func rename(_ name: String, to newName: String, in folder: FileDescriptor) throws(Errno) {
    try valueOrErrno { renameat(rawValue, name, folder.rawValue, newName) }
  }

  /// linkat(2): the file `name` in this folder (a link there is not
  /// followed) gets a second name, `newName` in `folder`.
  public func link(_ name: String, to newName: String, in folder: FileDescriptor) throws(Errno) {
    try valueOrErrno { linkat(rawValue, name, folder.rawValue, newName, 0) }
  }

  /// unlinkat(2): removes `name` (not a folder) from this folder.
  public func remove(_ name: String) throws(Errno) {
    try valueOrErrno { unlinkat(rawValue, name, 0) }
  }

  /// unlinkat(2) with AT_REMOVEDIR: removes the folder `name` from this
  /// folder when it is empty (a symbolic link there fails with `notDirectory`).
  public func removeFolder(_ name: String) throws(Errno) {
    try valueOrErrno { unlinkat(rawValue, name, AT_REMOVEDIR) }
  }

  /// mkdirat(2); `permissions` is narrowed by the umask.
  public func makeFolder(_ name: String, permissions: UInt32) throws(Errno) {
    try valueOrErrno { mkdirat(rawValue, name, mode_t(permissions)) }
  }

  /// fchmodat(2) on `name` in this folder (following a link, which is all Linux can do).
  public func changePermissions(of name: String, to permissions: UInt32) throws(Errno) {
    try valueOrErrno { fchmodat(rawValue, name, mode_t(permissions), 0) }
  }

  /// The names in this folder (without `.` and `..`), in the order it lists
  /// them. The folder must be open for reading.
  public func names() throws(Errno) -> [String] {
    // fdopendir takes the descriptor it is given: give it its own.
    let own = try open(".", .readOnly, options: .directory)
    guard let directory = fdopendir(own.rawValue) else {
      let failure = Errno.current
      own.close()
      throw failure
    }
    defer { closedir(directory) }
    return FileSystem.entries(of: directory)
  }

  /// fsync(2) of this folder (open for reading): its entries are on disk
  /// when it returns. File systems that cannot sync a folder (EINVAL, EROFS)
  /// count as synced: the change itself has happened.
  public func syncEntries() throws(Errno) {
    do {
      try sync()
    } catch  where error == .invalidArgument || error == .readOnlyFileSystem {
    }
  }
}
