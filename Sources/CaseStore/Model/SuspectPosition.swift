import Foundation

/// Where a page of a suspect listing ended: the order's key values of its last suspect, from
/// which the next page starts (keyset paging, docs/web-desk.md "API"). Unlike an offset, a
/// position stays right while suspects are added or removed before it, and the next page is
/// found by an index seek, however deep in the listing.
///
/// Its text form (``cursor``) is opaque to clients: URL-safe base64 of a small JSON object
/// holding the order it belongs to and the key values.
public struct SuspectPosition: Sendable, Equatable, Codable {
  // MARK: - Properties

  /// The order the position belongs to.
  public var sort: SuspectSort
  /// Whether that order is reversed.
  public var reverse: Bool
  /// The suspect's stored suspicion level (`animals.suspicion_level`).
  public var level: Double
  /// The suspect's name key (`animals.name_key`).
  public var nameKey: String
  /// The suspect's species key (`animals.species_key`).
  public var speciesKey: String
  /// The suspect's id.
  public var id: Int64
  /// In the fruits order (``SuspectSort/fruits``): the stored name key (`fruits.name_key`) of
  /// the suspect's first favourite fruit, `nil` for a suspect without favourites (and in the
  /// other orders).
  public var fruitKey: String?
  /// In the fruits order: the id of the suspect's first favourite fruit, `nil` for a suspect
  /// without favourites (and in the other orders).
  public var fruitID: Int64?

  // MARK: - Init

  /// A position from its parts; `fruitKey` and `fruitID` only in the fruits order, for a
  /// suspect with a favourite.
  public init(
    sort: SuspectSort, reverse: Bool, level: Double, nameKey: String, speciesKey: String,
    id: Int64, fruitKey: String? = nil, fruitID: Int64? = nil
  ) {
    self.sort = sort
    self.reverse = reverse
    self.level = level
    self.nameKey = nameKey
    self.speciesKey = speciesKey
    self.id = id
    self.fruitKey = fruitKey
    self.fruitID = fruitID
  }

  /// The position a ``cursor`` names, or `nil` for text that no cursor has (a cursor is
  /// opaque, so it is refused as a whole, never read in part).
  public init?(cursor: String) {
    var base64 = cursor.replacingOccurrences(of: "-", with: "+")
      .replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    guard let data = Data(base64Encoded: base64),
      let position = try? JSONDecoder().decode(Self.self, from: data)
    else { return nil }
    self = position
  }

  // MARK: - Public API

  /// The opaque text form: URL-safe base64 without padding of the position's JSON object
  /// (its keys sorted, as `JSONEncoder` with `.sortedKeys` writes them, `fruitID` and
  /// `fruitKey` left out when `nil`; ``init(cursor:)`` decodes it with `JSONDecoder`).
  ///
  /// Written by hand rather than with `JSONEncoder`: every page of the desk makes one, and the
  /// encoder and Foundation's string replacing cost a sixth of a page of 50's time.
  public var cursor: String {
    guard level.isFinite else { return Self.encodedCursor(self) }
    var json: [UInt8] = []
    json.reserveCapacity(
      128 + nameKey.utf8.count + speciesKey.utf8.count + (fruitKey?.utf8.count ?? 0))
    json.append(UInt8(ascii: "{"))
    if let fruitID { json += Array("\"fruitID\":\(fruitID),".utf8) }
    if let fruitKey {
      json += Array("\"fruitKey\":".utf8)
      Self.appendJSONString(fruitKey, to: &json)
      json.append(UInt8(ascii: ","))
    }
    json += Array("\"id\":\(id),\"level\":\(level),\"nameKey\":".utf8)
    Self.appendJSONString(nameKey, to: &json)
    json += Array(",\"reverse\":\(reverse),\"sort\":".utf8)
    Self.appendJSONString(sort.rawValue, to: &json)
    json += Array(",\"speciesKey\":".utf8)
    Self.appendJSONString(speciesKey, to: &json)
    json.append(UInt8(ascii: "}"))
    return Self.base64URL(json)
  }

  // MARK: - Private helpers

  /// The cursor as `JSONEncoder` writes it (a level that is not a finite number, which no
  /// stored level is).
  private static func encodedCursor(_ position: SuspectPosition) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = (try? encoder.encode(position)) ?? Data()
    return base64URL(Array(data))
  }

  /// Appends `text` as a JSON string: quoted, with `"`, `\\` and control characters escaped.
  private static func appendJSONString(_ text: String, to json: inout [UInt8]) {
    json.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"):
        json += [UInt8(ascii: "\\"), byte]
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        json += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0f)]]
      default:
        json.append(byte)
      }
    }
    json.append(UInt8(ascii: "\""))
  }

  /// `bytes` in URL-safe base64 (`-` and `_` for `+` and `/`), without padding.
  private static func base64URL(_ bytes: [UInt8]) -> String {
    let alphabet = Array(
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    var text: [UInt8] = []
    text.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index < bytes.count {
      let count = min(3, bytes.count - index)
      var group = UInt32(bytes[index]) << 16
      if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
      if count > 2 { group |= UInt32(bytes[index + 2]) }
      for sextet in 0...count {
        text.append(alphabet[Int((group >> UInt32(18 - 6 * sextet)) & 0x3f)])
      }
      index += 3
    }
    return String(decoding: text, as: UTF8.self)
  }
}

/// A sort is stored in a cursor by its raw value (`level`, `name`, `species`, `id`, `fruits`).
extension SuspectSort: Codable {}
