import SystemCalls
import TerminalSession

/// Everything that can go wrong in filenote, each with a one-line message a
/// user can act on. The executable prints it as `filenote: <message>` and
/// exits with `exitCode`.
enum FilenoteError: Error, Equatable, Sendable {
  /// The command line is wrong (unknown command or option, missing value).
  case usage(String)
  /// `filenote` without a command needs a terminal for the prompt.
  case notATerminal
  /// There is no note to show; `versionsKept` versions are (after a
  /// `clear`, `undo` brings the note back).
  case noNote(path: String, versionsKept: Int)
  /// There is no note to show, but a sync engine left `count` conflict
  /// copies of it beside it (rclone bisync renames both texts away).
  case noNoteButConflictCopies(path: String, count: Int)
  /// The input to save is empty after its one trailing line ending is removed.
  case emptyInput
  /// The input to save is not UTF-8; `offset` is the first bad byte, from 0.
  case inputNotUTF8(offset: Int)
  /// The note file is not UTF-8; `offset` is the first bad byte, from 0.
  case fileNotUTF8(path: String, offset: Int)
  /// Another program wrote into the note file while a save compared its
  /// text with it, so the part of the text that matched is gone; nothing was saved.
  case noteChangedWhileSaving(path: String)
  /// The note file is something filenote cannot hold a note in (a directory, a device).
  case notARegularFile(path: String)
  /// A name on the note's path was planted by someone else, so filenote
  /// does not use it (see `NoteLocation`); nothing was changed.
  case unsafePath(path: String, why: UnsafeReason)
  /// Another writer held the note's writer lock for `seconds`; nothing was changed.
  case lockTimeout(path: String, seconds: Int)
  /// A file filenote reads for its settings is larger than it can be (`limit` bytes).
  case fileTooLarge(path: String, limit: Int)
  /// The setting `name` in the file at `path` holds a path that is not UTF-8.
  case settingNotUTF8(name: String, path: String)
  /// A system call failed while filenote was doing `operation` to `subject`;
  /// `errno` says why.
  case system(Operation, Subject, errno: Errno)
  /// The terminal of the prompt failed; the message is the terminal's own,
  /// which says what failed and why (its `Errno`).
  case terminal(TerminalError)
  /// `filenote edit` needs a terminal for the editor.
  case editNeedsTerminal
  /// The user's editor did not exit 0, so nothing was taken from it.
  case editor(EditorFailure)
  /// `filenote edit`: the note changed on disk while the editor was open
  /// and the user did not say to overwrite it; what they wrote is kept in
  /// `keptIn`.
  case editConflict(keptIn: String)
  /// What the user wrote in the prompt or in `filenote edit` was not saved,
  /// because of `because` (nil: the prompt ended before Enter, by a signal
  /// or a terminal that went away), and is kept in the private file
  /// `keptIn` (see `PrivateTextFile`).
  indirect case notSaved(because: FilenoteError?, keptIn: String)
  /// The versions folder beside the note is not one filenote may use, so
  /// nothing was read from it or written to it.
  case versionsFolderUnsafe(path: String, reason: UnsafeFolderReason)
  /// The note being replaced could not be kept as a version, so the save
  /// was refused and the note is unchanged.
  case cannotKeepVersion(path: String, errno: Errno)
  /// No version numbered `number` is kept of the note at `note`; `kept` versions are.
  case noVersion(number: Int, kept: Int, note: String)
  /// `undo` with no version of the note at `path` kept.
  case nothingToUndo(path: String)
  /// `forget N`: another writer changed what version `number` is while the
  /// user was asked about it, so nothing was removed.
  case versionChanged(number: Int)
  /// `forget N`: the user did not answer yes, so version `number` stays.
  case notForgotten(number: Int)
  /// `FILENOTE_VERSIONS` is not a count of versions.
  case invalidVersionCount(String)
  /// A sync engine's conflict copy beside the note could not be moved into
  /// the versions folder; it is still beside the note, and still listed.
  case cannotSettle(path: String, errno: Errno)
  /// Conflict copies are settled as versions, and `FILENOTE_VERSIONS=0`
  /// keeps none: the copies stay beside the note.
  case settlingNeedsVersions
  /// `filenote copy` put nothing on the clipboard.
  case copy(CopyFailure)
  /// `show --follow` cannot watch the folder at `path` for changes.
  case cannotWatch(path: String, errno: Errno)
  /// Saving `path` ran out of space while its `count` versions, in
  /// `folder`, hold `size` bytes.
  case noSpaceWithVersions(path: String, folder: String, count: Int, size: Int64)
  /// Not a failure but a notice, given by the save that creates the note:
  /// the file system of `folder` shows every file open to others
  /// (`permissions`) and cannot store 0600, so the note is not private.
  case noteNotPrivate(folder: String, permissions: UInt32)
  /// Not a failure but a notice, on a terminal: the versions folder at
  /// `path`, the user's own, was open to others (`permissions`, as a sync
  /// engine or a tool at umask 022 makes it) and is closed again.
  case versionsFolderTakenBack(path: String, permissions: UInt32)
  /// Not a failure but a notice of `history` on a terminal: `count` files
  /// in the versions folder at `path` are not the user's alone (another
  /// user's, or with a name elsewhere) and are not used.
  case versionsNotTheUsers(path: String, count: Int)
  /// Not a failure but a notice, on a terminal: a save removed `removed`
  /// old versions because `FILENOTE_VERSIONS` keeps only `kept`.
  case versionsPruned(removed: Int, kept: Int)

