import LineEditor
import Testing

@testable import FilenoteCore

/// Every help filenote prints, put together from the table of commands.
@Suite struct HelpTextTests {
  /// The general help and the help of every command in the table.
  static var helps: [(topic: String, text: String)] {
    [("--help", HelpText.general)] + Command.all.map { ($0.name, HelpText.help(of: $0)) }
  }

  @Test func everyHelpFitsEightyColumns() {
    for (topic, text) in Self.helps {
      let wide = text.split(separator: "\n").filter { line in
        DisplayWidth.columns(ofText: line) > 80
      }
      #expect(wide.isEmpty, "help \(topic) is wider than 80 columns: \(wide)")
    }
  }
}
