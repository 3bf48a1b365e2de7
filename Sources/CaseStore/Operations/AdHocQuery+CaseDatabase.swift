import SQLiteKit

extension AdHocQuery {
  /// Runs the script on an open case file as one unit of work (`inspector sql --write`): one
  /// transaction, one change set of the history with `attribution`'s actor and note. Unlike
  /// ``CaseDatabase/write(_:_:)`` it does not re-fold other clients' keys first, so that it
  /// works on a file whose schema is damaged (which it may be run to repair).
  ///
  /// - Parameters:
  ///   - database: A case database opened for writing, with no unit of work open.
  ///   - attribution: Who runs the script and why; `nil` records no actor or note.
  /// - Returns: The result.
  /// - Throws: ``UnitOfWorkError/alreadyOpen`` inside another unit of work; what
  ///   ``run(on:write:)`` throws for a write run; nothing is changed then.
  public func run(writingTo database: CaseDatabase, attribution: ChangeAttribution?) throws
    -> Result
  {
    try database.writeWithoutRefold(attribution) {
      try run(on: database.connection, write: true)
    }
  }

  /// Opens the file at `path` as ``openReadOnly(path:busyTimeout:)`` does and runs the script
  /// on it without changing anything.
  ///
  /// - Parameters:
  ///   - path: The case file.
  ///   - busyTimeout: Milliseconds to wait for another connection's lock.
  /// - Returns: The result.
  /// - Throws: What ``openReadOnly(path:busyTimeout:)`` and ``run(on:write:)`` throw for a
  ///   read-only run (``ReadOnlyViolation`` for a statement that would write).
  public func run(readingAt path: String, busyTimeout: Int) throws -> Result {
    let connection = try Self.openReadOnly(path: path, busyTimeout: busyTimeout)
    return try run(on: connection, write: false)
  }
}

extension AdHocQuery {
  /// Runs the script read-only on the file at `path`, as ``run(readingAt:busyTimeout:)`` does,
  /// handing on the result's rows a page at a time: those of the script's last statement as
  /// SQLite steps it, so memory stays flat however many rows it returns (docs/output-formats.md
  /// "Streaming"), or, when a statement returning rows is followed by others that return none,
  /// its collected rows at the end.
  ///
  /// - Parameters:
  ///   - path: The case file.
  ///   - busyTimeout: Milliseconds to wait for another connection's lock.
  ///   - size: Rows per page (1 or more; 1,000 by default).
  ///   - columns: Called once with the result's column names before its first page; never
  ///     when no statement returns rows.
  ///   - page: Called with each page of rows (never an empty one), each row as many values as
  ///     columns.
  /// - Throws: What ``run(readingAt:busyTimeout:)`` throws, or what `columns` or `page` throws
  ///   (which stops the statement).
  public func stream(
    readingAt path: String, busyTimeout: Int, size: Int = 1000,
    columns: ([String]) throws -> Void, page: ([[AdHocValue]]) throws -> Void
  ) throws {
    let connection = try Self.openReadOnly(path: path, busyTimeout: busyTimeout)
    // The handler is an optional closure, so formally escaping; it never outlives this call.
    let result = try withoutActuallyEscaping(columns) { columns in
      try withoutActuallyEscaping(page) { page in
        try run(on: connection, write: false) { statement in
          try columns(statement.columnNames)
          let indices = 0..<statement.columnCount
          try statement.forEachPage(
            size: size, record: { _ in indices.map { AdHocValue(statement.value(at: $0)) } },
            page)
        }
      }
    }
    guard !result.streamed, !result.columns.isEmpty else { return }
    try columns(result.columns)
    try result.values.forEachPage(size: size, page)
  }
}

extension AdHocQuery.Result {
  /// ``rows`` as case-store values, row by row.
  public var values: [[AdHocValue]] { rows.map { $0.map(AdHocValue.init) } }
}
