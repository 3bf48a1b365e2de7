import CaseStore
import Foundation
import SQLiteKit
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Helpers shared by the operations tests (`sql`, `backup`, `restore`, `check`, `migrate` and
/// the scripts): file contents, v1 databases, and the path of the built `inspector`.
enum OperationsFixture {
  /// Every user table's rows and the schema, read through a fresh read-only connection, rows
  /// sorted by their text so that two files compare by content.
  static func contents(of path: String) throws -> [String: [String]] {
    let connection = try Connection(path: path, mode: .readOnly)
    let schema = try connection.prepare(
      "SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'")
    var result: [String: [String]] = [:]
    var tables: [String] = []
    while try schema.step() {
      result["schema", default: []].append("\(schema.row())")
      if schema.text(at: 0) == "table" { tables.append(schema.text(at: 1)) }
    }
    result["schema"]?.sort()
    for table in tables {
      let statement = try connection.prepare("SELECT * FROM \"\(table)\"")
      var rows: [String] = []
      while try statement.step() { rows.append("\(statement.row())") }
      result[table] = rows.sorted()
    }
    return result
  }

  /// One value read straight from the file with SQL.
  static func scalar(_ sql: String, in path: String) throws -> SQLiteValue? {
    try Connection(path: path, mode: .readOnly).scalar(sql)
  }

  /// A database at schema version 1 only (the first embedded migration), holding the Crow.
  static func makeVersionOneDatabase(at path: String) throws {
    let connection = try Connection(path: path, mode: .readWriteCreate)
    try Migrator(migrations: [CaseDatabase.migrator.migrations[0]]).migrate(connection)
    try connection.execute(
      """
      INSERT INTO animals (name, species, paw_size, emoji)
      VALUES ('Catie', 'Crow', 'small', '🐦‍⬛')
      """)
  }

  /// The file's bytes (`nil` when there is no file).
  static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  /// The file's permission bits.
  static func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return try #require(attributes[.posixPermissions] as? Int)
  }

  /// The migrations this binary carries, and the newest version.
  static let migrations = CaseDatabase.migrator.migrations
  static let latest = CaseDatabase.migrator.latestVersion

  /// The built `inspector` next to the test bundle (see ``EndToEndTests/inspectorURL``).
  static func inspectorPath() throws -> String {
    try #require(EndToEndTests.inspectorURL, "built inspector not found").path
  }

  /// A character device like /dev/null (major 1, minor 3) made at `path`, in a test's own
  /// directory so that a regression cannot damage the real one; its device number. Making one
  /// needs root (mknod): otherwise `nil`, recorded as a known issue, and the test returns.
  static func makeNullDevice(at path: String) -> dev_t? {
    #if os(Linux)
      let number: dev_t = (1 << 8) | 3
    #else
      let number: dev_t = (1 << 24) | 3
    #endif
    guard mknod(path, S_IFCHR | 0o600, number) == 0 else {
      withKnownIssue("mknod needs root; not possible as uid \(geteuid())") {
        Issue.record("cannot make a device node")
      }
      return nil
    }
    return number
  }
}
