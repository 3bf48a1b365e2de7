internal import CSQLite

/// A statement that ``Connection/withScriptGuard(_:)`` refused to prepare; nothing of it ran.
public struct RefusedStatement: Error, Equatable, Sendable, CustomStringConvertible {
  /// Why the statement was refused.
  public enum Reason: Equatable, Sendable {
    /// `BEGIN`, `COMMIT`, `END` or `ROLLBACK`: the script would end the transaction it runs in.
    case transactionControl
    /// A `PRAGMA` that sets one of ``Connection/fileGuardingPragmas`` (name in lower case, as
    /// typed after the optional schema name).
    case fileGuardingPragma(name: String)
    /// `ATTACH` or `DETACH`: the script would reach another database file.
    case attach
    /// A change of an append-only table (see ``Connection/withScriptGuard(appendOnly:onSavepoint:_:)``):
    /// an `UPDATE` or `DELETE` of its rows, an `INSERT` not made by a trigger, a `DROP` or
    /// `ALTER` of it, of one of its indexes or of a trigger named with its prefix, or a new
    /// trigger on it. `table` names the table (or the trigger or index), as SQLite gave it.
    case appendOnly(table: String)
  }

  /// Why it was refused.
  public let reason: Reason
  /// The SQL being prepared: the refused statement and the rest of its script.
  public let sql: String?

  /// `refused: PRAGMA writable_schema` or `refused: transaction control`.
  public var description: String {
    switch reason {
    case .transactionControl: "refused: transaction control"
    case .fileGuardingPragma(let name): "refused: PRAGMA \(name)"
    case .attach: "refused: ATTACH"
    case .appendOnly(let table): "refused: append-only \(table)"
    }
  }
}

extension Connection {
  /// Pragmas that, when set, can leave a file that other clients cannot open or that silently
  /// loses changes: `writable_schema` (edits `sqlite_schema` by hand), `journal_mode` (`OFF` or
  /// `MEMORY` gives up atomic commit; leaving WAL changes how every client must open the file),
  /// `schema_version` (stale schemas in other connections), `ignore_check_constraints` (stores
  /// rows the schema refuses) and `trusted_schema` (undoes `configureDefensively()`).
  /// Reading any of them stays allowed.
  ///
  /// SQLite: <https://sqlite.org/security.html>, <https://sqlite.org/pragma.html>
  public static let fileGuardingPragmas: Set<String> = [
    "writable_schema", "journal_mode", "schema_version", "ignore_check_constraints",
    "trusted_schema",
  ]

  /// Runs `body` while statements prepared on this connection may neither control the
  /// transaction (`BEGIN`, `COMMIT`, `END`, `ROLLBACK`), set one of ``fileGuardingPragmas``,
  /// nor `ATTACH` or `DETACH` a database (which would open, create or write another file). `SAVEPOINT`, `RELEASE`, `ROLLBACK TO` and every other statement
  /// stay allowed. Used so that a user's script run inside ``inTransaction(_:_:)`` changes data
  /// all-or-nothing and never the file's own structure.
  ///
  /// The check is SQLite's authorizer, which sees each statement as SQLite parsed it
  /// (comments, case and schema prefixes such as `main.` make no difference).
  ///
  /// - Throws: ``RefusedStatement`` when a statement is refused (preparing it failed with
  ///   ``ResultCode/authorization``, so it did not run); otherwise what `body` throws.
  /// - SQLite: <https://sqlite.org/c3ref/set_authorizer.html>
  public func withScriptGuard<T>(_ body: () throws -> T) throws -> T {
    try withScriptGuard(appendOnly: nil, body)
  }

  /// ``withScriptGuard(_:)``, also keeping the tables of the main database whose names start
  /// with `prefix` (compared ignoring ASCII case) append-only: their rows may be inserted by
  /// triggers only (an `INSERT` at the top level of the script is refused), never updated or
  /// deleted, whether by the script or by a trigger; the tables, their indexes and the
  /// triggers whose names start with `prefix` may not be dropped or altered, and no trigger
  /// may be created on such a table. Creating a trigger named with `prefix` stays allowed (it
  /// is how a dropped trigger is put back). `nil` protects nothing.
  ///
  /// `onSavepoint` is told of each `SAVEPOINT`, `RELEASE` and `ROLLBACK TO` as SQLite prepares
  /// it, before it runs (``ScriptChangeCount`` needs them to count the rows a script kept).
  ///
  /// - Throws: ``RefusedStatement`` (reason ``RefusedStatement/Reason/appendOnly(table:)``
  ///   for the append-only rule) when a statement is refused; nothing of it ran. Otherwise what
  ///   `body` throws.
  /// - SQLite: <https://sqlite.org/c3ref/set_authorizer.html>
  public func withScriptGuard<T>(
    appendOnly prefix: String?, onSavepoint: ((SavepointStep) -> Void)? = nil,
    _ body: () throws -> T
  ) throws -> T {
    try withoutActuallyEscaping(onSavepoint ?? { _ in }) { onSavepoint in
      let log = RefusalLog(prefix: prefix?.lowercased(), onSavepoint: onSavepoint)
      return try withScriptGuard(log: log, body)
    }
  }