  /// Why a versions folder is refused: anything but a real folder of the
  /// user's, closed to others, could redirect a read, a keep or a removal
  /// (doc/DESIGN.md, Versions).
  enum UnsafeFolderReason: Equatable, Sendable {
    case symbolicLink
    case notAFolder
    case ownedByAnotherUser(UInt32)
    case openToOthers(permissions: UInt32)

    var words: String {
      switch self {
      case .symbolicLink: return "it is a symbolic link"
      case .notAFolder: return "it is not a folder"
      case .ownedByAnotherUser(let user): return "it belongs to another user (uid \(user))"
      case .openToOthers(let permissions):
        return "other users can open it (mode 0\(String(permissions, radix: 8)), not 0700)"
      }
    }

    /// What the user can do: never a step that loses versions (moving the
    /// folder away, through a sync engine, removes them on every machine).
    var advice: String {
      switch self {
      case .symbolicLink:
        return "(remove the link, not what it points to: filenote then makes the folder)"
      case .notAFolder:
        return "(rename that file: filenote then makes the folder)"
      case .ownedByAnotherUser:
        return "(its owner, or root, can give it to you with chown -R; its files are kept)"
      case .openToOthers:
        return "(its file system cannot close it: mount it with -o umask=077)"
      }
    }
  }

  /// What filenote was doing when a system call failed.
  enum Operation: Equatable, Sendable {
    case read, write, save, remove, createFolder, readLink, use
    /// Creating the temporary file of a save in the note's folder.
    case createTemporaryFile

    /// The words of the message, e.g. "cannot save".
    var words: String {
      switch self {
      case .read: return "cannot read"
      case .write: return "cannot write"
      case .save: return "cannot save"
      case .remove: return "cannot remove"
      case .createFolder: return "cannot create folder"
      case .readLink: return "cannot read link"
      case .use: return "cannot use"
      case .createTemporaryFile: return "cannot save note: cannot create a file in"
      }
    }
  }

  /// Why a name on the note's path is not used.
  enum UnsafeReason: Equatable, Sendable {
    /// A symbolic link owned by neither the user nor the folder's owner, in
    /// a sticky folder others may write.
    case othersLink(folder: String)
    /// A note file owned by neither the user nor the folder's owner, in
    /// such a folder: a writer would hand the user's note to its owner.
    case othersFile(folder: String)
    /// The writer lock's file is not one filenote made: another user's, a
    /// link, or not a regular file.
    case plantedLock(name: String)

