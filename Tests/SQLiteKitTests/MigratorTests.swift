import Foundation
import Testing

@testable import SQLiteKit

/// The migrator's rules (README "Operations"): in order, each in its own transaction, recorded,
/// all-or-nothing per migration, drift and newer schemas refused.
@Suite struct MigratorTests {
  // MARK: - Fixtures

  static let initial = Migration(
    version: 1, name: "initial",
    sql: "CREATE TABLE suspect (id INTEGER PRIMARY KEY, name TEXT NOT NULL);")
  static let favorites = Migration(
    version: 2, name: "favourites",
    sql: """
      CREATE TABLE favourite (
        suspect_id INTEGER NOT NULL REFERENCES suspect (id),
        fruit TEXT NOT NULL
      );
      """)
  static let seed = Migration(
    version: 3, name: "seed",
    sql: "INSERT INTO suspect (name) VALUES ('crow'), ('dove'), ('Rénard');")
  static let all = Migrator(migrations: [seed, initial, favorites])

  /// Everything a migration could change: schema, bookkeeping rows and the header's version.
  private struct Snapshot: Equatable {
    let schema: [[SQLiteValue]]
    let records: [[SQLiteValue]]
    let userVersion: Int
    let suspects: [[SQLiteValue]]

    init(_ db: Connection) throws {
      schema = try db.allRows("SELECT type, name, sql FROM sqlite_schema ORDER BY name")
      let bookkept = try db.tableNames().contains("schema_migrations")
      records =
        bookkept ? try db.allRows("SELECT * FROM schema_migrations ORDER BY version") : []
      userVersion = try db.userVersion()
      suspects =
        try db.tableNames().contains("suspect")
        ? try db.allRows("SELECT * FROM suspect ORDER BY id") : []
    }
  }

  /// The highest version recorded in `schema_migrations`, read straight from the table.
  private func recordedVersion(_ db: Connection) throws -> Int64? {
    try db.scalar("SELECT max(version) FROM schema_migrations")?.integerValue
  }

  private func versions(_ db: Connection) throws -> [Int64] {
    try db.allRows("SELECT version FROM schema_migrations ORDER BY version")
      .compactMap { $0.first?.integerValue }
  }

  // MARK: - Applying

