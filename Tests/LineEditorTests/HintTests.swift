import Testing

@testable import LineEditor

/// The hint above the edit line is cut to the width, never wrapped: the
/// path's tail first, then the keys, then the whole path.
@Suite struct HintTests {
  /// The prompt's hint for the default note, as the prompt makes it.
  static let noteHint = Hint(
    subject: "~/Documents/datafile.dat",
    details: ["Enter saves", "Ctrl-C cancels", "Ctrl-X Ctrl-E: editor"])

  @Test(
    "at 20, 30, 40 and 80 columns the shortest useful form comes first",
    arguments: [
      (20, "…/datafile.dat"),
      (30, "…/datafile.dat · Enter saves"),
      (40, "~/Documents/datafile.dat · Enter saves"),
      (50, "…/datafile.dat · Enter saves · Ctrl-C cancels"),
      (60, "~/Documents/datafile.dat · Enter saves · Ctrl-C cancels"),
      (70, "…/datafile.dat · Enter saves · Ctrl-C cancels · Ctrl-X Ctrl-E: editor"),
      (80, "~/Documents/datafile.dat · Enter saves · Ctrl-C cancels · Ctrl-X Ctrl-E: editor"),
    ])
  func theShortestUsefulFormComesFirst(width: Int, expected: String) {
    #expect(Self.noteHint.text(forWidth: width) == expected)
  }

  @Test func theHintNeverReachesTheLastColumnAtAnyWidth() {
    for width in 1...120 {
      let text = Self.noteHint.text(forWidth: width)
      let columns = DisplayWidth.columns(ofText: text)
      #expect(columns <= width - 1, "\(width) columns: \(text)")
      #expect(!text.contains("\n"))
    }
  }

  /// The hint with an alert of conflict copies, as the prompt makes it.
  static let alertHint = Hint(
    subject: noteHint.subject, details: noteHint.details,
    alert: [
      "1 conflict copy from another machine: Up or Ctrl-R", "1 conflict copy: Up, Ctrl-R",
      "1 conflict copy",
    ])

  @Test(
    "an alert comes first at every width, the longest form that fits, the rest after it",
    arguments: [
      (8, "1 conf…"),
      (16, "1 conflict copy"),
      (30, "1 conflict copy: Up, Ctrl-R"),
      (48, "1 conflict copy: Up, Ctrl-R · …/datafile.dat"),
      (70, "1 conflict copy from another machine: Up or Ctrl-R · …/datafile.dat"),
    ])
  func anAlertComesFirst(width: Int, expected: String) {
    #expect(Self.alertHint.text(forWidth: width) == expected)
  }

  @Test func anAlertNeverReachesTheLastColumnEither() {
    for width in 1...160 {
      let text = Self.alertHint.text(forWidth: width)
      let columns = DisplayWidth.columns(ofText: text)
      #expect(columns <= width - 1, "\(width) columns: \(text)")
      #expect(width < 3 || text.hasPrefix("1"), "\(width) columns: \(text)")
    }
  }

  @Test func aWidthOfZeroMeansEightyColumns() {
    #expect(Self.noteHint.text(forWidth: 0) == Self.noteHint.text(forWidth: 80))
  }

  @Test func theKeysComeBeforeTheHeadOfALongPath() {
    let hint = Hint(
      subject: "~/projects/2025/planning/notes/todo.txt",
      details: ["Enter saves", "Ctrl-C cancels", "Up/Ctrl-R: versions", "Ctrl-X Ctrl-E: editor"])
    #expect(
      hint.text(forWidth: 80)
        == "…/planning/notes/todo.txt · Enter saves · Ctrl-C cancels · Up/Ctrl-R: versions")
  }

  @Test func aLongPathKeepsAsManyOfItsLastNamesAsFit() {
    let hint = Hint(
      subject: "/srv/shared/team/notes/today/datafile.dat", details: ["Enter saves"])
    #expect(hint.text(forWidth: 30) == "…/datafile.dat · Enter saves")
    #expect(hint.text(forWidth: 40) == "…/today/datafile.dat · Enter saves")
    #expect(hint.text(forWidth: 44) == "…/notes/today/datafile.dat · Enter saves")
    #expect(hint.text(forWidth: 46) == "…/team/notes/today/datafile.dat · Enter saves")
    #expect(hint.text(forWidth: 70) == "/srv/shared/team/notes/today/datafile.dat · Enter saves")
  }

  @Test func aNameWiderThanTheRowKeepsItsLastColumnsBehindAnEllipsis() {
    #expect(Self.noteHint.text(forWidth: 11) == "…afile.dat")
    #expect(Hint(subject: "version 12").text(forWidth: 6) == "…n 12")
    #expect(Self.noteHint.text(forWidth: 2) == "…")
    #expect(Self.noteHint.text(forWidth: 1) == "")
  }

  @Test func aPieceThatDoesNotFitIsLeftOutWholeAndAShorterOneAfterItMayStillFit() {
    let hint = Hint(subject: "note", details: ["a very long detail", "short", "x"])
    #expect(hint.text(forWidth: 20) == "note · short · x")
  }

  @Test func wideCharactersTakeTwoColumns() {
    let hint = Hint(subject: "~/文書/メモ.txt", details: ["Enter saves"])
    // The whole path is 15 columns, its tail …/メモ.txt 10.
    #expect(hint.text(forWidth: 29) == "…/メモ.txt · Enter saves")
    #expect(hint.text(forWidth: 30) == "~/文書/メモ.txt · Enter saves")
  }

  @Test func aSlashWithACombiningMarkIsStillACutPoint() {
    let hint = Hint(subject: "/home/u/docs/\u{301}note", details: ["Enter saves"])
    #expect(hint.text(forWidth: 22) == "…/\u{301}note · Enter saves")
  }

  @Test func aVersionIsNamedWithItsDateBeforeTheKeys() {
    let hint = Hint(
      subject: "version 3",
      details: ["2025-06-01 14:03", "Enter saves it", "Down: newer", "Ctrl-C cancels"])
    #expect(hint.text(forWidth: 20) == "version 3")
    #expect(hint.text(forWidth: 30) == "version 3 · 2025-06-01 14:03")
    #expect(hint.text(forWidth: 50) == "version 3 · 2025-06-01 14:03 · Enter saves it")
    #expect(
      hint.text(forWidth: 80)
        == "version 3 · 2025-06-01 14:03 · Enter saves it · Down: newer · Ctrl-C cancels")
  }
}
