import SystemCalls

/// What a file system did when filenote asked it for a mode
/// (doc/DESIGN.md, Other file systems).
///
/// Not every file system can store one: FAT and exFAT keep no mode at all
/// and show every file with the mode of their mount options; some FUSE file
/// systems accept `fchmod` and change nothing, others refuse it (fusefat:
/// ENOSYS; bindfs --chmod-deny: EPERM). Where no mode can be stored, a file
/// keeps the mode the file system gives it, and nothing filenote does can
/// make it more private.
enum ModeChange: Equatable {
  /// The file now has the mode asked for.
  case stored
  /// `fchmod` succeeded, but the file still shows another mode.
  case ignored
  /// `fchmod` was refused as something the file system does not do.
  case refused

  /// Whether `error` from `fchmod` means the file system cannot change
  /// modes (rather than that something went wrong).
  static func isRefusal(_ error: Errno) -> Bool {
    error == .noFunction || error == .notPermitted || error == .notSupported
  }

  /// Gives the file open at `descriptor` `permissions` where the file system
  /// can: its refusal is not an error. `change(_:to:)` without asking what
  /// came of it (and without its `fstat`, on the way of every save).
  static func request(_ descriptor: FileDescriptor, _ permissions: UInt32) throws(Errno) {
    do { try descriptor.changePermissions(permissions) } catch {
      guard isRefusal(error) else { throw error }
    }
  }

  /// Gives the file open at `descriptor` `permissions`, and says whether the
  /// file system kept them. A refusal of a file system that cannot change
  /// modes is not an error; any other failure is.
  static func change(
    _ descriptor: FileDescriptor, to permissions: UInt32
  ) throws(Errno) -> ModeChange {
    do {
      try descriptor.changePermissions(permissions)
    } catch {
      guard isRefusal(error) else { throw error }
      return .refused
    }
    return judged(asked: permissions, now: try descriptor.status().permissions, refused: false)
  }

  /// What a change to `asked` came to, the file showing `now` after it.
  static func judged(asked: UInt32, now: UInt32, refused: Bool) -> ModeChange {
    if refused { return .refused }
    return now & 0o7777 == asked & 0o7777 ? .stored : .ignored
  }

  /// Whether a folder of the user's showing `folder` may hold the note's
  /// versions, beside a note showing `note`: always when it is closed to
  /// others; when it is not, only when the file system could not narrow it
  /// (`narrowing` is what asking for 0700 came to) and it is no more open
  /// than the note itself, so it gives away nothing the note does not.
  /// Where modes can be stored, a folder open to others is refused: someone
  /// else may have put files in it.
  static func versionsFolderMayBeUsed(
    folder: UInt32, note: UInt32, narrowing: ModeChange
  ) -> Bool {
    if !isOpenToOthers(folder) { return true }
    return narrowing != .stored
      && reach(folder, isFolder: true) & ~reach(note, isFolder: false) == 0
  }

  /// What group and others may do with a file of `permissions`: read
  /// (0o044) and write (0o022); a folder's search bit counts as reading, a
  /// file's execute bit as nothing.
  private static func reach(_ permissions: UInt32, isFolder: Bool) -> UInt32 {
    let bits = permissions & 0o066
    return isFolder ? bits | (permissions & 0o011) << 2 : bits
  }

  /// Whether a file showing `permissions` can be opened by other users.
  static func isOpenToOthers(_ permissions: UInt32) -> Bool { permissions & 0o077 != 0 }
}
