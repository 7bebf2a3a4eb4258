import Foundation
import TestSupport
import Testing

/// A fresh, empty home folder for one test, the environment filenote runs
/// with there, and ways to look at the files it leaves behind.
///
/// The environment is built from nothing: only `HOME`, `PATH`, `LANG` and a
/// `TMPDIR` of its own (where filenote keeps what it could not save, and
/// the editor's file), so neither the real home nor a `FILENOTE_FILE` or
/// `XDG_CONFIG_HOME` of the person running the tests can leak in, and
/// nothing is left in `/tmp`. Tests keep using the home (its
/// methods) until their last check, which keeps the folder alive until then.
final class TemporaryHome {
  private let root: TemporaryFolder
  /// `$HOME`.
  let home: String
  /// A folder outside the home: the current folder of each run, and room for
  /// files a test needs elsewhere.
  let work: String
  /// The environment every run gets (a run can add to it).
  let environment: [String: String]

  init() throws {
    root = TemporaryFolder(prefix: "filenote-e2e")
    home = root.path + "/home"
    work = root.path + "/work"
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: false)
    let temporary = root.path + "/tmp"
    try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
    environment = [
      "HOME": home, "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TMPDIR": temporary,
    ]
  }

  /// `~/Documents`, the documents folder when nothing else is configured.
  var documents: String { home + "/Documents" }
  /// `~/Documents/datafile.dat`, the note when nothing else is configured.
  var notePath: String { documents + "/datafile.dat" }

  // MARK: Running filenote

  /// A `filenote` process with these arguments, ready to start.
  func filenote(
    _ arguments: [String], input: FilenoteProcess.Input = .nullDevice,
    environment extra: [String: String] = [:], in folder: String? = nil
  ) throws -> FilenoteProcess {
    FilenoteProcess(
      executable: try FilenoteProcess.binaryPath(), arguments: arguments,
      environment: environment.merging(extra) { $1 }, currentDirectory: folder ?? work,
      input: input)
  }

  /// Runs `filenote` with these arguments to its end.
  func run(
    _ arguments: String..., input: FilenoteProcess.Input = .nullDevice,
    environment extra: [String: String] = [:], in folder: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> FilenoteProcess.Result {
    try filenote(arguments, input: input, environment: extra, in: folder)
      .run(sourceLocation: sourceLocation)
  }

  /// Runs a `/bin/sh` script in which `filenote` is the binary under test
  /// (as a shell function; `"$0"` is its path, for `exec`).
  func shell(
    _ script: String, input: FilenoteProcess.Input = .nullDevice,
    environment extra: [String: String] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> FilenoteProcess.Result {
    let process = FilenoteProcess(
      executable: "/bin/sh",
      arguments: [
        "-c", "filenote() { \"$0\" \"$@\"; }\n" + script, try FilenoteProcess.binaryPath(),
      ],
      environment: environment.merging(extra) { $1 }, currentDirectory: work, input: input)
    return try process.run(sourceLocation: sourceLocation)
  }

  /// What `xdg-user-dir DOCUMENTS`, the desktop's own answer, says in this
  /// home with these extra variables.
  func xdgDocumentsFolder(environment extra: [String: String] = [:]) throws -> String {
    let process = FilenoteProcess(
      executable: "/usr/bin/xdg-user-dir", arguments: ["DOCUMENTS"],
      environment: environment.merging(extra) { $1 }, currentDirectory: work)
    let result = try process.run()
    #expect(result.status == 0, "xdg-user-dir failed: \(result.stderrText)")
    return String(result.stdoutText.dropLast(result.stdoutText.hasSuffix("\n") ? 1 : 0))
  }

  // MARK: Files

  /// Writes `bytes` to `path` directly (not through filenote), creating its
  /// folders, and gives the file `mode`.
  func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600) throws {
    let folder = (path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    guard fd >= 0 else { throw Self.failure("open", path) }
    defer { close(fd) }
    let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    guard written == bytes.count, fchmod(fd, mode) == 0 else { throw Self.failure("write", path) }
  }

  /// Writes text as the note, directly (not through filenote).
  func writeNote(_ text: String, mode: mode_t = 0o600) throws {
    try write(Array(text.utf8), to: notePath, mode: mode)
  }

  /// The bytes of the file at `path` (through symbolic links), or nil when
  /// there is none.
  func contents(of path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
  }

  /// The note's text, or nil when there is no note file.
  var note: String? {
    contents(of: notePath).map { String(decoding: $0, as: UTF8.self) }
  }

  /// `lstat` of `path`: the link itself for a symbolic link; nil when missing.
  func status(of path: String) -> stat? {
    var info = stat()
    return lstat(path, &info) == 0 ? info : nil
  }

  func exists(_ path: String) -> Bool { status(of: path) != nil }

  /// The permission bits of `path`, or nil when it does not exist.
  func mode(of path: String) -> mode_t? {
    status(of: path).map { $0.st_mode & 0o7777 }
  }

  func isSymbolicLink(_ path: String) -> Bool {
    status(of: path).map { $0.st_mode & S_IFMT == S_IFLNK } ?? false
  }

  /// The names in `folder`, sorted (hidden ones too); empty when it is missing.
  func entries(in folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
  }

  /// Sets the modification time of `path` to a moment long ago, so that a
  /// later check can tell whether anything wrote to it.
  func backdate(_ path: String) throws {
    var times = [
      timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0),
    ]
    guard utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0 else {
      throw Self.failure("utimensat", path)
    }
  }

  /// Makes `path` (a folder or a file) refuse every change: a folder gets no
  /// new, removed or renamed entries, a file cannot be replaced or written.
  ///
  /// Permission bits do not stop root, and the tests may run as root, so
  /// root uses the immutable attribute (`chattr +i`). A test that cannot
  /// protect the path is cancelled (skipped) with the reason.
  func protect(_ path: String) throws {
    if geteuid() != 0 {
      var info = stat()
      if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, chmod(path, 0o500) == 0 {
        return
      }
      try Test.cancel("cannot make \(path) unchangeable without root")
    }
    let result = try runTool("/usr/bin/chattr", ["+i", path])
    if result.status != 0 {
      try Test.cancel("chattr +i is not available here: \(result.stderrText)")
    }
  }

  /// Undoes `protect(_:)`, so the folder can be cleaned up.
  func unprotect(_ path: String) {
    if geteuid() != 0 {
      chmod(path, 0o700)
    } else {
      _ = try? runTool("/usr/bin/chattr", ["-i", path])
    }
  }

  private func runTool(_ tool: String, _ arguments: [String]) throws -> FilenoteProcess.Result {
    try FilenoteProcess(
      executable: tool, arguments: arguments, environment: environment, currentDirectory: work
    ).run()
  }

  private static func failure(_ call: String, _ path: String) -> CocoaError {
    CocoaError(
      .fileWriteUnknown,
      userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: "\(call) failed"])
  }
}
