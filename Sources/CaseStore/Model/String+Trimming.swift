extension String {
  /// The string without leading and trailing spaces, tabs and newlines.
  func trimmingSpaces() -> String {
    // Fast path, no grapheme breaking: a first scalar that is not whitespace starts a first
    // character that is not, and a last scalar that is ASCII and not whitespace ends a last
    // character that starts with it (or with a prepended mark, never whitespace).
    if let first = unicodeScalars.first, let last = unicodeScalars.last, last.isASCII,
      !first.properties.isWhitespace, !last.properties.isWhitespace
    {
      return self
    }
    let isSpace: (Character) -> Bool = { $0.isWhitespace }
    guard let first = firstIndex(where: { !isSpace($0) }),
      let last = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(self[first...last])
  }
}
