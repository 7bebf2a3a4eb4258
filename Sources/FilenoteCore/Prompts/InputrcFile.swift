import LineEditor
import SystemCalls

/// The user's inputrc, found and read as GNU readline finds it, for the
/// prompt alone (no other command opens it): `$INPUTRC`, else
/// `~/.inputrc`, else `/etc/inputrc`.
///
/// Reading is bounded so that no file can hold the prompt up or stop it:
/// at most 1 MiB a file (4 MiB with every `$include`), regular files only,
/// opened non-blocking (a FIFO or `/dev/zero` named there is refused
/// without a read), a file with a NUL byte taken for a binary one and
/// skipped. A missing file is skipped silently, as readline skips it; any
/// other file that cannot be used is named on standard error in one line,
/// once, and the prompt goes on with the keys it has without it.
enum InputrcFile {
  /// The largest inputrc read.
  static let sizeLimit = 1 << 20
  /// The most read in all, `$include`s with it.
  static let totalLimit = 4 << 20

  /// Why a file is not used.
  private enum Problem: Error {
    case missing
    case unreadable(String)
  }

  /// The configuration the user's inputrc sets, or readline's defaults.
  static func read(_ environment: Environment) -> EditorConfiguration {
    let home = environment["HOME"]
    var budget = totalLimit
    var firstProblem: String?
    let load = { (path: String) -> [UInt8]? in
      switch contents(of: expandingTilde(path, home: home), budget: budget) {
      case .success(let bytes):
        budget -= bytes.count
        return bytes
      case .failure(.missing):
        return nil
      case .failure(.unreadable(let reason)):
        if firstProblem == nil { firstProblem = "\(path): \(reason)" }
        return nil
      }
    }
    var found: (path: String, bytes: [UInt8])?
    if let path = environment["INPUTRC"], !path.isEmpty {
      found = load(path).map { (path, $0) }
    } else if let home, let bytes = load(home + "/.inputrc") {
      found = (home + "/.inputrc", bytes)
    } else if let bytes = load("/etc/inputrc") {
      found = ("/etc/inputrc", bytes)
    }
    var configuration = EditorConfiguration()
    if let found {
      var parser = InputrcParser(terminalName: environment["TERM"], include: load)
      parser.parse(found.bytes, path: found.path)
      configuration = parser.configuration
    }
    if let firstProblem {
      Filenote.report("inputrc not read, \(firstProblem); the prompt keeps its own keys")
    }
    return configuration
  }

  /// `~/` at the start of `path` as the home folder, as readline expands it.
  private static func expandingTilde(_ path: String, home: String?) -> String {
    guard let home, path.utf8.first == UInt8(ascii: "~") else { return path }
    let rest = path.utf8.dropFirst()
    guard rest.isEmpty || rest.first == UInt8(ascii: "/") else { return path }
    return home + String(decoding: rest, as: UTF8.self)
  }

  /// The bytes of the file at `path`, at most `sizeLimit` and `budget`.
  private static func contents(of path: String, budget: Int) -> Result<[UInt8], Problem> {
    let file: FileDescriptor
    do {
      file = try FileDescriptor.open(
        path, .readOnly, options: [.nonBlocking, .noControllingTerminal])
    } catch {
      return .failure(error == .noSuchFileOrDirectory ? .missing : .unreadable(error.description))
    }
    defer { file.close() }
    do {
      let status = try file.status()
      guard status.kind == .regular else {
        return .failure(
          .unreadable(status.kind == .directory ? "it is a folder" : "it is not a regular file"))
      }
      let limit = min(sizeLimit, budget)
      guard status.size <= limit else { return .failure(.unreadable("it is larger than 1 MiB")) }
      // A file whose size the kernel does not know (procfs) is read up to the limit.
      let bytes = try file.read(upTo: (status.size == 0 ? limit : Int(status.size)) + 1)
      guard bytes.count <= limit else { return .failure(.unreadable("it is larger than 1 MiB")) }
      guard !bytes.contains(0) else { return .failure(.unreadable("it is not text")) }
      return .success(bytes)
    } catch {
      return .failure(.unreadable(error.description))
    }
  }
}
