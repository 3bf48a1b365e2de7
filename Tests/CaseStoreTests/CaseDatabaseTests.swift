import Foundation
import SQLiteKit
import Testing

@testable import CaseStore

@Suite("CaseDatabase: files and access modes")
struct CaseDatabaseTests {
  @Test func aSeededFileReadsBackAfterReopening() throws {
    try withTemporaryFile { path in
      do {
        let database = try CaseDatabase(path: path, access: .create)
        try database.write(nil) { try SeedCase.load(into: $0, on: seedDay) }
        try database.write(nil) { try $0.suspects.setAlibi(id: 10, "Washing my paws.\nTwice.") }
      }
      let reopened = try CaseDatabase(path: path, access: .readWrite)
      #expect(try reopened.read { try $0.suspects.count() } == 10)
      #expect(
        try reopened.read { try $0.suspects.find("raccoon").alibi } == "Washing my paws.\nTwice.")
      #expect(try reopened.read { try $0.fruits.all().count } == 19)
      let attributes = try FileManager.default.attributesOfItem(atPath: path)
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }
  }

  @Test func readOnlyReadsButRefusesWrites() throws {
    try withTemporaryFile { path in
      do {
        let database = try CaseDatabase(path: path, access: .create)
        try database.write(nil) { try SeedCase.load(into: $0, on: seedDay) }
      }
      let readOnly = try CaseDatabase(path: path, access: .readOnly)
      #expect(try readOnly.read { try $0.suspects.find("Crow").name } == "Catie")
      let error = try #require(throws: SQLiteError.self) {
        try readOnly.write(nil) { try $0.suspects.setAlibi(id: 4, "Nest.") }
      }
      #expect(error.code == .readOnly)
      #expect(try readOnly.read { try $0.suspects.find("Crow").alibi } == "")
    }
  }

  @Test func aMissingFileIsNotCreatedUnlessAsked() throws {
    try withTemporaryFile { path in
      let error = try #require(throws: SQLiteError.self) {
        try CaseDatabase(path: path, access: .readWrite)
      }
      #expect(error.code == .cannotOpen)
      #expect(!FileManager.default.fileExists(atPath: path))
      #expect(throws: SQLiteError.self) { try CaseDatabase(path: path, access: .readOnly) }
      #expect(!FileManager.default.fileExists(atPath: path))
    }
  }

  @Test func anotherProgramsDatabaseIsNotACaseFileAndAnEmptyOneIsOutOfDate() throws {
    try withTemporaryFile { path in
      let foreign = try writeForeignDatabase(at: path)
      #expect(throws: foreign) { try CaseDatabase(path: path, access: .readWrite) }
      #expect(throws: foreign) { try CaseDatabase(path: path, access: .readOnly) }
      // Another program's database is never turned into a case file, nor touched.
      let before = try Data(contentsOf: URL(fileURLWithPath: path))
      #expect(
        throws: CaseFileError.notACaseDatabase(path, reason: "no application_id and no migrations")
      ) {
        try CaseDatabase(path: path, access: .create)
      }
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
    try withTemporaryFile { path in
      _ = try Connection(path: path, mode: .readWriteCreate)
      let latest = CaseDatabase.migrator.latestVersion
      #expect(throws: CaseError.schemaOutOfDate(current: 0, latest: latest)) {
        try CaseDatabase(path: path, access: .readOnly)
      }
    }
  }

  @Test func anEmptySQLiteFileBecomesACaseFile() throws {
    try withTemporaryFile { path in
      _ = try Connection(path: path, mode: .readWriteCreate)
      let migrated = try CaseDatabase(path: path, access: .create)
      #expect(try migrated.read { try $0.suspects.count() } == 0)
      #expect(
        try migrated.connection.scalar("PRAGMA application_id")?.integerValue
          == Int64(CaseDatabase.applicationID))
    }
  }

  @Test func aFileThatIsNotADatabaseIsRefused() throws {
    try withTemporaryFile { path in
      try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
      // A writable open reads the header first and refuses the file before SQLite opens it.
      #expect(throws: CaseFileError.notADatabase(path)) {
        try CaseDatabase(path: path, access: .readWrite)
      }
      let error = try #require(throws: SQLiteError.self) {
        try CaseDatabase(path: path, access: .readOnly)
      }
      #expect(error.code == .notADatabase)
    }
  }

  @Test func writeRollsBackEverythingWhenTheBodyThrows() throws {
    let database = try seededDatabase()
    struct Stop: Error {}
    #expect(throws: Stop.self) {
      try database.write(nil) { db in
        try db.suspects.setAlibi(id: 1, "Swimming.")
        try db.fruits.add(name: "Durian", color: "green")
        try db.suspects.remove(id: 2)
        throw Stop()
      }
    }
    #expect(try database.read { try $0.suspects.find("Fish").alibi } == "")
    #expect(try database.rowCount("fruits") == 19)
    #expect(try database.read { try $0.suspects.count() } == 10)
    #expect(database.connection.isAutocommit)
  }

  @Test func aFailedStepInsideAWriteLeavesTheEarlierStepsOfThatWrite() throws {
    // A refused call inside a unit of work changes nothing of its own, and the caller decides
    // about the rest.
    let database = try seededDatabase()
    try database.write(nil) { db in
      try db.suspects.setAlibi(id: 1, "Swimming.")
      #expect(throws: CaseError.duplicateSpecies("crow")) {
        try db.suspects.add(NewSuspect(name: "Other", species: "crow", pawSize: .small))
      }
    }
    #expect(try database.read { try $0.suspects.find("Fish").alibi } == "Swimming.")
    #expect(try database.read { try $0.suspects.count() } == 10)
  }

  @Test(
    "error descriptions are one line",
    arguments: [
      (
        CaseError.unknownSuspect("line\none"),
        "no suspect matches 'line\\none' (species, name or id)"
      ),
      (
        CaseError.ambiguousSuspect(
          "ding", candidates: ["Ding the Dove (id 3)", "DING the Pigeon (id 11)"]),
        "'ding' matches several suspects: Ding the Dove (id 3), DING the Pigeon (id 11)"
      ),
      (
        CaseError.fruitInUse("Pink Pearl Apple", by: ["Ding the Dove", "Catie the Crow"]),
        "cannot remove Pink Pearl Apple: still held by Ding the Dove, Catie the Crow"
      ),
      (
        CaseError.alreadySeeded(suspects: 10),
        "the database already holds 10 suspect(s); refusing to seed over them"
      ),
      (CaseError.duplicateSpecies("\u{E9}LAN"), "a suspect of species '\u{E9}LAN' already exists"),
    ])
  func descriptions(error: CaseError, text: String) {
    #expect(error.description == text)
    #expect(!error.description.contains("\n"))
  }

  @Test func longValuesAreCutInMessages() {
    let error = CaseError.unknownFruit(String(repeating: "x", count: 10_000))
    #expect(error.description == "no fruit named '" + String(repeating: "x", count: 77) + "...'")
  }
}
