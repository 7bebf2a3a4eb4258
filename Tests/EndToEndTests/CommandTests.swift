import Testing

/// filenote as its users run it: the built binary, in a fresh temporary home,
/// checked by what it prints, its exit status and the files it leaves.
///
/// Each concern's suite lives in its own file, nested here:
/// `SaveCommandTests.swift`, `ShowCommandTests.swift`, `PathCommandTests.swift`,
/// `NoteFileTests.swift`, `UsageTests.swift`.
@Suite("filenote, run as a program")
struct CommandTests {}
