import Foundation
import SQLiteKit
import Testing

@testable import CaseStore

@Suite struct IncidentTests {
  let database: CaseDatabase

  init() throws {
    database = try seededDatabase(
      on: LocalDateTime(year: 2026, month: 3, day: 1, time: ClockTime(hour: 18, minute: 5)!)!)
  }

  @Test func seedBulletinIsStoredExactly() throws {
    let incidents = try database.read { try $0.incidents.all() }
    #expect(incidents.count == 1)
    let bulletin = try #require(incidents.first)
    #expect(bulletin.fruit == "Pink Pearl Apple")
    #expect(bulletin.occurredAt.description == "2026-03-01T09:41")
    #expect(bulletin.pawSize == .large)
    #expect(bulletin.location == Location(latitude: 37.334371, longitude: -122.009558))
    #expect(bulletin.notes.contains("seeds"))
    let row = try database.connection.prepare(
      "SELECT occurred_at, paw_size, latitude, longitude FROM incidents")
    #expect(try row.step())
    #expect(
      row.row() == [
        .text("2026-03-01T09:41"), .text("large"), .real(37.334371), .real(-122.009558),
      ])
  }

  @Test func addFindAndLatest() throws {
    let added = try database.write(nil) {
      try $0.incidents.add(
        NewIncident(
          fruit: "elstar apple", occurredAt: try LocalDateTime(parsing: "2026-03-02T23:30"),
          pawSize: .small, location: Location(latitude: -33.9, longitude: 151.2),
          notes: "Bite marks;\n'quoted' \"too\""))
    }
    #expect(added.fruit == "Elstar Apple")
    #expect(try database.read { try $0.incidents.find(id: added.id) } == added)
    #expect(try database.read { try $0.incidents.find("\(added.id)") } == added)
    #expect(try database.read { try $0.incidents.latest() } == added)
    #expect(try database.read { try $0.incidents.all().map(\.id) } == [1, added.id])
  }

  @Test func unknownFruitOrIncidentStoresNothing() throws {
    #expect(throws: CaseError.unknownFruit("Kiwi")) {
      try database.write(nil) {
        try $0.incidents.add(
          NewIncident(fruit: "Kiwi", occurredAt: try LocalDateTime(parsing: "2026-03-02T10:00")))
      }
    }
    #expect(try database.read { try $0.incidents.count() } == 1)
    for reference in ["99", "0", "-1", "x", "9223372036854775808"] {
      #expect(throws: CaseError.unknownIncident(reference)) {
        try database.read { try $0.incidents.find(reference) }
      }
    }
  }

  @Test func nibbledFruitCannotBeRemoved() throws {
    try database.write(nil) {
      try $0.suspects.removeFavorite(
        id: try $0.suspects.resolve("crow"), fruit: "Pink Pearl Apple")
    }
    try database.write(nil) {
      try $0.suspects.removeFavorite(
        id: try $0.suspects.resolve("dove"), fruit: "Pink Pearl Apple")
    }
    #expect(throws: CaseError.fruitInUse("Pink Pearl Apple", by: ["incident 1"])) {
      try database.write(nil) { try $0.fruits.remove("pink pearl apple") }
    }
    #expect(try database.read { try $0.fruits.all().count } == 19)
  }

  @Test func schemaRefusesBadIncidentsWrittenBySQL() throws {
    let bad = [
      "(1, '2026-02-30T10:00', NULL, NULL, NULL)", "(1, '2026-03-01T24:00', NULL, NULL, NULL)",
      "(1, '2026-3-01T10:00', NULL, NULL, NULL)", "(1, '2026-03-01T10:00', 'huge', NULL, NULL)",
      "(1, '2026-03-01T10:00', NULL, 91.0, 0.0)", "(1, '2026-03-01T10:00', NULL, 0.0, -180.5)",
      "(1, '2026-03-01T10:00', NULL, 1.0, NULL)", "(999, '2026-03-01T10:00', NULL, NULL, NULL)",
    ]
    for values in bad {
      #expect(throws: SQLiteError.self, "\(values)") {
        try database.connection.execute(
          "INSERT INTO incidents (fruit_id, occurred_at, paw_size, latitude, longitude) VALUES "
            + values)
      }
    }
    #expect(try database.read { try $0.incidents.count() } == 1)
  }

  static let validTimes: [(String, String)] = [
    ("2026-11-29T09:41", "2026-11-29T09:41"), ("2024-02-29T00:00", "2024-02-29T00:00"),
    ("2026-12-31T23:59", "2026-12-31T23:59"), ("7:05", "2026-03-01T07:05"),
    ("23:59", "2026-03-01T23:59"),
  ]

  @Test(arguments: validTimes)
  func parsesTimes(text: String, expected: String) throws {
    let today = LocalDateTime(year: 2026, month: 3, day: 1, time: ClockTime(hour: 12, minute: 0)!)!
    #expect(try LocalDateTime(parsing: text, today: today).description == expected)
  }

  @Test(arguments: [
    "25:00", "9:5x", "2026-02-29T10:00", "2026-13-01T10:00", "2026-00-10T10:00",
    "2026-01-32T10:00", "2026-01-01T24:00", "2026-01-01 10:00", "2026-01-01T10:00:00",
    "26-01-01T10:00", "", "T", "2026-01-01T", "noon",
  ])
  func rejectsTimes(text: String) {
    #expect(throws: CaseError.self) { try LocalDateTime(parsing: text) }
  }

  @Test(arguments: [
    ("90", "180", true), ("-90", "-180", true), ("37.334371", "-122.009558", true),
    ("90.0001", "0", false), ("0", "180.5", false), ("nan", "0", false), ("1e309", "0", false),
    ("0,5", "0", false), ("", "0", false), ("0", "inf", false),
  ])
  func parsesLocations(latitude: String, longitude: String, valid: Bool) {
    let parsed = try? Location(parsingLatitude: latitude, longitude: longitude)
    #expect((parsed != nil) == valid)
  }
}

