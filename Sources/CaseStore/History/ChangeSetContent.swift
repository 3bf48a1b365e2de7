import SQLiteKit

/// One piece of a change set's canonical content, as the history's seals hash it
/// (docs/history.md "Tamper evidence"): a change set's own fields, then each of its changes,
/// then what it reverted (for an undo or a redo).
enum ChangeSetContent: Equatable {
  /// A change set begins: its row of `history_change_sets`.
  case changeSet(id: Int64, at: String, actor: String?, note: String?, grouping: String)
  /// One change of the change set begun last, in recording order: every value the history
  /// stores for it, in a fixed order, each as stored (its storage class kept).
  case change([SQLiteValue])
  /// A change set that the change set begun last (an undo or a redo) reverted, and how
  /// (`undo` or `redo`): its rows of `history_reverts`, in ascending order of the reverted id.
  case reverted(changeSet: Int64, kind: String)
}

extension ChangeSetContent {
  /// Hands the canonical content of every change set whose id is greater than `after` to
  /// `visit`, in id order: each change set's ``changeSet(id:at:actor:note:grouping:)``
  /// followed by its ``change(_:)`` pieces in recording order (none for a change set that
  /// recorded nothing), then its ``reverted(changeSet:kind:)`` pieces. One read of those change
  /// sets, streamed (a change set's changes are never held together), and one index seek of
  /// `history_reverts` per change set.
  ///
  /// The one place that knows how the history stores a change. Today a change is its
  /// `history_changes` row without its id and change set: `table_id`, `key1`, `key2`,
  /// `operation`, `v1` ... `v6`.
  ///
  /// - Parameters:
  ///   - connection: The case file, in a transaction (a snapshot) of the caller's.
  ///   - after: Only change sets with a greater id (`Int64.min` for all).
  ///   - visit: Receives each piece; what it throws stops the read.
  /// - Throws: `SQLiteError`, or what `visit` throws.
  static func forEach(
    in connection: Connection, after: Int64, _ visit: (ChangeSetContent) throws -> Void
  ) throws {
    try forEachInPlace(in: connection, after: after) { piece in
      switch piece {
      case .piece(let piece): try visit(piece)
      case .change(let stored): try visit(.change(stored.values))
      }
    }
  }

  /// A piece as ``forEachInPlace(in:after:_:)`` hands it over: a change's values are not copied
  /// out of the statement reading them (what sealing and verifying a million changes need).
  enum InPlace {
    /// A change set's fields, or what it reverted.
    case piece(ChangeSetContent)
    /// ``ChangeSetContent/change(_:)``, read in place: valid only during the call.
    case change(StoredValues)
  }

  /// ``forEach(in:after:_:)`` with each change's values left in place (``InPlace``).
  ///
  /// - Throws: `SQLiteError`, or what `visit` throws.
  static func forEachInPlace(
    in connection: Connection, after: Int64, _ visit: (InPlace) throws -> Void
  ) throws {
    // The change sets and their changes are read side by side in id order: ids ascend with
    // change sets, so each change set's changes follow those of the one before, up to the
    // next one's first change (``ChangeSetBounds``). A change added by hand, or a bound
    // moved, is read as part of the change set whose range it falls in, whose seal then no
    // longer matches; a change before the first change set's is read as the first's.
    let sets = try connection.cachedStatement(
      """
      SELECT id, at, actor, note, grouping FROM history_change_sets WHERE id > ? ORDER BY id
      """)
    try sets.bind([after])
    // Every change for the whole history (verification), not only those the search finds.
    let bounds = ChangeSetBounds(connection: connection)
    let first: Int64 =
      switch after {
      case .min: .min
      case .max: .max
      default: try bounds.firstChange(from: after + 1)
      }
    let changes = try connection.cachedStatement(
      """
      SELECT id, NULL, table_id, key1, key2, operation, v1, v2, v3, v4, v5, v6
      FROM history_changes WHERE id >= ? ORDER BY id
      """)
    try changes.bind([first])
    var pending = try changes.step()
    let reverts = try connection.cachedStatement(
      """
      SELECT reverted_change_set_id, kind FROM history_reverts
      WHERE change_set_id = ? ORDER BY reverted_change_set_id
      """)
    while try sets.step() {
      let id = sets.int64(at: 0)
      try visit(
        .piece(
          .changeSet(
            id: id, at: sets.text(at: 1), actor: sets.optionalText(at: 2),
            note: sets.optionalText(at: 3), grouping: sets.text(at: 4))))
      // The next change set's first change ends this one's (the last one's is past the end).
      let end = id < .max ? try bounds.firstChange(from: id + 1) : .max
      while pending, changes.int64(at: 0) < end {
        try visit(.change(StoredValues(statement: changes, idColumn: 0, columns: 2...11)))
        pending = try changes.step()
      }
      try reverts.bind([id])
      while try reverts.step() {
        try visit(
          .piece(.reverted(changeSet: reverts.int64(at: 0), kind: reverts.text(at: 1))))
      }
      reverts.reset()
    }
  }
}

/// One change's stored values where the statement reading them holds them, so that hashing a
/// million changes copies none (``ChangeSetContent/InPlace/change(_:)``). Valid only until the
/// statement steps on.
struct StoredValues {
  /// The statement, on the change's row.
  let statement: Statement
  /// The column that holds the change's id (`history_changes.id`), which is not content.
  let idColumn: Int
  /// The columns that hold the values, in order.
  let columns: ClosedRange<Int>

  /// The values, copied out in their storage classes.
  var values: [SQLiteValue] { columns.map { statement.value(at: $0) } }

  /// A change's values in ``order``, as SQLite holds them: what a pass over millions of
  /// changes reads once and hands on without allocating or counting references. Valid only
  /// during the call that hands it over.
  typealias Raw = UnsafeBufferPointer<Statement.RawValue>

  /// Calls `body` with the values as ``Statement/rawValue(at:)`` reads them, in ``order``, in
  /// a buffer on the stack.
  func withRaw<Result>(_ body: (Raw) throws -> Result) rethrows -> Result {
    try withUnsafeTemporaryAllocation(of: Statement.RawValue.self, capacity: columns.count) {
      buffer in
      for (index, column) in columns.enumerated() {
        buffer.initializeElement(at: index, to: statement.rawValue(at: column))
      }
      return try body(UnsafeBufferPointer(buffer))
    }
  }

  /// The change's id.
  var changeID: Int64 { statement.int64(at: idColumn) }

  /// The column holding the `history_changes` column `name` (`table_id`, `key1`, `key2`,
  /// `operation`, `v1` ... `v6`), in the order ``ChangeSetContent/forEachInPlace(in:after:_:)``
  /// reads them.
  func column(_ name: String) -> Int {
    columns.lowerBound + StoredValues.order.firstIndex(of: name)!
  }

  /// The `history_changes` columns of a change's content, in order.
  static let order = ["table_id", "key1", "key2", "operation", "v1", "v2", "v3", "v4", "v5", "v6"]
}
