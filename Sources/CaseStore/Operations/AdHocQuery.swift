import SQLiteKit

/// Ad-hoc SQL for `inspector sql` (docs/command-line.md "sql"): one or more statements, values
/// bound from named parameters, and the rows of the last statement that returns rows.
///
/// Read-only runs use a read-only connection that also may not `ATTACH` (so `VACUUM INTO` and
/// `ATTACH` cannot create or write other files) and keeps temporary tables in memory; write runs
/// wrap the whole script in one `IMMEDIATE` transaction, so a failing statement undoes the rest,
/// and may change data and schema but never the file's own structure (no transaction control,
/// no pragma that could corrupt the file, no `ATTACH` of another file; SQLite: <https://sqlite.org/security.html>).
public struct AdHocQuery {
  // MARK: - Properties

  /// A statement that would change the database or write another file (`VACUUM INTO`), in a
  /// read-only run; `ATTACH` is refused as in a write run.
  public struct ReadOnlyViolation: Error, Equatable, Sendable, CustomStringConvertible {
    /// The statement's SQL.
    public let sql: String

    /// One line naming the statement.
    public var description: String {
      let text = sql.split(whereSeparator: \.isNewline).joined(separator: " ")
      let shown = text.count > 60 ? String(text.prefix(57)) + "..." : text
      return "the SQL would change the database or open another file, and sql is read-only:"
        + " \(shown)"
    }
  }

  /// The result: column names and rows of the last statement that returned rows.
  public struct Result: Equatable, Sendable {
    /// Column names in order (empty when no statement returned rows).
    public var columns: [String]
    /// Rows, each as many values as ``columns``.
    public var rows: [[SQLiteValue]]
    /// Rows the script's INSERT, UPDATE and DELETE statements changed and kept, not counting
    /// triggers (`sqlite3_changes` summed over statements, less what a `ROLLBACK TO` undid:
    /// `ScriptChangeCount` of SQLiteKit; 0 when read-only).
    public var changes: Int
    /// `true` when the rows were handed on as they were stepped rather than kept in ``rows``.
    public var streamed = false
  }

  /// The SQL script.
  public let sql: String
  /// Named parameter values by name without prefix (`species` binds `:species`, `@species` and
  /// `$species`).
  public let parameters: [String: SQLiteValue]

  // MARK: - Init

  /// Creates a query.
  public init(sql: String, parameters: [String: SQLiteValue] = [:]) {
    self.sql = sql
    self.parameters = parameters
  }

  // MARK: - Public API

  /// Parses `NAME=VALUE` of `--param`: a canonical 64-bit integer (`42`, `-7`, not `007`)
  /// binds as an integer, anything else as text (SQLite's column affinity converts text for
  /// numeric columns). A leading `:`, `@` or `$` in NAME is dropped.
  ///
  /// - Returns: The name and value, or `nil` when there is no `=` or the name is empty.
  public static func parameter(_ text: String) -> (name: String, value: SQLiteValue)? {
    guard let equals = text.firstIndex(of: "=") else { return nil }
    var name = String(text[..<equals])
    if let first = name.first, ":@$".contains(first) { name.removeFirst() }
    guard !name.isEmpty else { return nil }
    let raw = String(text[text.index(after: equals)...])
    if let integer = Int64(raw), String(integer) == raw { return (name, .integer(integer)) }
    return (name, .text(raw))
  }

  /// Runs the script on `connection`.
  ///
  /// - Parameters:
  ///   - connection: A read-only connection from ``openReadOnly(path:busyTimeout:)``, or a
  ///     writable one.
  ///   - write: `true` runs the script in one transaction (the connection must be writable).
  /// - Throws: ``ReadOnlyViolation`` for a statement that would write in a read-only run
  ///   (`sqlite3_stmt_readonly`); ``CaseError/invalidValue(field:value:expected:)`` for
  ///   `ATTACH` or `DETACH` in any run, and in a write run for `BEGIN`, `COMMIT` or `ROLLBACK`,
  ///   or for setting a pragma that could corrupt the file (`writable_schema`, `journal_mode`,
  ///   `schema_version`...: see `Connection.fileGuardingPragmas`), or for a change of the
  ///   append-only history (an `UPDATE` or `DELETE` of its rows, an `INSERT` that no trigger
  ///   makes, a `DROP` or `ALTER` of its tables, indexes or triggers: `historyPrefix`);
  ///   `SQLiteError` from SQLite (syntax, constraint, or
  ///   "table sqlite_master may not be modified" from defensive mode); or
  ///   ``CaseError/invalidValue(field:value:expected:)`` when the script uses a parameter that
  ///   was not given, or a given parameter is used by no statement. Nothing is changed when it
  ///   throws.
  public func run(on connection: Connection, write: Bool) throws -> Result {
    try run(on: connection, write: write, streamingLast: nil)
  }

