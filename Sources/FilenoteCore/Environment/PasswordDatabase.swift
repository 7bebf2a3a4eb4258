import SystemCalls

/// The system's user database (`passwd` through NSS), asked through `getent`.
///
/// The release build is one static executable (see the Makefile), and a
/// static glibc program cannot load the NSS modules that many systems list
/// for users (`systemd`, `sss`, `ldap`): `getpwuid_r` for a user that is not
/// in `/etc/passwd` then crashes inside glibc (tried on Debian 12 with
/// `passwd: files systemd`). `getent` is glibc's own, dynamically linked
/// tool, so it loads them as every other program does. Running it costs one
/// process, paid only when `$HOME` is not set.
enum PasswordDatabase {
  /// Where `getent` is looked for: no `PATH` search, as a process started
  /// without `$HOME` may well have no `PATH` either.
  static let getentPaths = ["/usr/bin/getent", "/bin/getent"]

  /// The home folder of the user with id `uid`, or nil when the database has
  /// no such user (or no home for it).
  static func homeFolder(ofUser uid: UInt32) -> String? {
    for path in getentPaths where FileSystem.isExecutable(path) {
      guard let output = run(path, arguments: ["getent", "passwd", String(uid)]) else {
        return nil
      }
      // One line: name:password:uid:gid:gecos:home:shell
      let line = output.prefix { $0 != UInt8(ascii: "\n") }
      let fields = line.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
      guard fields.count >= 7, let home = String(validating: fields[5], as: UTF8.self),
        home.hasPrefix("/")
      else { return nil }
      return home
    }
    return nil
  }

  /// Runs `path` with `arguments` (the first is its name) and returns its
  /// standard output, or nil when it could not run or did not exit 0.
  private static func run(_ path: String, arguments: [String]) -> [UInt8]? {
    guard let (output, termination) = try? ChildProcess.output(of: path, arguments: arguments),
      termination == .exited(0)
    else { return nil }
    return output
  }
}
