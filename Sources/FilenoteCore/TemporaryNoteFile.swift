import SystemCalls

/// The temporary file a save writes before it renames it over the note.
///
/// Its name, `.<note>.<pid>.<random>.tmp`, and the lock its writer holds on
/// it let a later save remove the leftovers of a writer that was killed,
/// and never the file of a save still in progress.
final class TemporaryNoteFile {
  /// The file that `commit()` replaces.
  let target: String
  /// The temporary file's path.
  let path: String
  private let descriptor: FileDescriptor
  private var isOpen = true
  private(set) var bytesWritten = 0

  /// Creates the temporary file beside `target` (creating `target`'s folder,
  /// mode 0700, when `createsFolder` and it is missing), after removing the
  /// leftovers of dead writers there.
  init(replacing target: String, createsFolder: Bool) throws(FilenoteError) {
    self.target = target
    let folder = FileStore.folder(of: target)
    // The temporary name adds up to 27 bytes to the note's own: shorten that
    // part so any name the file system accepts (255 bytes) can be saved.
    let prefix = "." + Self.prefix(of: FileStore.baseName(of: target), maxUTF8Count: 200) + "."
    if let existing = try? FileSystem.status(target), existing.kind != .regular {
      // A rename would replace a FIFO or a device with a regular file.
      throw .notARegularFile(path: target)
    }
    if createsFolder { try Self.createFolderIfMissing(folder) }
    Self.removeLeftovers(in: folder, prefix: prefix)

    var attempt = 0
    while true {
      let candidate =
        folder + "/" + prefix + "\(CurrentProcess.id).\(UInt32.random(in: 0...UInt32.max)).tmp"
      do {
        descriptor = try FileDescriptor.open(
          candidate, .writeOnly, options: [.create, .exclusiveCreate], permissions: 0o600)
        path = candidate
        break
      } catch  where error == .fileExists && attempt < 100 {
        attempt += 1
      } catch {
        throw .system(.createTemporaryFile, .file(folder), errno: error)
      }
    }
    // Held until this process ends: that is what marks the file as alive.
    _ = try? descriptor.tryLockExclusive()
  }

  deinit {
    if isOpen { descriptor.close() }
  }

  func write(_ bytes: [UInt8]) throws(FilenoteError) {
    guard !bytes.isEmpty else { return }
    do {
      try descriptor.writeAll(bytes)
      bytesWritten += bytes.count
    } catch {
      throw .system(.save, .file(target), errno: error)
    }
  }

  func write(_ bytes: UnsafeRawBufferPointer) throws(FilenoteError) {
    guard bytes.count > 0 else { return }
    do {
      try descriptor.writeAll(bytes)
      bytesWritten += bytes.count
    } catch {
      throw .system(.save, .file(target), errno: error)
    }
    // A large note goes to disk while it is still arriving, rather than all
    // in the final fsync (which still waits for whatever is left).
    if bytesWritten >= writebackStart + Self.writebackInterval {
      descriptor.startWriteback()
      writebackStart = bytesWritten
    }
  }

  /// How much a save writes between two `startWriteback()` calls.
  private static let writebackInterval = 2 << 20
  private var writebackStart = 0

  /// Makes the written bytes the note: mode, fsync, rename, fsync the folder.
  /// `beforeRename` runs between the fsync and the rename (versions make
  /// the kept version durable there; see `VersionWriter.swift`).
  func commit(beforeRename: () throws(FilenoteError) -> Void = {}) throws(FilenoteError) {
    do {
      if let existing = try? FileSystem.status(target) {
        try descriptor.changePermissions(existing.permissions)
        if existing.owner != CurrentProcess.effectiveUser
          || existing.group != CurrentProcess.effectiveGroup
        {
          // Only root can give the file back to its owner; others keep theirs.
          try? descriptor.changeOwner(user: existing.owner, group: existing.group)
        }
      } else {
        // An explicit mode, because the umask may have narrowed 0600 at creation.
        try descriptor.changePermissions(0o600)
      }
      try descriptor.sync()
    } catch {
      throw .system(.save, .file(target), errno: error)
    }
    descriptor.close()
    isOpen = false
    try beforeRename()
    do {
      try FileSystem.rename(path, to: target)
    } catch {
      if error == .isDirectory || error == .notDirectory {
        throw .notARegularFile(path: target)
      }
      throw .system(.save, .file(target), errno: error)
    }
    try FileStore.syncFolder(of: target, operation: .save)
  }

  /// Removes the temporary file; the note is left as it was.
  func discard() {
    if isOpen {
      descriptor.close()
      isOpen = false
    }
    try? FileSystem.remove(path)
  }

  /// The longest start of `name` that is at most `maxUTF8Count` bytes.
  private static func prefix(of name: String, maxUTF8Count: Int) -> String {
    var result = String.UnicodeScalarView()
    var count = 0
    for scalar in name.unicodeScalars {
      count += UTF8.width(scalar)
      if count > maxUTF8Count { break }
      result.append(scalar)
    }
    return String(result)
  }

  /// Creates `folder`, and any missing folder above it, each with mode 0700
  /// (the desktop's own tools create a configured documents folder the same way).
  private static func createFolderIfMissing(_ folder: String) throws(FilenoteError) {
    do {
      try FileSystem.makeFolder(folder, permissions: 0o700)
    } catch {
      switch error {
      case .fileExists:
        return
      case .noSuchFileOrDirectory where folder != "/" && FileStore.folder(of: folder) != folder:
        try createFolderIfMissing(FileStore.folder(of: folder))
        try createFolderIfMissing(folder)
        return
      default:
        throw .system(.createFolder, .file(folder), errno: error)
      }
    }
    // mkdir's mode is narrowed by the umask; SPEC wants exactly 0700.
    try? FileSystem.changePermissions(folder, to: 0o700)
    try FileStore.syncFolder(of: folder, operation: .createFolder)
  }

  /// Removes `<prefix><pid>.<random>.tmp` files whose writer is gone: its
  /// process no longer exists and nobody holds the file's lock. Checking both
  /// covers the moment between a writer creating its file and locking it,
  /// and a pid reused by an unrelated process.
  private static func removeLeftovers(in folder: String, prefix: String) {
    guard let names = try? FileSystem.names(in: folder) else { return }
    for name in names {
      guard name.hasPrefix(prefix), name.hasSuffix(".tmp") else { continue }
      let fields = name.dropFirst(prefix.count).dropLast(4).split(separator: ".")
      guard fields.count == 2, let pid = Int32(fields[0]), UInt32(fields[1]) != nil else {
        continue
      }
      if CurrentProcess.exists(pid) { continue }
      let path = folder + "/" + name
      guard let fd = try? FileDescriptor.open(path, .readOnly, options: .noFollow) else {
        continue
      }
      defer { fd.close() }
      if (try? fd.tryLockExclusive()) == true {
        try? FileSystem.remove(path)
      }
    }
  }
}
