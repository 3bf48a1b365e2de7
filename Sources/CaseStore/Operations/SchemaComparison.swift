import SQLiteKit

/// Compares the live schema of a case file with the one its migrations create, so that a table
/// rebuilt by another tool (e.g. `sqlite-utils transform`, which drops triggers, and in some
/// versions STRICT and CHECK constraints) is named instead of passing unnoticed.
///
/// The expected schema is built in a private in-memory database by the migrations this binary
/// carries, up to the file's own version. Each of the tool's tables, indexes and triggers must
/// exist with the same SQL text (white space aside); for a table whose text differs, the
/// columns (`PRAGMA table_xinfo`), STRICT (`PRAGMA table_list`) and foreign keys
/// (`PRAGMA foreign_key_list`) are compared to say what differs. Objects the migrations do not
/// create (Litestream's `_litestream_*` tables, full-text tables of sqlite-utils,
/// `sqlite_stat*`) are notes, not faults.
///
/// SQLite: <https://sqlite.org/schematab.html>, <https://sqlite.org/pragma.html#pragma_table_xinfo>
enum SchemaComparison {
  /// The findings for `connection`'s main database at schema version `version`; without
  /// `includingForeign`, only those about the objects the migrations create (missing or
  /// different), not the objects of other tools.
  ///
  /// - Throws: `SQLiteError` when either schema cannot be read.
  static func findings(_ connection: Connection, version: Int, includingForeign: Bool = true)
    throws -> [CheckFinding]
  {
    guard version > 0, CaseDatabase.migrator.migrations.contains(where: { $0.version == version })
    else { return [] }
    let reference = try Connection(path: ":memory:", mode: .readWriteCreate)
    try CaseDatabase.migrator.migrate(reference, upTo: version)
    let expected = try objects(reference)
    let live = try objects(connection)
    return try findings(
      live: live, expected: expected, connection, reference, includingForeign: includingForeign)
  }

  /// The tables the migrations up to `version` create that `connection` lacks: a file without
  /// them is not a case file, whatever else it holds (a restore refuses it even when told to
  /// accept faults).
  ///
  /// - Throws: `SQLiteError` when either schema cannot be read.
  static func missingTables(_ connection: Connection, version: Int) throws -> [String] {
    guard version > 0, CaseDatabase.migrator.migrations.contains(where: { $0.version == version })
    else { return [] }
    let reference = try Connection(path: ":memory:", mode: .readWriteCreate)
    try CaseDatabase.migrator.migrate(reference, upTo: version)
    let live = try objects(connection)
    return try objects(reference).filter { name, object in
      object.type == "table" && live[name]?.type != "table"
    }.map(\.key).sorted()
  }

  // MARK: - Private helpers

  private static func findings(
    live: [String: SchemaObject], expected: [String: SchemaObject], _ connection: Connection,
    _ reference: Connection, includingForeign: Bool
  ) throws -> [CheckFinding] {
    var findings: [CheckFinding] = []
    for (name, object) in expected.sorted(by: { $0.key < $1.key }) {
      guard let actual = live[name] else {
        findings.append(
          CheckFinding(
            .fault, .schema, table: object.table, "\(object.type) \(name) is missing",
            hint: rebuildHint))
        continue
      }
      guard normalized(actual.sql) != normalized(object.sql) else { continue }
      let details =
        object.type == "table"
        ? try tableDifferences(name, live: connection, expected: reference) : []
      let what = details.isEmpty ? "its definition differs" : details.joined(separator: "; ")
      findings.append(
        CheckFinding(
          .fault, .schema, table: object.table,
          "\(object.type) \(name) differs from what the migrations create: \(what)",
          hint: rebuildHint))
    }
    guard includingForeign else { return findings }
    let ownTables = Set(expected.values.filter { $0.type == "table" }.map(\.table))
    for (name, object) in live.sorted(by: { $0.key < $1.key }) where expected[name] == nil {
      if object.type == "trigger" && ownTables.contains(object.table) {
        // It runs inside every write of inspector's, which cannot know what it does (a full-text
        // trigger of sqlite-utils even fails them: its virtual table is not trusted).
        findings.append(
          CheckFinding(
            .fault, .schema, table: object.table,
            "trigger \(name) on \(object.table) is not inspector's: it runs inside inspector's"
              + " writes", hint: "DROP TRIGGER \(name) (sqlite-utils: disable-fts)"))
        continue
      }
      // ANALYZE (`inspector optimize` too) writes the planner's statistics tables.
      let what =
        name.hasPrefix("sqlite_stat")
        ? "holds the query planner's statistics (ANALYZE, inspector optimize)"
        : "is not one of inspector's (added by another tool)"
      findings.append(
        CheckFinding(.note, .schema, table: object.table, "\(object.type) \(name) \(what)"))
    }
    return findings
  }

