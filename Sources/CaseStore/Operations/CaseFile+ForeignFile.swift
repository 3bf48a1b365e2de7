import SQLiteKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading a file that may not be ours (a restore's source, or the database it replaces)
/// without running any of its schema's code before it is known to be a sound case database.
extension CaseFile {
  // MARK: - Public API

  /// The `PRAGMA application_id` stored in the database header at `path`: the big-endian 32-bit
  /// integer at bytes 68-71, read from the file itself (no SQLite connection, nothing of the
  /// file's schema runs). Case databases hold ``CaseDatabase/applicationID``; files made
  /// before migration 0004 hold 0.
  ///
  /// - Throws: ``CaseFileError/missing(_:)``, ``CaseFileError/notADatabase(_:)`` when the file
  ///   is not a regular file starting with SQLite's header, ``CaseFileError/damaged(_:problems:)``
  ///   when it is shorter than the 100-byte header.
  /// - SQLite: <https://sqlite.org/fileformat2.html#the_database_header>
  public static func applicationID(at path: String) throws -> Int32 {
    try CaseFileProbe(path).applicationID()
  }

  /// The rows of case data a database holds: for every table that is not SQLite's, Litestream's
  /// or the migrations' bookkeeping (`sqlite_*`, `_litestream_*`, `schema_migrations`), nor the
  /// search index derived from the case tables (`search_queue`, FTS5's `search_index_*`), nor a
  /// virtual table, its row
  /// count when it has rows. The history counts by its change sets (`history_change_sets`);
  /// the tables that only detail them (`history_changes`, `history_context`,
  /// `history_reverts`, `history_seals`, and on files from before migration 0014
  /// `history_entries` and `history_values`) are not listed. Reads tables only; no view,
  /// trigger or virtual table runs.
  ///
  /// - Returns: Table name to row count (only tables with rows; empty for a database without
  ///   case data).
  /// - Throws: `SQLiteError` when a table cannot be read.
  public static func caseData(in connection: Connection) throws -> [String: Int] {
    let tables = try connection.prepare(
      """
      SELECT name FROM sqlite_schema
      WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
        AND name NOT LIKE '\\_litestream\\_%' ESCAPE '\\'
        AND name <> 'schema_migrations' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'
        AND name NOT IN ('history_changes', 'history_entries', 'history_values',
          'history_context', 'history_reverts', 'history_seals')
        AND name NOT IN ('search_queue', 'search_index_data', 'search_index_idx',
          'search_index_content', 'search_index_docsize', 'search_index_config')
      """)
    var names: [String] = []
    while let row = try tables.nextRow() { names.append(try row.text("name")) }
    var rows: [String: Int] = [:]
    for name in names {
      let count = Int(
        try connection.scalar("SELECT count(*) FROM \(quoted(name))")?.integerValue ?? 0)
      if count > 0 { rows[name] = count }
    }
    return rows
  }

  /// Throws unless the file at `path` may become or is a case database: missing or empty, or
  /// marked with ``CaseDatabase/applicationID``, or a SQLite file without any table yet, or an
  /// older case database (application_id 0 with migration records this binary knows). Runs
  /// before anything opens the file for writing, so that `init` and `migrate up` never turn
  /// another program's database into a case file (nor even switch it to WAL).
  ///
  /// - Throws: ``CaseFileError/notACaseDatabase(_:reason:)``,
  ///   ``CaseFileError/notADatabase(_:)`` when the file is not SQLite, or `SQLiteError`.
  public static func requireCaseFileOrNew(at path: String, busyTimeout: Int = 5000) throws {
    try CaseFileProbe(path).requireCaseFileOrNew(busyTimeout: busyTimeout)
  }

  // MARK: - Internal helpers

  /// Opens a file that may be foreign, without changing it, with `PRAGMA trusted_schema = OFF`,
  /// so that functions with side effects cannot run from its views or triggers; errors of a
  /// damaged file become ``CaseFileError/damaged(_:problems:)``. The connection is a
  /// query-only writable one where possible, so that `integrity_check` also verifies CHECK
  /// constraints (see `Connection.openForChecking(path:busyTimeout:)`).
  ///
  /// SQLite: <https://sqlite.org/pragma.html#pragma_trusted_schema>
  static func openForeign(_ path: String, busyTimeout: Int) throws -> Connection {
    do {
      let connection = try Connection.openForChecking(path: path, busyTimeout: busyTimeout)
        .connection
      try connection.execute("PRAGMA trusted_schema = OFF")
      return connection
    } catch let error as SQLiteError where error.code != .busy && error.code != .locked {
      throw CaseFileError.damaged(path, problems: [error.message])
    }
  }

  /// Throws unless `connection` (application_id 0: made before migration 0004) records only
  /// migrations this binary knows, each with its checksum: an older case database.
  static func requireKnownMigrations(_ connection: Connection, path: String) throws {
    guard try CaseDatabase.migrator.hasBookkeeping(connection) else {
      throw CaseFileError.notACaseDatabase(path, reason: "no application_id and no migrations")
    }
    let states = try CaseDatabase.migrator.status(of: connection)
    guard states.contains(where: { $0.state == .applied }),
      states.allSatisfy({ $0.state == .applied || $0.state == .pending })
    else {
      throw CaseFileError.notACaseDatabase(
        path, reason: "its schema_migrations do not match the migrations this inspector knows")
    }
  }

  /// Each view, and each table's triggers, that does not compile, as `view v: SQLite's
  /// message` or `a trigger on t: SQLite's message`; empty when all do. A view's own
  /// (`INSTEAD OF`) triggers are not compiled: they run only when a statement writes to the
  /// view, which inspector never does, and a probe could not tell the events they handle.
  /// `check` lists each as a fault, as a restore refuses the file
  /// (docs/operations.md "What restores").
  ///
  /// - Throws: `SQLiteError` when the schema cannot be read.
  static func uncompilableSchema(_ connection: Connection) throws -> [String] {
    let schema = try connection.prepare(
      """
      SELECT o.type AS type, o.name AS name, o.tbl_name AS tbl_name FROM sqlite_schema o
      WHERE o.type = 'view' OR (o.type = 'trigger' AND NOT EXISTS (
        SELECT 1 FROM sqlite_schema v WHERE v.type = 'view' AND v.name = o.tbl_name))
      """)
    var objects: [(type: String, name: String, table: String)] = []
    while let row = try schema.nextRow() {
      objects.append((try row.text("type"), try row.text("name"), try row.text("tbl_name")))
    }
    var probes: [(String, String)] = []
    var triggered: Set<String> = []
    for object in objects {
      let table = quoted(object.table)
      if object.type == "view" {
        probes.append(("view \(object.name)", "SELECT * FROM \(table) LIMIT 0"))
        continue
      }
      // A statement compiles all the triggers of its table at once.
      guard triggered.insert(object.table).inserted else { continue }
      let what = "a trigger on \(object.table)"
      probes.append((what, "DELETE FROM \(table)"))
      probes.append((what, "INSERT INTO \(table) DEFAULT VALUES"))
      // Every column, so that `UPDATE OF column` triggers are compiled too.
      let columns = try connection.prepare("SELECT name FROM pragma_table_info(?)")
      try columns.bind([object.table])
      var assignments: [String] = []
      while let row = try columns.nextRow() {
        let column = quoted(try row.text("name"))
        assignments.append("\(column) = \(column)")
      }
      if !assignments.isEmpty {
        probes.append((what, "UPDATE \(table) SET " + assignments.joined(separator: ", ")))
      }
    }
    var problems: [String] = []
    var failed: Set<String> = []
    for (what, sql) in probes where !failed.contains(what) {
      do {
        _ = try connection.prepare(sql)
      } catch let error as SQLiteError {
        failed.insert(what)
        problems.append("\(what): \(error.message)")
      }
    }
    return problems
  }
}

/// `name` as an SQL identifier in double quotes, inner quotes doubled.
private func quoted(_ name: String) -> String {
  var result = "\""
  for character in name {
    if character == "\"" { result += "\"\"" } else { result.append(character) }
  }
  return result + "\""
}