/// An existing schema-v1 database upgrades in place and keeps its data (issue 3).
@Suite struct SchemaUpgradeTests {
  @Test func versionOneDatabaseUpgradesAndKeepsItsData() throws {
    let path = "/tmp/inspector-upgrade-\(UInt64.random(in: 0...UInt64.max)).sqlite"
    defer {
      for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    }
    do {
      let connection = try Connection(path: path, mode: .readWriteCreate)
      let v1 = Migrator(migrations: [CaseDatabase.migrator.migrations[0]])
      try v1.migrate(connection)
      try connection.execute(
        """
        INSERT INTO fruits (name, color) VALUES ('Pink Pearl Apple', 'pink');
        INSERT INTO animals (name, species, paw_size, emoji) VALUES ('Catie', 'Crow', 'small', NULL);
        INSERT INTO animals (name, species, paw_size, emoji) VALUES ('Ding', 'Dove', 'small', NULL);
        INSERT INTO favorite_fruits VALUES (1, 1, 0);
        INSERT INTO suspicion_levels VALUES (2, 0.75);
        INSERT INTO alibis VALUES (1, 'Out all night');
        """)
    }
    #expect(
      throws: CaseError.schemaOutOfDate(current: 1, latest: CaseDatabase.migrator.latestVersion)
    ) {
      try CaseDatabase(path: path, access: .readWrite)
    }
    let database = try CaseDatabase(path: path, access: .create)
    #expect(
      try CaseDatabase.migrator.currentVersion(of: database.connection)
        == CaseDatabase.migrator.latestVersion)
    let suspects = try database.read { try $0.suspects.all() }
    #expect(suspects.map(\.name) == ["Catie", "Ding"])
    #expect(suspects[0].favoriteFruits == ["Pink Pearl Apple"])
    #expect(suspects[0].alibi == "Out all night")
    #expect(suspects[1].suspicionLevel.value == 0.75)
    #expect(
      try database.connection.scalar("SELECT suspicion_level FROM animals WHERE id = 2")
        == .real(0.75))
    let ranking = try SuspicionRanking(database: database).bySuspicionLevel()
    #expect(ranking.map(\.suspect.name) == ["Ding", "Catie"])
  }
}
