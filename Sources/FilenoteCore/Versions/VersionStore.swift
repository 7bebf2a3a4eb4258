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
  /// `NoteLocation` for a reader, the `WriteTarget` for a writer.
  private let owner: AnyObject
  /// Where what the store has to tell the user goes (it never prints).
  private let notices: Notices

  /// The versions of the note a reader found at `location`.
  init(of location: NoteLocation, count: Int = defaultCount, notices: Notices) {
    self.init(
      folder: location.folder, folderPath: location.folderPath, noteName: location.name,
      count: count, maximumTotalSize: Self.defaultMaximumTotalSize, owner: location,
      notices: notices)
  }

  /// The versions of the note a writer holds (its folder open for reading).
  init(
    of note: WriteTarget, count: Int = defaultCount,
    maximumTotalSize: Int64 = defaultMaximumTotalSize
  ) {
    self.init(
      folder: note.folder, folderPath: note.location.folderPath, noteName: note.location.name,
      count: count, maximumTotalSize: maximumTotalSize, owner: note, notices: note.notices)
  }

  private init(
    folder: FileDescriptor, folderPath: String, noteName: String, count: Int,
    maximumTotalSize: Int64, owner: AnyObject, notices: Notices
  ) {
    noteFolder = folder
    self.noteName = noteName
    noteFolderPath = folderPath
    note = FileStore.join(noteFolderPath, noteName)
    // `.` and `.versions` add 10 bytes: a name near the file system's 255 is
    // shortened so any note that can be saved has versions. By whole
    // Characters, not the scalars of `String.prefix(maxUTF8Count:)`: this is
    // the folder's name since filenote 0.1, and another cut would hide the
    // versions of a note whose name has a Character of several scalars
    // across byte 240.
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
    self.notices = notices
  }

  /// The count `FILENOTE_VERSIONS` sets: digits only; empty or unset is the default.
  static func count(fromSetting setting: String?) throws(FilenoteError) -> Int {
    guard let setting, !setting.isEmpty else { return defaultCount }
    guard setting.utf8.count <= 9, let count = DecimalNumber.value(of: setting.utf8)
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
    } else if ModeChange.isOpenToOthers(info.permissions) && !takeBack(folder, info) {
      reason = .openToOthers(permissions: info.permissions)
    }
    if let reason {
      folder.close()
      throw .versionsFolderUnsafe(path: folderPath, reason: reason)
    }
    return folder
  }

  /// Whether `folder`, the user's own but open to others (`info`), may be
  /// used. Where the file system keeps modes, a sync engine or a tool at
  /// umask 022 made it so (rclone bisync, git: 0755, files 0644): it is
  /// taken back to 0700 and its files of the user's to 0600, and a
  /// terminal is told (`notices`; once: then it is closed). A file someone else put
  /// in it meanwhile is never used (`mayUse`). Where the file system
  /// cannot narrow it (exFAT, NTFS without permissions, FAT: every file
  /// shows the mount's mode), or on a read-only mount, it is used when it
  /// is no more open than the note beside it (or, with none, the note's
  /// folder).
  private func takeBack(_ folder: FileDescriptor, _ info: FileStatus) -> Bool {
    let narrowing: ModeChange
    do { narrowing = try ModeChange.change(folder, to: 0o700) } catch {
      // A read-only mount cannot narrow it either, and nothing can be put
      // in it there: `history` and `show N` of a stick mounted read-only.
      guard error == .readOnlyFileSystem else { return false }
      narrowing = .refused
    }
    if narrowing == .stored {
      takeBackFiles(in: folder)
      notices.add(
        .versionsFolderTakenBack(path: folderPath, permissions: info.permissions),
        onlyOnTerminal: true)
      return true
    }
    guard let beside = noteStatus?.permissions ?? (try? noteFolder.status())?.permissions
    else { return false }
    return ModeChange.versionsFolderMayBeUsed(
      folder: info.permissions, note: beside, narrowing: narrowing)
  }

  /// Gives each regular file of the user's in `folder` that others may
  /// open mode 0600, opened without following a link.
  private func takeBackFiles(in folder: FileDescriptor) {
    // The note's own name there is the note, whose mode is the user's.
    let note = noteStatus
    for name in (try? folder.names()) ?? [] {
      guard let info = try? folder.status(of: name), info.kind == .regular,
        note.map({ info.inode != $0.inode || info.device != $0.device }) ?? true,
        info.owner == CurrentProcess.effectiveUser, ModeChange.isOpenToOthers(info.permissions),
        let file = try? folder.open(name, .readOnly, options: [.nonBlocking, .noFollow])
      else { continue }
      try? ModeChange.request(file, 0o600)
      file.close()
    }
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
  /// removed by a sync engine) is simply not there; a file `mayUse` refuses
  /// is not there either.
  ///
  /// A sync engine's conflict copy of a version is one too, marked: two
  /// machines on which an older filenote kept different texts under the
  /// same `<sequence>-<seconds>` name left one of them only there.
  func entries(named names: [String], in folder: FileDescriptor) -> [KeptVersion] {
    KeptVersion.newestFirst(candidates(named: names, in: folder).filter(\.isUsable).map(\.version))
  }

  /// How many files in the versions folder `folder`, named as versions or
  /// their conflict copies, `mayUse` refuses: they are not listed, read,
  /// restored or counted, and `history` on a terminal says so.
  func refusedCount(in folder: FileDescriptor) -> Int {
    guard let names = try? folder.names() else { return 0 }
    return candidates(named: names, in: folder).reduce(0) { $0 + ($1.isUsable ? 0 : 1) }
  }

  /// The notice of how many files of the versions folder `mayUse`
  /// refuses, when there are any (`history` says it on a terminal).
  func refusedNotice() -> FilenoteError? {
    guard let folder = try? open() else { return nil }
    defer { folder.close() }
    let count = refusedCount(in: folder)
    return count > 0 ? .versionsNotTheUsers(path: folderPath, count: count) : nil
  }

  /// Every regular file among `names` (found in the versions folder
  /// `folder`) that is a version or a conflict copy of one, and whether
  /// `mayUse` lets it be used: its names that filenote knows of are those
  /// in this folder and the note's.
  private func candidates(
    named names: [String], in folder: FileDescriptor
  ) -> [(version: KeptVersion, isUsable: Bool)] {
    var found: [(version: KeptVersion, status: FileStatus)] = []
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
      found.append((KeptVersion(name: name, conflict: conflict, status: info, kept: kept), info))
    }
    let versions = found.count
    for name in others {
      for index in 0..<versions {
        guard let copy = ConflictCopyName(name, copyOf: found[index].version.name) else {
          continue
        }
        if let info = try? folder.status(of: name), info.kind == .regular {
          found.append((KeptVersion(name: name, conflict: copy, status: info), info))
        }
        break
      }
    }
    var note: FileStatus?? = nil
    var copies: [KeptVersion]? = nil
    return found.map { entry in
      var known = 1
      if entry.status.linkCount > 1 {
        if note == nil { note = .some(noteStatus) }
        if let current = note ?? nil, entry.version.isFile(current) { known += 1 }
        known += found.reduce(0) { $0 + ($1.version.isSameFile(as: entry.version) ? 1 : 0) } - 1
        if UInt64(known) < entry.status.linkCount {
          // A name beside the note: a conflict copy (the note's own file
          // when an engine renamed the note away, as rclone bisync does),
          // or a save's temporary file (its writer between its link and its
          // rename, or killed there).
          if copies == nil { copies = copiesBesideNote() + temporaryFilesBesideNote() }
          known += copies!.reduce(0) { $0 + ($1.isSameFile(as: entry.version) ? 1 : 0) }
        }
      }
      return (entry.version, Self.mayUse(entry.status, knownNames: known))
    }
  }

  /// Whether a file filenote found without following a link, beside the
  /// note or in the versions folder, may be listed, read, restored or
  /// counted: a regular file of the user's own, with no name but the
  /// `knownNames` filenote found of it (the note's, versions', conflict
  /// copies': a kept version and the note it was, a copy being settled).
  /// A sync engine that runs as root, or with `ignorePerms`, renames files
  /// in as they came, another user's among them (doc/DESIGN.md, Security):
  /// their owner could change them under the user's eyes, and a name of
  /// theirs elsewhere keeps a way to.
  static func mayUse(_ info: FileStatus, knownNames: Int = 1) -> Bool {
    info.kind == .regular && info.owner == CurrentProcess.effectiveUser
      && info.linkCount <= UInt64(max(1, knownNames))
  }

  /// The sync engines' conflict copies of the note beside it, not settled
  /// yet: files `mayUse` lets be used (never followed through a link,
  /// looked up in the note's open folder as the note is; a second name is
  /// known when it is the note's or one of `versions`', as while a copy is
  /// settled), named exactly as an engine names a copy of this note and of
  /// no longer note in the folder (see `ConflictCopyName`). Empty when the
  /// folder cannot be read.
  func conflictCopies(alongside versions: [KeptVersion] = []) -> [KeptVersion] {
    copiesBesideNote().filter { found in
      guard let info = try? noteFolder.status(of: found.name), found.isFile(info) else {
        return false
      }
      var known = 1
      if info.linkCount > 1 {
        if let note = noteStatus, found.isFile(note) { known += 1 }
        // The versions, looked at only when a copy has a second name: a
        // copy being settled, or the note's own file when the engine
        // renamed the note away (rclone bisync), which its save linked there.
        var versions = versions
        if versions.isEmpty, let folder = try? open() {
          versions =
            (try? names(in: folder)).map {
              candidates(named: $0, in: folder).map(\.version)
            } ?? []
          folder.close()
        }
        known += versions.reduce(0) { $0 + ($1.isSameFile(as: found) ? 1 : 0) }
      }
      return Self.mayUse(info, knownNames: known)
    }
  }

  /// The regular files beside the note named as a save names its
  /// temporary file (`TemporaryNoteFile`), whoever they belong to.
  private func temporaryFilesBesideNote() -> [KeptVersion] {
    let prefix = TemporaryNoteFile.namePrefix(forNote: noteName)
    guard let names = try? noteFolder.names() else { return [] }
    return names.compactMap { name in
      guard name.hasPrefix(prefix), name.hasSuffix(".tmp"),
        let info = try? noteFolder.status(of: name), info.kind == .regular
      else { return nil }
      return KeptVersion(name: name, place: .noteFolder, status: info)
    }
  }

  /// The regular files beside the note named as an engine names a copy of
  /// this note and of no longer note in the folder (see `ConflictCopyName`),
  /// whoever they belong to; `conflictCopies` says which may be used.
  private func copiesBesideNote() -> [KeptVersion] {
    guard let names = try? noteFolder.names() else { return [] }
    let length = noteName.utf8.count
    var copies: [KeptVersion] = []
    for name in names where name.utf8.count > length {
      guard let copy = ConflictCopyName(name, copyOf: noteName),
        let info = try? noteFolder.status(of: name), info.kind == .regular,
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
    let copies = conflictCopies(alongside: entries)
    if !copies.isEmpty || entries.contains(where: { $0.conflict != nil }) {
      all = KeptVersion.interleaving(
        KeptVersion.newestFirst(all.filter { $0.conflict != nil } + copies),
        into: all.filter { $0.conflict == nil })
    }
    if let current = noteStatus {
      all.removeAll { $0.isFile(current) }
      // The note's own file as a sync engine brought it here: a save links
      // the new note into the folder as the newest version, and another
      // machine receives the two as two files. It is the note, 0, not a
      // version too (where it was saved, the same file is left out above).
      if let newest = all.firstIndex(where: { $0.conflict == nil }),
        isNotesText(all[newest], note: current, in: folder)
      {
        all.remove(at: newest)
      }
    }
    return distinct(all, in: folder)
  }

  /// Whether `version`, a version of a save (not a conflict copy), holds
  /// the note's text (`note` is its status): only one of its size is read.
  private func isNotesText(
    _ version: KeptVersion, note: FileStatus, in folder: FileDescriptor?
  ) -> Bool {
    guard version.conflict == nil, version.size == note.size, let folder else { return false }
    return VersionWriter.sameBytes((noteFolder, noteName), (folder, version.name))
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
  /// or the note's, refused when they are not UTF-8. Only the file the
  /// listing found is read: a name swapped since is gone, to this reader.
  func read(_ version: KeptVersion, in folder: FileDescriptor?) throws(FilenoteError) -> [UInt8] {
    guard version.place == .versions else {
      return try read(version.name, in: noteFolder, path: path(of: version), listed: version)
    }
    guard let folder else {
      throw .system(
        .read, .file(FileStore.join(folderPath, version.name)), errno: .noSuchFileOrDirectory)
    }
    return try read(
      version.name, in: folder, path: FileStore.join(folderPath, version.name), listed: version)
  }

  /// The bytes of the version file `name`, never through a link, refused
  /// when they are not UTF-8 or `mayUse` refuses the file.
  func read(_ name: String, in folder: FileDescriptor) throws(FilenoteError) -> [UInt8] {
    try read(name, in: folder, path: FileStore.join(folderPath, name), listed: nil)
  }

  /// The bytes of the file `name` in `folder` (`file` is its path, for
  /// messages), never through a link, refused when they are not UTF-8 or
  /// when it is not the file `listed` (when given; else one `mayUse` lets
  /// be read).
  private func read(
    _ name: String, in folder: FileDescriptor, path file: String, listed: KeptVersion?
  ) throws(FilenoteError) -> [UInt8] {
    let fd: FileDescriptor
    do { fd = try folder.open(name, .readOnly, options: [.nonBlocking, .noFollow]) } catch {
      throw .system(.read, .file(file), errno: error)
    }
    defer { fd.close() }
    let bytes: [UInt8]
    do throws(Errno) {
      let info = try fd.status()
      guard info.kind == .regular else { throw Errno.invalidArgument }
      if let listed {
        guard listed.isFile(info) else { throw Errno.noSuchFileOrDirectory }
      } else if !Self.mayUse(info, knownNames: Int(info.linkCount)) {
        throw Errno.notPermitted
      }
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
    return beginning(of: version.name, in: folder, limit: limit, listed: version)
  }

  /// Up to `limit` bytes from the start of the file `name` in `folder`;
  /// nil when it cannot be opened, or when it is not the file `listed`.
  func beginning(
    of name: String, in folder: FileDescriptor, limit: Int, listed: KeptVersion? = nil
  ) -> [UInt8]? {
    guard let fd = try? folder.open(name, .readOnly, options: [.nonBlocking, .noFollow])
    else { return nil }
    defer { fd.close() }
    if let listed {
      guard let info = try? fd.status(), listed.isFile(info) else { return nil }
    }
    var bytes = [UInt8](repeating: 0, count: limit)
    let count = bytes.withUnsafeMutableBytes { (try? fd.read(into: $0)) ?? 0 }
    return Array(bytes[0..<count])
  }
}
