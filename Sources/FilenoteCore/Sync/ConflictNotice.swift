/// What filenote tells a user whose note has conflict copies beside it
/// (doc/SYNC.md), before anything can be overwritten: the prompt's hint,
/// `edit` before the editor opens, `show` on a terminal.
struct ConflictNotice {
  /// The unsettled copies, newest first.
  let copies: [KeptVersion]

  /// `1 conflict copy`, `2 conflict copies`.
  var count: String {
    copies.count == 1 ? "1 conflict copy" : "\(copies.count) conflict copies"
  }

  /// Where they came from, as their names say: `Syncthing, device
  /// Y6OAA4V`, `Syncthing, device Y6OAA4V, and 1 more`.
  var sources: String {
    guard let first = copies.first?.conflict?.source.replacingControlCharacters() else {
      return ""
    }
    return copies.count == 1 ? first : first + ", and \(copies.count - 1) more"
  }

  /// The prompt's piece of its hint, shortest last: the forms it may take
  /// as the width allows.
  var hintForms: [String] {
    [
      count + (copies.count == 1 ? " from another machine" : " from other machines")
        + ": Up or Ctrl-R", count + ": Up, Ctrl-R", count,
    ]
  }

  /// The line `show` prints on standard error on a terminal.
  var showLine: String {
    "the note has \(count) beside it (\(sources)): 'filenote history' lists "
      + (copies.count == 1 ? "it" : "them") + ", 'filenote resolve' keeps the note"
  }

  /// The line `edit` prints before the editor opens.
  var editLine: String {
    "the note has \(count) beside it (\(sources)): 'filenote history' lists "
      + (copies.count == 1 ? "it" : "them") + "; saving here keeps "
      + (copies.count == 1 ? "it as a version" : "them as versions")
  }
}
