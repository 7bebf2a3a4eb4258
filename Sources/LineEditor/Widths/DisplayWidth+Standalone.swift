extension DisplayWidth {
  /// Whether `scalar` is a Character of its own next to any other such
  /// scalar (`StandaloneScalars`: ASCII and the C0 controls but CR, Latin,
  /// Greek, Cyrillic, CJK, kana, Hangul syllables), so that text made of
  /// them can be measured a scalar at a time, each `Character(scalar)`,
  /// without splitting it into Characters, whose code a short run would
  /// otherwise map in (CONTRIBUTING.md, Hot path).
  public static func isStandalone(_ scalar: Unicode.Scalar) -> Bool {
    StandaloneScalars.contains(scalar.value)
  }
}
