/// Text as the search index holds it and queries look for it (docs/search.md "What matches"):
/// folded as names are (``NameKey/sortKey(_:)``: case, accents, `ß` to `ss`, Greek final
/// sigma), one character at a time, with every CJK character set apart as a word of its own, so
/// that FTS5's `unicode61` tokenizer finds a word inside Japanese or Chinese text (`東京` in
/// `昨日は東京にいました`) as a phrase of one-character words.
///
/// Folding keeps, for each Unicode scalar of the folded text, the index of the character of the
/// original it came from, so that what FTS5's `highlight()` marks in the folded text is marked
/// in the original (``marked(_:highlighted:open:close:)``).
struct SearchText {
  // MARK: - Properties

  /// The characters of the original text.
  let original: [Character]
  /// The folded text the index holds.
  let folded: String
  /// For each Unicode scalar of ``folded``, the index in ``original`` it comes from.
  let origins: [Int]

  /// What `highlight()` is asked to put before a match (a noncharacter, never in folded text).
  static let openMark = Unicode.Scalar(UInt32(0xFDD0))!
  /// What `highlight()` is asked to put after a match.
  static let closeMark = Unicode.Scalar(UInt32(0xFDD1))!

  // MARK: - Init

  /// Folds `text`.
  init(_ text: String) {
    original = Array(text)
    var scalars = String.UnicodeScalarView()
    var origins: [Int] = []
    origins.reserveCapacity(original.count)
    for (index, character) in original.enumerated() {
      let piece = Self.fold(character)
      for scalar in piece.unicodeScalars {
        scalars.append(scalar)
        origins.append(index)
      }
    }
    folded = String(scalars)
    self.origins = origins
  }

  // MARK: - Public API

  /// `text` folded for the index (see the type's summary).
  static func folded(_ text: String) -> String {
    if NameKey.isPlainASCII(text), let key = NameKey.asciiKey(text) { return key }
    return SearchText(text).folded
  }

  /// The original text with each match marked: `highlighted` is FTS5's `highlight()` of
  /// ``folded`` with ``openMark`` and ``closeMark``. With `window`, a text of more words is
  /// cut to about that many words around the first match, `…` where it is cut.
  ///
  /// - Returns: `nil` when `highlighted` is not ``folded`` with marks (an index older than
  ///   the text).
  func marked(
    _ highlighted: String, open: String, close: String, window: Int? = nil
  ) -> String? {
    // Which span of matched words each character belongs to (-1: none).
    var span = [Int](repeating: -1, count: original.count)
    var position = 0
    var spans = 0
    var openedAt: Int?
    let foldedScalars = Array(folded.unicodeScalars)
    for scalar in highlighted.unicodeScalars {
      if scalar == Self.openMark {
        openedAt = position < origins.count ? origins[position] : original.count
      } else if scalar == Self.closeMark {
        if let start = openedAt, position > 0, start <= origins[position - 1] {
          for index in start...origins[position - 1] { span[index] = spans }
          spans += 1
        }
        openedAt = nil
      } else {
        guard position < foldedScalars.count, foldedScalars[position] == scalar else { return nil }
        position += 1
      }
    }
    guard position == foldedScalars.count else { return nil }
    var range = 0..<original.count
    var cutBefore = false
    var cutAfter = false
    if let window, let first = span.firstIndex(where: { $0 >= 0 }) {
      let starts = original.indices.filter { index in
        !original[index].isWhitespace && (index == 0 || original[index - 1].isWhitespace)
      }
      if starts.count > window {
        // Starts of words that do not begin inside a match.
        let cuts = starts.filter { $0 == 0 || span[$0 - 1] < 0 }
        let firstWord = starts.lastIndex(where: { $0 <= first }) ?? 0
        let lower = cuts.last(where: { $0 <= starts[max(0, firstWord - 3)] }) ?? 0
        let lowerWord = starts.firstIndex(of: lower) ?? 0
        let upperWord = lowerWord + window
        let upper =
          upperWord < starts.count
          ? cuts.first(where: { $0 >= starts[upperWord] }) ?? original.count : original.count
        var end = upper
        while end > lower, original[end - 1].isWhitespace { end -= 1 }
        range = lower..<end
        cutBefore = lower > 0
        cutAfter = upper < original.count
      }
    }
    var result = cutBefore ? "…" : ""
    for index in range {
      if span[index] >= 0, index == range.lowerBound || span[index - 1] != span[index] {
        result += open
      }
      result.append(original[index])
      if span[index] >= 0, index + 1 == range.upperBound || span[index + 1] != span[index] {
        result += close
      }
    }
    return result + (cutAfter ? "…" : "")
  }

