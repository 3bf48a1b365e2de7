/// Numbers typed by a person: ASCII digits, a dot as the only decimal separator, an optional
/// sign and (where allowed) an exponent, whatever the process locale (SPEC.md section 4).
enum DecimalText {
  /// The finite value of `text`, or `nil` for anything else (`0,5`, `inf`, `nan`, `1e309`,
  /// hex floats, spaces, the empty string).
  ///
  /// - Parameter allowingExponent: Accept `e`/`E` (`1e-1`).
  static func finiteNumber(_ text: String, allowingExponent: Bool) -> Double? {
    let allowed = text.utf8.allSatisfy { byte in
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
        || (allowingExponent && (byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")))
    }
    guard allowed, !text.isEmpty, let value = Double(text), value.isFinite else { return nil }
    return value
  }
}
