internal import CSQLite

/// A changeset of SQLite's session extension: the bytes that turn one version of some tables
/// into another, row by row (inserts, updates with the changed columns, deletes).
///
/// SQLite: <https://sqlite.org/sessionintro.html>
public struct Changeset: Sendable, Equatable {
  /// The changeset as SQLite writes it (`sqlite3session_changeset`); empty for no change.
  public let bytes: [UInt8]

  /// Wraps changeset bytes (from ``Connection/changeset(from:tables:)`` or a file).
  public init(bytes: [UInt8]) { self.bytes = bytes }

  /// Every change, in the changeset's order (table by table, as the tables were given).
  ///
  /// - Throws: `SQLiteError` with ``ResultCode/corrupt`` (or another code) when the bytes are
  ///   not a changeset, and ``ResultCode/error`` when the linked SQLite has no session extension
  ///   (``Connection/hasSessionExtension``).
  /// - SQLite: <https://sqlite.org/session/sqlite3changeset_start.html>
  public func changes() throws -> [ChangesetChange] {
    try Connection.requireSessionExtension()
    guard !bytes.isEmpty else { return [] }
    var copy = bytes
    return try copy.withUnsafeMutableBytes { buffer in
      var iterator: OpaquePointer?
      var rc = sqlite3changeset_start(&iterator, Int32(buffer.count), buffer.baseAddress)
      guard rc == SQLITE_OK, let iterator else {
        throw SQLiteError(
          extendedCode: ResultCode(rawValue: rc), message: "not a changeset (\(rc))")
      }
      defer { sqlite3changeset_finalize(iterator) }
      var changes: [ChangesetChange] = []
      while true {
        rc = sqlite3changeset_next(iterator)
        guard rc == SQLITE_ROW else { break }
        changes.append(try ChangesetChange(iterator))
      }
      guard rc == SQLITE_DONE else {
        throw SQLiteError(
          extendedCode: ResultCode(rawValue: rc), message: "not a changeset, or a damaged one")
      }
      return changes
    }
  }
}

/// One change of a ``Changeset``: a row of one table inserted, updated or deleted.
public struct ChangesetChange: Sendable, Equatable {
  /// What happened to the row.
  public enum Operation: String, Sendable {
    /// A new row: ``ChangesetChange/new`` holds every column.
    case insert
    /// A changed row: ``ChangesetChange/old`` and ``ChangesetChange/new`` hold the primary key
    /// and the changed columns, `nil` for the others.
    case update
    /// A removed row: ``ChangesetChange/old`` holds every column.
    case delete
  }

  /// The table's name.
  public let table: String
  /// Insert, update or delete.
  public let operation: Operation
  /// For each column of the table, in its order, whether it belongs to the primary key.
  public let primaryKey: [Bool]
  /// The values before, per column (`nil`: not part of the change; empty for an insert).
  public let old: [SQLiteValue?]
  /// The values after, per column (`nil`: not part of the change; empty for a delete).
  public let new: [SQLiteValue?]

  /// Creates a change (for tests and for conflicts).
  public init(
    table: String, operation: Operation, primaryKey: [Bool], old: [SQLiteValue?],
    new: [SQLiteValue?]
  ) {
    self.table = table
    self.operation = operation
    self.primaryKey = primaryKey
    self.old = old
    self.new = new
  }

  /// Reads the iterator's current change.
  init(_ iterator: OpaquePointer) throws {
    var name: UnsafePointer<CChar>?
    var columns: Int32 = 0
    var code: Int32 = 0
    var indirect: Int32 = 0
    let rc = sqlite3changeset_op(iterator, &name, &columns, &code, &indirect)
    guard rc == SQLITE_OK, let name else {
      throw SQLiteError(extendedCode: ResultCode(rawValue: rc), message: "damaged changeset")
    }
    table = String(cString: name)
    switch code {
    case SQLITE_INSERT: operation = .insert
    case SQLITE_UPDATE: operation = .update
    default: operation = .delete
    }
    var flags: UnsafeMutablePointer<UInt8>?
    var keyColumns: Int32 = 0
    _ = sqlite3changeset_pk(iterator, &flags, &keyColumns)
    primaryKey = (0..<Int(columns)).map { index in (flags?[index] ?? 0) != 0 }
    func values(_ read: (Int32, UnsafeMutablePointer<OpaquePointer?>) -> Int32) -> [SQLiteValue?] {
      (0..<columns).map { index in
        var value: OpaquePointer?
        guard read(index, &value) == SQLITE_OK, let value else { return nil }
        return SQLiteValue(value)
      }
    }
    old =
      operation == .insert ? [] : values { sqlite3changeset_old(iterator, $0, $1) }
    new =
      operation == .delete ? [] : values { sqlite3changeset_new(iterator, $0, $1) }
  }
}

