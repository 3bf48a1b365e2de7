/// A nibble incident: one Fruit Nibble Bulletin (docs/schema.md "incidents").
public struct Incident: Hashable, Sendable, Identifiable {
  /// The row id in `incidents` (positive).
  public let id: Int64
  /// The nibbled fruit's id (`incidents.fruit_id`).
  public var fruitID: Int64
  /// The nibbled fruit's name, or `nil` when no fruit has ``fruitID`` (a broken reference,
  /// left by another client that deleted the fruit with foreign keys off: the incident is
  /// still shown, flagged, never hidden).
  public var fruit: String?
  /// When it happened, local time, minute precision.
  public var occurredAt: LocalDateTime
  /// The paw-size clue, or `nil` when the bulletin has none.
  public var pawSize: PawSize?
  /// Where it happened, or `nil`.
  public var location: Location?
  /// Free-text notes (may be empty or span lines).
  public var notes: String

  /// Creates an incident value (nothing is stored).
  public init(
    id: Int64, fruitID: Int64, fruit: String?, occurredAt: LocalDateTime, pawSize: PawSize?,
    location: Location?, notes: String
  ) {
    self.id = id
    self.fruitID = fruitID
    self.fruit = fruit
    self.occurredAt = occurredAt
    self.pawSize = pawSize
    self.location = location
    self.notes = notes
  }
}

/// A new incident, before it has an id.
public struct NewIncident: Sendable {
  /// The nibbled fruit's name (matched ignoring case).
  public var fruit: String
  /// When it happened.
  public var occurredAt: LocalDateTime
  /// The paw-size clue, or `nil`.
  public var pawSize: PawSize?
  /// Where, or `nil`.
  public var location: Location?
  /// Notes, at most 100,000 characters.
  public var notes: String

  /// Creates a new incident.
  public init(
    fruit: String, occurredAt: LocalDateTime, pawSize: PawSize? = nil, location: Location? = nil,
    notes: String = ""
  ) {
    self.fruit = fruit
    self.occurredAt = occurredAt
    self.pawSize = pawSize
    self.location = location
    self.notes = notes
  }
}

/// A place on Earth in degrees (WGS 84 as a phone reports it).
public struct Location: Hashable, Sendable {
  /// Latitude in degrees, -90...90 (north positive).
  public let latitude: Double
  /// Longitude in degrees, -180...180 (east positive).
  public let longitude: Double

  /// Creates a location, or returns `nil` when a coordinate is out of range or not finite.
  public init?(latitude: Double, longitude: Double) {
    guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude),
      (-180...180).contains(longitude)
    else { return nil }
    self.latitude = latitude == 0 ? 0 : latitude
    self.longitude = longitude == 0 ? 0 : longitude
  }

  /// Parses typed coordinates in plain decimal notation, the grammar every decimal option
  /// shares (`37.334371`, `-122.009558`; dot decimal, no exponent, never locale-dependent).
  ///
  /// - Throws: ``CaseError/invalidValue(field:value:expected:)`` naming the bad coordinate:
  ///   not plain decimal (`1e2`, `nan`, `1,5`) or out of range.
  public init(parsingLatitude latitude: String, longitude: String) throws {
    guard let lat = Location.number(latitude), (-90...90).contains(lat) else {
      throw CaseError.invalidValue(
        field: "latitude", value: latitude, expected: "degrees from -90 to 90")
    }
    guard let lon = Location.number(longitude), (-180...180).contains(lon) else {
      throw CaseError.invalidValue(
        field: "longitude", value: longitude, expected: "degrees from -180 to 180")
    }
    self.init(latitude: lat, longitude: lon)!
  }

  private static func number(_ text: String) -> Double? {
    DecimalText.number(text)
  }
}
