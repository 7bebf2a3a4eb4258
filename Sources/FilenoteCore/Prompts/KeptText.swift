import SystemCalls

/// Text the user wrote that filenote could not save, left in a private file
/// (`PrivateTextFile`) by a prompt that could not stay (a closed terminal,
/// a signal, Ctrl-C after a failed save) or by `edit`: the next prompt says
/// it is there and offers it first under Up. Only saving that text, or
/// `filenote forget PATH`, removes it; nothing else does.
///
/// Only the user's own files are read, and no link is followed: a folder
/// named `filenote-XXXXXX` right in `$TMPDIR` (else `/tmp`) that is no link,
/// belongs to the user and is mode 0700, holding `note.txt`, no link, a
/// regular file of the user's, mode 0600, with no other name. Another
/// user's folder, or one a filenote is using (its editor is open on it:
/// the folder is locked), is passed by.
struct KeptText {
  /// The file, as the message that kept it named it.
  let path: String
  /// Its text, without the line ending the file has after it.
  let bytes: [UInt8]
  /// When it was written, in seconds since the epoch.
  let modified: Int64

  var text: String { String(decoding: bytes, as: UTF8.self) }

  /// The kept texts where `environment`'s prompts keep them, newest first;
  /// a file that is not valid UTF-8 (an editor's) is not offered.
  static func find(in environment: Environment) -> [KeptText] {
    let base = PrivateTextFile.base(in: environment)
    let names = (try? FileSystem.names(in: base)) ?? []
    var found: [KeptText] = []
    for name in names where name.hasPrefix(PrivateTextFile.folderPrefix) {
      guard let kept = read(FileStore.join(base, name) + "/" + PrivateTextFile.fileName),
        UTF8Validator.firstInvalidOffset(in: kept.bytes) == nil
      else { continue }
      // Newest first; there are few.
      let index = found.firstIndex { $0.modified < kept.modified } ?? found.count
      found.insert(kept, at: index)
    }
    return found
  }

  /// `filenote forget PATH`: removes the kept text at `path` (as `find`
  /// checks it), and what an editor left beside it, and its folder.
  static func forget(_ path: String) throws(FilenoteError) {
    guard let kept = read(path) else {
      throw .usage(
        "'\(path.replacingControlCharacters())' is not text filenote kept "
          + "(a note.txt of yours in a private filenote- folder no filenote is using)")
    }
    kept.remove()
  }

  /// Removes the file, whatever an editor left beside it, and the folder.
  func remove() {
    PrivateTextFile.removeFolder(String(path.dropLast(PrivateTextFile.fileName.count + 1)))
  }

  /// The kept text at `path`, when it is one (see the type's comment).
  private static func read(_ path: String) -> KeptText? {
    guard path.hasPrefix("/"), path.hasSuffix("/" + PrivateTextFile.fileName) else { return nil }
    let folderPath = String(path.dropLast(PrivateTextFile.fileName.count + 1))
    guard
      let folderName = folderPath.split(separator: "/").last,
      // As mkdtemp names it: the prefix and six characters.
      folderName.hasPrefix(PrivateTextFile.folderPrefix),
      folderName.utf8.count == PrivateTextFile.folderPrefix.utf8.count + 6,
      let folder = try? FileDescriptor.open(
        folderPath, .readOnly, options: [.directory, .noFollow])
    else { return nil }
    defer { folder.close() }
    let user = CurrentProcess.effectiveUser
    guard let status = try? folder.status(), status.kind == .directory, status.owner == user,
      status.permissions == 0o700,
      // Not while a filenote uses it; held while it is read.
      (try? folder.tryLockExclusive()) == true,
      let file = try? folder.open(
        PrivateTextFile.fileName, .readOnly, options: [.noFollow, .nonBlocking])
    else { return nil }
    defer { file.close() }
    guard let info = try? file.status(), info.kind == .regular, info.owner == user,
      info.permissions == 0o600, info.linkCount == 1
    else { return nil }
    var bytes: [UInt8] = []
    do {
      try IncomingText.read(file, from: .file(path), checking: nil) { piece in
        bytes.append(contentsOf: piece)
      }
    } catch {
      return nil
    }
    guard !bytes.isEmpty else { return nil }
    return KeptText(path: path, bytes: bytes, modified: info.modified.seconds)
  }
}
