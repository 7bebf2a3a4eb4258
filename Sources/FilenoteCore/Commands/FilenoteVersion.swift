import SystemCalls

/// The version of filenote, said once.
///
/// `number` is the release: the newest release of CHANGELOG.md, and the
/// version in the man page's header in the source tree (the Makefile reads it
/// from this file, so it stays a plain string literal on one line). A build
/// says which one it is: `make` works out the version of the commit it builds
/// (packaging/version: the number itself at the release, a pre-release of the
/// next patch after it) and links it into the binary (`BuildVersion`), and
/// gives it to the man page and the packages it makes.
enum FilenoteVersion {
  /// The last release's number, MAJOR.MINOR.PATCH as Semantic Versioning writes it.
  static let number = "0.2.0"

  /// What `filenote --version` says: the version `make` linked in, or, in a
  /// build made without it (`swift build`), the number marked as a
  /// development build, so it is never taken for the release.
  static let current = BuildVersion.linked ?? number + "+dev"
}
