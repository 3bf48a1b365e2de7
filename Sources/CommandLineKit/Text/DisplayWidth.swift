// Display width of text in a terminal's monospaced grid, for aligning tables
// (docs/output-formats.md "table"). Pure standard library: no locale, no `wcwidth`.

/// Returns the number of terminal columns that `character` occupies.
///
/// A `Character` is one extended grapheme cluster; a terminal draws it as one
/// glyph, so its width is the widest rule any of its scalars triggers:
///
/// - 2 for emoji: any scalar with `Emoji_Presentation=yes` (🐟 🐌 🐈 🐰 🦆 🐹 🦔 🦝,
///   flags, skin tones), any cluster holding VS16 (U+FE0F, "🕊️"), and any ZWJ
///   sequence of emoji ("🐦‍⬛"). A cluster holding VS15 (U+FE0E, text
///   presentation) and no VS16 ignores the emoji-presentation rule.
/// - 2 for East Asian Wide and Fullwidth scalars (CJK ideographs, kana, Hangul
///   syllables, fullwidth forms such as "Ａ"); halfwidth forms such as "ｱ" are 1.
/// - 0 for scalars that draw nothing on their own: combining marks (Mn, Me,
///   such as U+0301), format characters (Cf: ZWJ, ZWNJ, U+200B, BOM),
///   variation selectors, Hangul medial and final jamo, and controls (Cc).
/// - 1 for everything else, including East Asian Ambiguous characters such as
///   "─" (as in Western-locale terminals).
///
/// So "é" is 1 whether written precomposed (U+00E9) or decomposed
/// ("e\u{301}"), and a lone combining mark is 0.
///
/// - Parameter character: One grapheme cluster.
/// - Returns: 0, 1 or 2.
public func displayWidth(of character: Character) -> Int {
  let scalars = character.unicodeScalars
  if scalars.count == 1, let only = scalars.first {
    return scalarWidth(only, textPresentation: false)
  }
  var hasVS15 = false
  var hasZWJ = false
  var hasEmoji = false
  for scalar in scalars {
    switch scalar.value {
    case 0xFE0F: return 2
    case 0xFE0E: hasVS15 = true
    case 0x200D: hasZWJ = true
    default: if scalar.properties.isEmoji && scalar.value > 0xFF { hasEmoji = true }
    }
  }
  if hasZWJ && hasEmoji && !hasVS15 { return 2 }
  var width = 0
  for scalar in scalars {
    width = max(width, scalarWidth(scalar, textPresentation: hasVS15))
    if width == 2 { break }
  }
  return width
}

/// Returns the number of terminal columns that `string` occupies.
///
/// The sum of ``displayWidth(of:)-(Character)`` over the string's grapheme
/// clusters, so "🐦‍⬛" is 2, "Rénard" is 6 in both NFC and NFD, and "猫" is 2.
/// Use it, never `String.count`, to pad table cells. Newlines and tabs count 0
/// (they are controls): replace them before measuring text meant for one line.
///
/// - Parameter string: Any text; ANSI escape sequences are not recognised, so
///   measure text before styling it.
/// - Returns: The width in columns, 0 for the empty string.
public func displayWidth(of string: String) -> Int {
  if let width = simpleWidth(of: string) { return width }
  var width = 0
  for character in string {
    width += displayWidth(of: character)
  }
  return width
}

/// The width of text made only of scalars that are one column each and each their own
/// grapheme cluster (see `isSimpleScalar(_:)`), counted without grapheme breaking; `nil` for
/// any other text.
public func simpleWidth(of string: String) -> Int? {
  var width = 0
  var allPrintableASCII = true
  for byte in string.utf8 {
    guard byte >= 0x20 && byte < 0x7F else {
      allPrintableASCII = false
      break
    }
    width += 1
  }
  if allPrintableASCII { return width }
  width = 0
  for scalar in string.unicodeScalars {
    guard isSimpleScalar(scalar.value) else { return nil }
    width += 1
  }
  return width
}

// MARK: - Private helpers

