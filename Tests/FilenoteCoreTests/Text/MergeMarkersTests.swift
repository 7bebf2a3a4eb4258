import Testing

@testable import FilenoteCore

/// The markers git leaves in a file whose merge conflicted: `show` and the
/// prompt point them out on a terminal (doc/SYNC.md).
@Suite struct MergeMarkersTests {
  func found(_ text: String) -> Bool { MergeMarkers.found(in: Array(text.utf8)) }

  @Test func theThreeMarkerLinesInOrderAreFound() {
    #expect(found("<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> branch\n"))
    #expect(found("before\n<<<<<<< HEAD\n=======\n>>>>>>> 1a2b3c4 (message)"))
    #expect(found("<<<<<<<\r\nours\r\n=======\r\ntheirs\r\n>>>>>>>\r\n"))
    // diff3's base section between them changes nothing.
    #expect(found("<<<<<<< ours\na\n||||||| base\nb\n=======\nc\n>>>>>>> theirs"))
  }

  @Test func anythingLessIsNoMarkers() {
    #expect(!found(""))
    #expect(!found("<<<<<<< HEAD\nours\n=======\ntheirs"))
    #expect(!found(">>>>>>> b\n=======\n<<<<<<< a"))
    #expect(!found("<<<<<<< HEAD\n======= not alone\n>>>>>>> b"))
    #expect(!found("<<<<<<<< eight\n=======\n>>>>>>> b"))
    #expect(!found("  <<<<<<< indented\n=======\n>>>>>>> b"))
    #expect(!found("<<<<<<<x\n=======\n>>>>>>> b"))
    #expect(!found("a <<<<<<< b ======= c >>>>>>> d"))
    #expect(!found("<<<<<<"))
  }
}
