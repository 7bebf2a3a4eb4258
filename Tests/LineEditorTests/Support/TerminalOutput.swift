/// What a terminal model reads in the bytes a renderer writes: control
/// sequences (`ESC [` parameter final, as ECMA-48 writes the ones filenote
/// uses) and the scalars between them, so that each model of a terminal in
/// these tests only says what it does with each.
enum TerminalOutput {
  /// One thing written.
  enum Piece: Equatable {
    /// `ESC [ <parameter> <final>`: the digits of the parameter, and the
    /// final scalar (nil when the bytes ended first).
    case sequence(parameter: String, final: Unicode.Scalar?)
    /// An ESC not followed by `[`, which no renderer writes.
    case strayEscape
    /// Any other scalar: text, or a control character such as `\r`.
    case scalar(Unicode.Scalar)
  }

  /// The pieces of `bytes`, read as UTF-8, in order.
  static func pieces(of bytes: [UInt8]) -> [Piece] {
    var scalars = String(decoding: bytes, as: UTF8.self).unicodeScalars[...]
    var pieces: [Piece] = []
    while let scalar = scalars.popFirst() {
      guard scalar == "\u{1B}" else {
        pieces.append(.scalar(scalar))
        continue
      }
      guard scalars.popFirst() == "[" else {
        pieces.append(.strayEscape)
        continue
      }
      var parameter = ""
      while let next = scalars.first, ("0"..."9").contains(next) {
        parameter.unicodeScalars.append(scalars.removeFirst())
      }
      pieces.append(.sequence(parameter: parameter, final: scalars.popFirst()))
    }
    return pieces
  }
}
