/// A question the user answers yes or no, as `[y/N]` questions are: no
/// unless the answer is yes. Each way filenote asks one (one key in the
/// editing prompt, one line in the plain prompt and in `filenote edit`)
/// reads the answer with `isYes`, so an answer means the same everywhere.
public struct YesNoQuestion: Sendable {
  /// What is written, up to where the answer goes (ending in `[y/N] `).
  public let text: String

  public init(_ text: String) {
    self.text = text
  }

  /// Whether `answer` is yes: `y` or `yes` in any case, blanks (spaces and
  /// tabs) around it or not. Anything else is no: nothing, another word, or
  /// more than one word (`yes please`).
  public static func isYes(_ answer: some Collection<UInt8>) -> Bool {
    let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    let word = answer.drop(while: isBlank).reversed().drop(while: isBlank).reversed()
    let lowercased = word.map {
      $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0
    }
    return lowercased == Array("y".utf8) || lowercased == Array("yes".utf8)
  }
}
