import SystemCalls

extension FileStatus {
  /// Whether the file can hold a note: a regular file of at least one byte.
  /// A 0-byte file (made by `touch`, or by another tool) is no note, in
  /// every command, as `save` never writes one: it is not shown, listed,
  /// copied or kept as a version, and a save replaces it without asking.
  var holdsNote: Bool { kind == .regular && size > 0 }
}
