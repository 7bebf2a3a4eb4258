import SystemCalls

/// Where the note file is: a folder held open and a name in it, found by
/// walking the path one name at a time from `/`.
///
/// filenote resolves the path itself, through open folder descriptors, so
/// that a symbolic link is followed only where the kernel's
/// `fs.protected_symlinks` rule would follow it, whether or not that setting
/// is on: in a sticky folder that others may write (`/tmp`), only a link
/// owned by the user or by the folder's owner. What was checked is what is
/// used: every later call names the file relative to the open folder, so a
/// link or folder swapped in meanwhile cannot redirect it.
final class NoteLocation {
  /// The folder that holds the note, open as a handle (O_PATH).
  let folder: FileDescriptor
  /// That folder's path as walked (for messages and nothing else).
  let folderPath: String
  /// The note's name in `folder`; never a symbolic link when resolved.
  let name: String
  /// What `name` was when the walk reached it; nil when there is none.
  let status: FileStatus?

  /// The note file's path as walked: where the chain of links ends.
  var path: String { FileStore.join(folderPath, name) }

  private init(folder: FileDescriptor, folderPath: String, name: String, status: FileStatus?) {
    self.folder = folder
    self.folderPath = folderPath
    self.name = name
    self.status = status
  }

  deinit { folder.close() }

  /// What to do about a folder on the way that does not exist.
  enum MissingFolder {
    /// Fail with "No such file or directory" naming it.
    case fail
    /// Create it, mode 0700 (the documents folder on the first save).
    case create
  }

  /// Walks `path` (absolute). nil when a folder on the way is missing and
  /// `missingFolder` is nil (a reader: there is no note).
  static func resolve(
    _ path: String, missingFolder: MissingFolder?
  ) throws(FilenoteError) -> NoteLocation? {
    // The kernel refuses a path this long whatever it names: so does the walk.
    guard path.utf8.count < 4096 else { throw .system(.use, .file(path), errno: .nameTooLong) }
    var pending = Array(path.pathComponents.reversed())
    // A relative path is left only when the current folder has no name.
    let start = path.isAbsolutePath ? "/" : "."
    var current: FileDescriptor
    do {
      current = try FileDescriptor.open(start, .readOnly, options: [.pathOnly, .directory])
    } catch { throw .system(.use, .file(start), errno: error) }
    var currentPath = start
    var linksFollowed = 0
    // Each step either returns, throws, or replaces `current` (closing the old one).
    func step(into next: FileDescriptor, path nextPath: String) {
      current.close()
      current = next
      currentPath = nextPath
    }
    while let component = pending.popLast() {
      let isLast = pending.isEmpty
      let componentPath = FileStore.join(currentPath, component)
      if component == "." { continue }
      if component == ".." {
        do {
          step(
            into: try current.open("..", .readOnly, options: [.pathOnly, .directory]),
            path: FileStore.folder(of: currentPath))
        } catch {
          current.close()
          throw .system(.use, .file(componentPath), errno: error)
        }
        continue
      }
      // A real folder on the way is walked into at once (noFollow: a link
      // fails with notDirectory); anything else is looked at below.
      if !isLast,
        let folder = try? current.open(
          component, .readOnly, options: [.pathOnly, .directory, .noFollow])
      {
        step(into: folder, path: componentPath)
        continue
      }
      let info: FileStatus
      do {
        info = try current.status(of: component)
      } catch  where error == .noSuchFileOrDirectory {
        if isLast {
          return NoteLocation(
            folder: current, folderPath: currentPath, name: component, status: nil)
        }
        guard let missingFolder else {
          current.close()
          return nil
        }
        if missingFolder == .fail {
          current.close()
          // Named as before the walk: the folder the note's file would be made in.
          let noteFolder = ([componentPath] + pending.reversed().dropLast()).joined(separator: "/")
          throw .system(.createTemporaryFile, .file(noteFolder), errno: error)
        }
        do throws(FilenoteError) {
          try createFolder(component, in: current, path: componentPath)
        } catch {
          current.close()
          throw error
        }
        pending.append(component)  // and walk into it
        continue
      } catch {
        current.close()
        throw .system(.use, .file(componentPath), errno: error)
      }

      if info.kind == .symbolicLink {
        let link: [UInt8]
        do throws(FilenoteError) {
          linksFollowed += 1
          guard linksFollowed <= 40 else {
            throw .system(.use, .file(path), errno: .tooManySymbolicLinkLevels)
          }
          try refuseOthersName(info, at: componentPath, in: current, what: .link)
          do {
            link = try current.destination(ofLink: component)
          } catch {
            throw .system(.readLink, .file(componentPath), errno: error)
          }
        } catch {
          current.close()
          throw error
        }
        let destination = String(decoding: link, as: UTF8.self)
        pending += destination.pathComponents.reversed()
        if destination.isAbsolutePath {
          do { step(into: try .openRoot(), path: "/") } catch {
            current.close()
            throw .system(.use, .file("/"), errno: error)
          }
        }
        if isLast && destination.endsWithSlash {
          // "dir/" names a folder, never a note file.
          pending.insert(".", at: 0)
        }
        continue
      }

      if isLast {
        return NoteLocation(folder: current, folderPath: currentPath, name: component, status: info)
      }
      do {
        // noFollow: a link swapped in since the status above is refused, not followed.
        step(
          into: try current.open(
            component, .readOnly, options: [.pathOnly, .directory, .noFollow]),
          path: componentPath)
      } catch {
        current.close()
        throw .system(.use, .file(componentPath), errno: error)
      }
    }
    // The path named "/" itself, or ended in "." or "..": a folder.
    current.close()
    throw .notARegularFile(path: path)
  }

