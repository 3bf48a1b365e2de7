/// A `SAVEPOINT`, `RELEASE` or `ROLLBACK TO` statement, as SQLite's authorizer reports it while
/// preparing the statement (`SQLITE_SAVEPOINT`, with the operation and the savepoint's name).
///
/// SQLite: <https://sqlite.org/c3ref/c_alter_table.html>, <https://sqlite.org/lang_savepoint.html>
public struct SavepointStep: Equatable, Sendable {
  /// What the statement does to the savepoint.
  public enum Operation: String, Sendable {
    /// `SAVEPOINT name`: opens a savepoint.
    case begin = "BEGIN"
    /// `RELEASE [SAVEPOINT] name`: keeps what was done since, and closes it and every savepoint
    /// opened after it.
    case release = "RELEASE"
    /// `ROLLBACK [TRANSACTION] TO [SAVEPOINT] name`: undoes what was done since, and keeps it
    /// open (savepoints opened after it close).
    case rollback = "ROLLBACK"
  }

  /// What the statement does.
  public let operation: Operation
  /// The savepoint's name as written (SQLite compares names ignoring the case of ASCII letters).
  public let name: String

  /// Creates a step.
  public init(_ operation: Operation, name: String) {
    self.operation = operation
    self.name = name
  }
}

/// The rows a script changed and kept: the sum of each statement's `sqlite3_changes()`, less
/// what a `ROLLBACK TO` undid (`sql --write`'s `N row(s) changed`). SQLite's own counters never
/// go back, so a script that inserts a row and rolls it back to a savepoint counted one row.
///
/// Feed it each statement in order: ``statementChanged(_:)`` for a data change, ``apply(_:)``
/// for a savepoint statement. A `RELEASE` or `ROLLBACK TO` of a name no open savepoint has
/// (SQLite refuses it: "no such savepoint") changes nothing.
public struct ScriptChangeCount: Sendable {
  /// The rows changed so far that no `ROLLBACK TO` undid.
  public private(set) var total = 0
  /// The open savepoints, oldest first, each with ``total`` when it opened.
  private var open: [(name: String, total: Int)] = []

  /// An empty count.
  public init() {}

  /// Whether two savepoint names are one to SQLite: equal ignoring the case of ASCII letters
  /// only (`É` and `é` are two savepoints).
  static func sameName(_ left: String, _ right: String) -> Bool {
    func folded(_ name: String) -> [UInt8] {
      name.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
    }
    return folded(left) == folded(right)
  }

  /// Adds a statement's changed rows (`sqlite3_changes()` after it ran).
  public mutating func statementChanged(_ rows: Int) {
    total += rows
  }

  /// Applies a savepoint statement that ran.
  public mutating func apply(_ step: SavepointStep) {
    if step.operation == .begin {
      open.append((step.name, total))
      return
    }
    guard let index = open.lastIndex(where: { Self.sameName($0.name, step.name) }) else { return }
    if step.operation == .rollback {
      total = open[index].total
      open.removeSubrange((index + 1)...)
    } else {
      open.removeSubrange(index...)
    }
  }
}
