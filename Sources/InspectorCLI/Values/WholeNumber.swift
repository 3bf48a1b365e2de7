/// What the whole-number values (``PositiveCount``, ``Milliseconds``, ``MigrationVersion``)
/// say about a number that does not fit.
enum WholeNumber {
  /// "too large, at most 9223372036854775807" when `text` is a whole number (ASCII digits after
  /// an optional `+`) beyond `Int.max`; `nil` for anything else, which the type's own reason
  /// describes.
  ///
  /// - Parameter text: The rejected value as given.
  /// - Returns: The reason, or `nil`.
  static func tooLargeReason(_ text: String) -> String? {
    let digits = text.hasPrefix("+") ? text.dropFirst() : Substring(text)
    guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
      Int(digits) == nil
    else { return nil }
    return "too large, at most \(Int.max)"
  }
}
