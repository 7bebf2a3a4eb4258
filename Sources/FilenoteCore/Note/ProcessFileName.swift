import SystemCalls

/// The name of a file one process writes for a moment,
/// `<prefix><pid>.<random><suffix>`: a save's temporary file
/// (`.syncthing.NOTE.~<pid>.<random>.tmp`, `TemporaryNoteFile`) and a
/// version's copy in progress (`.copy.<pid>.<random>`, `VersionWriter`).
/// Made and read only here, so that a later writer can tell whose it was
/// (`FileDescriptor.removeAbandoned`).
struct ProcessFileName: Equatable {
  /// The process that made it.
  let pid: Int32
  let random: UInt32

  /// This process's name, with `random` (a new one is drawn when a name is taken).
  static func make(
    prefix: String, suffix: String = "", random: UInt32 = .random(in: 0...UInt32.max)
  ) -> String {
    prefix + "\(CurrentProcess.id).\(random)" + suffix
  }

  /// What `name` says, when it is such a name (digits only, nothing more).
  init?(_ name: String, prefix: String, suffix: String = "") {
    guard name.hasPrefix(prefix), name.hasSuffix(suffix),
      name.utf8.count > prefix.utf8.count + suffix.utf8.count
    else { return nil }
    let fields = name.dropFirst(prefix.count).dropLast(suffix.count).split(
      separator: ".", omittingEmptySubsequences: false)
    guard fields.count == 2, let pid = Int32(fields[0]), let random = UInt32(fields[1]) else {
      return nil
    }
    self.pid = pid
    self.random = random
  }
}

extension FileDescriptor {
  /// Removes the file `name` in this folder when a writer left it and is
  /// gone: a regular file of this user's (never a link, a FIFO or another
  /// user's plant, none of which is opened through) whose lock nobody here
  /// holds. A live writer holds its file's lock from the moment it is
  /// made to the moment it is renamed or removed, and the kernel drops it
  /// when the writer dies.
  func removeAbandoned(_ name: String) {
    guard let info = try? status(of: name), info.kind == .regular,
      info.owner == CurrentProcess.effectiveUser,
      let file = try? open(name, .readOnly, options: [.noFollow, .nonBlocking])
    else { return }
    defer { file.close() }
    guard let opened = try? file.status(), opened.inode == info.inode,
      opened.device == info.device, (try? file.tryLockExclusive()) == true
    else { return }
    try? remove(name)
  }
}
