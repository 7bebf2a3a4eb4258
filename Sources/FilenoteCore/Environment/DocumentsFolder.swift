import SystemCalls

/// Finds the user's documents folder the way the desktop does.
///
/// It is the folder `FileManager.default.urls(for: .documentDirectory,
/// in: .userDomainMask)` names, corrected where Foundation on Linux gets it
/// wrong (doc/DESIGN.md, Where the note lives). Tried on this machine
/// (swift-foundation 6.3), Foundation:
/// - ignores `$HOME` and takes the home folder from the password database, so
///   `HOME=/tmp/x filenote` would still write to the real home;
/// - reads `user-dirs.dirs` but keeps the shell quoting and `$HOME` literally,
///   so `XDG_DOCUMENTS_DIR="$HOME/Docs"` becomes the relative URL
///   `%22$HOME/Docs%22/`.
/// So filenote reads `user-dirs.dirs` itself, as `xdg-user-dir` does, and
/// takes the home folder from `$HOME`, or from the user database (where
/// `FileManager` takes it) only when `$HOME` is not set. It does not link
/// Foundation at all: loading it costs more start-up time than all the rest
/// of `filenote show` (see CONTRIBUTING.md, Hot path).
struct DocumentsFolder: Sendable {
  /// The process environment (or a test's).
  var environment: Environment

  init(environment: Environment) {
    self.environment = environment
  }

  /// The home folder: `$HOME` when it is an absolute path, else the user
  /// database's answer for the effective user, else `/var/empty` (the
  /// answers `FileManager.default.homeDirectoryForCurrentUser` gives).
  ///
  /// An empty or relative `$HOME` counts as unset, as systemd's
  /// `get_home_dir()` and the XDG base directory spec (for its own
  /// variables) treat them: a note must not land in a folder that depends on
  /// where the command happens to run.
  var home: String {
    if let home = environment["HOME"], home.isAbsolutePath {
      return home.trimmingTrailingSlashes
    }
    return (PasswordDatabase.homeFolder(ofUser: CurrentProcess.effectiveUser) ?? "/var/empty")
      .trimmingTrailingSlashes
  }

  /// `${XDG_CONFIG_HOME:-$HOME/.config}/user-dirs.dirs`; a relative
  /// `XDG_CONFIG_HOME` is ignored, as the XDG base directory spec says.
  var userDirsFile: String {
    if let config = environment["XDG_CONFIG_HOME"], config.isAbsolutePath {
      return config.trimmingTrailingSlashes + "/user-dirs.dirs"
    }
    return FileStore.join(home, ".config/user-dirs.dirs")
  }

  /// The largest `user-dirs.dirs` read: the file is a dozen short lines.
  static let userDirsSizeLimit = 64 * 1024

  /// The documents folder: the one `user-dirs.dirs` configures, else
  /// `~/Documents`. A `user-dirs.dirs` that cannot be read (not a regular
  /// file, too large, unreadable) is an error, not a silent fallback.
  var path: String {
    get throws(FilenoteError) {
      let home = self.home
      if let contents = try Self.readUserDirs(userDirsFile),
        let configured = try Self.configuredDocumentsFolder(
          in: contents, home: home, file: userDirsFile)
      {
        return configured
      }
      return FileStore.join(home, "Documents")
    }
  }

  /// The store of the note `name` in the documents folder, which the first
  /// save creates (with any missing parents) when the home folder exists. A
  /// home folder that does not exist is not made up: saving fails, as in a
  /// missing `--file` folder, and nothing is created.
  func store(forNoteNamed name: String) throws(FilenoteError) -> FileStore {
    let folder = try path
    let homeExists = (try? FileSystem.status(home))?.kind == .directory
    return FileStore(path: FileStore.join(folder, name), createsFolder: homeExists)
  }

  /// The bytes of `user-dirs.dirs`, or nil when there is none. Opened
  /// without blocking (a FIFO would wait for a writer for ever) and only
  /// read when it is a regular file of at most `userDirsSizeLimit` bytes (a
  /// link to `/dev/zero` never ends).
  static func readUserDirs(_ path: String) throws(FilenoteError) -> [UInt8]? {
    let fd: FileDescriptor
    do {
      fd = try FileDescriptor.open(
        path, .readOnly, options: [.nonBlocking, .noControllingTerminal])
    } catch  where error == .noSuchFileOrDirectory || error == .notDirectory {
      return nil
    } catch {
      throw .system(.read, .file(path), errno: error)
    }
    defer { fd.close() }
    let status: FileStatus
    let bytes: [UInt8]
    do {
      status = try fd.status()
    } catch {
      throw .system(.read, .file(path), errno: error)
    }
    guard status.kind == .regular else { throw .notARegularFile(path: path) }
    do {
      bytes = try fd.read(upTo: userDirsSizeLimit + 1)
    } catch {
      throw .system(.read, .file(path), errno: error)
    }
    guard bytes.count <= userDirsSizeLimit else {
      throw .fileTooLarge(path: path, limit: userDirsSizeLimit)
    }
    return bytes
  }

  /// The value of the last well-formed `XDG_DOCUMENTS_DIR` line in a
  /// `user-dirs.dirs` file (`file`, named in errors), as `xdg-user-dir
  /// DOCUMENTS` prints it.
  ///
  /// The file is read as `xdg-user-dir` (the shell) reads it: as bytes, line
  /// by line, so a CRLF line ending or a byte that is not UTF-8 on another
  /// line (a Latin-1 comment) changes nothing. The value itself is a path and
  /// must be UTF-8; one that is not is an error rather than another folder.
  ///
  /// The format is the one `xdg-user-dirs-update` writes: `XDG_DOCUMENTS_DIR=`
  /// followed by a double-quoted path that is either absolute or starts with
  /// `$HOME`, with `\` escaping `"`, `\`, `$` and `` ` ``. Relative paths and
  /// other variables are not part of that format: such lines are ignored, as
  /// GLib ignores them, and the next rule (`~/Documents`) applies.
  static func configuredDocumentsFolder(
    in contents: [UInt8], home: String, file: String
  ) throws(FilenoteError) -> String? {
    let key = Array("XDG_DOCUMENTS_DIR=".utf8)
    var found: (value: String, isUTF8: Bool)?
    for rawLine in contents.split(separator: UInt8(ascii: "\n")) {
      var line = rawLine.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
      if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
      guard line.starts(with: key) else { continue }
      let raw = line.dropFirst(key.count)
      let text = String(validating: raw, as: UTF8.self)
      if let value = parseValue(Substring(text ?? String(decoding: raw, as: UTF8.self)), home: home)
      {
        found = (value, text != nil)
      }
    }
    if let found, !found.isUTF8 {
      throw .settingNotUTF8(name: "XDG_DOCUMENTS_DIR", path: file)
    }
    return found?.value
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
    guard value.isAbsolutePath else { return nil }
    // HOME=/ and "$HOME/Docs" make "//Docs".
    return value.withOneLeadingSlash.trimmingTrailingSlashes
  }
}
