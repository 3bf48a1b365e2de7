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

  // MARK: - Init

  /// A position from its parts.
  public init(
    sort: SuspectSort, reverse: Bool, level: Double, nameKey: String, speciesKey: String,
    id: Int64
  ) {
    self.sort = sort
    self.reverse = reverse
    self.level = level
    self.nameKey = nameKey
    self.speciesKey = speciesKey
    self.id = id
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

  /// The opaque text form: URL-safe base64 without padding.
  public var cursor: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = (try? encoder.encode(self)) ?? Data()
    return data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
  }
}

/// A sort is stored in a cursor by its raw value (`level`, `name`, `species`, `id`).
extension SuspectSort: Codable {}
