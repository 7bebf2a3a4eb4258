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
  /// The note's folder's path, for messages.
  let noteFolderPath: String
  /// The versions folder's name in `noteFolder`.
  let folderName: String
  /// The versions folder's path, for messages (the note's is `note`).
  let folderPath: String
  /// How many versions a save keeps; 0 keeps no new one and removes none.
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
    noteFolderPath = folderPath
    note = FileStore.join(noteFolderPath, noteName)
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
    folderName = "." + shortened + ".versions"
    self.folderPath = FileStore.join(noteFolderPath, folderName)
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

  /// `noteStatus`, refused when it is not a regular file (a folder, a FIFO,
  /// a device), as every command refuses to read such a note.
  func regularNoteStatus() throws(FilenoteError) -> FileStatus? {
    guard let status = noteStatus else { return nil }
    guard status.kind == .regular else { throw .notARegularFile(path: note) }
    return status
  }

  /// Whether there is a note file to keep (`holdsNote`): the folder is
  /// made only then, so a save that is refused for another reason (the
  /// note is a folder, say) leaves nothing behind.
  var hasNote: Bool { noteStatus?.holdsNote == true }

  /// Opens the versions folder, never through a symbolic link, and checks
  /// that it is the user's own and closed to others; nil when there is none.
  /// The descriptor is the caller's to close.
  func open() throws(FilenoteError) -> FileDescriptor? {
    let folder: FileDescriptor
    do {
      folder = try noteFolder.open(folderName, .readOnly, options: [.directory, .noFollow])
    } catch {
      if error == .noSuchFileOrDirectory { return nil }
      guard error == .tooManySymbolicLinkLevels || error == .notDirectory,
        let info = try? noteFolder.status(of: folderName)
      else { throw .system(.read, .file(folderPath), errno: error) }
      throw .versionsFolderUnsafe(
        path: folderPath, reason: info.kind == .symbolicLink ? .symbolicLink : .notAFolder)
    }
    let info: FileStatus
    do { info = try folder.status() } catch {
      folder.close()
      throw .system(.read, .file(folderPath), errno: error)
    }
    var reason: FilenoteError.UnsafeFolderReason?
    if info.owner != CurrentProcess.effectiveUser {
      reason = .ownedByAnotherUser(info.owner)
    } else if ModeChange.isOpenToOthers(info.permissions) && !mayUseOpen(folder, info) {
      reason = .openToOthers(permissions: info.permissions)
    }
    if let reason {
      folder.close()
      throw .versionsFolderUnsafe(path: folderPath, reason: reason)
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
    do { return try folder.names() } catch { throw .system(.read, .file(folderPath), errno: error) }
  }

  /// `entries(in:)` of the names a listing of `folder` gave. A name that
  /// vanished since the listing (pruned by another machine's filenote, or
  /// removed by a sync engine) is simply not there.
  ///
  /// A sync engine's conflict copy of a version is one too, marked: two
  /// machines on which an older filenote kept different texts under the
  /// same `<sequence>-<seconds>` name left one of them only there.
  func entries(named names: [String], in folder: FileDescriptor) -> [KeptVersion] {
    var entries: [KeptVersion] = []
    var others: [String] = []
    for name in names {
      guard let parsed = VersionName(name) else {
        if !KeptVersion.isCopy(name) { others.append(name) }
        continue
      }
      guard let info = try? folder.status(of: name), info.kind == .regular else { continue }
      var conflict: ConflictCopyName? = nil
      if case .settled(let engine, let origin) = parsed.form {
        conflict = ConflictCopyName(engine: engine, origin: origin)
      }
      let kept = parsed.keptSeconds.map { ($0, parsed.keptNanoseconds) }
      entries.append(KeptVersion(name: name, conflict: conflict, status: info, kept: kept))
    }
    let versions = entries
    for name in others {
      for version in versions {
        guard let copy = ConflictCopyName(name, copyOf: version.name) else { continue }
        if let info = try? folder.status(of: name), info.kind == .regular {
          entries.append(KeptVersion(name: name, conflict: copy, status: info))
        }
        break
      }
    }
    return KeptVersion.newestFirst(entries)
  }

  /// The sync engines' conflict copies of the note beside it, not settled
  /// yet: regular files of this user's (never followed through a link,
  /// looked up in the note's open folder as the note is), named exactly as
  /// an engine names a copy of this note and of no longer note in the
  /// folder (see `ConflictCopyName`). Empty when the folder cannot be read.
  func conflictCopies() -> [KeptVersion] {
    guard let names = try? noteFolder.names() else { return [] }
    let length = noteName.utf8.count
    var copies: [KeptVersion] = []
    for name in names where name.utf8.count > length {
      guard let copy = ConflictCopyName(name, copyOf: noteName),
        let info = try? noteFolder.status(of: name), info.kind == .regular,
        info.owner == CurrentProcess.effectiveUser,
        !ConflictCopyName.belongsToLongerNote(name, copyOf: noteName, among: names)
      else { continue }
      copies.append(KeptVersion(name: name, place: .noteFolder, conflict: copy, status: info))
    }
    return copies
  }

  /// The versions as `history` numbers them (1 is the newest), with the
  /// note's unsettled conflict copies among them (`conflictCopies()`), by
  /// the time their text was saved. `folder` is the versions folder, nil
  /// when there is none. Without the current note's file (which is there
  /// only between keeping it and replacing it: a writer killed at that
  /// moment leaves it), each file once, and each text once (see `distinct`).
  func listed(in folder: FileDescriptor?) throws(FilenoteError) -> [KeptVersion] {
    let entries = try folder.map { folder throws(FilenoteError) in try self.entries(in: folder) }
    return listed(entries: entries ?? [], in: folder)
  }

  /// `listed(in:)` of the versions a listing of `folder` found.
  func listed(entries: [KeptVersion], in folder: FileDescriptor?) -> [KeptVersion] {
    var all = entries
    let copies = conflictCopies()
    if !copies.isEmpty || entries.contains(where: { $0.conflict != nil }) {
      all = KeptVersion.interleaving(
        KeptVersion.newestFirst(all.filter { $0.conflict != nil } + copies),
        into: all.filter { $0.conflict == nil })
    }
    if let current = noteStatus { all.removeAll { $0.isFile(current) } }
    return distinct(all, in: folder)
  }

  /// `versions` (newest first) with each file and each text once. A text
  /// kept more than once is listed where it was saved last: two machines
  /// that each kept the note they had from the other each keep a file of
  /// it, which the engine brings to both, and a text saved again is the
  /// same text. Of two that hold one text, an unsettled copy is the one
  /// listed (so the conflict is still shown, and settled), else a marked
  /// one. Only files whose size another has are read: their first 4 KiB
  /// once, and the whole of two only when those are alike.
  func distinct(_ versions: [KeptVersion], in folder: FileDescriptor?) -> [KeptVersion] {
    var kept: [KeptVersion] = []
    // The first bytes of each of `kept` once read, by index: two texts that
    // differ there (nearly all) are told apart without reading more.
    var beginnings: [[UInt8]?] = []
    kept.reserveCapacity(versions.count)
    func rank(_ version: KeptVersion) -> Int {
      version.isUnsettledCopy ? 2 : version.conflict != nil ? 1 : 0
    }
    let limit = Int(Self.comparedBeginning)
    for version in versions {
      var twin: Int? = nil
      var beginning: [UInt8]? = nil
      for index in kept.indices where kept[index].size == version.size {
        if kept[index].isSameFile(as: version) {
          twin = index
          break
        }
        if beginnings[index] == nil {
          beginnings[index] = self.beginning(of: kept[index], in: folder, limit: limit)
        }
        if beginning == nil { beginning = self.beginning(of: version, in: folder, limit: limit) }
        guard let beginning, beginning == beginnings[index] else { continue }
        if version.size <= Self.comparedBeginning
          || sameBytes(kept[index], version, in: folder)
        {
          twin = index
          break
        }
      }
      guard let twin else {
        kept.append(version)
        beginnings.append(beginning)
        continue
      }
      if rank(version) > rank(kept[twin]) {
        kept[twin] = version
        beginnings[twin] = beginning
      }
    }
    return kept
  }

  /// Whether `a` and `b` (in the versions folder `folder` or beside the
  /// note) hold the same bytes, each named relative to its open folder.
  private func sameBytes(_ a: KeptVersion, _ b: KeptVersion, in folder: FileDescriptor?) -> Bool {
    guard let aFolder = a.place == .versions ? folder : noteFolder,
      let bFolder = b.place == .versions ? folder : noteFolder
    else { return false }
    return VersionWriter.sameBytes((aFolder, a.name), (bFolder, b.name))
  }

  /// How much of two texts of one size `distinct` reads first; only when
  /// that much is alike are larger ones compared whole.
  static let comparedBeginning: Int64 = 4096

  /// The bytes of version `number` (1 is the newest, as `listed` numbers
  /// them), which must be UTF-8.
  func read(number: Int) throws(FilenoteError) -> [UInt8] {
    // A writer (or a sync engine) may remove the version between the
    // listing and the read: list again rather than fail.
    for _ in 0..<3 {
      let folder = try open()
      defer { folder?.close() }
      let versions = try listed(in: folder)
      guard number >= 1, number <= versions.count else {
        throw .noVersion(number: number, kept: versions.count, note: note)
      }
      do {
        return try read(versions[number - 1], in: folder)
      } catch .system(_, _, let errno) where errno == .noSuchFileOrDirectory {
        continue
      }
    }
    throw .noVersion(number: number, kept: 0, note: note)
  }

  /// The path of `version`'s file, for messages and for comparing it.
  func path(of version: KeptVersion) -> String {
    FileStore.join(version.place == .versions ? folderPath : noteFolderPath, version.name)
  }

  /// The bytes of `version`, whose folder is the versions folder `folder`
  /// or the note's, refused when they are not UTF-8.
  func read(_ version: KeptVersion, in folder: FileDescriptor?) throws(FilenoteError) -> [UInt8] {
    guard version.place == .versions else {
      return try read(version.name, in: noteFolder, path: path(of: version))
    }
    guard let folder else {
      throw .system(
        .read, .file(FileStore.join(folderPath, version.name)), errno: .noSuchFileOrDirectory)
    }
    return try read(version.name, in: folder)
  }

  /// The bytes of the version file `name`, never through a link, refused
  /// when they are not UTF-8.
  func read(_ name: String, in folder: FileDescriptor) throws(FilenoteError) -> [UInt8] {
    try read(name, in: folder, path: FileStore.join(folderPath, name))
  }

  /// The bytes of the file `name` in `folder` (`file` is its path, for
  /// messages), never through a link, refused when they are not UTF-8.
  private func read(
    _ name: String, in folder: FileDescriptor, path file: String
  ) throws(FilenoteError) -> [UInt8] {
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

  /// Up to `limit` bytes from the start of `version` (in the versions
  /// folder `folder` or beside the note); nil when it cannot be opened,
  /// removed since it was listed (a listing shows what is there).
  func beginning(of version: KeptVersion, in folder: FileDescriptor?, limit: Int) -> [UInt8]? {
    guard let folder = version.place == .versions ? folder : noteFolder else { return nil }
    return beginning(of: version.name, in: folder, limit: limit)
  }

  /// Up to `limit` bytes from the start of the file `name` in `folder`;
  /// nil when it cannot be opened.
  func beginning(of name: String, in folder: FileDescriptor, limit: Int) -> [UInt8]? {
    guard let fd = try? folder.open(name, .readOnly, options: [.nonBlocking, .noFollow])
    else { return nil }
    defer { fd.close() }
    var bytes = [UInt8](repeating: 0, count: limit)
    let count = bytes.withUnsafeMutableBytes { (try? fd.read(into: $0)) ?? 0 }
    return Array(bytes[0..<count])
  }
}
