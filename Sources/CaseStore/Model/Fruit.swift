/// A fruit that suspects may favour and incidents may concern (docs/schema.md "fruits").
public struct Fruit: Hashable, Sendable, Identifiable {
  /// The row id in `fruits` (positive).
  public let id: Int64
  /// The name, unique ignoring case, e.g. `Pink Pearl Apple`.
  public var name: String
  /// A named colour in lowercase (`red`, `light green`) or `#RRGGBB`.
  public var color: String

  /// Creates a fruit value (nothing is stored).
  public init(id: Int64, name: String, color: String) {
    self.id = id
    self.name = name
    self.color = color
  }

  /// Validates and normalizes a colour: a name of letters, spaces and hyphens (1-40 characters,
  /// lowercased: `Red` becomes `red`) or `#RRGGBB` (hex digits kept as typed).
  ///
  /// - Throws: ``CaseError/invalidValue(field:value:expected:)`` for anything else.
  public static func normalizedColor(_ text: String) throws -> String {
    let trimmed = text.trimmingSpaces()
    let bytes = Array(trimmed.utf8)
    let isHex: (UInt8) -> Bool = {
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
        || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains($0)
    }
    if bytes.count == 7, bytes[0] == UInt8(ascii: "#"), bytes.dropFirst().allSatisfy(isHex) {
      return trimmed
    }
    let lower = trimmed.lowercased()
    let isNameByte: (UInt8) -> Bool = {
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || $0 == UInt8(ascii: " ")
        || $0 == UInt8(ascii: "-")
    }
    let lowerBytes = Array(lower.utf8)
    if (1...40).contains(lowerBytes.count), lowerBytes.allSatisfy(isNameByte),
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(lowerBytes[0])
    {
      return lower
    }
    throw CaseError.invalidValue(
      field: "colour", value: text, expected: "a colour name such as red, or #RRGGBB")
  }
}