  /// What kind of name `refuseOthersName` checks.
  enum NameKind { case link, file }

  /// The kernel's rule (fs.protected_symlinks, and fs.protected_regular for
  /// a file a writer would replace): in a sticky folder that others may
  /// write, a name owned by neither this user nor the folder's owner is
  /// someone else's plant.
  static func refuseOthersName(
    _ info: FileStatus, at path: String, in folder: FileDescriptor, what: NameKind
  ) throws(FilenoteError) {
    let user = CurrentProcess.effectiveUser
    guard info.owner != user else { return }
    let folderInfo: FileStatus
    do { folderInfo = try folder.status() } catch {
      throw .system(.use, .file(FileStore.folder(of: path)), errno: error)
    }
    let sticky = folderInfo.permissions & 0o1000 != 0
    let othersWrite = folderInfo.permissions & 0o002 != 0
    guard sticky && othersWrite && info.owner != folderInfo.owner else { return }
    let folderPath = FileStore.folder(of: path)
    throw .unsafePath(
      path: path,
      why: what == .link ? .othersLink(folder: folderPath) : .othersFile(folder: folderPath))
  }

  /// Checks the resolved note before a writer replaces or removes it.
  func refuseOthersFile() throws(FilenoteError) {
    guard let status else { return }
    try Self.refuseOthersName(status, at: path, in: folder, what: .file)
  }

  /// Creates `name` in `parent`, mode exactly 0700, and makes the new entry durable.
  private static func createFolder(
    _ name: String, in parent: FileDescriptor, path: String
  ) throws(FilenoteError) {
    do {
      try parent.makeFolder(name, permissions: 0o700)
    } catch  where error == .fileExists {
      return  // made meanwhile by another save
    } catch {
      throw .system(.createFolder, .file(path), errno: error)
    }
    // mkdir's mode is narrowed by the umask; the man page (FILES) says 0700.
    try? parent.changePermissions(of: name, to: 0o700)
    if let readable = try? parent.open(".", .readOnly, options: .directory) {
      try? readable.syncEntries()
      readable.close()
    }
  }

  /// The note's folder open for reading, which syncing it needs: opened
  /// before anything changes, so a folder that cannot be synced (write-only,
  /// chmod 300) fails the command while the note is still untouched.
  func openFolderForWriting() throws(FilenoteError) -> FileDescriptor {
    do {
      return try folder.open(".", .readOnly, options: .directory)
    } catch {
      throw .system(.use, .file(folderPath), errno: error)
    }
  }
}
