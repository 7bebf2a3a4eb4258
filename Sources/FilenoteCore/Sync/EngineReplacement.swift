import SystemCalls

/// The moment a sync engine replaces the note with another machine's text
/// after a conflict: it renames the note away, to a conflict copy, then
/// renames the text it received in (Syncthing: the note to its conflict
/// copy, then its own temporary file `.syncthing.NOTE.tmp` to the note;
/// doc/SYNC.md, "What filenote does"). Between the two there is no note.
///
/// A reader that looked then would say there is no note (the prompt would
/// open empty), and a writer would create one, which the engine's rename
/// then replaces: the text the user saved would be gone. So when the note
/// is missing while such a replacement looks under way (the engine's
/// temporary file is there, or a conflict copy of the note changed in the
/// last few seconds), filenote waits, a bounded time, for the note to come
/// back. A missing note with no sign of an engine costs nothing more than
/// one listing of its folder.
enum EngineReplacement {
  /// How long a reader or writer waits for the note to come back.
  static let waitMilliseconds: Int64 = 2000
  /// How recent a conflict copy's change must be to count as the engine's
  /// rename of the note, in seconds.
  static let recentSeconds: Int64 = 5

  /// The note `name` in `folder` once it is back: its status, or nil when
  /// it did not come back within `waitMilliseconds` or no replacement
  /// looks under way.
  static func awaitNote(_ name: String, in folder: FileDescriptor) -> FileStatus? {
    guard isUnderWay(note: name, in: folder) else { return nil }
    let deadline = CurrentProcess.monotonicMilliseconds + waitMilliseconds
    while CurrentProcess.monotonicMilliseconds < deadline {
      _ = try? Poll.wait(for: [], deadline: CurrentProcess.monotonicMilliseconds + 20)
      if let status = try? folder.status(of: name) { return status }
    }
    return nil
  }

  /// Whether an engine looks to be between renaming the note `note` away
  /// and renaming the received text in.
  static func isUnderWay(note: String, in folder: FileDescriptor) -> Bool {
    if let pulled = try? folder.status(of: ".syncthing." + note + ".tmp"),
      pulled.kind == .regular
    {
      return true
    }
    guard let names = try? folder.names() else { return false }
    let now = LocalTime.now.seconds
    let length = note.utf8.count
    for name in names where name.utf8.count > length {
      guard ConflictCopyName(name, copyOf: note) != nil,
        let info = try? folder.status(of: name), info.kind == .regular
      else { continue }
      // A rename changes the file's status time, not its modification time.
      if now - info.changed.seconds <= recentSeconds { return true }
    }
    return false
  }
}
