import CSQLite

/// The baselines' direct line to SQLite: a connection handle and the few C calls a
/// hand-written program makes, with nothing of SQLiteKit in between.
///
/// Failures stop the benchmark at once (`fatalError` with SQLite's message): a baseline that
/// silently did less work would make every ratio a lie.
final class RawSQLite {
  let handle: OpaquePointer

  /// Opens `path` read-write (or read-only) with foreign keys on, as every inspector
  /// connection has them (README "Guarantees"), so both sides check the same constraints.
  init(path: String, readOnly: Bool = false) {
    // The library configuration SQLiteKit's connections make (memory statistics off), which
    // holds for the whole process once SQLite is initialized, whichever side opens first.
    _ = csqlite_config_memstatus(0)
    var db: OpaquePointer?
    let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX
    guard sqlite3_open_v2(path, &db, flags, nil) == SQLITE_OK, let db else {
      fatalError("cannot open \(path)")
    }
    handle = db
    execute("PRAGMA foreign_keys = ON")
    // Read the schema now, as every SQLiteKit connection does when it opens, so that neither
    // side's timing includes parsing it.
    execute("SELECT count(*) FROM sqlite_schema")
  }

  deinit {
    sqlite3_close_v2(handle)
  }

  /// Runs a script, failing loudly.
  func execute(_ sql: String) {
    guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { fail(sql) }
  }

  /// Prepares one statement; the caller finalizes it.
  func prepare(_ sql: String) -> OpaquePointer {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      fail(sql)
    }
    return statement
  }

  /// Steps a statement that returns no rows, then resets it.
  func run(_ statement: OpaquePointer) {
    guard sqlite3_step(statement) == SQLITE_DONE else {
      fail(String(cString: sqlite3_sql(statement)))
    }
    sqlite3_reset(statement)
  }

  /// The names of the triggers whose names start with `prefix`.
  func triggerNames(prefix: String) -> [String] {
    let statement = prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger' ORDER BY name")
    defer { sqlite3_finalize(statement) }
    var names: [String] = []
    while sqlite3_step(statement) == SQLITE_ROW {
      let name = columnText(statement, 0)
      if name.hasPrefix(prefix) { names.append(name) }
    }
    return names
  }

  func fail(_ sql: String) -> Never {
    fatalError("SQLite: \(String(cString: sqlite3_errmsg(handle))) in: \(sql)")
  }
}

/// Binds `text` to parameter `index` with its byte length, copied (`SQLITE_TRANSIENT`), as a
/// hand-written program binding Swift strings must.
@inline(__always)
func bindText(_ statement: OpaquePointer, _ index: Int32, _ text: String) {
  var text = text
  text.withUTF8 { bytes in
    let base = UnsafeRawPointer(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!)
    _ = sqlite3_bind_text(
      statement, index, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count),
      csqlite_transient())
  }
}

/// Column `index` as a Swift string (read with its byte length; NULL is "").
@inline(__always)
func columnText(_ statement: OpaquePointer, _ index: Int32) -> String {
  guard let bytes = sqlite3_column_text(statement, index) else { return "" }
  let count = Int(sqlite3_column_bytes(statement, index))
  return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
}

/// Binds `text` to parameter `index` (1-based) as `bindText` does, or NULL when `text` is `nil`.
func bindOptionalText(_ statement: OpaquePointer, _ index: Int32, _ text: String?) {
  guard let text else {
    sqlite3_bind_null(statement, index)
    return
  }
  bindText(statement, index, text)
}