  private static let rebuildHint =
    "restore a backup, or recreate it as the migrations in migrations/ define it"

  private struct SchemaObject {
    let type: String
    let table: String
    let sql: String
  }

  /// Tables, indexes, triggers and views by name (SQLite's own `sqlite_*` objects aside, but
  /// `sqlite_stat*` tables included as objects of another tool).
  private static func objects(_ connection: Connection) throws -> [String: SchemaObject] {
    let rows = try connection.prepare(
      """
      SELECT type, name, tbl_name, coalesce(sql, '') AS sql FROM sqlite_schema
      WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' OR name LIKE 'sqlite\\_stat%' ESCAPE '\\'
      """)
    var result: [String: SchemaObject] = [:]
    while let row = try rows.nextRow() {
      result[try row.text("name")] = SchemaObject(
        type: try row.text("type"), table: try row.text("tbl_name"), sql: try row.text("sql"))
    }
    return result
  }

  /// SQL text with runs of white space folded to one space.
  private static func normalized(_ sql: String) -> String {
    sql.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
  }

  /// What differs between two versions of table `name`: columns, STRICT, foreign keys.
  private static func tableDifferences(
    _ name: String, live: Connection, expected: Connection
  ) throws -> [String] {
    var differences: [String] = []
    let liveColumns = try rows(live, "SELECT * FROM pragma_table_xinfo(?)", name)
    let expectedColumns = try rows(expected, "SELECT * FROM pragma_table_xinfo(?)", name)
    let liveNames = liveColumns.map { $0[1] }
    let expectedNames = expectedColumns.map { $0[1] }
    let missing = expectedNames.filter { !liveNames.contains($0) }
    let extra = liveNames.filter { !expectedNames.contains($0) }
    if !missing.isEmpty { differences.append("missing column(s) \(list(missing))") }
    if !extra.isEmpty { differences.append("extra column(s) \(list(extra))") }
    for column in expectedColumns {
      guard let other = liveColumns.first(where: { $0[1] == column[1] }), other != column else {
        continue
      }
      differences.append("column \(column[1]) is declared differently")
    }
    let strict = "SELECT strict FROM pragma_table_list WHERE name = ? AND schema = 'main'"
    if try rows(live, strict, name) != rows(expected, strict, name) {
      differences.append(
        try rows(expected, strict, name).first == ["1"] ? "not STRICT" : "STRICT differs")
    }
    let keys = "SELECT \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list(?)"
    if try Set(rows(live, keys, name)) != Set(rows(expected, keys, name)) {
      differences.append("foreign keys differ")
    }
    if differences.isEmpty { differences.append("CHECK constraints or other clauses differ") }
    return differences
  }

  private static func rows(_ connection: Connection, _ sql: String, _ name: String) throws
    -> [[String]]
  {
    let statement = try connection.prepare(sql)
    try statement.bind([name])
    var result: [[String]] = []
    while try statement.step() {
      result.append(
        (0..<statement.columnCount).map { index in
          statement.isNull(at: index) ? "NULL" : statement.text(at: index)
        })
    }
    return result
  }

  private static func list(_ names: [String]) -> String {
    names.joined(separator: ", ")
  }
}