    var words: String {
      switch self {
      case .othersLink(let folder):
        return
          "a symbolic link owned by another user in the shared sticky folder \(folder); "
          + "not followed (as fs.protected_symlinks does), nothing was changed"
      case .othersFile(let folder):
        return
          "owned by another user in the shared sticky folder \(folder); "
          + "not replaced or removed, nothing was changed"
      case .plantedLock(let name):
        return
          "its lock file \(name) was not made by filenote (another user's, a link, "
          + "or not a regular file); nothing was changed"
      }
    }
  }

  /// What an operation was done to.
  enum Subject: Equatable, Sendable {
    /// A file or folder, by its path.
    case file(String)
    case standardInput, standardOutput, terminal

    /// How the message names it.
    var name: String {
      switch self {
      case .file(let path): return path
      case .standardInput: return "standard input"
      case .standardOutput: return "standard output"
      case .terminal: return "the terminal"
      }
    }
  }

  /// The line printed after `filenote: `, with the paths and words it names
  /// as they were given: `Filenote.reported` draws their control characters
  /// as stand-ins, so whatever shows a message goes through it.
  var message: String {
    switch self {
    case .usage(let text):
      return text
    case .notATerminal:
      return
        "standard input is not a terminal: use 'filenote save' to save text from it "
        + "and 'filenote show' to print the note"
    case .noNote(let path, 0):
      return "no note saved yet in \(path) (save one with 'filenote save TEXT')"
    case .noNoteButConflictCopies(let path, let count):
      let copies = count == 1 ? "1 conflict copy" : "\(count) conflict copies"
      return
        "no note in \(path), but \(copies) of it beside it: 'filenote history' lists "
        + (count == 1 ? "it" : "them") + ", 'filenote restore N' puts one back"
    case .noNote(let path, let kept):
      let count = kept == 1 ? "its version" : "the last of its \(kept) versions"
      return "no note saved in \(path); 'filenote undo' brings back \(count)"
    case .emptyInput:
      return
        "cannot save an empty note; the saved note is unchanged "
        + "(use 'filenote clear' to remove it)"
    case .inputNotUTF8(let offset):
      return
        "cannot save: the input is not valid UTF-8 (first bad byte at offset \(offset)); "
        + "the saved note is unchanged"
    case .fileNotUTF8(let path, let offset):
      return
        "cannot read \(path): not valid UTF-8 (first bad byte at offset \(offset)); "
        + "the file was left as it is: inspect it with 'od -c', or replace it with "
        + "'filenote save' or 'filenote clear'"
    case .noteChangedWhileSaving(let path):
      return
        "cannot save: another program wrote into \(path) while filenote compared the new "
        + "text with it; nothing was saved, save again"
    case .notARegularFile(let path):
      return "cannot use \(path): not a regular file"
    case .unsafePath(let path, let why):
      return "cannot use \(path): \(why.words)"
    case .lockTimeout(let path, let seconds):
      return
        "cannot change \(path): another filenote has held its writer lock for "
        + "\(seconds) seconds; nothing was changed, try again"
    case .fileTooLarge(let path, let limit):
      return "cannot read \(path): larger than \(limit / 1024) KiB"
    case .settingNotUTF8(let name, let path):
      return "cannot use the \(name) set in \(path): it is not valid UTF-8"
    case .system(let operation, let subject, let errno):
      return "\(operation.words) \(subject.name): \(errno)"
    case .terminal(let error):
      return error.message
    case .editNeedsTerminal:
      return
        "'edit' runs your editor on the terminal, and standard input is not one: "
        + "use 'filenote save' to save text from it"
    case .editor(let failure):
      return "\(failure); the note is unchanged"
    case .editConflict(let path):
      return
        "not saved: the note was changed on disk while the editor was open; "
        + "what you wrote is kept in \(path)"
    case .notSaved(let cause, let path):
      return (cause.map { $0.message + "; " } ?? "") + "what you wrote is kept in \(path)"
    case .versionsFolderUnsafe(let path, let reason):
      return
        "cannot use the versions folder \(path): \(reason.words); nothing was changed "
        + "\(reason.advice)"
    case .cannotKeepVersion(let path, let errno):
      return
        "cannot keep the replaced note as a version in \(path): \(errno); "
        + "the note is unchanged ('filenote save --no-version' saves without keeping it)"
    case .noVersion(let number, let kept, let note):
      let count =
        kept == 0 ? "no versions are" : kept == 1 ? "1 version is" : "\(kept) versions are"
      // 0 is what `history` lists the note itself as.
      if number == 0 {
        return
          "0 is the note itself, not a kept version of \(note): \(count) kept "
          + "(see 'filenote history')"
      }
      return "no version \(number) of \(note): \(count) kept (see 'filenote history')"
    case .cannotSettle(let path, let errno):
      return
        "cannot settle the conflict copy \(path): \(errno); it is still beside the note "
        + "(see 'filenote history')"
    case .settlingNeedsVersions:
      return
        "cannot settle the conflict copies: they become versions, and FILENOTE_VERSIONS=0 "
        + "keeps none; they stay beside the note"
    case .versionChanged(let number):
      return
        "version \(number) changed while you were asked (another filenote saved or "
        + "forgot one); nothing was forgotten (see 'filenote history')"
    case .notForgotten(let number):
      return "version \(number) was not forgotten"
    case .nothingToUndo(let path):
      return "nothing to undo: no version of \(path) is kept yet"
    case .noSpaceWithVersions(let path, let folder, let count, let size):
      let versions = count == 1 ? "its version" : "its \(count) versions"
      let held =
        size < 10 << 20 ? "\((size + 1023) / 1024) KiB" : "\((size + (1 << 20) - 1) >> 20) MiB"
      return
        "cannot save \(path): \(Errno.noSpace); \(versions) in \(folder) hold \(held) "
        + "('filenote forget N' removes one; 'filenote clear --all' removes them and the note)"
    case .versionsPruned(let removed, let kept):
      return "removed the \(removed) oldest versions: FILENOTE_VERSIONS=\(kept) keeps \(kept)"
    case .noteNotPrivate(let folder, let permissions):
      return
        "saved, but not private: the file system of \(folder) shows every file as mode "
        + "0\(String(permissions, radix: 8)), open to other users, and cannot store 0600 "
        + "(mount it with -o umask=077 to keep notes private)"
    case .versionsFolderTakenBack(let path, let permissions):
      return
        "the versions folder \(path) was open to other users (mode "
        + "0\(String(permissions, radix: 8))); it is yours, so it is 0700 again, its files 0600"
    case .versionsNotTheUsers(let path, let count):
      return
        "\(count == 1 ? "1 file" : "\(count) files") in \(path) not listed: "
        + "not yours alone (another user's, or with a name elsewhere)"
    case .invalidVersionCount(let value):
      return
        "FILENOTE_VERSIONS must be the number of versions to keep (0 keeps none), "
        + "not '\(value)'"
    case .copy(let failure):
      return failure.message
    case .cannotWatch(let path, let errno):
      // ENOSPC and EMFILE here are inotify's own limits, not a full disk.
      let limit =
        errno == .noSpace || errno == .tooManyOpenFiles
        ? " (the limit of inotify watches; see fs.inotify.max_user_watches and "
          + "fs.inotify.max_user_instances)" : ""
      return "cannot watch \(path) for changes: \(errno)\(limit)"
    }
  }

  /// The process exit status that goes with this error.
  var exitCode: ExitCode {
    switch self {
    case .usage, .notATerminal, .editNeedsTerminal, .invalidVersionCount: return .usage
    case .notSaved(let cause?, _): return cause.exitCode
    default: return .failure
    }
  }
}

/// The exit statuses filenote uses, as the man page's EXIT STATUS lists them.
enum ExitCode: Int32, Sendable {
  case success = 0
  case failure = 1
  case usage = 2
  case cancelled = 130
}