  private func withScriptGuard<T>(log: RefusalLog, _ body: () throws -> T) throws -> T {
    return try withAuthorizer(
      { context, action, first, second, database, trigger in
        guard let context else { return SQLITE_OK }
        let log = Unmanaged<RefusalLog>.fromOpaque(context).takeUnretainedValue()
        if let refused = log.appendOnlyRefusal(action, first, second, database, trigger) {
          log.reason = .appendOnly(table: refused)
          return SQLITE_DENY
        }
        switch action {
        case SQLITE_SAVEPOINT:
          // `first` is the operation (BEGIN, RELEASE, ROLLBACK), `second` the name.
          if let first, let second,
            let operation = SavepointStep.Operation(rawValue: String(cString: first))
          {
            log.onSavepoint(SavepointStep(operation, name: String(cString: second)))
          }
          return SQLITE_OK
        case SQLITE_TRANSACTION:
          log.reason = .transactionControl
          return SQLITE_DENY
        case SQLITE_PRAGMA:
          // `first` is the pragma's name, `second` its argument (NULL when only read).
          guard let first, second != nil else { return SQLITE_OK }
          let name = String(cString: first).lowercased()
          guard Connection.fileGuardingPragmas.contains(name) else { return SQLITE_OK }
          log.reason = .fileGuardingPragma(name: name)
          return SQLITE_DENY
        case SQLITE_ATTACH, SQLITE_DETACH:
          log.reason = .attach
          return SQLITE_DENY
        default:
          return SQLITE_OK
        }
      }, context: log
    ) {
      do {
        return try body()
      } catch let error as SQLiteError where error.code == .authorization {
        guard let reason = log.reason else { throw error }
        throw RefusedStatement(reason: reason, sql: error.sql)
      }
    }
  }
}

/// What the authorizer callback refused last; handed to SQLite as the callback's context.
private final class RefusalLog {
  var reason: RefusedStatement.Reason?
  /// The append-only tables' name prefix in lower case, or `nil`.
  let prefix: String?
  /// Told of each savepoint statement as it is prepared.
  let onSavepoint: (SavepointStep) -> Void

  init(prefix: String?, onSavepoint: @escaping (SavepointStep) -> Void) {
    self.prefix = prefix
    self.onSavepoint = onSavepoint
  }

  /// The name to report when `action` breaks the append-only rule, else `nil`. `first` and
  /// `second` are the action's names as SQLite documents them, `database` the schema name,
  /// `trigger` the innermost trigger running the access (`nil` at the script's top level).
  func appendOnlyRefusal(
    _ action: Int32, _ first: UnsafePointer<CChar>?, _ second: UnsafePointer<CChar>?,
    _ database: UnsafePointer<CChar>?, _ trigger: UnsafePointer<CChar>?
  ) -> String? {
    guard let prefix else { return nil }
    func protected(_ name: UnsafePointer<CChar>?) -> String? {
      guard let name else { return nil }
      let text = String(cString: name)
      return text.lowercased().hasPrefix(prefix) ? text : nil
    }
    let inMain = database.map { String(cString: $0).lowercased() == "main" } ?? true
    switch action {
    case SQLITE_UPDATE, SQLITE_DELETE, SQLITE_DROP_TABLE:
      // first: the table.
      return inMain ? protected(first) : nil
    case SQLITE_INSERT:
      return inMain && trigger == nil ? protected(first) : nil
    case SQLITE_DROP_INDEX, SQLITE_DROP_TRIGGER:
      // first: the index or trigger; second: its table.
      return inMain ? protected(second) ?? protected(first) : nil
    case SQLITE_CREATE_TRIGGER, SQLITE_CREATE_TEMP_TRIGGER:
      // second: the table the trigger would be on (a temporary trigger may watch main).
      return protected(second)
    case SQLITE_ALTER_TABLE:
      // first: the schema; second: the table.
      let schema = first.map { String(cString: $0).lowercased() } ?? "main"
      return schema == "main" ? protected(second) : nil
    default:
      return nil
    }
  }
}
