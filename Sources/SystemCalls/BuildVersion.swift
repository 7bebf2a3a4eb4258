import CFilenote

/// The version `make` links into the binary it builds (the Makefile's
/// VERSION), which a plain `swift build` does not know.
public enum BuildVersion {
  /// The linked version, or nil in a build made without `make`.
  public static var linked: String? {
    guard let text = filenote_build_version() else { return nil }
    return String(cString: text)
  }
}
