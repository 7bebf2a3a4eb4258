extension Unicode.Scalar {
  /// The scalar's simple uppercase mapping, one scalar for one, as readline
  /// maps each character (`towupper`): `ß` stays `ß` where the full mapping
  /// makes it `SS`.
  ///
  /// The standard library gives the full mappings only. Where the full
  /// uppercase mapping is one scalar it is the simple one; where it is
  /// longer, the simple one is the titlecase mapping when that is one
  /// scalar (`ᾳ` → `ᾼ`), else none (the scalar itself).
  var simpleUppercase: Unicode.Scalar {
    Self.single(properties.uppercaseMapping) ?? Self.single(properties.titlecaseMapping) ?? self
  }

  /// The simple lowercase mapping: the full one when it is one scalar; the
  /// one scalar whose full mapping is longer, `İ` (`i` and a combining dot),
  /// maps to `i`, as its simple mapping does.
  var simpleLowercase: Unicode.Scalar {
    if let single = Self.single(properties.lowercaseMapping) { return single }
    return value == 0x130 ? "i" : self
  }

  /// The one scalar of `mapping`, or nil when it has more.
  private static func single(_ mapping: String) -> Unicode.Scalar? {
    var scalars = mapping.unicodeScalars.makeIterator()
    guard let first = scalars.next(), scalars.next() == nil else { return nil }
    return first
  }
}
