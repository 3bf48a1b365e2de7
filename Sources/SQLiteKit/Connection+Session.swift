internal import CSQLite

/// Why a change of a changeset could not be applied as it stands.
///
/// SQLite: <https://sqlite.org/session/c_changeset_conflict.html>
public enum ChangesetConflictKind: String, Sendable {
  /// The row to update or delete exists but its values are not those the change expects
  /// (changed on both sides).
  case data
  /// The row to update or delete does not exist (removed on this side).
  case notFound = "not-found"
  /// The row to insert exists already (the same primary key taken on both sides).
  case conflict
  /// Applying the change would break a constraint (`CHECK`, `NOT NULL`, `UNIQUE`).
  case constraint
  /// Applying the whole changeset would leave foreign keys pointing at nothing.
  case foreignKey = "foreign-key"
}

/// A conflict met while applying a changeset, handed to the resolver of
/// ``Connection/apply(_:resolve:)``.
public struct ChangesetConflict: Sendable, Equatable {
  /// What went wrong.
  public let kind: ChangesetConflictKind
  /// The change being applied (`nil` for ``ChangesetConflictKind/foreignKey``, which concerns
  /// the whole changeset).
  public let change: ChangesetChange?
  /// The row as this database holds it, per column, for ``ChangesetConflictKind/data`` and
  /// ``ChangesetConflictKind/conflict``; empty otherwise.
  public let current: [SQLiteValue?]
  /// How many foreign keys would be broken (``ChangesetConflictKind/foreignKey`` only).
  public let foreignKeyViolations: Int
}

/// What to do about a ``ChangesetConflict``.
public enum ChangesetResolution: Sendable {
  /// Skip this change (for a foreign-key conflict: keep the changes despite it).
  case omit
  /// Overwrite the row with the change (only for ``ChangesetConflictKind/data`` and
  /// ``ChangesetConflictKind/conflict``; anything else is skipped).
  case replace
  /// Undo everything applied so far and stop; ``Connection/apply(_:resolve:)`` throws.
  case abort
}

extension Connection {
  /// Whether the linked SQLite library has the session extension (`SQLITE_ENABLE_SESSION`):
  /// changesets, diffs and their application need it.
  ///
  /// SQLite: <https://sqlite.org/c3ref/compileoption_get.html>
  public static var hasSessionExtension: Bool {
    sqlite3_compileoption_used("ENABLE_SESSION") != 0
  }

  /// Throws unless ``hasSessionExtension``.
  static func requireSessionExtension() throws {
    guard hasSessionExtension else {
      throw SQLiteError(
        extendedCode: .error,
        message: "this SQLite library was built without the session extension")
    }
  }

  /// The changeset that turns `tables` of the attached database `schema` into the same tables
  /// of `main`: rows only in `main` are inserts, rows only in `schema` deletes, rows in both
  /// with other values updates.
  ///
  /// - Parameters:
  ///   - schema: The name an attached database was given (`ATTACH ... AS name`).
  ///   - tables: Tables present in both with the same columns and primary key, in the order
  ///     the changeset lists them.
  /// - Throws: `SQLiteError` when the session extension is missing, a table is missing from
  ///   either database or differs in its columns or primary key (`SQLITE_SCHEMA`).
  /// - SQLite: <https://sqlite.org/session/sqlite3session_diff.html>
  public func changeset(from schema: String, tables: [String]) throws -> Changeset {
    try Self.requireSessionExtension()
    var created: OpaquePointer?
    try check(sqlite3session_create(handle, "main", &created))
    guard let session = created else { throw error(code: SQLITE_NOMEM, sql: nil) }
    defer { sqlite3session_delete(session) }
    for table in tables {
      try check(sqlite3session_attach(session, table))
      var message: UnsafeMutablePointer<CChar>?
      let rc = sqlite3session_diff(session, schema, table, &message)
      if rc != SQLITE_OK {
        let text = message.map { String(cString: $0) } ?? "cannot compare table \(table)"
        sqlite3_free(message)
        throw SQLiteError(extendedCode: ResultCode(rawValue: rc), message: text)
      }
    }
    var size: Int32 = 0
    var buffer: UnsafeMutableRawPointer?
    try check(sqlite3session_changeset(session, &size, &buffer))
    defer { sqlite3_free(buffer) }
    guard let buffer, size > 0 else { return Changeset(bytes: []) }
    return Changeset(bytes: Array(UnsafeRawBufferPointer(start: buffer, count: Int(size))))
  }

