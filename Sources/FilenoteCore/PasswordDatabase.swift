#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

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
  static func homeFolder(ofUser uid: uid_t) -> String? {
    for path in getentPaths where access(path, X_OK) == 0 {
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
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    // Only the copy on getent's standard output is for it.
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    let output = FileDescriptor(rawValue: ends[0])
    defer { output.close() }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)

    let argv = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
    FileDescriptor(rawValue: ends[1]).close()
    guard spawned == 0 else { return nil }

    let bytes = try? output.readToEnd()
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    // Exited (low seven bits zero) with status 0.
    guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else { return nil }
    return bytes
  }
}
