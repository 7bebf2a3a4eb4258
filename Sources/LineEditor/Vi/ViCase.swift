/// `~`'s case swap: each Character by its simple case mapping, as readline
/// maps each character alone. A mapping that would make more than one
/// scalar (`ß` to `SS`) is no simple mapping: the Character stays.
enum ViCase {
  /// `character` with its first scalar's case swapped (lower to upper,
  /// upper to lower), or as it is.
  static func toggled(_ character: Character) -> Character {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return character }
    let properties = first.properties
    let mapped: String
    if properties.isLowercase {
      mapped = properties.uppercaseMapping
    } else if properties.isUppercase {
      mapped = properties.lowercaseMapping
    } else {
      return character
    }
    guard mapped.unicodeScalars.count == 1, let swapped = mapped.unicodeScalars.first else {
      return character
    }
    var result = String.UnicodeScalarView()
    result.append(swapped)
    result.append(contentsOf: scalars.dropFirst())
    return Character(String(result))
  }
}
