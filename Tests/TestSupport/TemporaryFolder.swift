import Foundation

/// A new, empty folder under the system's temporary folder for one test,
/// removed with everything in it when the last reference goes away.
///
/// Its path has no symbolic links in it, so that paths a test builds from it
/// are the ones filenote prints.
public final class TemporaryFolder: Sendable {
  /// The folder's absolute path.
  public let path: String

  /// Makes the folder; `prefix` names it (`filenote-test.XXXXXX`) so that a
  /// folder left by a killed run says which suite made it.
  public init(prefix: String = "filenote-test") {
    let base = URL(fileURLWithPath: NSTemporaryDirectory()).resolvingSymlinksInPath().path
    var template = Array((base + "/" + prefix + ".XXXXXX").utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      // Nothing a test checks can run without its folder.
      fatalError("mkdtemp in \(base): \(String(cString: strerror(errno)))")
    }
    path = String(cString: made)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// `path/relative`.
  public func file(_ relative: String) -> String { path + "/" + relative }

  /// Writes a file (and the folders above it) at a path relative to the folder.
  public func write(_ relative: String, _ text: String) {
    write(relative, bytes: Array(text.utf8))
  }

  /// Writes a file (and the folders above it) at a path relative to the folder.
  public func write(_ relative: String, bytes: [UInt8]) {
    let full = file(relative)
    try! FileManager.default.createDirectory(
      atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    precondition(FileManager.default.createFile(atPath: full, contents: Data(bytes)))
  }

  /// The bytes of a file relative to the folder, nil when it cannot be read.
  public func bytes(_ relative: String) -> [UInt8]? {
    FileManager.default.contents(atPath: file(relative)).map { Array($0) }
  }

  /// The names in a subfolder, sorted.
  public func names(in relative: String = "") -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: relative.isEmpty ? path : file(relative)))
      ?? []).sorted()
  }

  /// The regular files below the folder, as sorted relative paths.
  public func regularFiles() throws -> [String] {
    let all = try FileManager.default.subpathsOfDirectory(atPath: path)
    return try all.filter { relative in
      let attributes = try FileManager.default.attributesOfItem(atPath: file(relative))
      return attributes[.type] as? FileAttributeType == .typeRegular
    }.sorted()
  }

  /// The permission bits of a file, not following a final symbolic link.
  public func mode(_ relative: String) -> mode_t {
    var info = stat()
    guard lstat(file(relative), &info) == 0 else { return 0 }
    return info.st_mode & 0o7777
  }
}
