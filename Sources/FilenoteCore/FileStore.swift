#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Owns where the note lives and how it is read, saved and cleared.
///
/// The note is plain UTF-8 in one file, `datafile.dat` in the documents
/// folder unless `--file` or `FILENOTE_FILE` names another. Reading never
/// creates or changes anything; saving replaces the file atomically and
/// durably (see `FileStore+Saving.swift`).
public struct FileStore: Sendable {
  /// The note file's name in the documents folder.
  public static let fileName = "datafile.dat"

  /// The note file, as an absolute path (a symbolic link is not resolved here).
  public let path: String

  /// Whether a missing parent folder is created (mode 0700) on the first save:
  /// true for the documents folder, false for a file the user named, where a
  /// missing folder is more likely a typo than a wish.
  public let createsFolder: Bool

  public init(path: String, createsFolder: Bool = false) {
    self.path = Self.absolute(path)
    self.createsFolder = createsFolder
  }

  /// The store a command uses: `--file` wins over `FILENOTE_FILE`, which wins
  /// over `<documents>/datafile.dat`.
  /// Paths are kept as Swift strings, so one that is not UTF-8 (named in
  /// `nonUTF8Variables`, or a `--file` value that didn't decode) is refused.
  public static func resolve(
    fileOption: String?, environment: [String: String], nonUTF8Variables: Set<String> = []
  ) throws(FilenoteError) -> FileStore {
    func refuseNonUTF8(_ variables: String...) throws(FilenoteError) {
      for variable in variables where nonUTF8Variables.contains(variable) {
        throw .usage("cannot use the path in \(variable): it is not valid UTF-8")
      }
    }
    if let file = fileOption {
      return FileStore(path: file)
    }
    try refuseNonUTF8("FILENOTE_FILE")
    if let file = environment["FILENOTE_FILE"], !file.isEmpty {
      return FileStore(path: file)
    }
    try refuseNonUTF8("HOME", "XDG_CONFIG_HOME")
    let folder = DocumentsFolder(environment: environment).path
    return FileStore(path: join(folder, fileName), createsFolder: true)
  }

  /// `folder/name`, without doubling the slash of the root folder.
  static func join(_ folder: String, _ name: String) -> String {
    folder.hasSuffix("/") ? folder + name : folder + "/" + name
  }

  /// The note as it was read, with the file's identity at that moment so a
  /// later save can tell whether someone else changed it in between.
  public struct Note: Sendable {
    /// The file's bytes: valid UTF-8, exactly as stored.
    public var bytes: [UInt8]
    public let version: Version

    public var text: String { String(decoding: bytes, as: UTF8.self) }
  }

  /// What identifies one state of the note file: a save replaces the file,
  /// so its inode changes; an edit in place changes its size or times.
  public struct Version: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: timespec
    let changed: timespec

    init(_ info: stat) {
      device = UInt64(info.st_dev)
      inode = UInt64(info.st_ino)
      size = Int64(info.st_size)
      modified = info.st_mtim
      changed = info.st_ctim
    }

    public static func == (a: Version, b: Version) -> Bool {
      a.device == b.device && a.inode == b.inode && a.size == b.size
        && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
        && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
    }
  }

  /// Reads the note; nil when none is saved. A file that is not valid UTF-8,
  /// or not a regular file, is an error and is left untouched.
  public func read() throws(FilenoteError) -> Note? {
    let fd: FileDescriptor
    do {
      // O_NONBLOCK so that a FIFO in the note's place cannot hang us.
      fd = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK)
    } catch {
      if error == .noSuchFile { return nil }
      throw .system(action: "cannot read", path: path, errno: error)
    }
    defer { fd.close() }
    let info: stat
    do { info = try fd.status() } catch {
      throw .system(action: "cannot read", path: path, errno: error)
    }
    guard info.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(path: path) }
    let bytes: [UInt8]
    do {
      bytes = try fd.readToEnd(sizeHint: Int(info.st_size))
    } catch {
      throw .system(action: "cannot read", path: path, errno: error)
    }
    if let offset = UTF8Validator.firstInvalidOffset(in: bytes) {
      throw .fileNotUTF8(path: path, offset: offset)
    }
    return Note(bytes: bytes, version: Version(info))
  }

  /// The note file's identity now, or nil when there is none.
  public func currentVersion() throws(FilenoteError) -> Version? {
    var info = stat()
    if stat(path, &info) == 0 { return Version(info) }
    if errno == ENOENT { return nil }
    throw .system(action: "cannot read", path: path, errno: .current)
  }

  /// Removes the note (through a symbolic link, the file it points to, so the
  /// link stays for the next save). Returns false when there was none.
  @discardableResult
  public func clear() throws(FilenoteError) -> Bool {
    let target = try resolvedTarget()
    var info = stat()
    if lstat(target, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
      throw .notARegularFile(path: target)
    }
    if unlink(target) != 0 {
      if errno == ENOENT { return false }
      throw .system(action: "cannot remove", path: target, errno: .current)
    }
    try Self.syncFolder(of: target, action: "cannot remove")
    return true
  }

  /// The file a save replaces: `path`, or where its chain of symbolic links
  /// ends (which may not exist yet).
  func resolvedTarget() throws(FilenoteError) -> String {
    var current = path
    for _ in 0..<40 {
      var info = stat()
      guard lstat(current, &info) == 0 else {
        if errno == ENOENT { return current }
        throw .system(action: "cannot use", path: current, errno: .current)
      }
      guard info.st_mode & S_IFMT == S_IFLNK else { return current }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let length = readlink(current, &buffer, buffer.count - 1)
      guard length >= 0 else {
        throw .system(action: "cannot read link", path: current, errno: .current)
      }
      let destination = String(
        decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      current =
        destination.hasPrefix("/") ? destination : Self.folder(of: current) + "/" + destination
    }
    throw .system(action: "cannot use", path: path, errno: Errno(ELOOP))
  }

  /// Flushes a folder's entries to disk, so a rename or unlink in it survives a crash.
  static func syncFolder(of file: String, action: String) throws(FilenoteError) {
    let folder = Self.folder(of: file)
    do {
      let fd = try FileDescriptor.open(folder, O_RDONLY | O_DIRECTORY)
      defer { fd.close() }
      do {
        try fd.sync()
      } catch  where error.code == EINVAL || error.code == EROFS {
        // Some file systems cannot sync a folder; the rename itself has happened.
      }
    } catch {
      throw .system(action: action, path: file, errno: error)
    }
  }

  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  static func baseName(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }

  static func absolute(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    guard let cwd = getcwd(nil, 0) else { return path }
    defer { free(cwd) }
    let folder = String(cString: cwd)
    return (folder == "/" ? "" : folder) + "/" + path
  }
}
