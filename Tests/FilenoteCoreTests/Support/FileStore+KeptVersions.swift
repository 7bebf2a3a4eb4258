@testable import FilenoteCore

extension FileStore {
  /// The kept versions, newest first, numbered as `history` numbers them:
  /// what a test counts and looks into. filenote itself lists them only in
  /// `history` and the prompt, through the same `VersionStore`.
  func keptVersions() throws -> [KeptVersion] {
    guard let store = try versionStore(), let folder = try store.open() else { return [] }
    defer { folder.close() }
    return try store.listed(in: folder)
  }
}
