import SystemCalls

/// The lock every writer of a note holds from its conflict check to its
/// rename, so two writers never both decide on the same old note.
///
/// It is `flock` on a file `.syncthing.<note>.~lock.tmp` beside the note
/// (named so that sync engines leave it alone: `CompanionName`), mode 0600,
/// created while a writer holds it and removed when it is released. The
/// kernel releases a flock when its process dies, so `kill -9` never leaves
/// the note locked (the file may stay; the next writer takes and removes it).
/// Only the flock counts, never the file: one that a sync engine brought
/// from another machine locks nothing here, and is taken over and removed
/// like a dead writer's. So is the lock file of an older filenote
/// (`.<note>.lock`) that nobody here holds.
/// Only the user can open a 0600 file of theirs, so no other user can hold
/// the lock to make the user's saves wait; one that plants the name in a
/// folder they may write is refused (`plantedLock`), never used. Readers
/// (`show`) never take it.
final class WriterLock {
  /// How long a writer waits for another before giving up.
  static let timeoutSeconds = 10
  /// How many times in a row a writer starts again because the lock's file
  /// was removed as it opened it (see `open`).
  static let maximumRemovals = 100

  private let folder: FileDescriptor
  private let name: String
  private let descriptor: FileDescriptor
  private var isHeld = true

  /// Takes the lock of note `noteName` in `folder` (open for reading),
  /// waiting up to `timeoutSeconds` for another writer. When the lock's
  /// file cannot be created, `failure` says so in the writer's own words
  /// (a save cannot create a file in the folder; a clear cannot remove).
  init(
    noteName: String, in folder: FileDescriptor, notePath: String,
    failure: (Errno) -> FilenoteError
  ) throws(FilenoteError) {
    let name = CompanionName.lock(of: noteName)
    self.folder = folder
    self.name = name
    let deadline = CurrentProcess.monotonicMilliseconds + Int64(Self.timeoutSeconds) * 1000
    var pause: Int64 = 2
    var removals = 0
    while true {
      guard let candidate = try Self.open(name, in: folder, notePath: notePath, failure: failure)
      else {
        // The holder removed the name while we opened it: start again. A
        // removal every time is not that race but a folder removed since
        // it was opened.
        removals += 1
        if removals > Self.maximumRemovals {
          throw failure(.noSuchFileOrDirectory)
        }
        continue
      }
      removals = 0
      let locked: Bool
      do { locked = try candidate.descriptor.tryLockExclusive() } catch {
        candidate.descriptor.close()
        throw failure(error)
      }
      if locked {
        // The holder before us removes the name before it lets go: the file
        // we locked counts only while it is still the one with that name.
        if let now = try? folder.status(of: name),
          now.inode == candidate.status.inode && now.device == candidate.status.device
        {
          descriptor = candidate.descriptor
          // An older filenote's lock file, left by a kill or brought by a
          // sync engine: removed when nobody here holds it.
          folder.removeAbandoned(CompanionName.legacyLock(of: noteName))
          return
        }
        candidate.descriptor.close()
        continue
      }
      candidate.descriptor.close()
      if CurrentProcess.monotonicMilliseconds >= deadline {
        throw .lockTimeout(path: notePath, seconds: Self.timeoutSeconds)
      }
      _ = try? Poll.wait(for: [], deadline: CurrentProcess.monotonicMilliseconds + pause)
      pause = min(pause * 2, 50)
    }
  }

  deinit { release() }

  /// Removes the lock's file, then lets go: a writer waiting on the same
  /// file sees that it is gone and starts again with a new one.
  func release() {
    guard isHeld else { return }
    isHeld = false
    try? folder.remove(name)
    descriptor.close()
  }

  /// Whether `error`, from opening or `fstat` of the lock's file, says its
  /// name was removed meanwhile (see `open`).
  static func isRemoval(_ error: Errno) -> Bool {
    error == .noSuchFileOrDirectory || error == .staleFileHandle
  }

  /// Opens (creating it when missing) the lock's file, refusing one that
  /// neither this user nor the folder's owner made, a link, or anything but
  /// a regular file. nil when the holder removed the name meanwhile: on a
  /// local file system the open's lookup and create are one step, but
  /// through FUSE they are two requests, and the name can go in between
  /// (ntfs-3g then fails the create with ENOENT; sshfs opens the file, then
  /// cannot stat it once its name is gone). The folder is open, so ENOENT
  /// cannot mean it is missing.
  private static func open(
    _ name: String, in folder: FileDescriptor, notePath: String,
    failure: (Errno) -> FilenoteError
  ) throws(FilenoteError) -> (descriptor: FileDescriptor, status: FileStatus)? {
    let user = CurrentProcess.effectiveUser
    let folderOwner = (try? folder.status())?.owner
    func isOurs(_ status: FileStatus) -> Bool {
      status.kind == .regular && (status.owner == user || status.owner == folderOwner)
    }
    // Looked at first, because the kernel's own checks on a planted name
    // (a link, another user's file in a sticky folder) fail the open with
    // errors that would not say what happened.
    if let existing = try? folder.status(of: name), !isOurs(existing) {
      throw .unsafePath(path: notePath, why: .plantedLock(name: name))
    }
    let descriptor: FileDescriptor
    do {
      // nonBlocking: a FIFO planted under the name cannot hang the open.
      descriptor = try folder.open(
        name, .readWrite, options: [.create, .noFollow, .nonBlocking], permissions: 0o600)
    } catch {
      switch error {
      case .tooManySymbolicLinkLevels, .isDirectory:
        throw .unsafePath(path: notePath, why: .plantedLock(name: name))
      case _ where isRemoval(error):
        return nil
      default:
        throw failure(error)
      }
    }
    // Checked again on what was opened: the name may have changed meanwhile.
    let status: FileStatus
    do { status = try descriptor.status() } catch {
      descriptor.close()
      if isRemoval(error) { return nil }
      throw failure(error)
    }
    guard isOurs(status) else {
      descriptor.close()
      throw .unsafePath(path: notePath, why: .plantedLock(name: name))
    }
    return (descriptor, status)
  }
}
