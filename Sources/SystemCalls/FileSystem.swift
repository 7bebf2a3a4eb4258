import Glibc

/// The file system calls filenote makes on paths, each turning a failure into
/// an `Errno`.
public enum FileSystem {
  /// stat(2) (`followingLinks`) or lstat(2).
  public static func status(_ path: String, followingLinks: Bool = true) throws(Errno)
    -> FileStatus
  {
    var info = stat()
    if followingLinks {
      try valueOrErrno { stat(path, &info) }
    } else {
      try valueOrErrno { lstat(path, &info) }
    }
    return FileStatus(info)
  }

  /// readlink(2): where the symbolic link at `path` points, as stored.
  public static func destination(ofLink path: String) throws(Errno) -> [UInt8] {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = try valueOrErrno { readlink(path, &buffer, buffer.count - 1) }
    return buffer[0..<length].map { UInt8(bitPattern: $0) }
  }

  /// rename(2)
  public static func rename(_ source: String, to destination: String) throws(Errno) {
    try valueOrErrno { Glibc.rename(source, destination) }
  }

  /// unlink(2)
  public static func remove(_ path: String) throws(Errno) {
    try valueOrErrno { unlink(path) }
  }

  /// link(2): a second name for the same file.
  public static func link(_ existing: String, as newPath: String) throws(Errno) {
    try valueOrErrno { Glibc.link(existing, newPath) }
  }

  /// rmdir(2): removes the folder at `path` when it is empty (a symbolic
  /// link there fails with `notDirectory`).
  public static func removeFolder(_ path: String) throws(Errno) {
    try valueOrErrno { rmdir(path) }
  }

  /// mkdir(2); `permissions` is narrowed by the umask.
  public static func makeFolder(_ path: String, permissions: UInt32) throws(Errno) {
    try valueOrErrno { mkdir(path, mode_t(permissions)) }
  }

  /// mkdtemp(3): a new folder named `prefix` followed by six random
  /// characters, mode 0700 (only its owner may enter it); returns its path.
  public static func makeTemporaryFolder(prefix: String) throws(Errno) -> String {
    var template = Array((prefix + "XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
      mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
    }
    guard let made else { throw Errno.current }
    return made
  }

  /// chmod(2)
  public static func changePermissions(_ path: String, to permissions: UInt32) throws(Errno) {
    try valueOrErrno { chmod(path, mode_t(permissions)) }
  }

  /// Whether this process may execute `path` (access(2) with X_OK).
  public static func isExecutable(_ path: String) -> Bool {
    access(path, X_OK) == 0
  }

  /// The current working folder, or nil when it cannot be named.
  public static func currentFolder() -> String? {
    guard let cwd = getcwd(nil, 0) else { return nil }
    defer { free(cwd) }
    return String(cString: cwd)
  }

  /// The names in `folder` (without `.` and `..`), in the order the folder
  /// lists them.
  public static func names(in folder: String) throws(Errno) -> [String] {
    guard let directory = opendir(folder) else { throw Errno.current }
    defer { closedir(directory) }
    return entries(of: directory)
  }

  /// The names an open directory stream lists, without `.` and `..`.
  static func entries(of directory: OpaquePointer) -> [String] {
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }
}
