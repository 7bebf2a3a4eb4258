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

  /// unlink(2)
  public static func remove(_ path: String) throws(Errno) {
    try valueOrErrno { unlink(path) }
  }

  /// rmdir(2): removes the folder at `path` when it is empty (a symbolic
  /// link there fails with `notDirectory`).
  public static func removeFolder(_ path: String) throws(Errno) {
    try valueOrErrno { rmdir(path) }
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