  /// Applies `changeset` to `main` as one savepoint, asking `resolve` about each conflict.
  ///
  /// - Parameters:
  ///   - changeset: The changes (``Changeset/changes()`` lists them).
  ///   - resolve: Called for each conflict, in order; ``ChangesetResolution/abort`` undoes
  ///     everything applied.
  /// - Throws: `SQLiteError` with ``ResultCode/abort`` when `resolve` aborted (nothing is
  ///   applied), ``ResultCode/corrupt`` or another code for bytes that are not a changeset, or
  ///   when the session extension is missing.
  /// - SQLite: <https://sqlite.org/session/sqlite3changeset_apply.html>
  public func apply(
    _ changeset: Changeset, resolve: (ChangesetConflict) -> ChangesetResolution
  ) throws {
    try Self.requireSessionExtension()
    guard !changeset.bytes.isEmpty else { return }
    var bytes = changeset.bytes
    try withoutActuallyEscaping(resolve) { resolve in
      let box = ConflictResolver(resolve)
      let rc = bytes.withUnsafeMutableBytes { buffer in
        sqlite3changeset_apply_v2(
          handle, Int32(buffer.count), buffer.baseAddress, nil,
          { context, kind, iterator in
            guard let context, let iterator else { return SQLITE_CHANGESET_ABORT }
            let resolver = Unmanaged<ConflictResolver>.fromOpaque(context).takeUnretainedValue()
            return resolver.answer(kind: kind, iterator: iterator)
          }, Unmanaged.passUnretained(box).toOpaque(), nil, nil, 0)
      }
      try check(rc)
    }
  }
}

/// Carries the resolver of ``Connection/apply(_:resolve:)`` through SQLite's C callback.
private final class ConflictResolver {
  let resolve: (ChangesetConflict) -> ChangesetResolution

  init(_ resolve: @escaping (ChangesetConflict) -> ChangesetResolution) { self.resolve = resolve }

  /// The `SQLITE_CHANGESET_*` answer to a conflict of SQLite's `kind` at `iterator`.
  func answer(kind: Int32, iterator: OpaquePointer) -> Int32 {
    let conflictKind: ChangesetConflictKind
    switch kind {
    case SQLITE_CHANGESET_DATA: conflictKind = .data
    case SQLITE_CHANGESET_NOTFOUND: conflictKind = .notFound
    case SQLITE_CHANGESET_CONFLICT: conflictKind = .conflict
    case SQLITE_CHANGESET_CONSTRAINT: conflictKind = .constraint
    default: conflictKind = .foreignKey
    }
    var change: ChangesetChange?
    var current: [SQLiteValue?] = []
    var violations: Int32 = 0
    if conflictKind == .foreignKey {
      _ = sqlite3changeset_fk_conflicts(iterator, &violations)
    } else {
      change = try? ChangesetChange(iterator)
    }
    if conflictKind == .data || conflictKind == .conflict, let change {
      current = (0..<Int32(change.primaryKey.count)).map { index in
        var value: OpaquePointer?
        guard sqlite3changeset_conflict(iterator, index, &value) == SQLITE_OK, let value else {
          return nil
        }
        return SQLiteValue(value)
      }
    }
    let conflict = ChangesetConflict(
      kind: conflictKind, change: change, current: current,
      foreignKeyViolations: Int(violations))
    switch resolve(conflict) {
    case .abort: return SQLITE_CHANGESET_ABORT
    case .replace where conflictKind == .data || conflictKind == .conflict:
      return SQLITE_CHANGESET_REPLACE
    default: return SQLITE_CHANGESET_OMIT
    }
  }
}
