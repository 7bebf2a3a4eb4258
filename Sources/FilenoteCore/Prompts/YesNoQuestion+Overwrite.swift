import TerminalSession

extension YesNoQuestion {
  /// Asked before a note changed on disk since the user opened it is
  /// overwritten: by both prompts at Enter, and by `filenote edit` when the
  /// editor has exited. `current` is the note on disk (nil: there is none).
  /// When that note will be kept as a version, the question says so: the
  /// user loses nothing by answering yes. Either fits 80 columns.
  static func overwrite(replacing current: FileStore.Identity?, of store: FileStore)
    -> YesNoQuestion
  {
    guard current != nil && store.versionCount > 0 else {
      return YesNoQuestion(
        "The note was changed on disk since you opened it. Overwrite it? [y/N] ")
    }
    return YesNoQuestion(
      "The note was changed on disk. Overwrite it (kept as version 1)? [y/N] ")
  }
}
