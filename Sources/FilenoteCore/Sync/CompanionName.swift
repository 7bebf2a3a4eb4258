/// The names of the files filenote makes beside the note for a moment: the
/// writer lock's (`WriterLock`) and a save's temporary file
/// (`TemporaryNoteFile`).
///
/// A note is often in a folder that a sync engine keeps alike on several
/// machines, and what the engine sees there it carries to the others
/// (doc/SYNC.md measured it: lock and temporary files reached the other
/// machine). These names are ones the engines leave alone by default:
///
/// - they start with `.syncthing.`, which Syncthing never syncs
///   (it takes them for its own temporary files);
/// - they hold `.~`, which Nextcloud's and ownCloud's default exclude list
///   names (`*.~*` in sync-exclude.lst), and start with a dot, and those
///   clients skip hidden files unless told otherwise;
/// - they end with `.tmp`, which the OneDrive client for Linux skips by
///   default (its `skip_file` is `~*|.~*|*.tmp`).
///
/// Where an engine carries them anyway (Dropbox, Unison and rclone bisync
/// sync what their user's rules do not exclude), they are harmless: the
/// lock is a `flock` held on this machine, which no file from another
/// machine can hold, and a temporary file is removed only when no process
/// here holds its lock. The names filenote used before (`.NOTE.lock`,
/// `.NOTE.<pid>.<random>.tmp`) are cleaned like leftovers.
enum CompanionName {
  /// The most of the note's own name these names hold: the rest (at most
  /// 38 bytes) keeps them within the file system's 255.
  static let noteNameLimit = 200

  /// The writer lock's file: `.syncthing.NOTE.~lock.tmp`.
  static func lock(of note: String) -> String {
    ".syncthing." + shortened(note) + ".~lock.tmp"
  }

  /// What a save's temporary file's name starts with, before
  /// `<pid>.<random>.tmp`: `.syncthing.NOTE.~`.
  static func temporaryPrefix(of note: String) -> String {
    ".syncthing." + shortened(note) + ".~"
  }

  /// The writer lock's file of filenote 0.2 and before: `.NOTE.lock`.
  static func legacyLock(of note: String) -> String {
    "." + shortened(note) + ".lock"
  }

  /// What the temporary files of filenote 0.2 and before start with: `.NOTE.`.
  static func legacyTemporaryPrefix(of note: String) -> String {
    "." + shortened(note) + "."
  }

  /// The longest start of `note` that is at most `noteNameLimit` bytes.
  private static func shortened(_ note: String) -> String {
    note.prefix(maxUTF8Count: noteNameLimit)
  }
}
