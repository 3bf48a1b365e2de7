import Foundation
import SQLiteKit
import Synchronization
import Testing

@testable import CaseStore

/// The day the test seed is loaded on: the seed bulletin is dated 2024-05-17T09:41.
let seedDay = LocalDateTime(year: 2024, month: 5, day: 17, time: ClockTime(hour: 12, minute: 0)!)!

/// A new in-memory case file at the latest schema with the seed case loaded on `day`.
func seededDatabase(on day: LocalDateTime = seedDay) throws -> CaseDatabase {
  try SeededTemplates.copy(on: day)
}

/// The seeded in-memory databases ``seededDatabase(on:)`` copies: one per seeding day, seeded
/// on first use, so a test pays a page copy instead of the seeding.
private enum SeededTemplates {
  static let byDay = Mutex<[String: CaseDatabase]>([:])

  static func copy(on day: LocalDateTime) throws -> CaseDatabase {
    try byDay.withLock { templates in
      let key = day.description
      if let template = templates[key] { return try CaseDatabase(inMemoryCopyOf: template) }
      let template = try CaseDatabase()
      try template.write(nil) { try SeedCase.load(into: $0, on: day) }
      templates[key] = template
      return try CaseDatabase(inMemoryCopyOf: template)
    }
  }
}

extension CaseDatabase {
  /// `SELECT count(*) FROM table`, read straight from SQL (not through a repository).
  func rowCount(_ table: String) throws -> Int {
    Int(try connection.scalar("SELECT count(*) FROM \(table)")?.integerValue ?? -1)
  }

  /// The id of the suspect with this species, read straight from SQL.
  func id(ofSpecies species: String) throws -> Int64 {
    try #require(
      try connection.scalar("SELECT id FROM animals WHERE species = ?", [species])?.integerValue)
  }

  /// Every row of a query, as values.
  func rows(_ sql: String, _ arguments: [any SQLiteBindable] = []) throws -> [[SQLiteValue]] {
    let statement = try connection.prepare(sql)
    try statement.bind(arguments)
    var rows: [[SQLiteValue]] = []
    while try statement.step() { rows.append(statement.row()) }
    return rows
  }
}

/// The Unicode scalars of `text` as `U+XXXX` strings, to compare emoji exactly.
func scalars(_ text: String?) -> [String] {
  (text ?? "").unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }
}

/// Runs `body` with the path of a file in a new private temporary directory, and removes the
/// directory (with any `-wal` and `-shm` files) afterwards, whether `body` returns or throws.
func withTemporaryFile<T>(
  named name: String = "cases.sqlite", _ body: (String) throws -> T
) throws -> T {
  var template = Array((NSTemporaryDirectory() + "/casestore-tests.XXXXXX").utf8CString)
  guard let created = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
  let directory = String(cString: created)
  defer { try? FileManager.default.removeItem(atPath: directory) }
  return try body(directory + "/" + name)
}

/// Writes another program's SQLite database (one unrelated table, no application_id, no
/// migrations) at `path`, closed again, and returns the error opening it as a case file throws.
func writeForeignDatabase(at path: String) throws -> CaseFileError {
  let connection = try Connection(path: path, mode: .readWriteCreate)
  try connection.execute("CREATE TABLE unrelated (x)")
  return CaseFileError.notACaseDatabase(path, reason: "no application_id and no migrations")
}
