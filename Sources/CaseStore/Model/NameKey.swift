import Foundation

/// The folded keys stored beside names, for case-insensitive uniqueness and look-ups.
///
/// `animals.species_key` and `fruits.name_key` hold ``caseKey(_:)``; `animals.name_key` holds
/// ``sortKey(_:)``, which also orders the ranking's ties (SPEC.md section 5). Both are NFC, so
/// `Rénard` typed precomposed or decomposed folds the same.
enum NameKey {
  /// Case-folded (Unicode, not only A-Z) and NFC-normalized: `RÉNARD` and `rénard` agree.
  static func caseKey(_ text: String) -> String {
    text.folding(options: [.caseInsensitive], locale: nil)
      .precomposedStringWithCanonicalMapping
  }

  /// Case- and accent-folded, NFC-normalized: `Rénard`, `RENARD` and `renard` agree.
  static func sortKey(_ text: String) -> String {
    text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
      .precomposedStringWithCanonicalMapping
  }
}
