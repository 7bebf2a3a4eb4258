import SystemCalls

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

  /// `FILENOTE_VERSIONS` as given (nil: the default), read when a save keeps a version.
  public var versionsSetting: String? = nil

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
    return try DocumentsFolder(environment: environment).store(forNoteNamed: fileName)
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
    let modified: (seconds: Int64, nanoseconds: Int64)
    let changed: (seconds: Int64, nanoseconds: Int64)

    init(_ info: FileStatus) {
      device = info.device
      inode = info.inode
      size = info.size
      modified = info.modified
      changed = info.changed
    }

    public static func == (a: Version, b: Version) -> Bool {
      a.device == b.device && a.inode == b.inode && a.size == b.size
        && a.modified == b.modified && a.changed == b.changed
    }
  }

  /// Reads the note; nil when none is saved. A file that is not valid UTF-8,
  /// or not a regular file, is an error and is left untouched.
  public func read() throws(FilenoteError) -> Note? {
    let fd: FileDescriptor
    do {
      // O_NONBLOCK so that a FIFO in the note's place cannot hang us.
      fd = try FileDescriptor.open(path, .readOnly, options: .nonBlocking)
    } catch {
      if error == .noSuchFileOrDirectory { return nil }
      throw .system(.read, .file(path), errno: error)
    }
    defer { fd.close() }
    let info: FileStatus
    do { info = try fd.status() } catch {
      throw .system(.read, .file(path), errno: error)
    }
    guard info.kind == .regular else { throw .notARegularFile(path: path) }
    let bytes: [UInt8]
    do {
      bytes = try fd.readToEnd(sizeHint: Int(info.size))
    } catch {
      throw .system(.read, .file(path), errno: error)
    }
    if let offset = UTF8Validator.firstInvalidOffset(in: bytes) {
      throw .fileNotUTF8(path: path, offset: offset)
    }
    return Note(bytes: bytes, version: Version(info))
  }

  /// The note file's identity now, or nil when there is none.
  public func currentVersion() throws(FilenoteError) -> Version? {
    do {
      return Version(try FileSystem.status(path))
    } catch {
      if error == .noSuchFileOrDirectory { return nil }
      throw .system(.read, .file(path), errno: error)
    }
  }

  /// Removes the note (through a symbolic link, the file it points to, so the
  /// link stays for the next save). Returns false when there was none.
  @discardableResult
  public func clear() throws(FilenoteError) -> Bool {
    let target = try resolvedTarget()
    if (try? FileSystem.status(target, followingLinks: false))?.kind == .directory {
      throw .notARegularFile(path: target)
    }
    do {
      try FileSystem.remove(target)
    } catch {
      if error == .noSuchFileOrDirectory { return false }
      throw .system(.remove, .file(target), errno: error)
    }
    try Self.syncFolder(of: target, operation: .remove)
    return true
  }

  /// The file a save replaces: `path`, or where its chain of symbolic links
  /// ends (which may not exist yet).
  func resolvedTarget() throws(FilenoteError) -> String {
    var current = path
    for _ in 0..<40 {
      let info: FileStatus
      do {
        info = try FileSystem.status(current, followingLinks: false)
      } catch {
        if error == .noSuchFileOrDirectory { return current }
        throw .system(.use, .file(current), errno: error)
      }
      guard info.kind == .symbolicLink else { return current }
      let link: [UInt8]
      do {
        link = try FileSystem.destination(ofLink: current)
      } catch {
        throw .system(.readLink, .file(current), errno: error)
      }
      let destination = String(decoding: link, as: UTF8.self)
      current =
        destination.hasPrefix("/") ? destination : Self.folder(of: current) + "/" + destination
    }
    throw .system(.use, .file(path), errno: .tooManySymbolicLinkLevels)
  }

  /// Flushes a folder's entries to disk, so a rename or unlink in it survives a crash.
  static func syncFolder(
    of file: String, operation: FilenoteError.Operation
  ) throws(FilenoteError) {
    let folder = Self.folder(of: file)
    do {
      let fd = try FileDescriptor.open(folder, .readOnly, options: .directory)
      defer { fd.close() }
      do {
        try fd.sync()
      } catch  where error == .invalidArgument || error == .readOnlyFileSystem {
        // Some file systems cannot sync a folder; the rename itself has happened.
      }
    } catch {
      throw .system(operation, .file(file), errno: error)
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
    guard let folder = FileSystem.currentFolder() else { return path }
    return (folder == "/" ? "" : folder) + "/" + path
  }
}
