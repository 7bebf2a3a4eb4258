/// Key sequences run through GNU readline's vi mode (bash 5.2's `read -e
/// -i TEXT` on a pseudo-terminal, `set editing-mode vi`), with the line it
/// returned: `fixed` for each key and its corner cases, `random` for
/// sequences drawn from vi's commands with a fixed seed. See
/// `ViReadlineCase`.
enum ViReadlineCases {
  static let fixed: [ViReadlineCase] = [
    // Found by the seeded sequences of reliability/readline_diff.py.
    // readline's undo joins an insert of one byte to the insert just
    // before it when that one ends where it goes in and is shorter than 20
    // bytes: `p` of one Character, `.` after it and `3p` are one undo step
    // (random vi sequence 80 of seed 8).
    ViReadlineCase("one two three", "\u{1B}x.p.ucBq \u{17}\u{1B}", "one two qr"),
    ViReadlineCase("one two three", "\u{1B}xp.u", "one two thre"),
    ViReadlineCase("one two three", "\u{1B}x3pu", "one two thre"),
    ViReadlineCase("one two three", "\u{1B}xaq\u{1B}pu", "one two threq"),
    ViReadlineCase(
      "one two three", "\u{1B}TncWX \u{1B}i-\u{1B}UxB2ep2.ur-p\u{1B}", "ne two- three"),
    // `.` after a change over `f F t T` searches for the character
    // searched for last, not the change's own (random vi sequence 36 of
    // seed 408).
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}XRX \u{1B}DdtxFa.2c;q_r\u{1B}", "foo bar.bq_rz  qux_1 (X"),
    ViReadlineCase("one xtwo xthree a", "\u{1B}0dtxfh0.", "hree a"),
    ViReadlineCase("one xtwo xthree a", "\u{1B}0dfxTh0.", "ree a"),
    ViReadlineCase("one xtwo xthree a", "\u{1B}0ctxZ\u{1B}fh0.", "Zhree a"),
    // `.` types again the insert readline's undo list ends the session
    // with: a Ctrl-V key joins the typing, and a yank is an insert too.
    ViReadlineCase("abc", "\u{1B}ax\u{16}qy\u{1B}.", "abcxqyxqy"),
    ViReadlineCase("abc", "\u{1B}a\u{16}qy\u{1B}.", "abcqyqy"),
    ViReadlineCase("abc", "\u{1B}0dwaq\u{19}r\u{1B}.", "qabcrabcr"),
    ViReadlineCase("a.b ", "\u{17}Z", "aZ"),
    // A Ctrl-W that removes nothing leaves the typing around it one run,
    // which `.` types again whole (CI's seed, random vi sequence 55).
    ViReadlineCase("a two three", "\u{1B}0lia\u{17}b\u{1B}.", "aaabb two three"),
    ViReadlineCase("a two three", "\u{1B}0lixa\u{17}b\u{1B}.", "axaxabb two three"),
    ViReadlineCase(
      "one two three", "\u{1B}lFec3lq_r\u{1B}ftIab\u{1B}i-\u{1B}deia\u{17}b\u{1B}2.Tn",
      "aaababb two thrq_r"),
    ViReadlineCase("a two three", "\u{1B}0wia\u{17}b\u{1B}.", "a bbtwo three"),
    // An insert session that changed nothing is still one undo step: `u`
    // takes it back, not the change before it (CI's seed, random vi
    // sequence 51).
    ViReadlineCase("abc def", "\u{1B}0xi\u{1B}u", "bc def"),
    // `r` on an empty line is an undo step too (CI's seed, random vi
    // sequence 7).
    ViReadlineCase("abc def", "\u{1B}ddrzu", ""),
    ViReadlineCase("abc def", "\u{1B}Sq \u{17}\u{1B}S\u{1B}u", ""),
    ViReadlineCase("a-b c--d e", "\u{1B}rzSab\u{1B}0cEa\u{17}b\u{1B}Sq \u{17}\u{1B}2.W3~u", ""),
    ViReadlineCase("ab, ..cd ef", "\u{1B}0wi\u{17}Z", "abZ, ..cd ef"),
    ViReadlineCase("ab, ..cd ef", "\u{1B}0wwi\u{17}Z", "abZ..cd ef"),
    ViReadlineCase("ab, ..cd ef", "\u{1B}$i\u{17}Z", "ab, ..cd Zf"),
    ViReadlineCase("ab_cd", "\u{17}Z", "ab_Z"),
    ViReadlineCase("abc   ", "\u{17}Z", "Z"),
    ViReadlineCase("x  --  ", "\u{17}Z", "xZ"),
    ViReadlineCase("one two", "\u{1B}0wi\u{17}\u{17}Z", "Ztwo"),
    ViReadlineCase("a.b c", "\u{1B}0lli\u{17}Z", "aZb c"),
    ViReadlineCase("x", "\u{1B}Sc\u{1B}[C-\u{1B}h.0rzX", "z-"),
    ViReadlineCase("  lead trail  ", "\u{1B}I\u{1B}[Dq\u{1B}~2..s-\u{1B}u2e", "Q  LEad trail  "),
    ViReadlineCase("x", "\u{1B}Sc\u{1B}[C-\u{1B}.Iq_r\u{1B}XE3~ac\u{1B}[C-\u{1B}", "qrc-c-"),
    ViReadlineCase("a-q_r", "\u{1B}0llbiZ", "Za-q_r"),
    ViReadlineCase(" ab", "\u{1B}$BiZ", "Z ab"),
    ViReadlineCase("-ab", "\u{1B}$biZ", "Z-ab"),
    ViReadlineCase("x", "\u{1B}~u3.", "X"),
    ViReadlineCase("x", "\u{1B}3~3~u2.", "X"),
    ViReadlineCase("abcd", "\u{1B}0~3.", "ABCD"),
    ViReadlineCase("mixed_Case words, and punct!", "\u{1B}dWuU2dW", "mixed_Case words, and punct"),
    ViReadlineCase("x", "\u{1B}fxaZ\u{1B}hRZ\u{1B}hy$u3~", "XZ"),
    ViReadlineCase("abc def", "\u{1B}0wRXY\u{1B}u~", "abc Def"),
    ViReadlineCase("hello world", "\u{1B}x", "hello worl"),
    ViReadlineCase("hello world", "\u{1B}0x", "ello world"),
    ViReadlineCase("abc", "\u{1}Z", "abc\u{1}Z"),
    ViReadlineCase("abc", "\u{5}Z", "abc\u{5}Z"),
    ViReadlineCase("abc", "\u{B}Z", "abc\u{B}Z"),
    ViReadlineCase("abc def", "\u{17}Z", "abc Z"),
    ViReadlineCase("a.b-c def", "\u{17}Z", "a.b-c Z"),
    ViReadlineCase("abc def", "\u{15}Z", "Z"),
    ViReadlineCase("abc", "\u{14}Z", "acbZ"),
    ViReadlineCase("abc", "\u{2}Z", "abc\u{2}Z"),
    ViReadlineCase("abc", "\u{6}Z", "abc\u{6}Z"),
    ViReadlineCase("abc", "\u{E}Z", "abcZ"),
    ViReadlineCase("abc", "\u{10}Z", "abcZ"),
    ViReadlineCase("abc", "\u{18}Z", "abc\u{18}Z"),
    ViReadlineCase("abc", "\u{19}Z", "abcZ"),
    ViReadlineCase("abc", "\u{1C}Z", "abcZ"),
    ViReadlineCase("abc", "\u{1D}Z", "abc\u{1D}Z"),
    ViReadlineCase("abc", "\u{7}Z", "abc\u{7}Z"),
    ViReadlineCase("abc", "\u{C}Z", "abc\u{C}Z"),
    ViReadlineCase("abc", "\u{16}\u{1}Z", "abc\u{1}Z"),
    ViReadlineCase("abc def", "\u{1B}[DZ", "abc deZf"),
    ViReadlineCase("abc def", "\u{1B}[1;5DZ", "abc Zdef"),
    ViReadlineCase("abc def", "\u{1B}[HZ", "Zabc def"),
    ViReadlineCase("abc def", "\u{1B}[3~Z", "abc defZ"),
    ViReadlineCase("abc def", "\u{1B}[D\u{1B}[3~Z", "abc deZ"),
    ViReadlineCase("abc def", "\u{8}Z", "abc deZ"),
    ViReadlineCase("abc def", "\u{7F}Z", "abc deZ"),
    ViReadlineCase("café bar", "\u{1B}0wiZ", "cafZé bar"),
    ViReadlineCase("ab_c,d ef", "\u{1B}0wiZ", "ab_cZ,d ef"),
    ViReadlineCase("ab_c,d ef", "\u{1B}0WiZ", "ab_c,d Zef"),
    ViReadlineCase("ab_c,d ef", "\u{1B}eiZ", "ab_c,d eZf"),
    ViReadlineCase("hello", "\u{1B}$iZ", "hellZo"),
    ViReadlineCase("hello", "\u{1B}lllliZ", "hellZo"),
    ViReadlineCase("abc def", "\u{1B}bIZ", "Zabc def"),
    ViReadlineCase("  abc def", "\u{1B}IZ", "Z  abc def"),
    ViReadlineCase("  abc def", "\u{1B}^iZ", "  Zabc def"),
    ViReadlineCase("abc def ghi", "\u{1B}5|iZ", "abc Zdef ghi"),
    ViReadlineCase("abc a.b-c", "\u{17}Z", "abc a.b-Z"),
    ViReadlineCase("abc def ghi", "\u{1B}0dw", "def ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0d2w", "ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}02dw", "ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}02d2w", ""),
    ViReadlineCase("abc def ghi", "\u{1B}0wdw", "abc ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0wwdw", "abc def "),
    ViReadlineCase("abc def ghi", "\u{1B}0de", " def ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0cwX", "X def ghi"),
    ViReadlineCase("abc   def ghi", "\u{1B}0lllcwX", "abcX  def ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0cWX", "X def ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}db", "abc def i"),
    ViReadlineCase("abc def ghi", "\u{1B}d0", "i"),
    ViReadlineCase("abc def ghi", "\u{1B}0wd$", "abc "),
    ViReadlineCase("abc def ghi", "\u{1B}0wdl", "abc ef ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0wdh", "abcdef ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0fedd", ""),
    ViReadlineCase("abc def ghi", "\u{1B}0dfe", "f ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0dte", "ef ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}dFe", "abc di"),
    ViReadlineCase("abc def ghi", "\u{1B}dTe", "abc dei"),
    ViReadlineCase("abc def ghi", "\u{1B}0wyyP", "abc abc def ghidef ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0ywP", "abc abc def ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0ywp", "aabc bc def ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0wywP", "abc def def ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}ybiZ", "abc def ghZi"),
    ViReadlineCase("abc def ghi", "\u{1B}0ywiZ", "Zabc def ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0wdwP", "abc def ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0wdwp", "abc gdef hi"),
    ViReadlineCase("abc def ghi", "\u{1B}0wdw3p", "abc gdef def def hi"),
    ViReadlineCase("abc def ghi", "\u{1B}0wccX", "X"),
    ViReadlineCase("abc def ghi", "\u{1B}0wSX", "X"),
    ViReadlineCase("abc def ghi", "\u{1B}0wCX", "abc X"),
    ViReadlineCase("abc def ghi", "\u{1B}0wDiX", "abcX "),
    ViReadlineCase("abc def ghi", "\u{1B}0w2sX", "abc Xf ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0w2xiX", "abc Xf ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0w2XiX", "abXdef ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0w3rxiX", "abc xxXx ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0w9rxiX", "abc xxxxxxXx"),
    ViReadlineCase("abc def ghi", "\u{1B}0wRxy\u{1B}iZ", "abc xZyf ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0wRxyz\u{7F}\u{7F}\u{1B}iZ", "abc Zxef ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0w4~iZ", "abc DEF Zghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0wx.iZ", "abc Zf ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0w2x.iZ", "abc Zghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0wx3.iZ", "abc Zghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0dw.iZ", "Zghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0iXY\u{1B}w.iZ", "XYabc XZYdef ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0cwXY\u{1B}w.iZ", "XY XYZ ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0AXY\u{1B}0.iZ", "abc def ghiXYXZY"),
    ViReadlineCase("abc a.b--", "\u{17}Z", "abc a.bZ"),
    ViReadlineCase("abc a.b--  ", "\u{17}Z", "abc a.bZ"),
    ViReadlineCase("abc def ghi", "\u{1B}0wdwuiZ", "abc def Zghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0wcwXY\u{1B}uiZ", "abc defZ ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0iXY\u{1B}[DZ\u{1B}uiZ", "Zabc def ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0wxxuiZ", "abc eZf ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0wxxuuiZ", "abc dZef ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0wxxUiZ", "Zabc def ghi"),
    ViReadlineCase("abc", "\u{1B}3iab\u{1B}", "ababc"),
    ViReadlineCase("abc", "\u{1B}0iab\u{1B}3.", "aabababbabc"),
    ViReadlineCase("abc def", "\u{1B}0wdw0p", "adefbc "),
    ViReadlineCase("abc def", "\u{1B}0wywPiZ", "abc deZfdef"),
    ViReadlineCase("abc def", "\u{1B}0wywpiZ", "abc ddeZfef"),
    ViReadlineCase("abc def", "\u{1B}0wyw2PiZ", "abc defdeZfdef"),
    ViReadlineCase("abc def ghi", "\u{1B}0fg;iZ", "abc def Zghi"),
    ViReadlineCase("a-b-c-d-e", "\u{1B}0f-;iZ", "a-bZ-c-d-e"),
    ViReadlineCase("a-b-c-d-e", "\u{1B}0t-;iZ", "Za-b-c-d-e"),
    ViReadlineCase("a-b-c-d-e", "\u{1B}0t-;;iZ", "Za-b-c-d-e"),
    ViReadlineCase("a-b-c-d-e", "\u{1B}F-,iZ", "a-b-c-dZ-e"),
    ViReadlineCase("a-b-c-d-e", "\u{1B}0f-;,iZ", "aZ-b-c-d-e"),
    ViReadlineCase("a-b-c-d-e", "\u{1B}0f-d;", "ac-d-e"),
    ViReadlineCase("a-b-c-d-e", "\u{1B}0f-;d,", "a-c-d-e"),
    ViReadlineCase("a-b-c-d-e", "\u{1B}02f-iZ", "a-bZ-c-d-e"),
    ViReadlineCase("a-b-c-d-e", "\u{1B}09f-iZ", "a-b-c-dZ-e"),
    ViReadlineCase("abc def ghi", "\u{1B}0wd5l", "abc hi"),
    ViReadlineCase("abc def ghi", "\u{1B}0wd9l", "abc "),
    ViReadlineCase("abc def ghi", "\u{1B}0w9liZ", "abc def ghZi"),
    ViReadlineCase("abc def ghi", "\u{1B}0w9hiZ", "Zabc def ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0wd9h", "def ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0wc0X", "Xdef ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0c0X", "Xabc def ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0dhiZ", "Zabc def ghi"),
    ViReadlineCase("abc def", "\u{1B}\u{4}Z", "abc def"),
    ViReadlineCase("abc def", "\u{4}Z", "abc def"),
    ViReadlineCase("abc def", "\u{1B}0\u{4}Z", "abc def"),
    ViReadlineCase("abc def", "\u{1B}0 iZ", "aZbc def"),
    ViReadlineCase("abc def", "\u{1B}\u{7F}iZ", "abc deZf"),
    ViReadlineCase("abc def", "\u{1B}\u{8}iZ", "abc dZef"),
    ViReadlineCase("abc def", "\u{1B}\u{1}iZ", "abc deZf"),
    ViReadlineCase("abc def", "\u{1B}\u{5}iZ", "abc deZf"),
    ViReadlineCase("abc def", "\u{1B}0\u{B}iZ", "Z"),
    ViReadlineCase("abc def", "\u{1B}\u{15}iZ", "Zf"),
    ViReadlineCase("abc def", "\u{1B}\u{17}iZ", "abc Zf"),
    ViReadlineCase("abc def", "\u{1B}0\u{14}iZ", "Zabc def"),
    ViReadlineCase("abc def", "\u{1B}ZiQ", "abc deQf"),
    ViReadlineCase("abc def ghi", "\u{1B}0wxxp", "abc fe ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0dwdwp", "gdef hi"),
    ViReadlineCase("abc def ghi", "\u{1B}0dwwyw0P", "ghidef ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0w4~uiZ", "abc DEfZ ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0w3rxuiZ", "abc dZef ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0w3pu", "abc def ghi"),
    ViReadlineCase("xyz", "\u{1B}0ywwP2puiZ", "xyxyzxyzZz"),
    ViReadlineCase("straße über", "\u{1B}0~~~~~~~~~~~", "STRAßE ÜBER"),
    ViReadlineCase("abc", "\u{1B}0rüiZ", "Zübc"),
    ViReadlineCase("cur", "\u{1B}kiZ", "Znew one", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{1B}kkiZ", "Zold one", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{1B}kkjiZ", "Znew one", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{1B}-iZ", "Znew one", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{1B}--+iZ", "Znew one", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{1B}2kiZ", "Zold one", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{1B}kjiZ", "cuZr", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{1B}[AZ", "new oneZ", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{1B}\u{1B}[AiZ", "Znew one", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{10}Z", "curZ", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{1B}/old\u{D}iZ", "Zold one", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{1B}/one\u{D}iZ", "Znew one", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{1B}/one\u{D}niZ", "Zold one", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{1B}/one\u{D}nNiZ", "Znew one", versions: ["new one", "old one"]),
    ViReadlineCase(
      "cur", "\u{1B}/one\u{D}n?ne\u{D}iZ", "Znew one", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{1B}/xyz\u{D}iZ", "Zcur", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{1B}/^new\u{D}iZ", "Znew one", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{1B}/^one\u{D}iZ", "Zcur", versions: ["new one", "old one"]),
    ViReadlineCase(
      "cur", "\u{1B}/on\u{7F}ld\u{D}iZ", "Zold one", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{1B}/\u{7F}iZ", "cuZr", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{1B}/o\u{7F}\u{7F}iZ", "cuZr", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{1B}kxjiZ", "cuZr", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{1B}kxjkiZ", "Zew one", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{1B}xkjiZ", "cZu", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{1B}/one\u{D}/\u{D}iZ", "Zold one", versions: ["new one", "old one"]),
    ViReadlineCase("cur", "\u{1B}n", "cur", versions: ["new one", "old one"]),
    ViReadlineCase("abc", "\u{1B}0iABCDEFGHIJKLMNOPQRSTUVWXY\u{1B}u", "abc"),
    ViReadlineCase(
      "abc", "\u{1B}0iABCDEFGHIJKLMNOPQRSTUVWXY\u{1B}$.", "ABCDEFGHIJKLMNOPQRSTUVWXYabUVWXYc"),
    ViReadlineCase("abc", "\u{1B}0iAB\u{7F}C\u{1B}$.", "ACabCc"),
    ViReadlineCase("abc", "\u{1B}0iAB\u{1B}[DC\u{1B}$.", "ACBabCc"),
    ViReadlineCase("abc", "\u{1B}0iAB\u{1B}[DC\u{1B}u", "abc"),
    ViReadlineCase("abc", "\u{1B}0i\u{1B}$.X", "abXc"),
    ViReadlineCase("abc def", "\u{1B}0cwAB\u{7F}C\u{1B}w.", "AC C"),
    ViReadlineCase("abc def", "\u{1B}0sXY\u{1B}w.", "XYbc XYef"),
    ViReadlineCase("abc def", "\u{1B}0SXY\u{1B}.Q", "XY"),
    ViReadlineCase("abc def ghi", "\u{1B}0RXY\u{1B}w.", "XYc XYf ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0rXw.", "Xbc Xef ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0~w.", "Abc Def ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0ywwP.", "abc abcabc  def ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0dfew.", "f ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}0dtg;.", "ghi"),
    ViReadlineCase("abc def ghi", "\u{1B}02dw.", ""),
    ViReadlineCase("abc def ghi", "\u{1B}0cwX\u{1B}ww2.", "X def X"),
    ViReadlineCase("abc def", "\u{1B}0aXY\u{1B}$.", "aXYbc defXY"),
    ViReadlineCase("abc def", "\u{1B}0IXY\u{1B}$.", "XYXYabc def"),
    ViReadlineCase("abc def", "\u{1B}0AXY\u{1B}0.Q", "abc defXYXY"),
    ViReadlineCase("abc def", "\u{1B}0iXY\u{1B}uu", "abc def"),
    ViReadlineCase("abc def", "\u{1B}0iX\u{1B}iY\u{1B}uiZ", "ZXabc def"),
    ViReadlineCase("abc def", "\u{1B}0iX\u{1B}iY\u{1B}uuiZ", "Zabc def"),
    ViReadlineCase("abc def", "\u{1B}0xiY\u{1B}uuiZ", "aZbc def"),
    ViReadlineCase("abc def", "\u{1B}0wiX\u{17}Y\u{1B}uiZ", "abc Zdef"),
    ViReadlineCase("abc def", "\u{1B}0wiX\u{1F}Y\u{1B}iZ", "abc ZYdef"),
    ViReadlineCase("abc def", "\u{1B}0wiXY\u{1F}\u{1F}Z", "abc Zdef"),
    ViReadlineCase("ab cd", "\u{1B}0wcwX\u{1B}0cwY\u{1B}u", "ab X"),
    ViReadlineCase("ab cd", "\u{1B}0dwdwu", "cd"),
    ViReadlineCase("ab", "\u{1B}0Dp", "ab"),
    ViReadlineCase("ab cd", "\u{1B}0wiX\u{1B}[AY\u{1B}[BZ", "ab XYZcd"),
  ]

  static let random: [ViReadlineCase] = [
    ViReadlineCase(
      "café über straße", "\u{1B}yWpX^faRq_r\u{1B}aX \u{1B}PlE3~y2b\u{1B}", "cq_rXe  übeR Straße"),
    ViReadlineCase(
      "  lead trail  ", "\u{1B}y2b~.CX \u{1B}dt bRab\u{1B}Aab\u{1B}l\u{1B}", "  lead trail abab"),
    ViReadlineCase("café über straße", "\u{1B}P2yBS-\u{1B}$3l2.b2bX2x2de\u{1B}", ""),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}3lxFeu;aZ\u{1B}e0$Rab\u{1B}B\u{1B}",
      "mixed_CaseZ words, and punctab"),
    ViReadlineCase("  lead trail  ", "\u{1B}pxpxX\u{1B}", "  lead trail "),
    ViReadlineCase("a-b c--d e", "\u{1B}r-T ;aab\u{1B}dlccq_r\u{1B}3lW.\u{1B}", "q_r"),
    ViReadlineCase("a-b c--d e", "\u{1B}2yF-B.2wl|d|2w\u{1B}", "a-b c--d e"),
    ViReadlineCase("", "\u{1B}x2c^ab\u{1B}Tay$w2e2dd\u{1B}", ""),
    ViReadlineCase(
      "a-b c--d e", "\u{1B}yw~uiab\u{1B}Rq_r\u{1B}aab\u{1B}T-~RZ\u{1B}2cwZ\u{1B}\u{1B}", "a-b c--DZ"
    ),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)",
      "\u{1B}aab\u{1B}b2y2eh2dFr2c2wq_r\u{1B}Cq_r\u{1B}Sq_r\u{1B}2x\u{1B}", "q_"),
    ViReadlineCase(
      "  lead trail  ", "\u{1B}$e2dwSX \u{1B}2eBRZ\u{1B}2cFt-\u{1B}llSZ\u{1B}\u{1B}", "Z"),
    ViReadlineCase("", "\u{1B}xRq_r\u{1B}0eIab\u{1B}2yTaAX \u{1B}3lh\u{1B}", "abq_rX "),
    ViReadlineCase("café über straße", "\u{1B}0AZ\u{1B}dE2w2b\u{1B}", "café über straße"),
    ViReadlineCase("  lead trail  ", "\u{1B}2y5|Cq_r\u{1B}dTlE.\u{1B}", "  lead trailr"),
    ViReadlineCase("x", "\u{1B}hd2bc2eab\u{1B}wdfxx2y2b3~p.\u{1B}", "Aaa"),
    ViReadlineCase(
      "  lead trail  ", "\u{1B}2cfiX \u{1B}y^aX \u{1B}2d2b3l2ehu2d;y3lW2e\u{1B}",
      "  lead trail X X "),
    ViReadlineCase("café über straße", "\u{1B}P2ec2eZ\u{1B}dFcxue^cfeab\u{1B}y2b2x\u{1B}", "a"),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}2cF_Z\u{1B}2eP2ex\u{1B}",
      "mixedZ_Case words, and punct"),
    ViReadlineCase("  lead trail  ", "\u{1B}3~2xBxxSq_r\u{1B}3lyByb|\u{1B}", "q_r"),
    ViReadlineCase("", "\u{1B}3~ywdfaWWD\u{1B}", ""),
    ViReadlineCase("one two three", "\u{1B}2bbc5|-\u{1B}yhU\u{1B}", "one two three"),
    ViReadlineCase("  lead trail  ", "\u{1B}2c|q_r\u{1B}aX \u{1B}h2dT 2xc0ab\u{1B}X\u{1B}", "b "),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}A-\u{1B}XywDdTn0A-\u{1B}\u{1B}",
      "mixed_Case words, and punt-"),
    ViReadlineCase("", "\u{1B}D2c2eX \u{1B}RZ\u{1B}taSq_r\u{1B}dta0$\u{1B}", "q_r"),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}2xy2wXdfn~~\u{1B}", "mixed_Case words, and punt"),
    ViReadlineCase(
      "x", "\u{1B}p2c0Z\u{1B}A-\u{1B}EIX \u{1B}ylRab\u{1B}Cab\u{1B}DcEab\u{1B}ye\u{1B}", "Xaab"),
    ViReadlineCase("  lead trail  ", "\u{1B}3ld|d2b3l2ctiq_r\u{1B}2ye\u{1B}", "q_r"),
    ViReadlineCase("x", "\u{1B}b2cFx-\u{1B}5|2xsX \u{1B}P2x\u{1B}", "X"),
    ViReadlineCase("foo bar.baz  qux_1 (x)", "\u{1B}0yb0wX\u{1B}", "foobar.baz  qux_1 (x)"),
    ViReadlineCase(
      "  lead trail  ", "\u{1B}c$-\u{1B}dby2bce-\u{1B}tdW2cbq_r\u{1B}.2c5|q_r\u{1B}3~\u{1B}",
      "q_rq_R"),
    ViReadlineCase("x", "\u{1B}B2xpC-\u{1B}D\u{1B}", ""),
    ViReadlineCase("", "\u{1B}d2bA-\u{1B}c$X \u{1B}2yE|2w2xré2yW2b\u{1B}", "é"),
    ViReadlineCase("x", "\u{1B}lyh~fx.\u{1B}", "x"),
    ViReadlineCase("", "\u{1B}b2xTa,Ey2w\u{1B}", ""),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}2ceq_r\u{1B}yFiyh.2pPd,xWRX \u{1B}\u{1B}",
      "mixed_Case words, and punctq_r_X "),
    ViReadlineCase("", "\u{1B}y0Uy^X3~2eUd|\u{1B}", ""),
    ViReadlineCase(
      "  lead trail  ", "\u{1B}aZ\u{1B}c0q_r\u{1B}^2pc2w-\u{1B}.dle\u{1B}",
      "q  lead trail    lead trail "),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}Xsab\u{1B}ré~Xc0Z\u{1B}tsd5|u\u{1B}", "ZÉ"),
    ViReadlineCase("  lead trail  ", "\u{1B}2x2y5|2e.iZ\u{1B}DB\u{1B}", "  lead trail"),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}2x3~frd$2d^Aab\u{1B}ybAq_r\u{1B}\u{1B}", "cabq_r"),
    ViReadlineCase(
      "one two three", "\u{1B}2waX \u{1B}b2dBx2wDRZ\u{1B}SX \u{1B}b2c2e-\u{1B}cbX \u{1B}\u{1B}",
      "X -"),
    ViReadlineCase("one two three", "\u{1B}D2w2b.lbd3l\u{1B}", " "),
    ViReadlineCase(
      "a-b c--d e", "\u{1B}P2chq_r\u{1B}CX \u{1B}AZ\u{1B}$^2.2x\u{1B}", "a-b c--q_X ZZ"),
    ViReadlineCase("", "\u{1B}Dfa2c2bZ\u{1B}BP2xu2xx\u{1B}", ""),
    ViReadlineCase("  lead trail  ", "\u{1B}3~c2bab\u{1B}yE2p2d0$2.u|FdX.\u{1B}", "  "),
    ViReadlineCase("café über straße", "\u{1B}y^RZ\u{1B}u3l2d2w\u{1B}", "café über straß"),
    ViReadlineCase(
      "one two three", "\u{1B}5|E3~lx2cbq_r\u{1B}2ytec2wq_r\u{1B}2.Py,\u{1B}", "one q_q_q_reer"),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}~~a-\u{1B}D.2b2wpP2p\u{1B}", "foo bar.baz  qux_1 (x))))"),
    ViReadlineCase("x", "\u{1B}2xA-\u{1B}~X3l.efxEud2w\u{1B}", ""),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}ylc^-\u{1B}cB-\u{1B}U|ufC\u{1B}",
      "mixed_Case words, and punct!"),
    ViReadlineCase("  lead trail  ", "\u{1B}XDC-\u{1B}2xcwX \u{1B}^BE\u{1B}", "  lead traX "),
    ViReadlineCase("x", "\u{1B}2ybs-\u{1B}XSX \u{1B}.d5|lFx2cwX \u{1B}\u{1B}", "X "),
    ViReadlineCase("x", "\u{1B}0xeUiq_r\u{1B}2ewI-\u{1B}\u{1B}", "-q_rx"),
    ViReadlineCase("", "\u{1B}I-\u{1B}2y5|2pW3l2b2cE-\u{1B}2dFaBUXyfa\u{1B}", ""),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}xW2psZ\u{1B}^yFu2c3lab\u{1B}P03laq_r\u{1B},\u{1B}",
      "amixq_red_bCase words, and punct!Z"),
    ViReadlineCase(
      "café über straße", "\u{1B}Xt 2wdEywc,ab\u{1B}AZ\u{1B}0Ed|\u{1B}", "é über abaZ"),
    ViReadlineCase("x", "\u{1B}Cab\u{1B}FxIZ\u{1B}Xc;q_r\u{1B}2xd2epBD\u{1B}", ""),
    ViReadlineCase(
      "café über straße", "\u{1B}2yW2xcl-\u{1B}2chZ\u{1B}02yB||E2.$3~\u{1B}", "café über stZ-"),
    ViReadlineCase(
      "one two three", "\u{1B}2yly2eedBcfeX \u{1B}y$Aq_r\u{1B}B2pRX \u{1B}cb-\u{1B}\u{1B}",
      "one two X q - r"),
    ViReadlineCase("", "\u{1B}Sab\u{1B}Iq_r\u{1B}D.2xr-|Ta,3l\u{1B}", ""),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}c2e-\u{1B}2wWy5|$x2cfaab\u{1B}2.d03lDcwab\u{1B}\u{1B}", "ab"),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)",
      "\u{1B}2c^-\u{1B}XRZ\u{1B}ctrab\u{1B}aZ\u{1B}c0ab\u{1B}3~ceZ\u{1B}3ldfr\u{1B}", "aBzZ"),
    ViReadlineCase("x", "\u{1B}EhPfx2p2eC-\u{1B}dTx\u{1B}", "-"),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}Dtpy|2cF q_r\u{1B}Ey2b.\u{1B}", "mixed_Case words,q_rt"
    ),
    ViReadlineCase("one two three", "\u{1B}~2byl3lU2c2w-\u{1B}\u{1B}", "-"),
    ViReadlineCase("x", "\u{1B}3~Bx~xSX \u{1B}2wDWp\u{1B}", "X "),
    ViReadlineCase("a-b c--d e", "\u{1B}2p2wylb2xf-2d3lwyE\u{1B}", "a-b c--"),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}P2xdW2pSq_r\u{1B}dhFd;EB2clX \u{1B}\u{1B}", "X "),
    ViReadlineCase("one two three", "\u{1B}~u2eB~\u{1B}", "one two Three"),
    ViReadlineCase("café über straße", "\u{1B}yfa0^3~U\u{1B}", "café über straße"),
    ViReadlineCase("a-b c--d e", "\u{1B}Aab\u{1B}S-\u{1B}fc2wB\u{1B}", "-"),
    ViReadlineCase(
      "one two three", "\u{1B}5|Eaq_r\u{1B}2ybpy0aab\u{1B}e2wP\u{1B}",
      "one twoq_rone twoq_ab threone twoq_rone twoqe"),
    ViReadlineCase("x", "\u{1B}i-\u{1B}2d$S-\u{1B}WeyWd|chq_r\u{1B}c$Z\u{1B}2x\u{1B}", "q_"),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}ytzd,X.CX \u{1B}iab\u{1B};\u{1B}", "foo bar.bXab "),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}pIq_r\u{1B}yb3~c2wZ\u{1B}t1PP\u{1B}",
      "q_RFOZ.baz  quxo bao barr_1 (x)"),
    ViReadlineCase(
      "café über straße", "\u{1B}l3~2b2cFsX \u{1B}2pdbe2.cWab\u{1B}SZ\u{1B}3~h\u{1B}", "z"),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}yw2bp.U2p.x\u{1B}", "m!!!ixed_Case words, and punct!"),
    ViReadlineCase("", "\u{1B}lréWuaq_r\u{1B}.Ta\u{1B}", "q_rq_r"),
    ViReadlineCase("", "\u{1B}2p2c$-\u{1B}2xXX3~0|\u{1B}", ""),
    ViReadlineCase("", "\u{1B}wp~w~y0ybyEdb\u{1B}", ""),
    ViReadlineCase("x", "\u{1B}iX \u{1B}RX \u{1B}aX \u{1B}d3lyyD\u{1B}", "XX "),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}|0cbZ\u{1B}bd|hA-\u{1B}u\u{1B}", "Zfoo bar.baz  qux_1 (x)"),
    ViReadlineCase(
      "a-b c--d e", "\u{1B}WccZ\u{1B}ERq_r\u{1B}IZ\u{1B}U2bIX \u{1B}y2e2d2wwTe\u{1B}", "Xc--d e"),
    ViReadlineCase("x", "\u{1B}sq_r\u{1B}d|u3lyb2ybEwc|X \u{1B}3l2d2bb\u{1B}", "r"),
    ViReadlineCase("café über straße", "\u{1B}sZ\u{1B}Fü2ybde2.RX \u{1B}h\u{1B}", "café X "),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}2ylcB-\u{1B}y$2x2piZ\u{1B}\u{1B}",
      "mixed_Case words, and -!-Z!"),
    ViReadlineCase(
      "one two three", "\u{1B}RZ\u{1B}|2ey$d5|5|cEab\u{1B}Uc5|Z\u{1B}d3l2.\u{1B}", "three"),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}préFoc2b-\u{1B}w5|,ré5|.\u{1B}", "-o bér.baz  qux_1 (x)"),
    ViReadlineCase("mixed_Case words, and punct!", "\u{1B}3~eDUptxCab\u{1B}SZ\u{1B}\u{1B}", "Z"),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}2ywwd2b2.2ywr-2.R-\u{1B}IZ\u{1B}B$d0\u{1B}", "-"),
    ViReadlineCase(
      "café über straße", "\u{1B}3lCq_r\u{1B}y5|2.2d$|I-\u{1B}2y2wy|xcwq_r\u{1B}\u{1B}",
      "q_ré über straßq_"),
    ViReadlineCase(
      "  lead trail  ", "\u{1B}2cl-\u{1B}Sq_r\u{1B}ByflPcEX \u{1B}2.PU\u{1B}", "  lead trail  "),
    ViReadlineCase("", "\u{1B}3~c^ab\u{1B}eBa-\u{1B}Br-\u{1B}", "--b"),
    ViReadlineCase("", "\u{1B}^Rab\u{1B}h0Dew^P2w\u{1B}", "ab"),
    ViReadlineCase(
      "a-b c--d e", "\u{1B}AX \u{1B}2ytcct X \u{1B}y|IZ\u{1B}|.\u{1B}", "ZZa-b c--d eXX "),
    ViReadlineCase("one two three", "\u{1B}dtn|dFrh2d2b2cFeab\u{1B}\u{1B}", "abone two three"),
    ViReadlineCase("", "\u{1B}sq_r\u{1B}B2efa^ExxuiZ\u{1B}a-\u{1B}.\u{1B}", "qZ--_"),
    ViReadlineCase("a-b c--d e", "\u{1B}^xdF Aab\u{1B}w\u{1B}", "-b c--d eab"),
    ViReadlineCase(
      "  lead trail  ", "\u{1B}2pd2wEFd2cFdq_r\u{1B}~e2wcEZ\u{1B}2biab\u{1B}\u{1B}",
      "  ableaq_Rd trail Z"),
    ViReadlineCase(
      "a-b c--d e", "\u{1B}^2yBsZ\u{1B}5|Bfbcwq_r\u{1B}~s-\u{1B}\u{1B}", "Z-q_R-c--d e"),
    ViReadlineCase("  lead trail  ", "\u{1B}AZ\u{1B}.d2ewdw2eC-\u{1B}e$SX \u{1B}E\u{1B}", "X "),
    ViReadlineCase("café über straße", "\u{1B}de.r-^y02y2bPwE^\u{1B}", "acafé über str-"),
    ViReadlineCase("a-b c--d e", "\u{1B}s-\u{1B}y|pd2euyfal\u{1B}", "a-b c--d -a-b c--d "),
    ViReadlineCase("a-b c--d e", "\u{1B}Cab\u{1B}3l2p.dhl2y|SZ\u{1B}X2yF-y0\u{1B}", "Z"),
    ViReadlineCase("", "\u{1B}tayWCX \u{1B}3~$buy3lPAab\u{1B}R-\u{1B}2y2w\u{1B}", "a-"),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}ylu2b0sZ\u{1B}U\u{1B}", "foo bar.baz  qux_1 (x)"),
    ViReadlineCase("x", "\u{1B}Iab\u{1B}ywc^-\u{1B}P2dB3~AX \u{1B}S-\u{1B}\u{1B}", "-"),
    ViReadlineCase("a-b c--d e", "\u{1B}~UuA-\u{1B}2yyIab\u{1B}\u{1B}", "aba-b c--d e-"),
    ViReadlineCase("a-b c--d e", "\u{1B}^~tcaX \u{1B}Aab\u{1B}chZ\u{1B}\u{1B}", "A-b X c--d eZb"),
    ViReadlineCase(
      "x", "\u{1B}aX \u{1B}chX \u{1B}dTxPcTxab\u{1B}Aab\u{1B}d^2y^Uc2bq_r\u{1B}b2p\u{1B}",
      "qxabX  axabX  a_rx"),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}IX \u{1B}F $c|-\u{1B}2y,E.,2c2eZ\u{1B}SZ\u{1B}2dwl\u{1B}", ""
    ),
    ViReadlineCase("a-b c--d e", "\u{1B}RZ\u{1B}C-\u{1B}UPb2xU\u{1B}", "a-b c--d e"),
    ViReadlineCase("one two three", "\u{1B}t 2py;sZ\u{1B}2d5|\u{1B}", "one two tZ"),
    ViReadlineCase("a-b c--d e", "\u{1B}2ec2wq_r\u{1B}2xpCab\u{1B}d5|RX \u{1B}w\u{1B}", "a-b X "),
    ViReadlineCase("x", "\u{1B}3l3ly3laab\u{1B}2cfxq_r\u{1B}PRab\u{1B}D2wyE.y5|\u{1B}", "xaq_a"),
    ViReadlineCase("mixed_Case words, and punct!", "\u{1B}pSab\u{1B}sq_r\u{1B}B~\u{1B}", "Aq_r"),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}Cq_r\u{1B}$Iq_r\u{1B}fqd5|2yh5|cWq_r\u{1B}D~2.3~\u{1B}",
      "q_rfq_"),
    ViReadlineCase(
      "café über straße", "\u{1B}~dhy|R-\u{1B}Fc2c;X \u{1B}IZ\u{1B}WwuSab\u{1B}2yh\u{1B}", "ab"),
    ViReadlineCase("x", "\u{1B}|3~2xCab\u{1B}yFxECX \u{1B}Rq_r\u{1B}XiX \u{1B}\u{1B}", "aXqX r"),
    ViReadlineCase(
      "café über straße", "\u{1B}p$sq_r\u{1B}ddwAZ\u{1B}ulpRab\u{1B}\u{1B}", "café über straßq_ab"),
    ViReadlineCase("one two three", "\u{1B}teXA-\u{1B}^hcE-\u{1B}h^dWby^\u{1B}", "two thre-"),
    ViReadlineCase("café über straße", "\u{1B}c5|-\u{1B}2yfe^2dlD2cFß-\u{1B}3~2b\u{1B}", "-"),
    ViReadlineCase(
      "  lead trail  ", "\u{1B}E2c3lZ\u{1B}UP2dbeIab\u{1B}2cfaab\u{1B}\u{1B}", "aabil  "),
    ViReadlineCase("a-b c--d e", "\u{1B}2d2e2bCZ\u{1B}Aab\u{1B}Bs-\u{1B}\u{1B}", "a-b -Zab"),
    ViReadlineCase("", "\u{1B}AZ\u{1B}TaEU2yeIab\u{1B}p\u{1B}", "ab"),
    ViReadlineCase("", "\u{1B}D2dhUDy2wXyESX \u{1B}.\u{1B}", "X "),
    ViReadlineCase("x", "\u{1B}PbAq_r\u{1B}Cq_r\u{1B}3lc5|-\u{1B}h\u{1B}", "xq_q-r"),
    ViReadlineCase("", "\u{1B}PFah2yta2clab\u{1B}dBdfar-rzW\u{1B}", "z"),
    ViReadlineCase("foo bar.baz  qux_1 (x)", "\u{1B}T l$Xs-\u{1B}\u{1B}", "foo bar.baz  qux_1 (-"),
    ViReadlineCase("a-b c--d e", "\u{1B}cwZ\u{1B}WRq_r\u{1B}F h2dh$~\u{1B}", "a-b cd q_R"),
    ViReadlineCase("mixed_Case words, and punct!", "\u{1B}yWybU^bIX \u{1B}C-\u{1B}b~\u{1B}", "x-"),
    ViReadlineCase("x", "\u{1B}RZ\u{1B}2wdTxyByBh|y2e\u{1B}", "Z"),
    ViReadlineCase("x", "\u{1B}yhhI-\u{1B}2yhEXp~\u{1B}", "x-"),
    ViReadlineCase("x", "\u{1B}ré3~yTxW~2dd|Ud2wS-\u{1B}\u{1B}", "-"),
    ViReadlineCase(
      "café über straße", "\u{1B}XudtüXdftr-réiX \u{1B}AZ\u{1B}D\u{1B}", "café über straX é"),
    ViReadlineCase(
      "café über straße", "\u{1B}iX \u{1B}2epP0e2cb-\u{1B}taRq_r\u{1B}\u{1B}", "-fé über stq_rX e"),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}2xU2peybxc|q_r\u{1B}2xupWw\u{1B}",
      "q_r wr ords, and punct!"),
    ViReadlineCase("a-b c--d e", "\u{1B}2dlldwlCq_r\u{1B}dFbc,X \u{1B}.\u{1B}", "a-XX "),
    ViReadlineCase("mixed_Case words, and punct!", "\u{1B}DylsX \u{1B}PDf,2dd\u{1B}", ""),
    ViReadlineCase("x", "\u{1B}2cEq_r\u{1B}5|W3ly|wtx2b\u{1B}", "q_r"),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}|p02c0X \u{1B}Rab\u{1B}$XDIab\u{1B}IZ\u{1B}.\u{1B}",
      "ZZabXabixed_Case words, and punc"),
    ViReadlineCase("x", "\u{1B}wc^q_r\u{1B}DuFxd,2e2wc$ab\u{1B}c0X \u{1B}2ybw\u{1B}", "X b"),
    ViReadlineCase("a-b c--d e", "\u{1B}dFb$D3~p$\u{1B}", "a-e"),
    ViReadlineCase("one two three", "\u{1B}2cFhq_r\u{1B}eXDe2y0a-\u{1B}\u{1B}", "one two tq_-"),
    ViReadlineCase(
      "one two three", "\u{1B}xcBab\u{1B}2yte~y,cF ab\u{1B}y5|yh2xRX \u{1B}\u{1B}", "one twoX "),
    ViReadlineCase(
      "café über straße", "\u{1B}2eCab\u{1B}cwab\u{1B}dwTtc2w-\u{1B}PCZ\u{1B}2x;U~\u{1B}",
      "Café über straße"),
    ViReadlineCase(
      "  lead trail  ", "\u{1B}$bdtiR-\u{1B}bcWab\u{1B};2d^3lc0ab\u{1B}\u{1B}", "abl  "),
    ViReadlineCase("x", "\u{1B}sX \u{1B}CX \u{1B}D^.A-\u{1B}3lP^^\u{1B}", "XX-"),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}2pEy2bwDy2w2phdts.l\u{1B}",
      "mixed_Case words, and puncttt"),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}Dhaab\u{1B}u2c5|X \u{1B}b2y2e2wP\u{1B}", "foo bar.bX bX xx"),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}iZ\u{1B}P2dfnUxy5|3l\u{1B}",
      "ixed_Case words, and punct!"),
    ViReadlineCase("one two three", "\u{1B}2pER-\u{1B}~UP2bcbZ\u{1B}3~\u{1B}", "zONe two three"),
    ViReadlineCase("one two three", "\u{1B}frd;2c,X \u{1B}uPE3lr-DxBU\u{1B}", "one two three"),
    ViReadlineCase("  lead trail  ", "\u{1B}wRZ\u{1B}0iq_r\u{1B}|P\u{1B}", "q_r  lead trail Z"),
    ViReadlineCase("x", "\u{1B}SX \u{1B}Bb~CZ\u{1B}UlctxX \u{1B}~y;\u{1B}", "X "),
    ViReadlineCase(
      "mixed_Case words, and punct!",
      "\u{1B}Sq_r\u{1B}2yb2wsX \u{1B}3liX \u{1B}uaX \u{1B}aX \u{1B}2cw-\u{1B}U2p\u{1B}",
      "m  ixed_Case words, and punct!"),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}2x3~2dF(a-\u{1B}2d$pU2xyTfrzR-\u{1B}b\u{1B}",
      "- bar.baz  qux_1 (x)"),
    ViReadlineCase("x", "\u{1B}2x~dFxDh2c^-\u{1B}2y0rz2cfx-\u{1B}U2db\u{1B}", "x"),
    ViReadlineCase("a-b c--d e", "\u{1B}iX \u{1B}2c0ab\u{1B}Rab\u{1B}uB2b\u{1B}", "ab e"),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}AX \u{1B}S-\u{1B}FcbyEPx3lp0\u{1B}", "--"),
    ViReadlineCase("foo bar.baz  qux_1 (x)", "\u{1B}s-\u{1B}~y3lc^-\u{1B}2w\u{1B}", "--"),
    ViReadlineCase("", "\u{1B}hwaab\u{1B}2dFaDweX\u{1B}", ""),
    ViReadlineCase(
      "café über straße", "\u{1B}y^2pc|Z\u{1B}PeBecBZ\u{1B}cwX \u{1B}l|\u{1B}",
      "café über straßecafé über straßcafé über X ß"),
    ViReadlineCase("one two three", "\u{1B}3lEft2w0d5|c2eZ\u{1B}2d2wpB\u{1B}", "Z"),
    ViReadlineCase(
      "one two three", "\u{1B}r-P~PT RX \u{1B}2w2xsX \u{1B}2c3lq_r\u{1B}he\u{1B}",
      "one two X reEXq_r"),
    ViReadlineCase("foo bar.baz  qux_1 (x)", "\u{1B}SZ\u{1B}d2eyyAq_r\u{1B}X2xd2bpd0\u{1B}", "r"),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}R-\u{1B}.iZ\u{1B}2p.d2e.3~dtn\u{1B}",
      "mixed_Case words, and puncT"),
    ViReadlineCase("mixed_Case words, and punct!", "\u{1B}2x5|3lbaab\u{1B}2pSZ\u{1B}\u{1B}", "Z"),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}3leRX \u{1B}f y3l\u{1B}", "foo bar.baz  qux_1 (xX "),
    ViReadlineCase("  lead trail  ", "\u{1B}h2whcWZ\u{1B}5|trBB\u{1B}", "  lead trailZ"),
    ViReadlineCase("", "\u{1B}xTad5|sab\u{1B}e3~|\u{1B}", "aB"),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}r-tz5|;sab\u{1B}by2b\u{1B}", "foo bar.babz  qux_1 (x-"),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}AZ\u{1B}bDD2wcWZ\u{1B}E\u{1B}", "foo bar.baz  qux_1 Z"),
    ViReadlineCase("x", "\u{1B}wWaq_r\u{1B}D2y5|bD2p\u{1B}", "xq_xq_"),
    ViReadlineCase(
      "  lead trail  ", "\u{1B}cfl-\u{1B}P2cWq_r\u{1B}d$aX \u{1B}~pIZ\u{1B}yw\u{1B}",
      "Z  lead trail q_X r"),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}yWy^eW5|^2bB3~2bré\u{1B}", "éOO bar.baz  qux_1 (x)"),
    ViReadlineCase(
      "café über straße",
      "\u{1B}sZ\u{1B}2chZ\u{1B}CX \u{1B}A-\u{1B}2ylsq_r\u{1B}c2bX \u{1B}Ey2b\u{1B}", "café über X r"
    ),
    ViReadlineCase(
      "café über straße", "\u{1B}fs2c,q_r\u{1B}SZ\u{1B}Sq_r\u{1B}3~2ceZ\u{1B}~\u{1B}", "q_z"),
    ViReadlineCase("  lead trail  ", "\u{1B}2xd5|0X2.uCab\u{1B}\u{1B}", "  lead trailab"),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}2cT.Z\u{1B}lsq_r\u{1B}2cbq_r\u{1B}pWcEZ\u{1B}E$yE5|\u{1B}",
      "foo barq_r.Zq_Z"),
    ViReadlineCase("x", "\u{1B}cBZ\u{1B}Sab\u{1B}2.2.fx\u{1B}", "ab"),
    ViReadlineCase(
      "  lead trail  ", "\u{1B}i-\u{1B}fa2e,sab\u{1B}2..2d2eh\u{1B}", "  lead traabab"),
    ViReadlineCase("", "\u{1B}i-\u{1B}pSab\u{1B}2c3l-\u{1B}|s-\u{1B}2edtau2b2y,\u{1B}", "a-"),
    ViReadlineCase("", "\u{1B}y^ywx2.2dhfa\u{1B}", ""),
    ViReadlineCase("", "\u{1B}aX \u{1B}2bE5|sq_r\u{1B}\u{1B}", "Xq_r"),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}dwDy2b2ytx2c|X \u{1B}2pyw\u{1B}",
      "fX oo bar.baz  qux_1 oo bar.baz  qux_1 ("),
    ViReadlineCase("x", "\u{1B}SZ\u{1B}cEX \u{1B}ye2c2bab\u{1B}yfx2ctx-\u{1B}02y,\u{1B}", "a- "),
    ViReadlineCase("", "\u{1B}0AX \u{1B}wSab\u{1B}x^2y5|X2.\u{1B}", "a"),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}yyx2dFaiq_r\u{1B}2cwZ\u{1B}X2ywr-\u{1B}", "mixed_Cq-"),
    ViReadlineCase(
      "café über straße", "\u{1B}3~2dT 2p5|c|Z\u{1B}\u{1B}", "Z Eüber straßüber straß"),
    ViReadlineCase(
      "mixed_Case words, and punct!",
      "\u{1B}Cab\u{1B}2y2bRX \u{1B}A-\u{1B}|sX \u{1B}Aq_r\u{1B}\u{1B}",
      "X ixed_Case words, and punctaX -q_r"),
    ViReadlineCase("a-b c--d e", "\u{1B}S-\u{1B}c$-\u{1B}d2wDré~\u{1B}", ""),
    ViReadlineCase(
      "  lead trail  ", "\u{1B}Rq_r\u{1B}~2b|RZ\u{1B}c3lab\u{1B}\u{1B}", "abead trail q_R"),
    ViReadlineCase("café über straße", "\u{1B}S-\u{1B}t yE^C-\u{1B}\u{1B}", "-"),
    ViReadlineCase("", "\u{1B}waab\u{1B}IX \u{1B}d3lb2yWpe\u{1B}", "XX"),
    ViReadlineCase("café über straße", "\u{1B}5|y|l2d3l2dwcf -\u{1B}p\u{1B}", "café -e"),
    ViReadlineCase(
      "one two three", "\u{1B}iq_r\u{1B}2p^Rq_r\u{1B}d5|Cq_r\u{1B}clq_r\u{1B}\u{1B}", "q_q_q_r"),
    ViReadlineCase("x", "\u{1B}ytxIq_r\u{1B}$y3l2dl\u{1B}", "q_r"),
    ViReadlineCase("  lead trail  ", "\u{1B}3~PRq_r\u{1B}c2bX \u{1B}fl.yw\u{1B}", "  X  r"),
    ViReadlineCase("foo bar.baz  qux_1 (x)", "\u{1B}ldBp2d2wXd5|B0dlUSq_r\u{1B}x\u{1B}", "q_"),
    ViReadlineCase(
      "one two three", "\u{1B}~DAZ\u{1B}WXte.iab\u{1B}Rq_r\u{1B}E;2x\u{1B}", "one two thaq_"),
    ViReadlineCase(
      "mixed_Case words, and punct!",
      "\u{1B}WXRX \u{1B}SX \u{1B}w2..IZ\u{1B}3~d3lytdSq_r\u{1B}\u{1B}", "q_r"),
    ViReadlineCase("café über straße", "\u{1B}~aZ\u{1B}PX3~S-\u{1B}DCab\u{1B}2x.\u{1B}", ""),
    ViReadlineCase(
      "x", "\u{1B}2eCab\u{1B}cBab\u{1B}aZ\u{1B}dfxcEZ\u{1B}3l3lA-\u{1B},BP\u{1B}", "ZbabZ-"),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}p|x2.RZ\u{1B}2pclX \u{1B}$h\u{1B}",
      "ZixiX d_Case words, and punct!"),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}dwluCab\u{1B}x.2d5|c5|ab\u{1B}Iq_r\u{1B}\u{1B}",
      "q_rmixeabt"),
    ViReadlineCase(
      "a-b c--d e", "\u{1B}P2cFaq_r\u{1B}2.3lsX \u{1B}iX \u{1B}c2e-\u{1B}\u{1B}", "q_q_rrXX-"),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}2xT 5|2xddde2y5|5|Rab\u{1B}ye^U\u{1B}",
      "foo bar.baz  qux_1 (x)"),
    ViReadlineCase(
      "one two three", "\u{1B}3liX \u{1B}XyTrEBhdT AZ\u{1B}P2p\u{1B}", "one  thre etwotwotwoZ"),
    ViReadlineCase(
      "  lead trail  ", "\u{1B}w^2xxx2yt cW-\u{1B}sq_r\u{1B}2wCX \u{1B}P\u{1B}", "  q_rtrail X  "),
    ViReadlineCase(
      "  lead trail  ",
      "\u{1B}i-\u{1B}Cab\u{1B}y|~2ch-\u{1B}2d5|r-2d2eaZ\u{1B}2c^X \u{1B}5|s-\u{1B}\u{1B}", "  X -"),
    ViReadlineCase("café über straße", "\u{1B}2d2wy|2w.2cFüZ\u{1B}\u{1B}", "café Zß"),
    ViReadlineCase("x", "\u{1B}2e2xUFxXiab\u{1B}lhDcWZ\u{1B}^\u{1B}", "Z"),
    ViReadlineCase("x", "\u{1B}d0a-\u{1B}d2w2x5|02ywfx2b\u{1B}", ""),
    ViReadlineCase("foo bar.baz  qux_1 (x)", "\u{1B}SZ\u{1B}2bEAZ\u{1B}B$\u{1B}", "ZZ"),
    ViReadlineCase("one two three", "\u{1B}W2cWZ\u{1B}TnIZ\u{1B}xyB\u{1B}", "one two threZ"),
    ViReadlineCase("a-b c--d e", "\u{1B}Bf |2pxEdT-\u{1B}", "ab c--d e"),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}5|^IZ\u{1B}c|Z\u{1B}|h3l\u{1B}",
      "ZZmixed_Case words, and punct!"),
    ViReadlineCase("café über straße", "\u{1B}ré03~.2x^hFrEAX \u{1B}xu\u{1B}", "CAFÉ Ür straßéX "),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}|x2xdF!c$X \u{1B}2.C-\u{1B}5|D2cbq_r\u{1B}\u{1B}",
      "q_rX"),
    ViReadlineCase("x", "\u{1B}IX \u{1B}hUA-\u{1B}uA-\u{1B}2y2e\u{1B}", "x-"),
    ViReadlineCase(
      "café über straße", "\u{1B}y2wsX \u{1B}Cab\u{1B}upp\u{1B}", "café über straßX   "),
    ViReadlineCase("a-b c--d e", "\u{1B}~~2yey3l2c5|ab\u{1B}\u{1B}", "a-b c--d abe"),
    ViReadlineCase("x", "\u{1B}yey2eiZ\u{1B}c|X \u{1B}.x2x\u{1B}", "X "),
    ViReadlineCase("a-b c--d e", "\u{1B}^3~.3l3~\u{1B}", "A-B C--d E"),
    ViReadlineCase("", "\u{1B}CX \u{1B}2c2eZ\u{1B}2xCq_r\u{1B}xU\u{1B}", ""),
    ViReadlineCase("café über straße", "\u{1B}S-\u{1B}wB2dedl$\u{1B}", ""),
    ViReadlineCase(
      "café über straße", "\u{1B}ctaX \u{1B}cwq_r\u{1B}P2.lCX \u{1B}2yb\u{1B}",
      "café über straßXq_  X "),
    ViReadlineCase(
      "  lead trail  ",
      "\u{1B}2wiab\u{1B}cfaX \u{1B}2.2wiZ\u{1B}SZ\u{1B}2ctd-\u{1B}Cab\u{1B}|\u{1B}", "ab"),
    ViReadlineCase("x", "\u{1B}5||2bDx\u{1B}", ""),
    ViReadlineCase("x", "\u{1B}x|5|2ctxq_r\u{1B}c0-\u{1B}s-\u{1B}bp\u{1B}", "--r"),
    ViReadlineCase(
      "  lead trail  ", "\u{1B}5|5|sq_r\u{1B}|.whIX \u{1B}uu3~\u{1B}", "  LEq_rd trail  "),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}f Xy5|E2y^cT!ab\u{1B}dwu^e\u{1B}",
      "mixed_Case words, and puncab!"),
    ViReadlineCase("foo bar.baz  qux_1 (x)", "\u{1B}P~2p2yy$h\u{1B}", "foo bar.baz  qux_1 (x)"),
    ViReadlineCase("  lead trail  ", "\u{1B}|epXdT 2edt 2.\u{1B}", "   trail  "),
    ViReadlineCase("", "\u{1B}Xl2y3l2pp\u{1B}", ""),
    ViReadlineCase("", "\u{1B}dhucbq_r\u{1B}2.sZ\u{1B}\u{1B}", "q_rZ"),
    ViReadlineCase("", "\u{1B}2xtaSZ\u{1B}c2bq_r\u{1B}Aq_r\u{1B}eBRZ\u{1B}3~rzP\u{1B}", "z_RZzq_r"),
    ViReadlineCase(
      "a-b c--d e", "\u{1B}2yBu2e^sX \u{1B}d|chq_r\u{1B}R-\u{1B}\u{1B}", "q_- -b c--d e"),
    ViReadlineCase(
      "one two three", "\u{1B}2yTtpPiab\u{1B}3ly2w2p\u{1B}", "one two threewo thrwo thrabeeee"),
    ViReadlineCase("", "\u{1B}2b2wdh2py^2ctaZ\u{1B}c|Z\u{1B}\u{1B}", "ZZ"),
    ViReadlineCase("x", "\u{1B}2chZ\u{1B}aZ\u{1B}X$2pfx~2d3l\u{1B}", "ZxZ"),
    ViReadlineCase("", "\u{1B}2yfaSq_r\u{1B}2dFa2b~XSX \u{1B}5|r-\u{1B}", "X-"),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}2cwX \u{1B}to.Pe3~df1\u{1B}", "foo bar.baz  qux_1 (xXX) "),
    ViReadlineCase("x", "\u{1B}PPybdlsZ\u{1B}2eP\u{1B}", "xZ"),
    ViReadlineCase("  lead trail  ", "\u{1B}2y|2b2bl^F E\u{1B}", "  lead trail  "),
    ViReadlineCase("", "\u{1B}iab\u{1B}prz05|2xclX \u{1B}2dta\u{1B}", "X "),
    ViReadlineCase(
      "x", "\u{1B}2wCab\u{1B}c3lX \u{1B}PrésX \u{1B}U^Rq_r\u{1B}2cB-\u{1B}c$q_r\u{1B}\u{1B}", "q_r"),
    ViReadlineCase("x", "\u{1B}R-\u{1B}5|IZ\u{1B}txRq_r\u{1B}D\u{1B}", "q_"),
    ViReadlineCase("", "\u{1B}XwcwX \u{1B}2pTa\u{1B}", "X "),
    ViReadlineCase(
      "café über straße", "\u{1B}cTs-\u{1B}2ctüX \u{1B}u.BPSZ\u{1B}p\u{1B}", "Zcafé über -s-X "),
    ViReadlineCase(
      "café über straße", "\u{1B}IZ\u{1B}2cTfX \u{1B}cfa-\u{1B}$d,2pCq_r\u{1B}Ua-\u{1B}d2w\u{1B}",
      "cé über straße"),
    ViReadlineCase("x", "\u{1B}hP^2cfx-\u{1B}DyE\u{1B}", ""),
    ViReadlineCase("foo bar.baz  qux_1 (x)", "\u{1B}R-\u{1B}d5|ywFo.yb2y2b\u{1B}", "foo -"),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}2wDAab\u{1B}x2.2dB\u{1B}", "mixed_Case words, t"),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}CX \u{1B}RZ\u{1B}ctiab\u{1B}2eb\u{1B}",
      "mixed_Case words, and punctXab"),
    ViReadlineCase(
      "a-b c--d e", "\u{1B}sq_r\u{1B}Cq_r\u{1B}IZ\u{1B}d$pfa\u{1B}", "Za-b c--d q_q_r"),
    ViReadlineCase("café über straße", "\u{1B}b2yleAX \u{1B}d5|de\u{1B}", "café"),
    ViReadlineCase("a-b c--d e", "\u{1B}PDPc2w-\u{1B}l~3lUU3~l\u{1B}", "A-B c--d e"),
    ViReadlineCase("", "\u{1B}ta2deP2.;y,SX \u{1B}y^2p2cEq_r\u{1B}\u{1B}", "X Xq_r"),
    ViReadlineCase("a-b c--d e", "\u{1B}tcyFb~PP$d2by2why|iZ\u{1B}x\u{1B}", "a-b c--E"),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}sX \u{1B}XeuRZ\u{1B}\u{1B}",
      "mixed_Case words, and punctXZ"),
    ViReadlineCase("  lead trail  ", "\u{1B}Trr-hcBab\u{1B};R-\u{1B}\u{1B}", "  lead a-r-il  "),
    ViReadlineCase("", "\u{1B}rzRX \u{1B}r-Ta0\u{1B}", "X-"),
    ViReadlineCase(
      "a-b c--d e", "\u{1B}2p^uSab\u{1B}Ba-\u{1B}Pfe$3~WcBX \u{1B}\u{1B}", "aa-b c--d X B"),
    ViReadlineCase("x", "\u{1B}2yfxcfxZ\u{1B}P2dBccZ\u{1B}$cwab\u{1B}2c,-\u{1B}e2e\u{1B}", "a-"),
    ViReadlineCase("", "\u{1B}y$2dEIZ\u{1B}X2yhdhUl\u{1B}", ""),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}^twRZ\u{1B}leWyBrédf,piq_r\u{1B}\u{1B}",
      "mixed_CaseZwords, éq_rand punct!"),
    ViReadlineCase("x", "\u{1B}2cBZ\u{1B}IZ\u{1B}2xBdfxD0IX \u{1B}0\u{1B}", "X "),
    ViReadlineCase("", "\u{1B}2c2eZ\u{1B}|Ep3lRZ\u{1B}rz3~yFa2ccX \u{1B}l\u{1B}", "X "),
    ViReadlineCase("a-b c--d e", "\u{1B}~Sq_r\u{1B}yeR-\u{1B}Wrz2cBab\u{1B}2dBW\u{1B}", "bz"),
    ViReadlineCase("foo bar.baz  qux_1 (x)", "\u{1B}fbw,x;\u{1B}", "foo bar.az  qux_1 (x)"),
    ViReadlineCase("x", "\u{1B}Cab\u{1B}hrzp2w2xybp.\u{1B}", "zazz"),
    ViReadlineCase(
      "café über straße", "\u{1B}2y2btßXI-\u{1B}ytr2c5|ab\u{1B}sX \u{1B}\u{1B}", "aX r strae"),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}5|TbpdFxd,3lW2bIab\u{1B}\u{1B}", "abfoo b_1 (x)"),
    ViReadlineCase("x", "\u{1B}CX \u{1B}Efx0iX \u{1B},yBB2e\u{1B}", "X X "),
    ViReadlineCase(
      "a-b c--d e", "\u{1B}ld$bc$X \u{1B}d$c3lX \u{1B}sZ\u{1B}0w2pTe\u{1B}", "a-  b c--XZ"),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}5|aX \u{1B}trR-\u{1B}u\u{1B}", "foo bX ar.baz  qux_1 (x)"),
    ViReadlineCase("x", "\u{1B}2yh2.A-\u{1B}Tx2p\u{1B}", "x-"),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}2ceab\u{1B}r-blCX \u{1B}dW0\u{1B}", "foo bar.baz  qux_1 (xX"),
    ViReadlineCase("", "\u{1B}BSX \u{1B}hc$X \u{1B}2y2bb\u{1B}", "X "),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}d2wBy|Xc2bZ\u{1B}XlaX \u{1B}\u{1B}", "foo barZ(X x"),
    ViReadlineCase(
      "one two three", "\u{1B}r-IZ\u{1B}psZ\u{1B}B2cEX \u{1B}Cab\u{1B}yT RZ\u{1B}dtedhX\u{1B}", "Z"),
    ViReadlineCase("", "\u{1B}dBdh2ppXecEZ\u{1B}00P\u{1B}", "Z"),
    ViReadlineCase("one two three", "\u{1B}wceq_r\u{1B}uc0-\u{1B}cbZ\u{1B}.X\u{1B}", "Z-e"),
    ViReadlineCase(
      "x", "\u{1B}b2dl~i-\u{1B}txc,-\u{1B}3~Eiq_r\u{1B}wc|ab\u{1B}2c2bab\u{1B}\u{1B}", "abb-"),
    ViReadlineCase("mixed_Case words, and punct!", "\u{1B}2e2d2bye2dbX2dfx\u{1B}", "!"),
    ViReadlineCase(
      "café über straße", "\u{1B}aX \u{1B}a-\u{1B}3l2w2eyy\u{1B}", "café über straßeX -"),
    ViReadlineCase("café über straße", "\u{1B}y$sZ\u{1B}P2x$\u{1B}", "café über straß"),
    ViReadlineCase("  lead trail  ", "\u{1B}c^Z\u{1B}h2eDDccab\u{1B}Tawrz2b\u{1B}", "az"),
    ViReadlineCase("", "\u{1B}2decFaZ\u{1B}SX \u{1B}^s-\u{1B},.\u{1B}", "- "),
    ViReadlineCase("a-b c--d e", "\u{1B}EdlI-\u{1B}2.h\u{1B}", "---a-b c--d "),
    ViReadlineCase(
      "one two three", "\u{1B}3~Ec5|X \u{1B}ytt2wc,X \u{1B}5|3~c3lZ\u{1B}\u{1B}", "one x xZ"),
    ViReadlineCase("foo bar.baz  qux_1 (x)", "\u{1B}Pd2eT y;A-\u{1B}SX \u{1B}d,\u{1B}", "X "),
    ViReadlineCase(
      "mixed_Case words, and punct!", "\u{1B}3ld5|2py3l3~uaX \u{1B}UB\u{1B}",
      "mixed_Case words, and punct!"),
    ViReadlineCase(
      "foo bar.baz  qux_1 (x)", "\u{1B}Pyfb02eyy~a-\u{1B}cff-\u{1B}2wc2b-\u{1B}u\u{1B}",
      "foo baR.-baz  qux_1 (x)"),
    ViReadlineCase("  lead trail  ", "\u{1B}w02ederé\u{1B}", "  lead traé"),
    ViReadlineCase(
      "café über straße", "\u{1B}2ybDb2x2eiab\u{1B}A-\u{1B}Wu\u{1B}", "café über raabß"),
  ]

  /// Where vi mode differs from readline on purpose: `expected` is
  /// filenote's line; the comment above each case says what readline
  /// gives, and why filenote does not.
  static let differences: [ViReadlineCase] = [
    // readline: "a-b c--d a-b c-- ee". Its `.` before any change types
    // again what its first insert session typed, which under `read -i` is
    // the pre-filled text; filenote's note was not typed, so `.` has
    // nothing to repeat (P with nothing to put is not remembered).
    ViReadlineCase("a-b c--d e", "\u{1B}$P.hX\u{1B}", "a-b c-- e"),
    // readline: "abcQR". Under `read -i` the pre-filled text and what the
    // first session typed are one undo group that `u` does not take back;
    // filenote's first session is an insert session like any other.
    ViReadlineCase("abc", "QR\u{1B}u", "abc"),
    // readline: "Z". Ctrl-_ in the first session takes back `read -i`'s
    // insertion of the pre-filled text; filenote's note is where undo stops.
    ViReadlineCase("abc", "\u{1F}Z", "abcZ"),
    // readline: "abc def". Its `.` after `C` types the text of the insert
    // session before the `C` (here `read -i`'s), not what `C` typed;
    // filenote repeats the `C` with its own text, as `.` after `c$` does.
    ViReadlineCase("abc def", "\u{1B}0wCXY\u{1B}0.", "XY"),
  ]
}
