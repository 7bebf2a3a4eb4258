import SystemCalls

/// The temporary file a save writes before it renames it over the note.
///
/// Its name, `.syncthing.<note>.~<pid>.<random>.tmp` (which sync engines
/// leave alone: `CompanionName`), and the lock its writer holds on it let a
/// later save remove the leftovers of a writer that was killed, and never
/// the file of a save still in progress.
final class TemporaryNoteFile {
  /// The note file that `rename(over:)` replaces, for messages.
  let target: String
  /// The temporary file's name in `folder`.
  let name: String
  /// Kept so that `folder` stays open as long as this file.
  private let note: WriteTarget
  private var folder: FileDescriptor { note.folder }
  private let descriptor: FileDescriptor
  private var isOpen = true
  private var isArmed = true
  private(set) var bytesWritten = 0

  /// How many names a save tries before it gives up: another user may have
  /// planted some, and each is skipped, never written through.
  static let maximumAttempts = 100

  /// Creates the temporary file beside the note of `note`, whose file is
  /// `existing` (as last looked at; nil: none), after removing the
  /// leftovers of dead writers there. Until `rename(over:)` or `discard`,
  /// SIGINT, SIGTERM and SIGHUP remove it before they end the process.
  /// `randomNumber` makes the names (a test's own sequence plants names).
  init(
    for note: WriteTarget, replacing existing: FileStatus?,
    randomNumber: () -> UInt32 = { UInt32.random(in: 0...UInt32.max) }
  ) throws(FilenoteError) {
    target = note.path
    self.note = note
    let prefix = Self.namePrefix(forNote: note.location.name)
    if let existing, existing.kind != .regular {
      // A rename would replace a FIFO or a device with a regular file.
      throw .notARegularFile(path: target)
    }
    Self.removeLeftovers(
      in: note.folder,
      prefixes: [prefix, CompanionName.legacyTemporaryPrefix(of: note.location.name)])

    // Held from the create to the arming, so a signal in between cannot leave the file.
    RemovalOnSignal.hold()
    var attempt = 1
    while true {
      let candidate = ProcessFileName.make(prefix: prefix, suffix: ".tmp", random: randomNumber())
      do {
        // exclusiveCreate never opens an existing name, link or not: a
        // planted name fails here and the next one is tried.
        descriptor = try note.folder.open(
          candidate, .writeOnly, options: [.create, .exclusiveCreate, .noFollow],
          permissions: 0o600)
        name = candidate
        break
      } catch  where error == .fileExists && attempt < Self.maximumAttempts {
        attempt += 1
      } catch {
        RemovalOnSignal.disarm(completed: false)
        throw .system(.createTemporaryFile, .file(note.location.folderPath), errno: error)
      }
    }
    // It cannot fail for a name the folder just accepted (under 256 bytes).
    try? RemovalOnSignal.arm(name: name, in: note.folder)
    RemovalOnSignal.release()
    // Held until this process ends: that is what marks the file as alive.
    _ = try? descriptor.tryLockExclusive()
  }

  deinit {
    if isOpen { descriptor.close() }
    if isArmed { RemovalOnSignal.disarm(completed: false) }
  }

  func write(_ bytes: [UInt8]) throws(FilenoteError) {
    try bytes.withUnsafeBytesTyped { buffer throws(FilenoteError) in try write(buffer) }
  }

  func write(_ bytes: UnsafeRawBufferPointer) throws(FilenoteError) {
    guard bytes.count > 0 else { return }
    do {
      try descriptor.writeAll(bytes)
      bytesWritten += bytes.count
      isDurable = false
    } catch {
      throw .system(.save, .file(target), errno: error)
    }
    // A large note goes to disk while it is still arriving, rather than all
    // in the final fsync (which still waits for whatever is left). Each call
    // takes the last two intervals: it starts the newest on its way and
    // drops the one before, written by now, from the page cache. (The whole
    // file at each call made the kernel walk all its pages again each time:
    // bench/README.md, Where the new-text save's time goes.)
    if bytesWritten >= writebackStart + Self.writebackInterval {
      descriptor.startWriteback(offset: droppedUpTo, count: bytesWritten - droppedUpTo)
      droppedUpTo = writebackStart
      writebackStart = bytesWritten
    }
  }

  /// How much a save writes between two `startWriteback(offset:count:)` calls.
  private static let writebackInterval = 2 << 20
  private var writebackStart = 0
  /// Where the next writeback call starts: the interval before the newest.
  private var droppedUpTo = 0

  /// The mode and owner given to the file: those of the note it replaces.
  private var givenModeAndOwner: (permissions: UInt32, owner: UInt32, group: UInt32)?
  /// The mode a new note's file shows, open to others, when the file
  /// system could not narrow it to 0600.
  private var givenOpenMode: UInt32?
  /// Whether everything written, mode and owner included, is on disk.
  private(set) var isDurable = false