/// Printable ASCII; Latin-1, Latin Extended-A and -B and IPA letters (U+00A0 to U+02AF, but
/// not the soft hyphen U+00AD, a format character); the dashes, quotes, bullets and ellipsis of
/// U+2010 to U+2027; box drawing and block elements (U+2500 to U+259F, the table's rule and
/// the suspicion bar). None of them is a combining mark, an emoji, East Asian Wide, or joins
/// a grapheme cluster with a neighbour that is also in this set, so each is one column.
private func isSimpleScalar(_ value: UInt32) -> Bool {
  switch value {
  case 0x20..<0x7F, 0xA0..<0xAD, 0xAE..<0x2B0, 0x2010...0x2027, 0x2500...0x259F: true
  default: false
  }
}

/// Width of one scalar on its own; `textPresentation` disables the emoji rule (VS15 seen).
private func scalarWidth(_ scalar: Unicode.Scalar, textPresentation: Bool) -> Int {
  let value = scalar.value
  if value >= 0x20 && value < 0x7F { return 1 }
  if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
  let properties = scalar.properties
  switch properties.generalCategory {
  case .nonspacingMark, .enclosingMark, .format, .control:
    return 0
  default:
    break
  }
  if isZeroWidthJamo(value) { return 0 }
  if !textPresentation && properties.isEmojiPresentation { return 2 }
  return isEastAsianWide(value) ? 2 : 1
}

/// Hangul Jungseong and Jongseong (medial vowels and final consonants): they join the
/// preceding initial consonant into one wide syllable block and take no column themselves.
private func isZeroWidthJamo(_ value: UInt32) -> Bool {
  (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value)
}

/// East Asian Width W or F (Unicode UAX #11), as ranges; emoji are handled separately.
private func isEastAsianWide(_ value: UInt32) -> Bool {
  if value < 0x1100 { return false }
  for range in eastAsianWideRanges where range.contains(value) {
    return true
  }
  return false
}

/// Wide and Fullwidth blocks from EastAsianWidth.txt, coarsened to whole blocks where every
/// assigned code point is W or F.
private let eastAsianWideRanges: [ClosedRange<UInt32>] = [
  0x1100...0x115F,  // Hangul Jamo initial consonants
  0x2E80...0x303E,  // CJK radicals, Kangxi radicals, ideographic description, CJK punctuation
  0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility jamo, Kanbun, CJK compat
  0x3400...0x4DBF,  // CJK Unified Ideographs Extension A
  0x4E00...0x9FFF,  // CJK Unified Ideographs
  0xA000...0xA4CF,  // Yi syllables and radicals
  0xA960...0xA97F,  // Hangul Jamo Extended-A
  0xAC00...0xD7A3,  // Hangul syllables
  0xF900...0xFAFF,  // CJK Compatibility Ideographs
  0xFE10...0xFE19,  // Vertical forms
  0xFE30...0xFE6F,  // CJK Compatibility Forms, Small Form Variants
  0xFF00...0xFF60,  // Fullwidth ASCII variants and brackets
  0xFFE0...0xFFE6,  // Fullwidth signs
  0x16FE0...0x16FE4,  // Ideographic symbols
  0x17000...0x18CFF,  // Tangut, Khitan
  0x1AFF0...0x1B2FF,  // Kana extended and supplements, Nushu
  0x1F200...0x1F2FF,  // Enclosed Ideographic Supplement
  0x20000...0x2FFFD,  // CJK Extensions B to F, compatibility supplement
  0x30000...0x3FFFD,  // CJK Extensions G and H
]

/// Remembers the display width of texts that need grapheme breaking to measure, so that a
/// streamed table measures each distinct cell once (the suspect column's emoji and names repeat
/// page after page); other texts are measured directly, which is as fast as a look-up.
///
/// Holds at most ``capacity`` texts; once full it starts again, so memory stays bounded
/// however many rows are written.
public final class DisplayWidthCache {
  /// The most texts remembered at once.
  public static let capacity = 4096
  private var widths: [String: Int] = [:]

  /// An empty cache.
  public init() {}

  /// ``displayWidth(of:)-(String)`` of `text`.
  public func width(of text: String) -> Int {
    if let width = simpleWidth(of: text) { return width }
    if let width = widths[text] { return width }
    let width = displayWidth(of: text)
    if widths.count >= Self.capacity { widths.removeAll(keepingCapacity: true) }
    widths[text] = width
    return width
  }
}
