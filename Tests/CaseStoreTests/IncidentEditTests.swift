import SQLiteKit
import Testing

@testable import CaseStore

@Suite("Editing an incident")
struct IncidentEditTests {
  let database: CaseDatabase

  init() throws {
    database = try seededDatabase(
      on: LocalDateTime(year: 2026, month: 3, day: 1, time: ClockTime(hour: 18, minute: 5)!)!)
  }

  @Test func everyFieldChangesAndReadsBack() throws {
    let edited = try database.write(nil) {
      try $0.incidents.edit(
        "1",
        IncidentEdit(
          fruit: "christmas BERRY", occurredAt: try LocalDateTime(parsing: "2026-03-02T23:30"),
          pawSize: .medium, location: Location(latitude: -33.9, longitude: 151.2),
          notes: "Berries gone;\nstems left"))
    }
    #expect(edited.fruit == "Christmas Berry")
    #expect(edited.occurredAt.description == "2026-03-02T23:30")
    #expect(edited.pawSize == .medium)
    #expect(edited.location == Location(latitude: -33.9, longitude: 151.2))
    #expect(edited.notes == "Berries gone;\nstems left")
    #expect(try database.read { try $0.incidents.find(id: 1) } == edited)
    #expect(
      try database.rows(
        "SELECT fruit_id, occurred_at, paw_size, latitude, longitude, notes FROM incidents") == [
          [
            .integer(16), .text("2026-03-02T23:30"), .text("medium"), .real(-33.9), .real(151.2),
            .text("Berries gone;\nstems left"),
          ]
        ])
  }

  @Test func fieldsLeftOutStay() throws {
    let before = try database.read { try $0.incidents.find(id: 1) }
    let edited = try database.write(nil) { try $0.incidents.edit("1", IncidentEdit(notes: "")) }
    var expected = before
    expected.notes = ""
    #expect(edited == expected)
    #expect(
      try database.write(nil) { try $0.incidents.edit("1", IncidentEdit(pawSize: .small)).location }
        != nil)
  }

  @Test func clueAndPlaceCanBeRemoved() throws {
    let edited = try database.write(nil) {
      try $0.incidents.edit(
        "1", IncidentEdit(pawSize: .some(nil), location: .some(nil)))
    }
    #expect(edited.pawSize == nil)
    #expect(edited.location == nil)
    #expect(edited.fruit == "Pink Pearl Apple")
    #expect(
      try database.rows("SELECT paw_size, latitude, longitude FROM incidents") == [
        [.null, .null, .null]
      ])
  }

  @Test func refusalsChangeNothing() throws {
    let before = try database.read { try $0.incidents.all() }
    #expect(throws: CaseError.unknownFruit("Kiwi")) {
      try database.write(nil) {
        try $0.incidents.edit("1", IncidentEdit(fruit: "Kiwi", notes: "changed"))
      }
    }
    for reference in ["2", "0", "x", "-1"] {
      #expect(throws: CaseError.unknownIncident(reference)) {
        try database.write(nil) { try $0.incidents.edit(reference, IncidentEdit(notes: "changed")) }
      }
    }
    expectInvalidValue(
      field: "notes", value: "red \u{1B}[31m",
      expected: "text without terminal control characters (tabs and line breaks are fine)"
    ) {
      try database.write(nil) {
        try $0.incidents.edit("1", IncidentEdit(pawSize: .small, notes: "red \u{1B}[31m"))
      }
    }
    #expect(try database.read { try $0.incidents.all() } == before)
  }

  @Test func anIncidentWhoseFruitIsGoneCanStillBeCorrected() throws {
    try database.connection.execute(
      "PRAGMA foreign_keys = OFF; DELETE FROM fruits WHERE id = 15; PRAGMA foreign_keys = ON")
    let notes = try database.write(nil) {
      try $0.incidents.edit("1", IncidentEdit(notes: "fruit row lost"))
    }
    #expect(notes.fruit == nil)
    #expect(notes.fruitID == 15)
    #expect(notes.notes == "fruit row lost")
    let repaired = try database.write(nil) {
      try $0.incidents.edit("1", IncidentEdit(fruit: "Elstar Apple"))
    }
    #expect(repaired.fruit == "Elstar Apple")
  }

  @Test func removeDeletesOnlyThatIncidentAndFreesItsFruit() throws {
    let second = try database.write(nil) {
      try $0.incidents.add(
        NewIncident(
          fruit: "Kaki Fuyu Persimmon", occurredAt: try LocalDateTime(parsing: "2026-03-02T07:00")))
    }
    let seed = try database.read { try $0.incidents.find(id: 1) }
    #expect(try database.write(nil) { try $0.incidents.remove("1") } == seed)
    #expect(try database.read { try $0.incidents.all() } == [second])
    #expect(throws: CaseError.unknownIncident("1")) {
      try database.read { try $0.incidents.find("1") }
    }
    #expect(throws: CaseError.unknownIncident("1")) {
      try database.write(nil) { try $0.incidents.remove("1") }
    }
    #expect(throws: CaseError.unknownIncident("x")) {
      try database.write(nil) { try $0.incidents.remove("x") }
    }
    #expect(try database.read { try $0.incidents.count() } == 1)
    // The persimmon is favoured by the raccoon and nibbled in the second incident only.
    try database.write(nil) {
      try $0.suspects.removeFavorite(
        id: try $0.suspects.resolve("raccoon"), fruit: "Kaki Fuyu Persimmon")
    }
    #expect(throws: CaseError.fruitInUse("Kaki Fuyu Persimmon", by: ["incident \(second.id)"])) {
      try database.write(nil) { try $0.fruits.remove("Kaki Fuyu Persimmon") }
    }
    try database.write(nil) { try $0.incidents.remove("\(second.id)") }
    try database.write(nil) { try $0.fruits.remove("Kaki Fuyu Persimmon") }
    #expect(try database.rowCount("incidents") == 0)
    #expect(try database.rowCount("fruits") == 18)
  }
}