  /// Gives the file the mode and owner of `existing`, the note it replaces
  /// (0600 and the user's own for a new note), unless it has them already.
  /// A file system that cannot change modes keeps the one it gave; for a
  /// new note, the mode it shows then is returned when that is open to
  /// others, so the user can be told.
  @discardableResult
  private func takeModeAndOwner(of existing: FileStatus?) throws(Errno) -> UInt32? {
    let wanted =
      existing.map { ($0.permissions, $0.owner, $0.group) }
      ?? (0o600, CurrentProcess.effectiveUser, CurrentProcess.effectiveGroup)
    if let given = givenModeAndOwner, given == wanted { return givenOpenMode }
    var openMode: UInt32?
    if existing != nil {
      try ModeChange.request(descriptor, wanted.0)
    } else if try ModeChange.change(descriptor, to: wanted.0) != .stored,
      // Explicit, because the umask may have narrowed 0600 at creation.
      let shown = try? descriptor.status().permissions, ModeChange.isOpenToOthers(shown)
    {
      openMode = shown
    }
    if wanted.1 != CurrentProcess.effectiveUser || wanted.2 != CurrentProcess.effectiveGroup {
      // Only root can give the file back to its owner; others keep theirs.
      try? descriptor.changeOwner(user: wanted.1, group: wanted.2)
    }
    givenModeAndOwner = wanted
    givenOpenMode = openMode
    isDurable = false
    return openMode
  }

  /// Puts the file on disk with the mode and owner of `note` (the note it
  /// replaces; nil: a new note, 0600), unless it is there already with
  /// those: step 3 of `LockedTarget+Replacing.swift`, or, for a large note,
  /// before the writer lock is taken, so other writers do not wait for its
  /// fsync (step 3 then makes it again only if the note turned out to
  /// differ). Returns the mode a new note shows when its file system could
  /// not narrow it to 0600 and it is open to others: the user is told once,
  /// by the save that creates the note.
  @discardableResult
  func makeDurable(like note: FileStatus?) throws(FilenoteError) -> UInt32? {
    let openMode: UInt32?
    do {
      openMode = try takeModeAndOwner(of: note)
      if !isDurable { try descriptor.sync() }
    } catch {
      throw .system(.save, .file(target), errno: error)
    }
    isDurable = true
    return openMode
  }

  /// Whether the file holds the same bytes as the note file of `note` now.
  func hasSameBytes(asNoteOf note: LockedTarget) -> Bool {
    guard let mine = try? folder.open(name, .readOnly, options: [.nonBlocking, .noFollow]) else {
      return false
    }
    defer { mine.close() }
    guard
      let theirs = try? note.folder.open(note.name, .readOnly, options: [.nonBlocking, .noFollow])
    else { return false }
    defer { theirs.close() }
    return mine.hasSameBytes(as: theirs)
  }

  /// Step 4 of `LockedTarget+Replacing.swift`: renames the file over the
  /// note of `note` (whose writer lock is held), after `makeDurable`. From
  /// here a signal waits until `completeRename()`, after the folder's
  /// fsync: the rename happens whole and durable, or not at all.
  func rename(over note: LockedTarget) throws(FilenoteError) {
    if isOpen {
      descriptor.close()
      isOpen = false
    }
    RemovalOnSignal.hold()
    do {
      try folder.rename(name, to: note.name, in: folder)
    } catch {
      // Still held: `discard()` lets a signal that waited through.
      if error == .isDirectory || error == .notDirectory {
        throw .notARegularFile(path: target)
      }
      throw .system(.save, .file(target), errno: error)
    }
  }

  /// After the rename and the folder's fsync: the save happened, so a
  /// signal held back meanwhile is discarded.
  func completeRename() {
    isArmed = false
    RemovalOnSignal.disarm(completed: true)
  }

  /// Removes the temporary file; the note is left as it was. A signal held
  /// back meanwhile is delivered after the file is gone.
  func discard() {
    if isOpen {
      descriptor.close()
      isOpen = false
    }
    try? folder.remove(name)
    if isArmed {
      isArmed = false
      RemovalOnSignal.disarm(completed: false)
    }
  }

  /// `.syncthing.<note>.~`, the start of every temporary name beside the
  /// note (a name sync engines leave alone: `CompanionName`). The temporary
  /// name adds up to 38 bytes to the note's own: that part is shortened so
  /// any name the file system accepts (255 bytes) can be saved.
  static func namePrefix(forNote noteName: String) -> String {
    CompanionName.temporaryPrefix(of: noteName)
  }

  /// Removes the leftovers of dead writers beside the note of `note`,
  /// for a save that makes no file of its own (its text is the note).
  static func removeLeftovers(beside note: WriteTarget) {
    removeLeftovers(
      in: note.folder,
      prefixes: [
        namePrefix(forNote: note.location.name),
        CompanionName.legacyTemporaryPrefix(of: note.location.name),
      ])
  }

  /// Removes `<prefix><pid>.<random>.tmp` files (`ProcessFileName`), for
  /// each of `prefixes` (this filenote's and an older one's), whose writer
  /// is gone: its process no longer exists and nobody holds the file's lock
  /// (`FileDescriptor.removeAbandoned`). Checking both covers the moment
  /// between a writer creating its file and locking it, and a pid reused by
  /// an unrelated process.
  private static func removeLeftovers(in folder: FileDescriptor, prefixes: [String]) {
    guard let names = try? folder.names() else { return }
    for name in names {
      for prefix in prefixes {
        guard let made = ProcessFileName(name, prefix: prefix, suffix: ".tmp") else { continue }
        if !CurrentProcess.exists(made.pid) { folder.removeAbandoned(name) }
        break
      }
    }
  }
}
