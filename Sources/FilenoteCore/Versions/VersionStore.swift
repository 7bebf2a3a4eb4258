import SystemCalls

/// The versions of one note: the files in the hidden folder `.NAME.versions`
/// beside the note file (beside a symbolic link's target, since that is the
/// file a save replaces). How versions are kept is `VersionWriter`'s; this is
/// what readers (`history`, `show N`) use, and they never take the lock.
///
/// The versions folder is found as the note is: by name in the note's
/// folder, which `NoteLocation` walked to and holds open, never by path. It
/// is used only when it is a real folder (never followed through a link),
/// owned by the user and closed to everyone else (doc/DESIGN.md, Versions): a planted folder or link
/// cannot redirect a read, a keep or a removal. Every name in it is looked
/// up relative to the open folder.
struct VersionStore {
  /// Versions kept when `FILENOTE_VERSIONS` does not say.
  static let defaultCount = 100
  /// The most the versions may take together by default (64 MiB).
  static let defaultMaximumTotalSize: Int64 = 64 << 20

  /// The folder that holds the note and its versions folder, open (for
  /// reading when a writer made this store, so it can be synced).
  let noteFolder: FileDescriptor
  /// The note file's name in `noteFolder`.
  let noteName: String
  /// The note file whose versions these are (where its links end), for messages.
  let note: String
  /// The versions folder's name in `noteFolder`.
  let name: String
  /// The versions folder's path, for messages.
  let path: String
  /// How many versions a save keeps; 0 keeps none and removes the kept ones.
  let count: Int
  /// The most the versions may take together; the newest is kept even when
  /// it alone is larger.
  let maximumTotalSize: Int64
  /// What keeps `noteFolder` open as long as this store: the walk's
  /// `NoteLocation` for a reader, the `WritableNote` for a writer.
  private let owner: AnyObject

  /// The versions of the note a reader found at `location`.
  init(of location: NoteLocation, count: Int = defaultCount) {
    self.init(
      folder: location.folder, folderPath: location.folderPath, noteName: location.name,
      count: count, maximumTotalSize: Self.defaultMaximumTotalSize, owner: location)
  }

  /// The versions of the note a writer holds (its folder open for reading).
  init(
    of note: WritableNote, count: Int = defaultCount,
    maximumTotalSize: Int64 = defaultMaximumTotalSize
  ) {
    self.init(
      folder: note.folder, folderPath: note.location.folderPath, noteName: note.location.name,
      count: count, maximumTotalSize: maximumTotalSize, owner: note)
  }

  private init(
    folder: FileDescriptor, folderPath: String, noteName: String, count: Int,
    maximumTotalSize: Int64, owner: AnyObject
  ) {
    noteFolder = folder
    self.noteName = noteName
    note = FileStore.join(folderPath, noteName)
    // `.` and `.versions` add 10 bytes: a name near the file system's 255 is
    // shortened (by whole characters) so any note that can be saved has versions.
    var used = 0
    // String(_:), not `"." + substring`: that generic append makes the
    // runtime look up a conformance by scanning them all, on every save
    // (see CONTRIBUTING.md, Hot path).
    let shortened = String(
      noteName.prefix { character in
        used += character.utf8.count
        return used <= 240
      })
    name = "." + shortened + ".versions"
    path = FileStore.join(folderPath, name)
    self.count = count
    self.maximumTotalSize = maximumTotalSize
    self.owner = owner
  }

  /// The count `FILENOTE_VERSIONS` sets: digits only; empty or unset is the default.
  static func count(fromSetting setting: String?) throws(FilenoteError) -> Int {
    guard let setting, !setting.isEmpty else { return defaultCount }
    guard setting.utf8.count <= 9,
      setting.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      let count = Int(setting)
    else { throw .invalidVersionCount(setting) }
    return count
  }

  /// What the note's name is now (never following a link); nil when missing.
  var noteStatus: FileStatus? { try? noteFolder.status(of: noteName) }

  /// Whether there is a note file to keep (a regular file): the folder is
  /// made only then, so a save that is refused for another reason (the
  /// note is a folder, say) leaves nothing behind.
  var hasNote: Bool { noteStatus?.kind == .regular }

  /// Opens the versions folder, never through a symbolic link, and checks
  /// that it is the user's own and closed to others; nil when there is none.
  /// The descriptor is the caller's to close.
  func open() throws(FilenoteError) -> FileDescriptor? {
    let folder: FileDescriptor
    do {
      folder = try noteFolder.open(name, .readOnly, options: [.directory, .noFollow])
    } catch {
      if error == .noSuchFileOrDirectory { return nil }
      guard error == .tooManySymbolicLinkLevels || error == .notDirectory,
        let info = try? noteFolder.status(of: name)
      else { throw .system(.read, .file(path), errno: error) }
      throw .versionsFolderUnsafe(
        path: path, reason: info.kind == .symbolicLink ? .symbolicLink : .notAFolder)
    }
    let info: FileStatus
    do { info = try folder.status() } catch {
      folder.close()
      throw .system(.read, .file(path), errno: error)
    }
    var reason: FilenoteError.UnsafeFolderReason?
    if info.owner != CurrentProcess.effectiveUser {
      reason = .ownedByAnotherUser(info.owner)
    } else if ModeChange.isOpenToOthers(info.permissions) && !mayUseOpen(folder, info) {
      reason = .openToOthers(permissions: info.permissions)
    }
    if let reason {
      folder.close()
      throw .versionsFolderUnsafe(path: path, reason: reason)
    }
    return folder
  }

