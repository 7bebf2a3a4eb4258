import TerminalSession

extension YesNoQuestion {
  /// Asked before a note changed on disk since the user opened it is
  /// overwritten: by both prompts at Enter, and by `filenote edit` when the
  /// editor has exited.
  static let overwrite = YesNoQuestion(
    "The note was changed on disk since you opened it. Overwrite it? [y/N] ")
}
