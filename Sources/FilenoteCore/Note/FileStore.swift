import SystemCalls

/// Owns where the note lives and how it is read, saved and cleared.
///
/// The note is plain UTF-8 in one file, `datafile.dat` in the documents
/// folder unless `--file` or `FILENOTE_FILE` names another. Reading never
/// creates or changes anything; saving replaces the file atomically and
/// durably (see `FileStore+Saving.swift`).
struct FileStore: Sendable {
  /// The note file's name in the documents folder.
  static let fileName = "datafile.dat"

  /// The note file, as an absolute path without "." names or doubled
  /// slashes (a symbolic link is not resolved here).
  let path: String

  /// Whether a missing parent folder is created (mode 0700) on the first save:
  /// true for the documents folder, false for a file the user named, where a
  /// missing folder is more likely a typo than a wish.
  let createsFolder: Bool

  /// How many versions a save keeps (`FILENOTE_VERSIONS`, read by
  /// `resolve`); 0 keeps no new one and removes none.
  var versionCount = VersionStore.defaultCount

  /// Whether a save keeps the note it replaces as a version; false for
  /// `save --no-version`, which keeps nothing of it.
  var keepsReplacedNote = true

  /// Where storage puts what it has to tell the user, for the command to
  /// say (storage never prints): the command's, set by `resolve`.
  var notices = Notices()

  init(path: String, createsFolder: Bool = false) {
    self.path = Self.absolute(path)
    self.createsFolder = createsFolder
  }

  /// The store a command or the prompt uses, from the command line and the
  /// environment; the only place either is read for it. The note is where
  /// `--file` says, else `FILENOTE_FILE`, else `<documents>/datafile.dat`.
  /// Paths are kept as Swift strings, so one that is not UTF-8 (in a
  /// variable whose value is not, or a `--file` value that didn't decode) is refused.
  ///
  /// `FILENOTE_VERSIONS` sets `versionCount`; a value that is not a count is
  /// refused here, before anything is read, written or asked, so it never
  /// costs the user what they typed. `ignoringVersionCount`: for a command
  /// that never keeps a version (`show`), which then leaves it unread.
  /// `notices`: where storage puts what the command is to say when done.
  static func resolve(
    fileOption: String?, environment: Environment, ignoringVersionCount: Bool = false,
    notices: Notices
  ) throws(FilenoteError) -> FileStore {
    let versionCount =
      ignoringVersionCount
      ? VersionStore.defaultCount
      : try VersionStore.count(fromSetting: environment["FILENOTE_VERSIONS"])
    var store = try resolvePath(fileOption: fileOption, environment: environment)
    store.versionCount = versionCount
    store.notices = notices
    return store
  }

  /// `resolve`'s note file.
  private static func resolvePath(
    fileOption: String?, environment: Environment
  ) throws(FilenoteError) -> FileStore {
    func refuseNonUTF8(_ variables: String...) throws(FilenoteError) {
      for variable in variables where environment.isNotUTF8(variable) {
        throw .usage("cannot use the path in \(variable): it is not valid UTF-8")
      }
    }
    // A path that ends in "/" names a folder, as the kernel reads it (`cat
    // note.txt/` says "Not a directory"): refused, not taken for the file
    // before the slash.
    func store(_ file: String) throws(FilenoteError) -> FileStore {
      if file.count > 1 && file.endsWithSlash { throw .notARegularFile(path: file) }
      return FileStore(path: file)
    }
    if let file = fileOption {
      return try store(file)
    }
    try refuseNonUTF8("FILENOTE_FILE")
    if let file = environment["FILENOTE_FILE"], !file.isEmpty {
      return try store(file)
    }
    try refuseNonUTF8("HOME", "XDG_CONFIG_HOME")
    return try DocumentsFolder(environment: environment).store(forNoteNamed: fileName)
  }

  /// `folder/name`, without doubling the slash of the root folder.
  static func join(_ folder: String, _ name: String) -> String {
    folder.endsWithSlash ? folder + name : folder + "/" + name
  }

  /// The note as it was read, with the file's identity at that moment so a
  /// later save can tell whether someone else changed it in between.
  struct Contents: Sendable {
    /// The file's bytes: valid UTF-8, exactly as stored.
    var bytes: [UInt8]
    let identity: Identity

    var text: String { String(decoding: bytes, as: UTF8.self) }
  }

  /// What identifies one state of the note file: a save replaces the file,
  /// so its inode changes; an edit in place changes its size or times.
  struct Identity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: (seconds: Int64, nanoseconds: Int64)
    let changed: (seconds: Int64, nanoseconds: Int64)

    /// The identity of a note file whose status is `info`; nil for a
    /// regular file of 0 bytes, which is no note (`holdsNote`).
    init?(ofNote info: FileStatus) {
      guard info.kind != .regular || info.holdsNote else { return nil }
      self.init(info)
    }

    init(_ info: FileStatus) {
      device = info.device
      inode = info.inode
      size = info.size
      modified = info.modified
      changed = info.changed
    }

