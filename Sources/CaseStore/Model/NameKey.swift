import Foundation

/// The folded keys stored beside names, for case-insensitive uniqueness and look-ups.
///
/// `animals.species_key` and `fruits.name_key` hold ``caseKey(_:)``; `animals.name_key` holds
/// ``sortKey(_:)``, which also orders the ranking's ties (docs/ranking.md). Both are NFC, so
/// `Rénard` typed precomposed or decomposed folds the same. For text beyond ASCII the schema
/// stores beside each key the text it was folded from (``foldedFrom(_:)``, docs/schema.md
/// "Folded keys").
///
/// ASCII text (most names) takes a fast path that lowercases `A`-`Z` and gives the same key as
/// Foundation's folding, which costs microseconds per call and is kept for all other text.
/// Package access: the benchmark's hand-written baseline folds keys with the same functions.
package enum NameKey {
  /// Case-folded (Unicode, not only A-Z) and NFC-normalized: `RÉNARD` and `rénard` agree.
  package static func caseKey(_ text: String) -> String {
    if let key = asciiKey(text) { return key }
    return text.folding(options: [.caseInsensitive], locale: nil)
      .precomposedStringWithCanonicalMapping
  }

  /// Case- and accent-folded, NFC-normalized: `Rénard`, `RENARD` and `renard` agree.
  package static func sortKey(_ text: String) -> String {
    if let key = asciiKey(text) { return key }
    return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
      .precomposedStringWithCanonicalMapping
  }

  /// `true` when every byte of `text` is printable ASCII (space to `~`): text that Unicode
  /// folding leaves as `lower()` does (the search index's fast path; the keys' own rule is
  /// ``foldedFrom(_:)``).
  static func isPlainASCII(_ text: String) -> Bool {
    text.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
  }

  /// What inspector stores in a key's `*_folded_from` column beside the key it folded from
  /// `text`: `nil` for ASCII text without NUL, whose key SQL's `lower()` gives exactly (the
  /// schema's triggers keep it so), else `text` itself, which vouches for the key as long as
  /// the text stays as it is (`migrations/0012_folded_from.sql`; the schema tells the two apart
  /// as `length(CAST(text AS BLOB)) > length(text)`).
  package static func foldedFrom(_ text: String) -> String? {
    text.utf8.allSatisfy { $0 != 0 && $0 < 0x80 } ? nil : text
  }

  /// Both keys of ASCII-only text (every byte below 0x80): `A`-`Z` lowercased, all else as is,
  /// which is what Unicode case folding, accent folding and NFC do to ASCII. `nil` for other
  /// text.
  static func asciiKey(_ text: String) -> String? {
    var hasUppercase = false
    for byte in text.utf8 {
      if byte >= 0x80 { return nil }
      if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { hasUppercase = true }
    }
    guard hasUppercase else { return text }
    let count = text.utf8.count
    return String(unsafeUninitializedCapacity: count) { buffer in
      for (offset, byte) in text.utf8.enumerated() {
        let isUppercase = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
        buffer[offset] = isUppercase ? byte | 0x20 : byte
      }
      return count
    }
  }
}
