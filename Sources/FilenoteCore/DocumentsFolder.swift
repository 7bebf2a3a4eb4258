import SystemCalls

/// Finds the user's documents folder the way the desktop does.
///
/// SPEC asks for the folder `FileManager.default.urls(for: .documentDirectory,
/// in: .userDomainMask)` names, corrected where Foundation on Linux gets it
/// wrong. Tried on this machine (swift-foundation 6.3), Foundation:
/// - ignores `$HOME` and takes the home folder from the password database, so
///   `HOME=/tmp/x filenote` would still write to the real home;
/// - reads `user-dirs.dirs` but keeps the shell quoting and `$HOME` literally,
///   so `XDG_DOCUMENTS_DIR="$HOME/Docs"` becomes the relative URL
///   `%22$HOME/Docs%22/`.
/// So filenote reads `user-dirs.dirs` itself, as `xdg-user-dir` does, and
/// takes the home folder from `$HOME`, or from the user database (where
/// `FileManager` takes it) only when `$HOME` is not set. It does not link
/// Foundation at all: loading it costs more start-up time than all the rest
/// of `filenote show`.
public struct DocumentsFolder: Sendable {
  /// The process environment (or a test's).
  public var environment: [String: String]

  /// Reads a whole small text file, or returns nil when it can't.
  var readTextFile: @Sendable (String) -> String? = { path in
    guard let fd = try? FileDescriptor.open(path, .readOnly) else { return nil }
    defer { fd.close() }
    guard let bytes = try? fd.readToEnd() else { return nil }
    return String(validating: bytes, as: UTF8.self)
  }

  public init(environment: [String: String]) {
    self.environment = environment
  }

  /// The home folder: `$HOME` when it is an absolute path, else the user
  /// database's answer for the effective user, else `/var/empty` (the
  /// answers `FileManager.default.homeDirectoryForCurrentUser` gives).
  public var home: String {
    if let home = environment["HOME"], home.hasPrefix("/") {
      return Self.trimmingTrailingSlashes(home)
    }
    return Self.trimmingTrailingSlashes(
      PasswordDatabase.homeFolder(ofUser: CurrentProcess.effectiveUser) ?? "/var/empty")
  }

  /// `${XDG_CONFIG_HOME:-$HOME/.config}/user-dirs.dirs`; a relative
  /// `XDG_CONFIG_HOME` is ignored, as the XDG base directory spec says.
  public var userDirsFile: String {
    if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
      return Self.trimmingTrailingSlashes(config) + "/user-dirs.dirs"
    }
    return FileStore.join(home, ".config/user-dirs.dirs")
  }

  /// The documents folder: the one `user-dirs.dirs` configures, else `~/Documents`.
  public var path: String {
    let home = self.home
    if let contents = readTextFile(userDirsFile),
      let configured = Self.configuredDocumentsFolder(in: contents, home: home)
    {
      return configured
    }
    return FileStore.join(home, "Documents")
  }

  /// The value of the last well-formed `XDG_DOCUMENTS_DIR` line in the text of
  /// a `user-dirs.dirs` file, as `xdg-user-dir DOCUMENTS` prints it.
  ///
  /// The format is the one `xdg-user-dirs-update` writes: `XDG_DOCUMENTS_DIR=`
  /// followed by a double-quoted path that is either absolute or starts with
  /// `$HOME`, with `\` escaping `"`, `\`, `$` and `` ` ``. Relative paths and
  /// other variables are not part of that format: such lines are ignored, as
  /// GLib ignores them, and the next rule (`~/Documents`) applies.
  static func configuredDocumentsFolder(in contents: String, home: String) -> String? {
    var found: String?
    for line in contents.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
      let line = line.drop(while: { $0 == " " || $0 == "\t" })
      let key = "XDG_DOCUMENTS_DIR="
      guard line.hasPrefix(key) else { continue }
      if let value = parseValue(line.dropFirst(key.count), home: home) {
        found = value
      }
    }
    return found
  }

  private static func parseValue(_ raw: Substring, home: String) -> String? {
    var rest = raw[...]
    let quoted = rest.first == "\""
    if quoted { rest = rest.dropFirst() }

    var value = ""
    // The value may start with $HOME or ${HOME}; any other unescaped $ or `
    // would be expanded by the shell in ways this format does not allow.
    for form in ["${HOME}", "$HOME"] where rest.hasPrefix(form) {
      let after = rest.dropFirst(form.count)
      // "$HOMEDIR" is another variable, not $HOME.
      if form == "$HOME", let next = after.first, next.isLetter || next.isNumber || next == "_" {
        return nil
      }
      value = home
      rest = after
      break
    }

    var closed = !quoted
    var escaped = false
    var index = rest.startIndex
    while index < rest.endIndex {
      let character = rest[index]
      if !quoted && (character == " " || character == "\t" || character == "#") { break }
      index = rest.index(after: index)
      if escaped {
        // Inside double quotes the shell keeps a backslash before any other character.
        if quoted && !"\"\\$`".contains(character) { value.append("\\") }
        value.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "\"" {
        guard quoted else { return nil }
        closed = true
        break
      } else if character == "$" || character == "`" || (!quoted && character == "'") {
        return nil
      } else {
        value.append(character)
      }
    }
    guard closed, !escaped else { return nil }
    let trailing = rest[index...].drop(while: { $0 == " " || $0 == "\t" })
    guard trailing.isEmpty || trailing.first == "#" else { return nil }
    guard value.hasPrefix("/") else { return nil }
    // HOME=/ and "$HOME/Docs" make "//Docs".
    while value.hasPrefix("//") { value.removeFirst() }
    return trimmingTrailingSlashes(value)
  }

  static func trimmingTrailingSlashes(_ path: String) -> String {
    var path = Substring(path)
    while path.count > 1 && path.hasSuffix("/") { path = path.dropLast() }
    return String(path)
  }
}
