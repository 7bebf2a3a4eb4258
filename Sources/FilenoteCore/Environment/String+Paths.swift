// Paths are taken apart at their "/" bytes, as the kernel reads them, not at
// Characters: to Swift a "/" followed by a combining mark is one Character
// that is not "/", but to the kernel it is still a separator. Working on the
// UTF-8 also keeps the standard library's grapheme-breaking code out of a
// short run (`filenote show` maps three fewer 64 KiB blocks of the
// executable). Cutting valid UTF-8 at an ASCII byte leaves valid UTF-8, so
// no piece is ever repaired. See CONTRIBUTING.md, Hot path.

extension String {
  private static let slash = UInt8(ascii: "/")

  /// Whether this path starts at the root folder.
  var isAbsolutePath: Bool { utf8.first == Self.slash }

  /// Whether this path ends with "/".
  var endsWithSlash: Bool { utf8.last == Self.slash }

  /// The names between the slashes, empty ones left out: "/a//b/" is a, b.
  var pathComponents: [String] {
    utf8.split(separator: Self.slash).map { String(decoding: $0, as: UTF8.self) }
  }

  /// This path as a message shows it: its "." names and repeated slashes
  /// left out, so "/work/./note.txt" and "/work//note.txt" are
  /// "/work/note.txt", the same file to the kernel. ".." stays: after a
  /// symbolic link it is not the folder named before it. A trailing slash
  /// stays too, since to the kernel it asks for a folder.
  var cleanedPath: String {
    let dot = UInt8(ascii: ".")
    var cleaned: [UInt8] = []
    cleaned.reserveCapacity(utf8.count)
    if isAbsolutePath { cleaned.append(Self.slash) }
    for name in utf8.split(separator: Self.slash) where !(name.count == 1 && name.first == dot) {
      if !cleaned.isEmpty && cleaned.last != Self.slash { cleaned.append(Self.slash) }
      cleaned.append(contentsOf: name)
    }
    if cleaned.isEmpty { return "." }
    if endsWithSlash && cleaned.last != Self.slash { cleaned.append(Self.slash) }
    return String(decoding: cleaned, as: UTF8.self)
  }

  /// Everything before the last "/" (nil when there is none) and everything after it.
  var splitAtLastSlash: (before: String, after: String)? {
    guard let slash = utf8.lastIndex(of: Self.slash) else { return nil }
    return (
      String(decoding: utf8[..<slash], as: UTF8.self),
      String(decoding: utf8[utf8.index(after: slash)...], as: UTF8.self)
    )
  }

  /// This path without trailing slashes, "/" kept: "/a//" is "/a", "//" is "/".
  var trimmingTrailingSlashes: String {
    var bytes = utf8[...]
    while bytes.count > 1 && bytes.last == Self.slash { bytes = bytes.dropLast() }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The longest start of this name that is at most `limit` bytes of UTF-8,
  /// cut between scalars, never inside one: what of a note's name fits in a
  /// name made from it within the file system's 255 bytes. Cut by bytes, as
  /// the rest of a path is (a combining mark may lose its base letter; the
  /// name stays valid UTF-8).
  func prefix(maxUTF8Count limit: Int) -> String {
    guard utf8.count > limit else { return self }
    var end = utf8.index(utf8.startIndex, offsetBy: Swift.max(0, limit))
    // Back to the first byte of the scalar the limit falls in.
    while end > utf8.startIndex && utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
    return String(decoding: utf8[..<end], as: UTF8.self)
  }

  /// This path with the slashes it starts with made one: "//a" is "/a".
  var withOneLeadingSlash: String {
    let extra = utf8.prefix { $0 == Self.slash }.count - 1
    return extra > 0 ? String(decoding: utf8.dropFirst(extra), as: UTF8.self) : self
  }
}
