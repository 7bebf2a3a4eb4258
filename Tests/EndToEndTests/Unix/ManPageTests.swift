import Foundation
import Testing

@testable import FilenoteCore

extension UnixIntegrationTests {
  @Suite struct ManPage {
    @Test func groffRendersItWithoutAWarning() throws {
      let groff = try ExternalProgram.run(
        "groff", ["-man", "-ww", "-z", "-Tutf8", Package.file("doc/filenote.1")])
      #expect(groff.status == 0)
      #expect(groff.stdout.isEmpty)
      #expect(groff.stderr.isEmpty)
    }

    @Test func manRendersItWithoutAWarningAt80Columns() throws {
      let man = try ExternalProgram.run(
        "man", ["--warnings", "-l", Package.file("doc/filenote.1")],
        environment: ["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"])
      #expect(man.status == 0)
      #expect(man.stderr.isEmpty)
      #expect(man.stdout.contains("FILENOTE(1)"))
      let long = man.stdout.split(separator: "\n").filter { $0.count > 80 }
      #expect(long.isEmpty, "lines wider than 80 columns: \(long)")
    }

    @Test func hasEachSectionAReaderLooksForInOrder() throws {
      let required = [
        "NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "KEYS", "FILES",
        "ENVIRONMENT", "EXIT STATUS", "EXAMPLES",
      ]
      let sections = try ManPageSource().sectionNames
      #expect(sections.filter(required.contains) == required)
    }

    @Test func documentsEveryKeyOfThePrompt() throws {
      // The keys the prompt handles (README's table of keys), each one KEYS must name.
      let keys = [
        "Enter", "Ctrl-C", "Ctrl-D", "Left", "Right", "Home", "End", "Ctrl-A", "Ctrl-E",
        "Ctrl-B", "Ctrl-F", "Alt-B", "Alt-F", "Ctrl-Left", "Ctrl-Right", "Backspace", "Delete",
        "Ctrl-H", "Ctrl-K", "Ctrl-U", "Ctrl-W", "Alt-D", "Alt-Backspace", "Ctrl-Y", "Alt-Y",
        "Ctrl-T", "Ctrl-_", "Ctrl-L", "Ctrl-Z", "Tab",
        // Ctrl-X Ctrl-E: a tag's first word.
        "Ctrl-X",
      ]
      let documented = try ManPageSource().tagNames(inSection: "KEYS")
      #expect(Set(keys).subtracting(documented).isEmpty, "keys missing from KEYS")
    }

    @Test func documentsTheEnvironmentFilenoteReads() throws {
      let variables = try ManPageSource().tagNames(inSection: "ENVIRONMENT")
      #expect(
        variables == [
          "FILENOTE_FILE", "FILENOTE_VERSIONS", "HOME", "XDG_CONFIG_HOME", "NO_COLOR", "TERM",
          "INPUTRC", "VISUAL", "EDITOR", "TMPDIR", "TMUX", "WAYLAND_DISPLAY", "DISPLAY",
          "VTE_VERSION",
          // Read by the code `filenote init` prints.
          "FILENOTE_PROMPT_WIDTH", "FILENOTE_NO_KEYS",
        ])
    }

    @Test func documentsEveryExitStatus() throws {
      let statuses = [ExitCode.success, .failure, .usage, .cancelled].map { "\($0.rawValue)" }
      #expect(try ManPageSource().tagNames(inSection: "EXIT STATUS") == statuses)
    }

    @Test func quotesMessagesWithTheirOwnPeriodAndNoOther() throws {
      let man = try ExternalProgram.run(
        "man", ["-l", Package.file("doc/filenote.1")],
        environment: ["MANWIDTH": "200", "MANPAGER": "cat", "PAGER": "cat"])
      #expect(man.stdout.contains("Saved.") && man.stdout.contains("Restored version 1."))
      let doubled = man.stdout.split(separator: "\n").filter {
        $0.range(of: #"[[:alnum:]]\.\.([^.]|$)"#, options: .regularExpression) != nil
      }
      #expect(doubled.isEmpty, "doubled periods: \(doubled)")
    }

    @Test func exitStatusPutsEnterOnAnEmptiedLineUnderOneAsThePromptExits() throws {
      // The prompt exits 1 there (PromptSavingTests), 0 on an unchanged line.
      let page = try ManPageSource()
      let body = Array(page.section("EXIT STATUS"))
      func paragraph(ofStatus status: String) -> String {
        guard let tag = body.firstIndex(of: ".B \(status)") else { return "" }
        return body[(tag + 1)...].prefix { !$0.hasPrefix(".TP") && !$0.hasPrefix(".PP") }
          .map(ManPageSource.plainText).joined(separator: " ")
      }
      #expect(paragraph(ofStatus: "1").contains("Enter on a line emptied"))
      #expect(!paragraph(ofStatus: "0").contains("nothing to save"))
      #expect(paragraph(ofStatus: "0").contains("Nothing changed."))
    }

    @Test func namesTheVersionThatFilenotePrints() throws {
      let header = try ManPageSource().lines.first { $0.hasPrefix(".TH ") }
      #expect(header?.contains("\"\(HelpText.version)\"") == true)
      let version = try ExternalProgram.run(try Package.filenoteBinary, ["--version"])
      #expect(version.stdout == HelpText.version + "\n")
    }
  }
}
