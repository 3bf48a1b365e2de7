import Testing

@testable import SQLiteKit

/// Changesets of SQLite's session extension: a diff between two databases read back change by
/// change, applied to a copy, and conflicts reported as SQLite finds them.
@Suite struct ChangesetTests {
  /// `main` and an attached `other` with the same table and different rows.
  func makePair() throws -> Connection {
    let connection = try Connection(path: ":memory:")
    try connection.execute(
      """
      ATTACH ':memory:' AS other;
      CREATE TABLE main.t (id INTEGER PRIMARY KEY, name TEXT, level REAL, photo BLOB);
      CREATE TABLE other.t (id INTEGER PRIMARY KEY, name TEXT, level REAL, photo BLOB);
      INSERT INTO other.t VALUES (1, 'Catie', 0.2, NULL), (2, 'Ding', 0.5, x'00ff'), (3, 'Miko', NULL, NULL);
      INSERT INTO main.t VALUES (1, 'Catie', 0.9, NULL), (3, 'Miko', NULL, NULL), (4, 'Nia', NULL, x'01');
      """)
    return connection
  }

  /// The changeset of `t` from `other` to `main` of `makePair()`; needs the session extension.
  func pairChangeset() throws -> Changeset {
    try #require(Connection.hasSessionExtension)
    return try makePair().changeset(from: "other", tables: ["t"])
  }

  /// A separate in-memory database with the pair's table `t` holding `rows` (an SQL VALUES
  /// list), to apply a changeset to.
  func makeTarget(rows: String) throws -> Connection {
    let target = try Connection(path: ":memory:")
    try target.execute(
      """
      CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, level REAL, photo BLOB);
      INSERT INTO t VALUES \(rows);
      """)
    return target
  }

  /// Every row `sql` reads on `connection`, in order.
  func rows(of connection: Connection, _ sql: String) throws -> [[SQLiteValue]] {
    let statement = try connection.prepare(sql)
    var read: [[SQLiteValue]] = []
    while try statement.step() { read.append(statement.row()) }
    return read
  }

  @Test func diffListsInsertsUpdatesAndDeletesWithTheirValues() throws {
    try #require(Connection.hasSessionExtension)
    let connection = try makePair()
    let changes = try connection.changeset(from: "other", tables: ["t"]).changes()
    let sorted = changes.sorted {
      ($0.old.first ?? $0.new.first)??.integerValue ?? 0 < ($1.old.first ?? $1.new.first)??
        .integerValue ?? 0
    }
    #expect(sorted.map(\.operation) == [.update, .delete, .insert])
    #expect(sorted.allSatisfy { $0.table == "t" && $0.primaryKey == [true, false, false, false] })
    #expect(sorted[0].old == [.integer(1), nil, .real(0.2), nil])
    #expect(sorted[0].new == [nil, nil, .real(0.9), nil])
    #expect(sorted[1].old == [.integer(2), .text("Ding"), .real(0.5), .blob([0, 255])])
    #expect(sorted[2].new == [.integer(4), .text("Nia"), .null, .blob([1])])
  }

  @Test func applyingTheDiffToTheOtherSideMakesThemEqual() throws {
    let changeset = try pairChangeset()
    let target = try makeTarget(
      rows: "(1, 'Catie', 0.2, NULL), (2, 'Ding', 0.5, x'00ff'), (3, 'Miko', NULL, NULL)")
    var conflicts: [ChangesetConflict] = []
    try target.apply(changeset) {
      conflicts.append($0); return .abort
    }
    #expect(conflicts.isEmpty)
    #expect(
      try rows(of: target, "SELECT id, name, level, photo FROM t ORDER BY id") == [
        [.integer(1), .text("Catie"), .real(0.9), .null],
        [.integer(3), .text("Miko"), .null, .null],
        [.integer(4), .text("Nia"), .null, .blob([1])],
      ])
  }

  /// Encoding the changes read from a changeset gives its bytes back, for every operation,
  /// every value type, a text longer than one varint byte and two tables; a subset encodes
  /// to a changeset that reads back as that subset.
  @Test func changesEncodeBackToTheSameBytes() throws {
    try #require(Connection.hasSessionExtension)
    let connection = try makePair()
    let long = String(repeating: "é", count: 200)
    try connection.execute(
      """
      UPDATE main.t SET name = '\(long)', level = -1.5 WHERE id = 3;
      CREATE TABLE main.u (a TEXT, b INTEGER, c, PRIMARY KEY (a, b));
      CREATE TABLE other.u (a TEXT, b INTEGER, c, PRIMARY KEY (a, b));
      INSERT INTO main.u VALUES ('x', -9223372036854775808, 1.0e300), ('y', 7, NULL);
      INSERT INTO other.u VALUES ('y', 7, x'');
      """)
    let changeset = try connection.changeset(from: "other", tables: ["t", "u"])
    let changes = try changeset.changes()
    #expect(changes.count == 6)
    #expect(Changeset(changes: changes).bytes == changeset.bytes)
    let some = [changes[0], changes[4]]
    #expect(try Changeset(changes: some).changes() == some)
    #expect(Changeset(changes: []).bytes.isEmpty)
  }

  @Test func conflictsAreReportedAndAnAbortLeavesEverythingAsItWas() throws {
    let changeset = try pairChangeset()
    // Row 1 changed here too (data), row 2 already gone (not found), id 4 taken (conflict).
    let target = try makeTarget(
      rows: "(1, 'Catie', 0.4, NULL), (3, 'Miko', NULL, NULL), (4, 'Oskar', NULL, NULL)")
    var kinds: [ChangesetConflictKind] = []
    var currentOfData: [SQLiteValue?] = []
    #expect(throws: SQLiteError.self) {
      try target.apply(changeset) { conflict in
        kinds.append(conflict.kind)
        if conflict.kind == .data { currentOfData = conflict.current }
        return kinds.count == 3 ? .abort : .omit
      }
    }
    #expect(Set(kinds) == [.data, .notFound, .conflict])
    #expect(currentOfData == [.integer(1), .text("Catie"), .real(0.4), .null])
    #expect(
      try rows(of: target, "SELECT id, level FROM t ORDER BY id") == [
        [.integer(1), .real(0.4)], [.integer(3), .null], [.integer(4), .null],
      ])
  }

  @Test func bytesThatAreNotAChangesetAreRefused() throws {
    try #require(Connection.hasSessionExtension)
    #expect(throws: SQLiteError.self) {
      try Changeset(bytes: Array("SQLite format 3\u{0}not a changeset".utf8)).changes()
    }
    #expect(try Changeset(bytes: []).changes().isEmpty)
  }

  /// The session extension returns its codes without setting the connection's error, whose
  /// message then still reads "not an error": the error says what the code means instead.
  @Test func aFailedApplyIsNeverReportedAsNotAnError() throws {
    try #require(Connection.hasSessionExtension)
    let target = try Connection(path: ":memory:")
    try target.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
    // A table header for `t` with one column, then an insert whose value is cut off.
    let damaged = Changeset(bytes: [0x54, 0x01, 0x01, 0x74, 0x00, 0x12, 0x00, 0x01])
    do {
      try target.apply(damaged) { _ in .omit }
      Issue.record("a damaged changeset was applied")
    } catch let error as SQLiteError {
      #expect(error.message != "not an error")
      #expect(error.message == "database disk image is malformed")
    }
  }
}
