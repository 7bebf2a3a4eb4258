import SystemCalls

/// Text written where only the user can read it: `note.txt`, mode 0600 and
/// created exclusively, in a new folder only the user can enter (mkdtemp,
/// 0700) under `$TMPDIR`, else `/tmp`. The text has a line ending after it
/// (unless it is empty), as a text file ends: `filenote save < FILE`, which
/// drops one, saves exactly the text.
///
/// The user's editor edits one (`EditorHandOff`); a prompt or `edit` that
/// cannot save what the user wrote leaves it in one and names it, and the
/// next prompt offers it (`KeptText`).
///
/// The folder is locked (flock) from before the file is made until
/// `release()`: a file in use (by an editor) is not offered as kept.
struct PrivateTextFile {
  /// The folder that holds the file.
  let folder: String
  /// The file.
  let path: String
  /// The folder, open and locked until `release()`.
  private let lock: FileDescriptor?

  /// The start of the folder's name, and the file's name in it.
  static let folderPrefix = "filenote-"
  static let fileName = "note.txt"

  /// Where the folders are made: `$TMPDIR` when it is an absolute path,
  /// else `/tmp`.
  static func base(in environment: Environment) -> String {
    let base = environment["TMPDIR"] ?? ""
    return base.hasPrefix("/") ? base : "/tmp"
  }

  /// Writes `bytes` to a new private file, its folder locked until
  /// `release()`; nothing is left behind when that fails.
  init(_ bytes: [UInt8], environment: Environment) throws(FilenoteError) {
    let prefix = FileStore.join(Self.base(in: environment), Self.folderPrefix)
    do {
      folder = try FileSystem.makeTemporaryFolder(prefix: prefix)
    } catch {
      throw .system(.createFolder, .file(prefix + "XXXXXX"), errno: error)
    }
    path = folder + "/" + Self.fileName
    // Locked before the file exists: it is never seen unlocked while in use.
    lock = try? FileDescriptor.open(folder, .readOnly, options: [.directory, .noFollow])
    _ = try? lock?.tryLockExclusive()
    do throws(FilenoteError) {
      let file: FileDescriptor
      do {
        file = try FileDescriptor.open(
          path, .writeOnly, options: [.create, .exclusiveCreate, .noFollow], permissions: 0o600)
      } catch {
        throw .system(.write, .file(path), errno: error)
      }
      defer { file.close() }
      do {
        // Exactly 0600, whatever the umask (where the file system can store it).
        try ModeChange.request(file, 0o600)
        try file.writeAll(bytes.isEmpty ? bytes : bytes + [UInt8(ascii: "\n")])
      } catch {
        throw .system(.write, .file(path), errno: error)
      }
    } catch {
      remove()
      release()
      throw error
    }
  }

  /// Unlocks the folder: from now on the file, if it stays, is kept text.
  func release() {
    lock?.close()
  }

  /// Whether `text`, which the user may have written, needs keeping when it
  /// cannot be saved: not when it is empty or the note as it was `opened`.
  static func needsKeeping(_ text: [UInt8], opened: [UInt8]) -> Bool {
    !text.isEmpty && text != opened
  }

  /// What to report when `text`, which the user wrote, was not saved
  /// because of `cause` (nil: the prompt ended before Enter): `text` is
  /// kept in a new private file the error names; when even that cannot be
  /// written, `cause`, else why the file could not be.
  static func keep(
    _ text: [UInt8], after cause: FilenoteError?, environment: Environment
  ) -> FilenoteError {
    do {
      let file = try PrivateTextFile(text, environment: environment)
      file.release()
      return .notSaved(because: cause, keptIn: file.path)
    } catch {
      return cause ?? error
    }
  }

  /// Removes the file, whatever else was left beside it (an editor's swap
  /// file), and the folder.
  func remove() {
    Self.removeFolder(folder)
  }

  /// Removes `folder`, one of these files' folders, and what is in it.
  static func removeFolder(_ folder: String) {
    for name in (try? FileSystem.names(in: folder)) ?? [] {
      try? FileSystem.remove(folder + "/" + name)
    }
    try? FileSystem.removeFolder(folder)
  }
}
