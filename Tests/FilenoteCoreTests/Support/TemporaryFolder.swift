import Foundation

/// A fresh folder under /tmp for one test, removed when the test is done.
final class TemporaryFolder {
  let path: String

  init() {
    let template = FileManager.default.temporaryDirectory.path + "/filenote-test.XXXXXX"
    var bytes = Array(template.utf8CString)
    guard mkdtemp(&bytes) != nil else { fatalError("mkdtemp failed: \(errno)") }
    path = String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// `path/relative`.
  func file(_ relative: String) -> String { path + "/" + relative }

  func write(_ relative: String, _ text: String) {
    write(relative, bytes: Array(text.utf8))
  }

  func write(_ relative: String, bytes: [UInt8]) {
    let full = file(relative)
    try! FileManager.default.createDirectory(
      atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    precondition(FileManager.default.createFile(atPath: full, contents: Data(bytes)))
  }

  func bytes(_ relative: String) -> [UInt8]? {
    FileManager.default.contents(atPath: file(relative)).map { Array($0) }
  }

  /// The names in a subfolder, sorted.
  func names(in relative: String = "") -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: relative.isEmpty ? path : file(relative)))
      ?? []).sorted()
  }

  /// The permission bits of a file, not following a final symbolic link.
  func mode(_ relative: String) -> mode_t {
    var info = stat()
    guard lstat(file(relative), &info) == 0 else { return 0 }
    return info.st_mode & 0o7777
  }
}
