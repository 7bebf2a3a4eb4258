/// The process environment as filenote reads it: each variable's value when
/// it is UTF-8, and the names of those whose value is not.
///
/// A list searched by name rather than a `Dictionary`: the first
/// `Dictionary` (or `Set`) of `String`s a run builds makes the Swift runtime
/// prove `String: Hashable` by walking every protocol conformance in the
/// executable, which alone touched about 0.3 MiB more of it in `filenote
/// show` than the whole rest of the run does. An environment has a few dozen
/// variables and filenote asks for a handful, so a scan costs nothing. See
/// CONTRIBUTING.md, Hot path.
struct Environment: Sendable, ExpressibleByDictionaryLiteral {
  /// A struct rather than a tuple: an array of tuples makes the runtime
  /// build the tuple's type at start-up, more code touched for nothing (see
  /// CONTRIBUTING.md, Hot path).
  private struct Variable {
    let name: String
    let value: String
  }

  private var variables: [Variable]
  /// Variables whose values are not UTF-8, left out of the values, so that a
  /// path filenote needs from one is refused rather than silently repaired
  /// into another path.
  private(set) var nonUTF8Names: [String]

  /// The environment of raw `NAME=value` entries, as `environ` holds them;
  /// an entry without `=` is skipped. Where a name repeats, the last wins.
  init(entries: [[UInt8]]) {
    variables = []
    nonUTF8Names = []
    for bytes in entries {
      guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { continue }
      let name = String(decoding: bytes[..<equals], as: UTF8.self)
      let value = Array(bytes[(equals + 1)...])
      if UTF8Validator.firstInvalidOffset(in: value) == nil {
        variables.append(Variable(name: name, value: String(decoding: value, as: UTF8.self)))
      } else {
        nonUTF8Names.append(name)
      }
    }
  }

  /// An environment of these variables, with these names holding values that are not UTF-8.
  init(_ values: [String: String], nonUTF8Names: [String] = []) {
    variables = values.map { Variable(name: $0.key, value: $0.value) }
    self.nonUTF8Names = nonUTF8Names
  }

  init(dictionaryLiteral elements: (String, String)...) {
    variables = elements.map { Variable(name: $0.0, value: $0.1) }
    nonUTF8Names = []
  }

  /// The value of `name`, nil when it is unset or not UTF-8.
  subscript(name: String) -> String? {
    // Names compared byte for byte, as getenv does (String's == would also
    // call two names equal that differ only by Unicode normalization).
    variables.last { $0.name.utf8.elementsEqual(name.utf8) }?.value
  }

  /// Whether `name` is set to a value that is not UTF-8.
  func isNotUTF8(_ name: String) -> Bool {
    nonUTF8Names.contains { $0.utf8.elementsEqual(name.utf8) }
  }
}
