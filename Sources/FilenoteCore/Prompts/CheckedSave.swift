import TerminalSession

/// The save both prompts make at Enter, and `filenote edit` when the editor
/// has exited: the text is written only while the note is still the one the
/// user agreed to replace (checked under the writer lock, and never asking
/// while holding it). A note changed on disk meanwhile is replaced only
/// after a yes, and only the note that yes was about. Once saved, "Saved."
/// is said and the conflict copies the user was told of are settled.
///
/// Each caller says how it asks (a key, a line) and what a no means to it.
struct CheckedSave {
  let store: FileStore
  /// The conflict copies the user was told of: what the text is saved
  /// over, knowing of them, settles (doc/SYNC.md), and only those.
  let copies: [KeptVersion]
  /// Says "Saved." where the caller speaks to the user.
  let say: (String) -> Void

  /// How `save` ended.
  enum Outcome: Equatable {
    case saved
    /// The note changed on disk and the user did not agree to replace it;
    /// nothing was written.
    case notAgreed(YesNoQuestion.Answer)
  }

  /// Saves `text` over the note, if it is still `expected` (nil: no note);
  /// when it is not, `ask`s whether to replace the one found, and after a
  /// yes saves over that one (`expected` becomes it), checked again.
  /// `beforeWriting` runs under the lock once the text is to be written.
  func save(
    _ text: [UInt8], over expected: inout FileStore.Identity?,
    asking ask: (YesNoQuestion) -> YesNoQuestion.Answer, beforeWriting: () -> Void = {}
  ) throws(FilenoteError) -> Outcome {
    // What the save has to tell (a note that is not private, versions
    // pruned) is said before "Saved.".
    while case .changedOnDisk(let current) = Filenote.reporting(
      try store.save(text, ifStill: expected, beforeWriting: beforeWriting))
    {
      let answer = ask(.overwrite(replacing: current, of: store))
      guard answer == .yes else { return .notAgreed(answer) }
      expected = current
    }
    say("Saved.")
    settle()
    return .saved
  }

  /// Settles `copies` (the user chose, knowing of them); what fails is
  /// said, and they stay listed.
  func settle() {
    guard !copies.isEmpty else { return }
    do { try store.settleConflictCopies(copies) } catch { Filenote.report(error) }
  }
}