    static func == (a: Identity, b: Identity) -> Bool {
      a.device == b.device && a.inode == b.inode && a.size == b.size
        && a.modified == b.modified && a.changed == b.changed
    }
  }

  /// Reads the note; nil when none is saved. A file that is not valid UTF-8,
  /// or not a regular file, is an error and is left untouched. Readers never
  /// take the writer lock.
  func read() throws(FilenoteError) -> Contents? {
    guard let (fd, info, path) = try open() else { return nil }
    defer { fd.close() }
    return try Self.readNote(fd, info: info, path: path)
  }

  /// The note file open for reading, its status and its path (where its
  /// links end); nil when no note is saved. The descriptor is the caller's
  /// to close. For a reader that needs only the beginning (`show --line`).
  func open() throws(FilenoteError) -> (FileDescriptor, FileStatus, path: String)? {
    guard let location = try NoteLocation.resolve(path, missingFolder: nil),
      let status = location.status
        ?? EngineReplacement.awaitNote(location.name, in: location.folder)
    else { return nil }
    return try Self.openNote(
      location.name, in: location.folder, path: location.path, status: status)
  }

  /// Reads the note file `name` in `folder`, which the walk found as `status`.
  static func readNote(
    _ name: String, in folder: FileDescriptor, path: String, status: FileStatus
  ) throws(FilenoteError) -> Contents? {
    guard let (fd, info, path) = try openNote(name, in: folder, path: path, status: status)
    else { return nil }
    defer { fd.close() }
    return try readNote(fd, info: info, path: path)
  }

  /// The whole note from `fd`, checked; nil when it turned out empty.
  private static func readNote(
    _ fd: FileDescriptor, info: FileStatus, path: String
  ) throws(FilenoteError) -> Contents? {
    let bytes: [UInt8]
    do {
      bytes = try fd.readToEnd(sizeHint: Int(info.size))
    } catch {
      throw .system(.read, .file(path), errno: error)
    }
    guard !bytes.isEmpty else { return nil }
    if let offset = UTF8Validator.firstInvalidOffset(in: bytes) {
      throw .fileNotUTF8(path: path, offset: offset)
    }
    return Contents(bytes: bytes, identity: Identity(info))
  }

  /// Opens the note file `name` in `folder`, which the walk found as
  /// `status`; nil when there is no note. Every reader of the note comes
  /// here, so this is where the one rule for an empty file is kept: a file
  /// of 0 bytes (made by `touch`, or by another tool) is no note, as `save`
  /// never writes one (`holdsNote`).
  private static func openNote(
    _ name: String, in folder: FileDescriptor, path: String, status: FileStatus
  ) throws(FilenoteError) -> (FileDescriptor, FileStatus, path: String)? {
    // Checked before the open: opening a device can do something (a tape rewinds).
    guard status.kind == .regular else { throw .notARegularFile(path: path) }
    let fd: FileDescriptor
    do {
      // nonBlocking: a FIFO swapped in meanwhile cannot hang us; noFollow:
      // nor can a link redirect the read.
      fd = try folder.open(name, .readOnly, options: [.nonBlocking, .noFollow])
    } catch {
      if error == .noSuchFileOrDirectory { return nil }
      throw .system(.read, .file(path), errno: error)
    }
    let info: FileStatus
    do { info = try fd.status() } catch {
      fd.close()
      throw .system(.read, .file(path), errno: error)
    }
    guard info.kind == .regular else {
      fd.close()
      throw .notARegularFile(path: path)
    }
    guard info.holdsNote else {
      fd.close()
      return nil
    }
    return (fd, info, path)
  }

  /// The note file's identity now, or nil when there is none (nor a note:
  /// a 0-byte file, which a save then replaces without asking).
  func currentIdentity() throws(FilenoteError) -> Identity? {
    guard let location = try NoteLocation.resolve(path, missingFolder: nil) else { return nil }
    let status =
      location.status ?? EngineReplacement.awaitNote(location.name, in: location.folder)
    return status.flatMap(Identity.init(ofNote:))
  }

  /// Runs `body` holding the note's writer lock (see `WriterLock`), with the
  /// note resolved and its folder open. Every writer changes the note only
  /// inside it; the lock is held until `body` returns. Waits up to
  /// `WriterLock.timeoutSeconds` for another writer, then fails with
  /// `lockTimeout`.
  func withWriterLock<Result>(
    _ body: (LockedTarget) throws(FilenoteError) -> Result
  ) throws(FilenoteError) -> Result {
    try WriteTarget(self).withLock(body)
  }

  static func folder(of path: String) -> String {
    guard let (folder, _) = path.splitAtLastSlash else { return "." }
    return folder.isEmpty ? "/" : folder
  }

  /// `path` from the current folder, cleanly joined (`cleanedPath`), so
  /// messages show `/work/note.txt` for `--file ./note.txt`.
  static func absolute(_ path: String) -> String {
    if path.isAbsolutePath { return path.cleanedPath }
    guard let folder = FileSystem.currentFolder() else { return path.cleanedPath }
    return ((folder == "/" ? "" : folder) + "/" + path).cleanedPath
  }
}
