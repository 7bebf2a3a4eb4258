import Foundation

/// A new, empty folder under the system's temporary folder, removed with
/// everything in it when the last reference goes away.
final class TemporaryDirectory {
  /// The folder's absolute path, without symbolic links, so that paths the
  /// tests build from it are the ones filenote prints.
  let path: String

  init() throws {
    let base = URL(fileURLWithPath: NSTemporaryDirectory()).resolvingSymlinksInPath().path
    var template = Array((base + "/filenote-e2e.XXXXXX").utf8CString)
    let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    guard let created else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: base])
    }
    path = String(cString: created)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }
}
