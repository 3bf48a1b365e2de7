import Testing

@testable import CommandLineKit

@Suite("Display width")
struct DisplayWidthTests {
  /// Seed-case names and emoji from README "The documented schema", plus the rule's edge cases.
  @Test(
    "string widths",
    arguments: [
      ("🐦‍⬛", 2),  // crow: U+1F426 ZWJ U+2B1B
      ("\u{1F426}\u{200D}\u{2B1B}", 2),
      ("🕊️", 2),  // dove: U+1F54A VS16
      ("\u{1F54A}\u{FE0F}", 2),
      ("\u{1F54A}", 1),  // dove without VS16 is text presentation
      ("Rénard", 6),
      ("Re\u{301}nard", 6),  // NFD
      ("猫", 2),
      ("ｱ", 1),  // halfwidth katakana
      ("ア", 2),  // fullwidth katakana
      ("Ａ", 2),  // fullwidth Latin
      ("한국", 4),
      ("🐟🐌🐈🐰🦆🐹🦔🦝", 16),
      ("🐦‍⬛ Catie", 8),
      ("🕊️ Ding", 7),
      ("Catie", 5),
      ("", 0),
      ("\u{301}", 0),  // combining acute alone
      ("\u{200B}", 0),  // zero width space
      ("\u{200D}", 0),  // ZWJ alone
      ("\u{FE0F}", 0),  // VS16 alone
      ("\u{FE0E}", 0),  // VS15 alone
      ("a\tb", 2),  // tab is a control
      ("\u{1B}", 0),
      ("⌚", 2),  // Emoji_Presentation in the BMP
      ("⌚\u{FE0E}", 1),  // forced text presentation
      ("❤", 1),  // text-default emoji
      ("❤️", 2),
      ("👍🏽", 2),  // skin tone modifier
      ("🇫🇷", 2),  // flag
      ("1️⃣", 2),  // keycap
      ("👩‍👩‍👧", 2),
      ("─", 1),  // East Asian Ambiguous counts 1
      ("é", 1),
      ("\u{1100}\u{1161}\u{11A8}", 2),  // conjoining jamo: one syllable block
    ])
  func stringWidth(text: String, expected: Int) {
    #expect(displayWidth(of: text) == expected)
  }

  @Test(
    "character widths",
    arguments: [
      (Character("🐦‍⬛"), 2),
      (Character("🕊️"), 2),
      (Character("e\u{301}"), 1),
      (Character("猫"), 2),
      (Character("ｱ"), 1),
      (Character("\u{301}"), 0),
      (Character("\r\n"), 0),
      (Character("a"), 1),
    ])
  func characterWidth(character: Character, expected: Int) {
    #expect(displayWidth(of: character) == expected)
  }

  @Test("the crow and the dove are single characters of width 2, unlike their scalar count")
  func seedEmojiAreOneGraphemeEach() {
    let crow = "🐦‍⬛"
    #expect(crow.count == 1)
    #expect(crow.unicodeScalars.count == 3)
    #expect(displayWidth(of: crow) == 2)
  }

  @Test("NFC and NFD spellings of Rénard measure the same")
  func rénardNormalisation() {
    let nfc = "R\u{E9}nard"
    let nfd = "Re\u{301}nard"
    #expect(nfc.unicodeScalars.count != nfd.unicodeScalars.count)
    #expect(displayWidth(of: nfc) == displayWidth(of: nfd))
  }
}
