import SystemCalls

extension LockedNote {
  /// Opens the folder `name` beside the note for reading (the versions
  /// folder, `.datafile.dat.versions`), creating it with mode 0700 when
  /// `creating` and it is missing; nil when it is missing and not created.
  ///
  /// It is used only when it is a real folder (never a link, which is not
  /// followed), owned by this user, with no access for anyone else; anything
  /// else in its place (a link, a file, another user's folder, a folder open
  /// to others) is refused with `unsafePath(.notPrivateFolder)`, and nothing
  /// is created or changed. The descriptor is the caller's to close; name
  /// files relative to it (`open`, `status(of:)`, `remove`), never by path.
  public func openPrivateFolder(
    named name: String, creating: Bool
  ) throws(FilenoteError) -> FileDescriptor? {
    try openPrivateFolder(named: name, creating: creating, created: false)
  }

  private func openPrivateFolder(
    named name: String, creating: Bool, created: Bool
  ) throws(FilenoteError) -> FileDescriptor? {
    let path = FileStore.join(target.location.folderPath, name)
    let refusal = FilenoteError.unsafePath(path: path, why: .notPrivateFolder)
    let descriptor: FileDescriptor
    do {
      descriptor = try folder.open(name, .readOnly, options: [.directory, .noFollow])
    } catch {
      switch error {
      case .noSuchFileOrDirectory:
        guard creating else { return nil }
        do {
          try folder.makeFolder(name, permissions: 0o700)
        } catch  where error == .fileExists {
          // Made meanwhile: judged below like any other.
        } catch {
          throw .system(.createFolder, .file(path), errno: error)
        }
        return try openPrivateFolder(named: name, creating: false, created: true)
      case .tooManySymbolicLinkLevels, .notDirectory:
        throw refusal
      default:
        throw .system(.use, .file(path), errno: error)
      }
    }
    guard let status = try? descriptor.status(), status.kind == .directory,
      status.owner == CurrentProcess.effectiveUser, status.permissions & 0o077 == 0
    else {
      descriptor.close()
      throw refusal
    }
    if created {
      // mkdir's mode is narrowed by the umask: exactly 0700, on what was opened.
      try? descriptor.changePermissions(0o700)
      target.syncFolderAfterChange()
    }
    return descriptor
  }
}
