/// The one grammar for every decimal number a person types (the suspicion level, `--lat`,
/// `--lon`): plain decimal notation, the same whatever the process locale.
///
/// Grammar: an optional sign (`+` or `-`), then ASCII digits with an optional fraction after a
/// dot (`1`, `0.5`, `-122.009558`, `1.`), or a dot and digits (`.5`). Nothing else: no
/// exponent (`5e-1`), no hex (`0x1p-1`), no `inf` or `nan`, no comma, no spaces, no other
/// digits than ASCII. The value is the nearest `Double`; a fraction too small to represent
/// rounds to 0 like any other rounding.
enum DecimalText {
  /// The value of `text` when it is in plain decimal notation, or `nil` for anything else
  /// (`5e-1`, `1e-400`, `0,5`, `inf`, `nan`, `0x1p-1`, ` 1`, `.`, `-`, the empty string).
  static func number(_ text: String) -> Double? {
    var bytes = Substring(text).utf8[...]
    if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
      bytes = bytes.dropFirst()
    }
    let isDigit: (UInt8) -> Bool = { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    let whole = bytes.prefix(while: isDigit)
    bytes = bytes.dropFirst(whole.count)
    var fraction = bytes.prefix(0)
    if bytes.first == UInt8(ascii: ".") {
      bytes = bytes.dropFirst()
      fraction = bytes.prefix(while: isDigit)
      bytes = bytes.dropFirst(fraction.count)
    }
    guard bytes.isEmpty, !whole.isEmpty || !fraction.isEmpty,
      let value = Double(text), value.isFinite
    else { return nil }
    return value
  }
}
