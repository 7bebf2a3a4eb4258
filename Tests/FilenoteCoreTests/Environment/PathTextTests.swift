import Testing

@testable import FilenoteCore

/// Paths are cut at their "/" bytes, as the kernel reads them.
@Suite struct PathTextTests {
  @Test func aPathIsAbsoluteWhenItsFirstByteIsASlash() {
    #expect("/tmp/note".isAbsolutePath)
    #expect(!"tmp/note".isAbsolutePath)
    #expect(!"".isAbsolutePath)
    // One Character to Swift ("/" and a combining acute), a root to the kernel.
    #expect("/\u{301}tmp".isAbsolutePath)
  }

  @Test func componentsLeaveOutEmptyNames() {
    #expect("/a//b/".pathComponents == ["a", "b"])
    #expect("a".pathComponents == ["a"])
    #expect("/".pathComponents == [])
    #expect("/é/日本/\u{301}x".pathComponents == ["é", "日本", "\u{301}x"])
  }

  @Test func theFolderAndNameOfAPath() {
    #expect(FileStore.folder(of: "/home/ann/note") == "/home/ann")
    #expect(FileStore.folder(of: "/note") == "/")
    #expect(FileStore.folder(of: "note") == ".")
    #expect("/home/ann/note".splitAtLastSlash?.after == "note")
    #expect("note".splitAtLastSlash == nil)
    #expect("/home/ann/".splitAtLastSlash?.after == "")
    #expect(FileStore.folder(of: "/a/\u{301}b") == "/a")
    #expect("/a/\u{301}b".splitAtLastSlash?.after == "\u{301}b")
  }

  @Test func trailingSlashesGoButTheRootStays() {
    #expect("/home/ann//".trimmingTrailingSlashes == "/home/ann")
    #expect("/".trimmingTrailingSlashes == "/")
    #expect("//".trimmingTrailingSlashes == "/")
    #expect("a".trimmingTrailingSlashes == "a")
  }

  @Test func aNameIsCutToABytesLimitBetweenScalars() {
    #expect("note.txt".prefix(maxUTF8Count: 4) == "note")
    #expect("note".prefix(maxUTF8Count: 10) == "note")
    #expect("note".prefix(maxUTF8Count: 0) == "")
    // é is two bytes, 😀 four: a limit inside one leaves it out whole.
    #expect("aé".prefix(maxUTF8Count: 2) == "a")
    #expect("a😀b".prefix(maxUTF8Count: 4) == "a")
    #expect("a😀b".prefix(maxUTF8Count: 5) == "a😀")
    #expect("e\u{301}x".prefix(maxUTF8Count: 3) == "e\u{301}")
  }

  @Test func leadingSlashesBecomeOne() {
    #expect("//Docs".withOneLeadingSlash == "/Docs")
    #expect("/Docs".withOneLeadingSlash == "/Docs")
    #expect("Docs".withOneLeadingSlash == "Docs")
  }

  @Test func aCleanedPathLeavesOutDotNamesAndDoubledSlashesButKeepsDotDot() {
    #expect("/work/./note.txt".cleanedPath == "/work/note.txt")
    #expect("/work//note.txt".cleanedPath == "/work/note.txt")
    #expect("/work/.//./note.txt/.".cleanedPath == "/work/note.txt")
    #expect("/a/../b".cleanedPath == "/a/../b")
    #expect("/a/b/".cleanedPath == "/a/b/")
    #expect("/./".cleanedPath == "/")
    #expect("./note".cleanedPath == "note")
    #expect("./.".cleanedPath == ".")
    #expect("/.hidden/..x/note.".cleanedPath == "/.hidden/..x/note.")
    #expect(FileStore(path: "/work/./note.txt").path == "/work/note.txt")
  }

  @Test func joiningDoesNotDoubleTheRootsSlash() {
    #expect(FileStore.join("/", "note") == "/note")
    #expect(FileStore.join("/home", "note") == "/home/note")
  }
}
