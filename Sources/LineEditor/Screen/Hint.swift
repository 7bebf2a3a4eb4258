/// The row above the edit line: what the line holds (the note's path, or a
/// version and its date) and what the keys do, as much of it as the
/// terminal's width allows, on that one row.
///
/// It is cut, never wrapped: a wrapped hint pushes the line down, and a
/// terminal rewraps it again on every resize.
///
/// The shortest useful form comes first. Room is given, in this order, to
/// the tail of the subject (a path's last name, behind `…/`; a subject that
/// does not fit even so keeps its last columns behind `…`), to each detail
/// (the keys), and then to the whole subject, or the longest tail of it cut
/// at a `/` that still fits. A detail that does not fit is left out whole,
/// so a later, shorter one may still find room. The pieces are shown in the
/// order subject, details, joined by ` · `.
///
/// An alert, when there is one (conflict copies of the note beside it),
/// comes before all of that and is never left out: the longest of its
/// forms that fits is shown, the shortest cut to the width when none does,
/// and the rest of the hint gets what room is left after it. The vi mode,
/// when the vi keys are in use, comes first of all the same way: which
/// mode the keys are in must always be seen.
public struct Hint: Equatable, Sendable {
  /// What the line holds: the note's path, or which version it is.
  public var subject: String
  /// What follows the subject, most useful first: how to save and cancel,
  /// the other keys.
  public var details: [String]
  /// What must be seen first, in the forms it may take, longest first;
  /// empty for none.
  public var alert: [String]
  /// The vi mode the keys are in, in the forms it may take, longest first
  /// (see `ViMode.hintForms`); empty in emacs mode. Shown before the alert.
  public var mode: [String] = []

  /// Between two pieces.
  public static let separator = " · "

  public init(subject: String, details: [String] = [], alert: [String] = []) {
    self.subject = subject
    self.details = details
    self.alert = alert
  }

  /// The hint as it fits a terminal `width` columns wide (0: unknown, as
  /// `Renderer` takes it), leaving the last column free as the edit line
  /// does, so the row never makes the terminal wrap.
  public func text(forWidth width: Int) -> String {
    let room = (width > 0 ? width : Renderer.defaultWidth) - 1
    return Self.leading(mode, fitting: room) { room in
      Self.leading(alert, fitting: room) { room in text(fitting: room) }
    }
  }

  /// The longest of `forms` that fits `room` (the shortest cut to it when
  /// none does), then what `rest` makes of the room left after it; `rest`
  /// alone when there are no forms.
  private static func leading(
    _ forms: [String], fitting room: Int, then rest: (Int) -> String
  ) -> String {
    guard let shortest = forms.last else { return rest(room) }
    let first =
      forms.lazy.map(Piece.init).first { $0.columns <= room }
      ?? firstColumns(of: shortest, fitting: room)
    let left = room - first.columns - separator.count
    let after = left > 0 ? rest(left) : ""
    return after.isEmpty ? first.text : first.text + separator + after
  }

  /// The subject and details as they fit `room` columns.
  private func text(fitting room: Int) -> String {
    let forms = Self.forms(of: subject)
    var subject = forms[0]
    if subject.columns > room { subject = Self.lastColumns(of: self.subject, fitting: room) }
    var details: [Piece] = []
    func columns() -> Int { Self.columns(of: [subject] + details) }

    for text in self.details {
      details.append(Piece(text))
      if columns() > room { details.removeLast() }
    }
    let shortest = subject
    for form in forms.reversed() where form.columns > shortest.columns {
      subject = form
      if columns() <= room { break }
      subject = shortest
    }
    return ([subject] + details).lazy.map(\.text).filter { !$0.isEmpty }
      .joined(separator: Self.separator)
  }

  /// A piece of the hint and its width.
  private struct Piece {
    let text: String
    let columns: Int

    init(_ text: String) {
      self.init(text, columns: DisplayWidth.columns(ofText: text))
    }

    init(_ text: String, columns: Int) {
      self.text = text
      self.columns = columns
    }
  }

  /// The forms of `subject`, shortest first, the whole subject last: before
  /// it, each tail that starts at a `/` (`…/datafile.dat`,
  /// `…/Documents/datafile.dat`) and is narrower than the whole.
  private static func forms(of subject: String) -> [Piece] {
    let whole = Piece(subject)
    var forms: [Piece] = []
    var tailColumns = 0
    for index in subject.indices.reversed() {
      let character = subject[index]
      tailColumns += DisplayWidth.columns(of: character)
      // A Character that starts with "/" is a cut point, even when a
      // combining mark follows the slash in the same Character.
      guard character.unicodeScalars.first == "/", index != subject.startIndex else { continue }
      let columns = ellipsisColumns + tailColumns
      if columns < whole.columns && tailColumns > 1 {
        forms.append(Piece("…" + subject[index...], columns: columns))
      }
    }
    return forms + [whole]
  }

  /// As many of the first columns of `text` as fit in `room`, then `…`;
  /// nothing when there is no room at all.
  private static func firstColumns(of text: String, fitting room: Int) -> Piece {
    guard room > 0 else { return Piece("", columns: 0) }
    let kept = DisplayWidth.end(of: text, fittingColumns: room - ellipsisColumns)
    return Piece(text[..<kept.end] + "…", columns: kept.columns + ellipsisColumns)
  }

  /// `…` and as many of the last columns of `text` as fit in `room`; nothing
  /// when there is no room at all.
  private static func lastColumns(of text: String, fitting room: Int) -> Piece {
    guard room > 0 else { return Piece("", columns: 0) }
    var start = text.endIndex
    var used = ellipsisColumns
    while start > text.startIndex {
      let before = text.index(before: start)
      let width = DisplayWidth.columns(of: text[before])
      if used + width > room { break }
      used += width
      start = before
    }
    return Piece("…" + text[start...], columns: used)
  }

  private static let ellipsisColumns = 1

  /// The width of `pieces` joined by the separator, empty ones left out.
  private static func columns(of pieces: [Piece]) -> Int {
    let shown = pieces.filter { !$0.text.isEmpty }
    let separators = max(shown.count - 1, 0) * separator.count
    return shown.reduce(separators) { $0 + $1.columns }
  }
}
