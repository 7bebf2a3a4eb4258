import TerminalSession

extension YesNoQuestion {
  /// Asked by `filenote forget N` on a terminal, under the version's line;
  /// Ctrl-C ends filenote as SIGINT does, with nothing changed.
  static func forget(_ number: Int) -> YesNoQuestion {
    YesNoQuestion("Forget version \(number) for good? [y/N] ")
  }
}