  /// Whether `folder`, the user's own but open to others (`info`), shows
  /// that mode only because its file system cannot narrow it (exFAT, NTFS
  /// without permissions, FAT: every file shows the mount's mode), and is no
  /// more open than the note beside it (or, with none, the note's folder).
  /// Asking for 0700 is how to know; where that works, the folder was open
  /// on a file system that keeps modes, and it gets its mode back and is
  /// refused (someone else may have put files in it).
  private func mayUseOpen(_ folder: FileDescriptor, _ info: FileStatus) -> Bool {
    guard
      let beside = noteStatus?.permissions ?? (try? noteFolder.status())?.permissions,
      ModeChange.versionsFolderMayBeUsed(
        folder: info.permissions, note: beside, narrowing: .refused)
    else { return false }
    let narrowing: ModeChange
    do { narrowing = try ModeChange.change(folder, to: 0o700) } catch {
      // A read-only mount cannot narrow it either, and nothing can be put
      // in it there: `history` and `show N` of a stick mounted read-only.
      guard error == .readOnlyFileSystem else { return false }
      narrowing = .refused
    }
    if narrowing == .stored { try? folder.changePermissions(info.permissions) }
    return ModeChange.versionsFolderMayBeUsed(
      folder: info.permissions, note: beside, narrowing: narrowing)
  }

  /// Every version in `folder` with a name filenote writes and a regular
  /// file behind it, newest first, the current note's own file included
  /// (see `listed(in:)`).
  func entries(in folder: FileDescriptor) throws(FilenoteError) -> [KeptVersion] {
    try entries(named: names(in: folder), in: folder)
  }

  /// Every name in `folder`.
  func names(in folder: FileDescriptor) throws(FilenoteError) -> [String] {
    do { return try folder.names() } catch { throw .system(.read, .file(path), errno: error) }
  }

  /// `entries(in:)` of the names a listing of `folder` gave.
  func entries(named names: [String], in folder: FileDescriptor) -> [KeptVersion] {
    var entries: [KeptVersion] = []
    for name in names {
      guard let sequence = KeptVersion.sequence(ofName: name),
        let info = try? folder.status(of: name), info.kind == .regular
      else { continue }
      entries.append(KeptVersion(name: name, sequence: sequence, status: info))
    }
    return KeptVersion.newestFirst(entries)
  }

  /// The versions as `history` numbers them (1 is the newest): the entries
  /// without the current note's file, which is there only between keeping
  /// it and replacing it (a writer killed at that moment leaves it).
  func listed(in folder: FileDescriptor) throws(FilenoteError) -> [KeptVersion] {
    let entries = try entries(in: folder)
    guard let current = noteStatus else { return entries }
    return entries.filter { !$0.isFile(current) }
  }

  /// The bytes of version `number` (1 is the newest), which must be UTF-8.
  func read(number: Int) throws(FilenoteError) -> [UInt8] {
    // A writer may prune the version between the listing and the read:
    // list again rather than fail.
    for _ in 0..<3 {
      guard let folder = try open() else { throw .noVersion(number: number, kept: 0, note: note) }
      defer { folder.close() }
      let versions = try listed(in: folder)
      guard number >= 1, number <= versions.count else {
        throw .noVersion(number: number, kept: versions.count, note: note)
      }
      let name = versions[number - 1].name
      do {
        return try read(name, in: folder)
      } catch .system(_, _, let errno) where errno == .noSuchFileOrDirectory {
        continue
      }
    }
    throw .noVersion(number: number, kept: 0, note: note)
  }

  /// The bytes of the version file `name`, never through a link, refused
  /// when they are not UTF-8.
  func read(_ name: String, in folder: FileDescriptor) throws(FilenoteError) -> [UInt8] {
    let file = FileStore.join(path, name)
    let fd: FileDescriptor
    do { fd = try folder.open(name, .readOnly, options: [.nonBlocking, .noFollow]) } catch {
      throw .system(.read, .file(file), errno: error)
    }
    defer { fd.close() }
    let bytes: [UInt8]
    do throws(Errno) {
      guard try fd.status().kind == .regular else { throw Errno.invalidArgument }
      bytes = try fd.readToEnd()
    } catch {
      throw .system(.read, .file(file), errno: error)
    }
    if let offset = UTF8Validator.firstInvalidOffset(in: bytes) {
      throw .fileNotUTF8(path: file, offset: offset)
    }
    return bytes
  }

  /// Up to `limit` bytes from the start of version `name`; empty when it
  /// cannot be read (a listing shows what it can).
  func beginning(of name: String, in folder: FileDescriptor, limit: Int) -> [UInt8] {
    guard let fd = try? folder.open(name, .readOnly, options: [.nonBlocking, .noFollow])
    else { return [] }
    defer { fd.close() }
    var bytes = [UInt8](repeating: 0, count: limit)
    let count = bytes.withUnsafeMutableBytes { (try? fd.read(into: $0)) ?? 0 }
    return Array(bytes[0..<count])
  }
}

extension KeptVersion {
  /// Whether this version is the file `info` describes.
  func isFile(_ info: FileStatus) -> Bool {
    inode == info.inode && device == info.device
  }
}