  @Test func freshDatabaseAppliesEverythingInOrderAndRecordsIt() throws {
    let db = try Connection(path: ":memory:")
    let before = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    let applied = try Self.all.migrate(db)
    let after = Date()
    #expect(applied.map(\.version) == [1, 2, 3])
    #expect(try db.tableNames() == ["favourite", "schema_migrations", "suspect"])
    #expect(try db.count("suspect") == 3)

    let rows = try db.allRows(
      "SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version")
    #expect(rows.map { $0[0] } == [1, 2, 3])
    #expect(rows.map { $0[1] } == ["initial", "favourites", "seed"])
    // `printf '%s' "$sql" | sha256sum`, computed outside this code base.
    #expect(rows[0][2] == "2324201323511501147b7c41c14706634c7bf54775f099c2267385fceb3e6276")
    #expect(
      rows.map { $0[2] }
        == [Self.initial, Self.favorites, Self.seed].map { .text(sha256Hex(of: $0.sql.utf8)) })
    let formatter = ISO8601DateFormatter()
    for row in rows {
      let appliedAt = row[3].textValue ?? ""
      #expect(appliedAt.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/) != nil)
      let date = formatter.date(from: appliedAt)
      #expect(date != nil)
      if let date {
        #expect(date >= before && date <= after)
      }
    }
    #expect(try recordedVersion(db) == 3)
    #expect(try Self.all.currentVersion(of: db) == 3)
  }

  @Test func checksumIsTheSHA256OfTheSQL() {
    #expect(
      Self.initial.checksum == "2324201323511501147b7c41c14706634c7bf54775f099c2267385fceb3e6276")
    let withNewline = Migration(version: 1, name: "initial", sql: Self.initial.sql + "\n")
    #expect(
      withNewline.checksum == "d754fb44a279bbf6b0a9609e3e245c4c594022ce04aeeafc1ff9de20127fe137")
  }

  @Test func secondRunIsANoOp() throws {
    let db = try Connection(path: ":memory:")
    try Self.all.migrate(db)
    let before = try Snapshot(db)
    #expect(try Self.all.migrate(db) == [])
    #expect(try Snapshot(db) == before)
    #expect(try db.count("suspect") == 3)
    #expect(try Self.all.pendingMigrations(in: db) == [])
  }

  @Test func recordedVersionFollowsTheLatestApplied() throws {
    let db = try Connection(path: ":memory:")
    #expect(try Self.all.currentVersion(of: db) == 0)
    try Self.all.migrate(db, upTo: 1)
    #expect(try recordedVersion(db) == 1)
    try Self.all.migrate(db)
    #expect(try recordedVersion(db) == 3)
    #expect(Self.all.latestVersion == 3)
  }

  @Test func migratesUpToATarget() throws {
    let db = try Connection(path: ":memory:")
    #expect(try Self.all.migrate(db, upTo: 2).map(\.version) == [1, 2])
    #expect(try versions(db) == [1, 2])
    #expect(try recordedVersion(db) == 2)
    #expect(try db.count("suspect") == 0)
    #expect(try Self.all.migrate(db, upTo: 2) == [])
    #expect(try Self.all.migrate(db).map(\.version) == [3])
    #expect(try db.count("suspect") == 3)
  }

  @Test func statusListsAppliedAndPending() throws {
    let db = try Connection(path: ":memory:")
    #expect(try Self.all.status(of: db).map(\.state) == [.pending, .pending, .pending])
    try Self.all.migrate(db, upTo: 1)
    let status = try Self.all.status(of: db)
    #expect(status.map(\.version) == [1, 2, 3])
    #expect(status.map(\.name) == ["initial", "favourites", "seed"])
    #expect(status.map(\.state) == [.applied, .pending, .pending])
    #expect(status[0].appliedAt?.hasSuffix("Z") == true)
    #expect(status[1].appliedAt == nil)
    #expect(try Self.all.pendingMigrations(in: db).map(\.version) == [2, 3])
  }

  @Test func statusWorksOnAReadOnlyConnection() throws {
    try withTemporaryDirectory { directory in
      let path = directory.file("case.sqlite")
      do {
        _ = try Connection(path: path, mode: .readWriteCreate)
        let reader = try Connection(path: path, mode: .readOnly)
        #expect(try Self.all.status(of: reader).map(\.state) == [.pending, .pending, .pending])
      }
      do {
        let writer = try Connection(path: path, mode: .readWrite)
        try Self.all.migrate(writer, upTo: 2)
      }
      let reader = try Connection(path: path, mode: .readOnly)
      #expect(try Self.all.status(of: reader).map(\.state) == [.applied, .applied, .pending])
      #expect(try Self.all.currentVersion(of: reader) == 2)
    }
  }

  @Test(arguments: [nil, 2] as [Int?])
  func dryRunChangesNothing(target: Int?) throws {
    let db = try Connection(path: ":memory:")
    let empty = try Snapshot(db)
    let wouldApply = try Self.all.migrate(db, upTo: target, dryRun: true)
    #expect(wouldApply.map(\.version) == (target == nil ? [1, 2, 3] : [1, 2]))
    #expect(try Snapshot(db) == empty)
    #expect(try db.tableNames() == [])

    try Self.all.migrate(db, upTo: 1)
    let partial = try Snapshot(db)
    let rest = try Self.all.migrate(db, upTo: target, dryRun: true)
    #expect(rest.map(\.version) == (target == nil ? [2, 3] : [2]))
    #expect(try Snapshot(db) == partial)
  }

  // MARK: - Failures

  @Test func failingMigrationLeavesTheDatabaseAsBeforeIt() throws {
    let broken = Migration(
      version: 2, name: "broken",
      sql: """
        CREATE TABLE alibi (suspect_id INTEGER, place TEXT);
        INSERT INTO alibi VALUES (1, 'orchard');
        SELEC oops;
        """)
    let db = try Connection(path: ":memory:")
    try Migrator(migrations: [Self.initial]).migrate(db)
    let before = try Snapshot(db)

    let error = #expect(throws: MigrationError.self) {
      try Migrator(migrations: [Self.initial, broken, Self.seed]).migrate(db)
    }
    guard case .failed(let version, let name, let cause) = error else {
      Issue.record("expected .failed, got \(String(describing: error))")
      return
    }
    #expect(version == 2)
    #expect(name == "broken")
    #expect(cause.code == .error)
    #expect(cause.message.contains("syntax error"))
    #expect(try Snapshot(db) == before)
    #expect(try db.tableNames() == ["schema_migrations", "suspect"])
    #expect(try versions(db) == [1])
    #expect(try recordedVersion(db) == 1)
    #expect(db.isAutocommit)
    #expect(try db.scalar("PRAGMA foreign_keys") == .integer(1))
  }

  @Test func failingSecondMigrationOfAFreshRunKeepsTheFirst() throws {
    let broken = Migration(
      version: 2, name: "refused",
      sql: """
        CREATE TABLE alibi (place TEXT);
        INSERT INTO suspect (name) VALUES (NULL);
        """)
    let db = try Connection(path: ":memory:")
    let error = #expect(throws: MigrationError.self) {
      try Migrator(migrations: [Self.initial, broken]).migrate(db)
    }
    guard case .failed(2, "refused", let cause) = error else {
      Issue.record("expected .failed(2, refused), got \(String(describing: error))")
      return
    }
    #expect(cause.extendedCode.rawValue == 1299)
    #expect(try db.tableNames() == ["schema_migrations", "suspect"])
    #expect(try versions(db) == [1])
    #expect(try recordedVersion(db) == 1)
    #expect(try db.count("suspect") == 0)
  }

  @Test func foreignKeyViolationIsRolledBack() throws {
    let orphans = Migration(
      version: 3, name: "orphans",
      sql: """
        PRAGMA defer_foreign_keys = ON;
        INSERT INTO suspect (id, name) VALUES (1, 'crow');
        INSERT INTO favourite VALUES (99, 'fig');
        """)
    let db = try Connection(path: ":memory:")
    try Migrator(migrations: [Self.initial, Self.favorites]).migrate(db)
    let before = try Snapshot(db)

    let error = #expect(throws: MigrationError.self) {
      try Migrator(migrations: [Self.initial, Self.favorites, orphans]).migrate(db)
    }
    #expect(
      error
        == .foreignKeyViolation(
          version: 3, name: "orphans",
          violations: [ForeignKeyViolation(table: "favourite", rowID: 1, parent: "suspect")]))
    #expect(
      error?.description
        == "migration 3 (orphans) left 1 foreign key violation(s): favourite row 1 -> suspect;"
        + " nothing was changed")
    #expect(try db.scalar("PRAGMA foreign_keys") == .integer(1))
    #expect(try Snapshot(db) == before)
    #expect(try db.count("favourite") == 0)
    #expect(try db.count("suspect") == 0)
    #expect(try versions(db) == [1, 2])
    // Foreign keys are still enforced at once afterwards.
    let orphan = #expect(throws: SQLiteError.self) {
      try db.execute("INSERT INTO favourite VALUES (99, 'fig')")
    }
    #expect(orphan?.extendedCode.rawValue == 787)
  }

  @Test func migrationRunsWithForeignKeysOffAndEndsWithThemOn() throws {
    let probe = Migration(
      version: 3, name: "probe",
      sql: "CREATE TABLE probe AS SELECT foreign_keys FROM pragma_foreign_keys;")
    let db = try Connection(path: ":memory:")
    try Migrator(migrations: [Self.initial, Self.favorites, probe]).migrate(db)
    #expect(try db.allRows("SELECT * FROM probe") == [[0]])
    #expect(try db.scalar("PRAGMA foreign_keys") == .integer(1))
  }

  @Test func migrateInsideATransactionIsRefused() throws {
    let db = try Connection(path: ":memory:")
    let error = #expect(throws: SQLiteError.self) {
      try db.inTransaction { try Self.all.migrate(db) }
    }
    #expect(error?.code == .misuse)
    #expect(try db.tableNames() == [])
    #expect(try db.scalar("PRAGMA foreign_keys") == .integer(1))
  }

  @Test func driftIsReportedAndBlocksMigrate() throws {
    let db = try Connection(path: ":memory:")
    try Migrator(migrations: [Self.initial]).migrate(db)
    let before = try Snapshot(db)
    let edited = Migration(
      version: 1, name: "initial",
      sql: "CREATE TABLE suspect (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER);")
    let migrator = Migrator(migrations: [edited, Self.favorites])

    #expect(try migrator.status(of: db).map(\.state) == [.drift, .pending])
    #expect(throws: MigrationError.drift(versions: [1])) { try migrator.migrate(db) }
    #expect(throws: MigrationError.drift(versions: [1])) { try migrator.migrate(db, dryRun: true) }
    #expect(throws: MigrationError.drift(versions: [1])) { try migrator.validate(db) }
    #expect(try Snapshot(db) == before)
    #expect(try db.tableNames() == ["schema_migrations", "suspect"])
  }

  @Test func newerDatabaseIsRefused() throws {
    let db = try Connection(path: ":memory:")
    try Migrator(migrations: [Self.initial, Self.favorites]).migrate(db)
    let before = try Snapshot(db)
    let older = Migrator(migrations: [Self.initial])

    let expected = MigrationError.newerSchema(databaseVersion: 2, knownVersion: 1)
    #expect(throws: expected) { try older.migrate(db) }
    #expect(throws: expected) { try older.migrate(db, dryRun: true) }
    #expect(throws: expected) { try older.validate(db) }
    let status = try older.status(of: db)
    #expect(status.map(\.version) == [1, 2])
    #expect(status.map(\.state) == [.applied, .unknown])
    #expect(status[1].name == "favourites")
    #expect(try Snapshot(db) == before)
  }

  @Test(arguments: [0, 4, 7, -1])
  func unknownTargetIsRefused(target: Int) throws {
    let db = try Connection(path: ":memory:")
    #expect(throws: MigrationError.unknownTarget(version: target)) {
      try Self.all.migrate(db, upTo: target)
    }
    #expect(try db.tableNames() == [])
  }

  @Test func errorDescriptionsNameTheMigration() {
    #expect(
      MigrationError.drift(versions: [1, 3]).description
        == "migration drift: applied migration(s) 1, 3 changed since they were applied")
    let dangling = (1...5).map {
      ForeignKeyViolation(table: "favourite", rowID: Int64($0), parent: "suspect")
    }
    #expect(
      MigrationError.foreignKeyViolation(version: 3, name: "orphans", violations: dangling)
        .description
        == "migration 3 (orphans) left 5 foreign key violation(s): favourite row 1 -> suspect,"
        + " favourite row 2 -> suspect, favourite row 3 -> suspect and 2 more; nothing was"
        + " changed")
    #expect(MigrationError.unknownTarget(version: 9).description == "no migration with version 9")
  }

  // MARK: - Concurrency

  /// What each thread's migrator reported.
  private final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<[Int], any Error>] = []

    func record(_ result: Result<[Int], any Error>) {
      lock.withLock { results.append(result) }
    }

    var all: [Result<[Int], any Error>] { lock.withLock { results } }
  }

  @Test(arguments: 1...3)
  func twoMigratorsOnTwoConnectionsApplyEachMigrationOnce(round: Int) throws {
    let migrator = Migrator(migrations: [
      Migration(
        version: 1, name: "tables",
        sql: "CREATE TABLE tally (note TEXT NOT NULL); CREATE TABLE filler (i INTEGER);"),
      Migration(
        version: 2, name: "slow",
        sql: """
          INSERT INTO tally VALUES ('applied 2');
          WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 20000)
          INSERT INTO filler SELECT i FROM c;
          """),
      Migration(version: 3, name: "once", sql: "INSERT INTO tally VALUES ('applied 3');"),
    ])
    try withTemporaryDirectory { directory in
      let path = directory.file("case.sqlite")
      _ = try Connection(path: path, mode: .readWriteCreate)
      let outcomes = Outcomes()
      let ready = DispatchSemaphore(value: 0)
      let go = DispatchSemaphore(value: 0)
      let done = DispatchGroup()
      for _ in 0..<2 {
        done.enter()
        let thread = Thread {
          defer { done.leave() }
          let result = Result { () throws -> [Int] in
            let connection: Connection
            do {
              connection = try Connection(path: path, mode: .readWrite)
            } catch {
              ready.signal()
              throw error
            }
            ready.signal()
            go.wait()
            return try migrator.migrate(connection).map(\.version)
          }
          outcomes.record(result)
        }
        thread.start()
      }
      ready.wait()
      ready.wait()
      go.signal()
      go.signal()
      #expect(done.wait(timeout: .now() + 120) == .success)

      var appliedVersions: [Int] = []
      for outcome in outcomes.all {
        switch outcome {
        case .success(let versions): appliedVersions += versions
        case .failure(let error): Issue.record("a migrator failed: \(error)")
        }
      }
      #expect(appliedVersions.sorted() == [1, 2, 3])

      let db = try Connection(path: path, mode: .readOnly)
      #expect(try db.count("schema_migrations") == 3)
      #expect(try versions(db) == [1, 2, 3])
      #expect(
        try db.allRows("SELECT note FROM tally ORDER BY note") == [["applied 2"], ["applied 3"]])
      #expect(try db.count("filler") == 20_000)
      #expect(try recordedVersion(db) == 3)
    }
  }
}
