// `forget N`: a version removed for good, for a secret saved by mistake
// (doc/DESIGN.md, Versions). A writer like the others: under the note's
// writer lock and the versions folder's, never asking while it holds them.

extension FileStore {
  /// Removes version `number` (as `history` numbers it) for good: its file,
  /// not only its name in a listing. `expected` is the version the user was
  /// asked about; when another writer has changed what `number` is since,
  /// nothing is removed. Returns whether the file had other hard links,
  /// which still hold its text.
  @discardableResult
  func forgetVersion(
    _ number: Int, ifStill expected: KeptVersion? = nil
  ) throws(FilenoteError) -> Bool {
    // No folder, no version; and a command that fails creates nothing.
    guard number >= 1, let note = try WriteTarget.existing(self) else {
      throw .noVersion(number: number, kept: try keptVersionCount(), note: path)
    }
    return try note.withLock(removing: true) { locked throws(FilenoteError) in
      guard let writer = try VersionWriter.open(locked.versionStore(), creating: false) else {
        throw .noVersion(number: number, kept: 0, note: locked.path)
      }
      defer { writer.close() }
      let versions = writer.listed
      guard number <= versions.count else {
        throw .noVersion(number: number, kept: versions.count, note: locked.path)
      }
      let version = versions[number - 1]
      if let expected, expected != version { throw .versionChanged(number: number) }
      return try writer.removeForGood(version)
    }
  }
}