  /// ``run(on:write:)``, handing the rows of the script's last statement to `streamingLast` as
  /// they are stepped instead of collecting them, when that statement returns rows (its result
  /// then has no ``Result/rows``; ``Result/streamed`` says so).
  ///
  /// - Parameter streamingLast: Steps the last statement itself; every parameter has been bound
  ///   and checked by then.
  func run(
    on connection: Connection, write: Bool, streamingLast: ((Statement) throws -> Void)?
  ) throws -> Result {
    var changes = ScriptChangeCount()
    // The savepoint statement being run, told while SQLite prepared it.
    var savepoint: SavepointStep?
    let body = { () throws -> Result in
      var result = Result(columns: [], rows: [], changes: 0)
      var used = Set<String>()
      try connection.forEachStatement(in: sql) { statement in
        // The read-only connection is the guard; this only turns its refusal into a clear one.
        // Temporary tables and views touch no file, so they are allowed, as `sqlite3 -readonly`
        // allows them.
        if !write && !statement.isReadOnly {
          guard try connection.writesOnlyTemporaryObjects(statement.sql) else {
            throw ReadOnlyViolation(sql: statement.sql)
          }
        }
        try bind(statement, used: &used)
        if let streamingLast, statement.isLastInScript, statement.columnCount > 0 {
          try checkAllUsed(used)
          try streamingLast(statement)
          result = Result(columns: statement.columnNames, rows: [], changes: 0, streamed: true)
          return
        }
        var rows: [[SQLiteValue]] = []
        let totalBefore = connection.totalChanges
        while try statement.step() { rows.append(statement.row()) }
        if let step = savepoint {
          changes.apply(step)
          savepoint = nil
        } else if connection.totalChanges != totalBefore {
          // sqlite3_changes() keeps the last INSERT, UPDATE or DELETE's count through any other
          // statement (CREATE, DROP, ANALYZE), which must not count it again.
          changes.statementChanged(connection.changes)
        }
        if statement.columnCount > 0 {
          result = Result(columns: statement.columnNames, rows: rows, changes: 0)
        }
      }
      try checkAllUsed(used)
      return result
    }
    var result: Result
    do {
      // A caller that opened the transaction itself (to record a change set around the
      // script) gets the script run inside it.
      if !write {
        result = try body()
      } else if connection.isAutocommit {
        result = try connection.inTransaction(.immediate) {
          try connection.withScriptGuard(
            appendOnly: Self.historyPrefix, onSavepoint: { savepoint = $0 }, body)
        }
      } else {
        result = try connection.withScriptGuard(
          appendOnly: Self.historyPrefix, onSavepoint: { savepoint = $0 }, body)
      }
    } catch let refusal as RefusedStatement {
      switch refusal.reason {
      case .transactionControl:
        throw CaseError.invalidValue(
          field: "SQL", value: refusal.sql ?? sql,
          expected: "no BEGIN, COMMIT or ROLLBACK: --write already runs the script as one"
            + " transaction (SAVEPOINT is fine)")
      case .fileGuardingPragma(let name):
        throw CaseError.invalidValue(
          field: "SQL", value: String((refusal.sql ?? sql).drop(while: \.isWhitespace)),
          expected: "no PRAGMA \(name) = ...: it could corrupt the database file, and --write"
            + " changes data only; nothing was changed")
      case .attach:
        throw Self.attachRefused(refusal.sql ?? sql)
      case .appendOnly(let table):
        throw CaseError.invalidValue(
          field: "SQL", value: String((refusal.sql ?? sql).drop(while: \.isWhitespace)),
          expected: "no UPDATE, DELETE, DROP or ALTER of the history (\(table)): it is"
            + " append-only; inspector history prune is the one way to remove history;"
            + " nothing was changed")
      }
    } catch let error as SQLiteError where !write && error.code == .error {
      // ATTACH passes the read-only check (it changes no file of this database) and then meets
      // the connection's limit of no attached databases. Which statement failed tells it apart
      // from other errors; SQLite's message is not read. It is refused as in a write run: --write
      // would not allow it either.
      let failing = error.sql ?? sql
      if (try? connection.attachesDatabase(failing)) == true {
        throw Self.attachRefused(failing)
      }
      throw error
    }
    result.changes = changes.total
    return result
  }

  /// The name prefix of the history's tables, triggers and indexes, which a write run keeps
  /// append-only (docs/history.md "Tamper evidence"): their rows are inserted by the history's
  /// triggers only, never updated or deleted; they are never dropped or altered.
  static let historyPrefix = "history_"

  /// Opens `path` for a read-only run: a read-only connection, no `ATTACH`, temporary storage
  /// in memory.
  ///
  /// - Throws: `SQLiteError` when the file is missing or not a database.
  public static func openReadOnly(path: String, busyTimeout: Int) throws -> Connection {
    let connection = try Connection(path: path, mode: .readOnly, busyTimeout: busyTimeout)
    connection.setLimit(.attachedDatabases, to: 0)
    try connection.execute("PRAGMA temp_store = MEMORY")
    return connection
  }

  // MARK: - Private helpers

  /// The refusal of `ATTACH` (or `DETACH`) in a read-only or a write run alike: another database
  /// file is never opened, created or written through `sql`.
  private static func attachRefused(_ sql: String) -> CaseError {
    CaseError.invalidValue(
      field: "SQL", value: String(sql.drop(while: \.isWhitespace)),
      expected: "no ATTACH or DETACH: sql may not attach another database, with or without"
        + " --write; nothing was changed")
  }

  /// Throws for a given parameter that no statement used.
  private func checkAllUsed(_ used: Set<String>) throws {
    if let unused = parameters.keys.sorted().first(where: { !used.contains($0) }) {
      throw CaseError.invalidValue(
        field: "parameter", value: unused, expected: "a parameter the SQL uses")
    }
  }

  private func bind(_ statement: Statement, used: inout Set<String>) throws {
    guard statement.parameterCount > 0 else { return }
    for index in 1...statement.parameterCount {
      guard let full = statement.parameterName(at: index) else {
        throw CaseError.invalidValue(
          field: "parameter", value: "?",
          expected: "named parameters (:name, @name, $name) given with --param NAME=VALUE")
      }
      let name = String(full.dropFirst())
      guard let value = parameters[name] else {
        throw CaseError.invalidValue(
          field: "parameter", value: full, expected: "a value given with --param \(name)=VALUE")
      }
      used.insert(name)
      try statement.bind(value, at: index)
    }
  }
}
