import Foundation
import Testing

extension UnixIntegrationTests {
  /// packaging/debian/copyright, the packages' machine-readable copyright
  /// file (Debian's copyright format 1.0): every licence an expression
  /// names has a paragraph of its own, which says where its text is.
  @Suite struct Copyright {
    @Test func everyLicenseShortNameHasItsStandaloneParagraph() throws {
      let paragraphs = try Self.paragraphs()
      let standalone = paragraphs.filter { $0["Files"] == nil && $0["License"] != nil }
        .compactMap { $0["License"]?.first }
      let named = paragraphs.filter { $0["Files"] != nil }.compactMap { $0["License"]?.first }
        .flatMap(Self.shortNames)
      #expect(!named.isEmpty)
      #expect(Set(named) == Set(standalone), "named \(named), with paragraphs \(standalone)")
      #expect(standalone.count == Set(standalone).count, "a licence with two paragraphs")
      for paragraph in paragraphs where paragraph["Files"] == nil && paragraph["License"] != nil {
        // Its text, or where Debian keeps it (the file's last paragraph
        // gets LICENSE's text from make-dist).
        let body = paragraph["License"]!.dropFirst().joined(separator: "\n")
        let name = paragraph["License"]!.first!
        #expect(name == "Expat" || body.contains("/usr/share/common-licenses/"), "\(name)")
      }
    }

    @Test func theBinarysParagraphNamesTheSwiftRuntimeTheCLibraryAndGCCsLibraries() throws {
      let binary = try #require(
        try Self.paragraphs().first { $0["Files"]?.first == "usr/bin/filenote" })
      let names = Set(Self.shortNames(binary["License"]!.first!))
      #expect(names == ["Expat", "Apache-2.0", "LGPL-2.1+", "GPL-3+"])
      let expression = binary["License"]!.first!
      #expect(expression.contains("Apache-2.0 with Swift-Runtime-Library exception"))
      #expect(expression.contains("GPL-3+ with GCC-Runtime-Library exception"))
    }

    /// The short names of a License expression: "A and B with X exception or C".
    static func shortNames(_ expression: String) -> [String] {
      expression.replacingOccurrences(of: " or ", with: " and ")
        .components(separatedBy: " and ")
        .map {
          $0.replacingOccurrences(
            of: #" with \S+ exception$"#, with: "", options: .regularExpression)
        }
        .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The file's paragraphs: each field's first line, then its continuation lines.
    static func paragraphs() throws -> [[String: [String]]] {
      let text = try String(
        contentsOfFile: Package.file("packaging/debian/copyright"), encoding: .utf8)
      return text.components(separatedBy: "\n\n").map { block in
        var fields: [String: [String]] = [:]
        var current: String?
        for line in block.split(separator: "\n", omittingEmptySubsequences: true) {
          if line.hasPrefix(" "), let field = current {
            fields[field]!.append(String(line.dropFirst()))
          } else if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon])
            fields[name] = [line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)]
            current = name
          }
        }
        return fields
      }
    }
  }
}
