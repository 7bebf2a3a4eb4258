import LineEditor
import Testing

/// One sequence of keys checked against GNU readline's vi mode: bash's
/// `read -e -i` on a pseudo-terminal with `set editing-mode vi` in its
/// inputrc, started on `text` (with `versions` as bash's history, newest
/// first), fed `keys` as a terminal sends them, then Enter; `expected` is
/// the line readline gave back.
struct ViReadlineCase: Sendable, CustomTestStringConvertible {
  let text: String
  /// The bytes typed, as a string: an Esc not followed by `[` or `O` was
  /// sent alone, the rest of what follows it in one write.
  let keys: String
  let expected: String
  let versions: [String]

  init(_ text: String, _ keys: String, _ expected: String, versions: [String] = []) {
    self.text = text
    self.keys = keys
    self.expected = expected
    self.versions = versions
  }

  var testDescription: String { "\(text.debugDescription) \(keys.debugDescription)" }

  /// The keys as filenote reads them from a terminal that sends them as
  /// readline got them: each write decoded, a lone Esc once the decoder
  /// stops waiting for the rest of a sequence.
  var decodedKeys: [Key] {
    var decoder = KeyDecoder()
    var keys: [Key] = []
    let bytes = Array(self.keys.utf8)
    var start = 0
    for index in bytes.indices where bytes[index] == 0x1B {
      let next = index + 1 < bytes.count ? bytes[index + 1] : nil
      guard next != UInt8(ascii: "[") && next != UInt8(ascii: "O") else { continue }
      keys += decoder.decode(bytes[start...index])
      if decoder.isWaitingForMoreInput { keys += decoder.flush() }
      start = index + 1
    }
    keys += decoder.decode(bytes[start...])
    if decoder.isWaitingForMoreInput { keys += decoder.flush() }
    return keys
  }

  /// The line vi mode saves after the keys and Enter, or nil when Enter
  /// did not save.
  func savedLine() -> String? {
    var state = viEditing(text, versions: versions)
    for key in decodedKeys {
      switch state.handle(key) {
      case .submit: return state.text
      case .cancel, .endOfInput, .suspend, .editInEditor: return nil
      case .edited, .unchanged, .redrawScreen: continue
      }
    }
    return state.handle(.enter) == .submit ? state.text : nil
  }
}

/// An editor on `text` with the vi keys, as `set editing-mode vi` sets
/// them: in insert mode, the cursor at the end.
func viEditing(_ text: String, versions: [String] = []) -> EditState {
  var configuration = EditorConfiguration()
  configuration.editingMode = .vi
  return EditState(text: text, versions: versions, configuration: configuration)
}