extension SQLiteValue {
  /// Copies a protected or unprotected `sqlite3_value`.
  init(_ value: OpaquePointer) {
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
    case SQLITE_FLOAT: self = .real(sqlite3_value_double(value))
    case SQLITE_TEXT:
      let count = Int(sqlite3_value_bytes(value))
      let text = sqlite3_value_text(value)
      self = .text(
        text.map { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) }
          ?? "")
    case SQLITE_BLOB:
      let count = Int(sqlite3_value_bytes(value))
      let bytes = sqlite3_value_blob(value)
      self = .blob(
        bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? [])
    default: self = .null
    }
  }
}

extension Changeset {
  /// A changeset of `changes`, in their order, encoded as the session extension writes one
  /// (`sqlite3session_changeset`'s format): a table header before each run of changes of one
  /// table, then each change's old and new records, every change direct. Encoding the
  /// changes ``changes()`` read gives the same bytes back, so a changeset can be filtered
  /// change by change (SQLite's own filter, `sqlite3changeset_apply_v2`'s `xFilter`, takes or
  /// leaves whole tables).
  ///
  /// - Parameter changes: Changes of tables whose column count and primary key each change
  ///   states (``ChangesetChange/primaryKey``; a key of several columns is taken to list them
  ///   in the table's column order, as every case table does); an empty list gives an empty
  ///   changeset.
  /// - SQLite: <https://sqlite.org/src/file/ext/session/sqlite3session.c> ("CHANGESET FORMAT")
  public init(changes: [ChangesetChange]) {
    var bytes: [UInt8] = []
    func varint(_ value: UInt64) {
      // SQLite's varint: 7 bits a byte, most significant first, the high bit marking more.
      var groups: [UInt8] = [UInt8(value & 0x7f)]
      var rest = value >> 7
      while rest > 0 {
        groups.append(UInt8(rest & 0x7f) | 0x80)
        rest >>= 7
      }
      bytes.append(contentsOf: groups.reversed())
    }
    func bigEndian(_ value: UInt64) {
      for shift in stride(from: 56, through: 0, by: -8) {
        bytes.append(UInt8((value >> UInt64(shift)) & 0xff))
      }
    }
    func record(_ values: [SQLiteValue?]) {
      for value in values {
        switch value {
        case .none: bytes.append(0)
        case .integer(let number)?:
          bytes.append(1)
          bigEndian(UInt64(bitPattern: number))
        case .real(let number)?:
          bytes.append(2)
          bigEndian(number.bitPattern)
        case .text(let text)?:
          bytes.append(3)
          varint(UInt64(text.utf8.count))
          bytes.append(contentsOf: text.utf8)
        case .blob(let blob)?:
          bytes.append(4)
          varint(UInt64(blob.count))
          bytes.append(contentsOf: blob)
        case .null?: bytes.append(5)
        }
      }
    }
    var table: (name: String, primaryKey: [Bool])?
    for change in changes {
      if table?.name != change.table || table?.primaryKey != change.primaryKey {
        bytes.append(UInt8(ascii: "T"))
        varint(UInt64(change.primaryKey.count))
        // A key column's byte is its place in the key, from 1 (taken in column order).
        var place: UInt8 = 0
        for isKey in change.primaryKey {
          if isKey { place += 1 }
          bytes.append(isKey ? place : 0)
        }
        bytes.append(contentsOf: change.table.utf8)
        bytes.append(0)
        table = (change.table, change.primaryKey)
      }
      switch change.operation {
      case .insert:
        bytes.append(contentsOf: [0x12, 0])
        record(change.new)
      case .update:
        bytes.append(contentsOf: [0x17, 0])
        record(change.old)
        record(change.new)
      case .delete:
        bytes.append(contentsOf: [0x09, 0])
        record(change.old)
      }
    }
    self.init(bytes: bytes)
  }
}
