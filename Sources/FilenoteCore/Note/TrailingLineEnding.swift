/// The one trailing line ending, `\n` or `\r\n`, that every way of saving
/// drops from the end of the text it saves (doc/DESIGN.md, Saving): a text
/// that ends as a text file's last line ends (`echo hi | filenote save`, an
/// editor's file, a paste that ends in a newline) is saved as the line it
/// holds. Only one is dropped: a text ending in a blank line keeps it.
enum TrailingLineEnding {
  /// How many bytes at the end of `text` are that line ending: 2 for
  /// `\r\n`, 1 for `\n`, else 0.
  static func length(in text: some BidirectionalCollection<UInt8>) -> Int {
    guard text.last == UInt8(ascii: "\n") else { return 0 }
    return text.dropLast().last == UInt8(ascii: "\r") ? 2 : 1
  }

  /// `text` without its trailing line ending.
  static func dropped(from text: [UInt8]) -> [UInt8] {
    Array(text.dropLast(length(in: text)))
  }
}
