import SystemCalls

extension Environment {
  /// The path of the program `name` as a shell finds it: the first regular
  /// file of that name with an execute bit, in the folders of `PATH` in
  /// order (an empty entry is the current folder, as POSIX says); nil when
  /// there is none.
  func program(named name: String) -> String? {
    let path = self["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for folder in path.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false) {
      let candidate =
        folder.isEmpty ? name : FileStore.join(String(decoding: folder, as: UTF8.self), name)
      if let info = try? FileSystem.status(candidate), info.kind == .regular,
        info.permissions & 0o111 != 0
      {
        return candidate
      }
    }
    return nil
  }
}
