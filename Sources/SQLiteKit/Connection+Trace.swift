internal import CSQLite

extension Connection {
  /// Calls `observer` with the SQL text of each statement as it starts to run on this
  /// connection, or stops tracing when `observer` is `nil`.
  ///
  /// The text is the statement as it was prepared, parameters unexpanded (`?`), so bound values
  /// never reach the observer; a statement run by a trigger is reported as an SQL comment
  /// naming the trigger (`-- TRIGGER name`). Meant for diagnostics and benchmarks, such as
  /// running `EXPLAIN QUERY PLAN` on every statement a command executes. The observer runs on
  /// the thread that steps the statement, before the first row; it must not use this connection.
  ///
  /// - Throws: `SQLiteError` when SQLite refuses to install or remove the callback (the
  ///   previous observer then stays in place).
  /// - SQLite: <https://sqlite.org/c3ref/trace_v2.html>
  public func traceStatements(_ observer: ((String) -> Void)?) throws {
    guard let observer else {
      try check(sqlite3_trace_v2(handle, 0, nil, nil))
      statementObserver = nil
      return
    }
    let box = StatementObserver(observer)
    try check(
      sqlite3_trace_v2(
        handle, UInt32(SQLITE_TRACE_STMT),
        { _, context, _, text in
          guard let context, let text else { return 0 }
          let observer = Unmanaged<StatementObserver>.fromOpaque(context).takeUnretainedValue()
          observer.body(String(cString: text.assumingMemoryBound(to: CChar.self)))
          return 0
        }, Unmanaged.passUnretained(box).toOpaque()))
    statementObserver = box
  }
}

/// The closure given to ``Connection/traceStatements(_:)``, boxed so that SQLite's C callback
/// can reach it through a context pointer.
final class StatementObserver {
  let body: (String) -> Void

  init(_ body: @escaping (String) -> Void) {
    self.body = body
  }
}