  /// An FTS5 query with every string and bareword folded as the index is (CJK text becomes a
  /// phrase of one-character words); the operators `AND`, `OR`, `NOT` and `NEAR`, and all
  /// punctuation, are kept as they are.
  static func foldedQuery(_ query: String) -> String {
    var result = ""
    let scalars = Array(query.unicodeScalars)
    var index = 0
    func isBareword(_ scalar: Unicode.Scalar) -> Bool {
      scalar.value >= 0x80 || scalar == "_" || scalar.properties.isAlphabetic
        || ("0"..."9").contains(scalar)
    }
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "\"" {
        // A string: up to the closing quote; "" is a quote inside it.
        var text = String.UnicodeScalarView()
        index += 1
        while index < scalars.count {
          if scalars[index] == "\"" {
            if index + 1 < scalars.count, scalars[index + 1] == "\"" {
              text.append("\"")
              index += 2
              continue
            }
            break
          }
          text.append(scalars[index])
          index += 1
        }
        let closed = index < scalars.count
        index += 1
        result += quoted(folded(String(text)), closed: closed)
      } else if isBareword(scalar) {
        var word = String.UnicodeScalarView()
        while index < scalars.count, isBareword(scalars[index]) {
          word.append(scalars[index])
          index += 1
        }
        let text = String(word)
        if ["AND", "OR", "NOT", "NEAR"].contains(text) {
          result += text
        } else {
          let key = folded(text)
          result += key.unicodeScalars.allSatisfy(isBareword) ? key : quoted(key, closed: true)
        }
      } else {
        result.unicodeScalars.append(scalar)
        index += 1
      }
    }
    return result
  }

  /// `text` as an FTS5 string (inner quotes doubled); without the closing quote when the query
  /// had none, so that FTS5 still reports the syntax error.
  static func quoted(_ text: String, closed: Bool) -> String {
    "\"" + text.replacingAll("\"", with: "\"\"") + (closed ? "\"" : "")
  }

  // MARK: - Private helpers

  /// One character folded: ASCII lowercased, the marks of `highlight()` and control characters
  /// made spaces, anything else ``NameKey/sortKey(_:)``, and a CJK character (composed or not)
  /// set apart by spaces.
  private static func fold(_ character: Character) -> String {
    let scalars = character.unicodeScalars
    if let scalar = scalars.first, scalars.count == 1 {
      if scalar.value < 0x20 || scalar.value == 0x7F || scalar == openMark || scalar == closeMark {
        return " "
      }
      if scalar.isASCII {
        let isUppercase = scalar.value >= 0x41 && scalar.value <= 0x5A
        return isUppercase
          ? String(Character(Unicode.Scalar(scalar.value | 0x20)!)) : String(character)
      }
    }
    // Folded first: a Hangul syllable stored decomposed (its jamo as two or three scalars)
    // becomes the one precomposed scalar that is set apart like the others.
    let key = NameKey.sortKey(String(character))
    let folded = key.unicodeScalars
    if let scalar = folded.first, folded.count == 1, isCJK(scalar) { return " " + key + " " }
    return key
  }

  /// Han ideographs, kana and Hangul syllables: scripts written without spaces between words
  /// (Hangul with spaces, but with particles joined to the word).
  private static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF,
      0xF900...0xFAFF, 0xFF66...0xFF9F, 0x20000...0x3FFFF:
      true
    default: false
    }
  }
}

extension String {
  /// Every occurrence of `target` replaced by `replacement` (without Foundation).
  fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
    var result = ""
    for character in self {
      if character == target { result += replacement } else { result.append(character) }
    }
    return result
  }
}
