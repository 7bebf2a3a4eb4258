/// The version of filenote, said once.
///
/// Everything that names the version comes from this number or is checked
/// against it: `filenote --version`, the man page's header, the newest release
/// of CHANGELOG.md, and the version of the Debian package and the tarball that
/// `make dist` builds (the Makefile reads it from this file, so the number
/// stays a plain string literal on one line).
enum FilenoteVersion {
  /// The release number, MAJOR.MINOR.PATCH as Semantic Versioning writes it.
  static let number = "0.2.0"
}
