import Foundation
import SQLiteKit
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A case file in a directory the user cannot write: reading commands and `backup` work (the
/// connection opens `immutable=1`, since SQLite cannot create the WAL's `-shm` there), writes
/// fail with exit 74 and change nothing.
///
/// Root ignores directory permissions, so as root the built binary runs as user and group
/// 65534 (`nobody`) through `setpriv`, on a copy owned by that user in a directory of mode
/// 0555; as any other user it runs directly.
///
/// SQLite: <https://sqlite.org/wal.html#readonly>, <https://sqlite.org/uri.html>
@Suite struct ReadOnlyDirectoryTests {
  /// A seeded case copied into `case dir/` (mode 0555) with a writable sibling `out/`, both
  /// owned by the user the binary runs as.
  final class Fixture {
    let cli: CLITestCase
    let top: String
    let database: String
    let output: String

    init() throws {
      cli = try CLITestCase(seeded: true)
      // A space and a `#` in the name: the URI must escape them.
      top = cli.directory.appendingPathComponent("read only #1").path
      let caseDirectory = top + "/case"
      output = top + "/out"
      database = caseDirectory + "/cases.sqlite"
      for directory in [top, caseDirectory, output] {
        try FileManager.default.createDirectory(
          atPath: directory, withIntermediateDirectories: true)
      }
      // A complete main file: the seeding process checkpointed its WAL when it closed.
      #expect(!cli.fileExists(cli.databasePath + "-wal"))
      try FileManager.default.copyItem(atPath: cli.databasePath, toPath: database)
      if geteuid() == 0 {
        for path in [top, caseDirectory, output, database] { chown(path, 65534, 65534) }
      }
      chmod(caseDirectory, 0o555)
      chmod(cli.directory.path, 0o755)
    }

    deinit { chmod(top + "/case", 0o755) }

    /// Runs `inspector --db DATABASE arguments` as the unprivileged user.
    func run(_ arguments: String...) throws -> ChildProcess.Result {
      try run(arguments)
    }

    /// Runs `inspector --db DATABASE arguments` from an array.
    func run(_ arguments: [String]) throws -> ChildProcess.Result {
      let inspector = try OperationsFixture.inspectorPath()
      let command =
        geteuid() == 0
        ? [
          "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", inspector,
        ] : [inspector]
      return try ChildProcess(
        command[0], Array(command.dropFirst()) + ["--db", database] + arguments,
        environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C", "HOME": top],
        directory: URL(fileURLWithPath: output)
      ).wait()
    }
  }

  @Test func readingCommandsAndBackupWork() throws {
    let fixture = try Fixture()
    let before = try #require(OperationsFixture.bytes(fixture.database))
    let reads: [([String], String)] = [
      (["list", "--format", "csv"], "Catie,Crow"),
      (["show", "crow"], "Catie the Crow"),
      (["rank", "--limit", "3", "--format", "csv"], "Catie"),
      (["sql", "SELECT count(*) AS n FROM animals", "--format", "csv"], "n\r\n10\r\n"),
      (["check"], "integrity_check    ok"),
      (["migrate", "status", "--format", "csv"], "4,application_id,applied"),
      (["incident", "list", "--format", "csv"], "Pink Pearl Apple"),
      (["incident", "show", "1"], "Pink Pearl Apple"),
    ]
    for (arguments, expected) in reads {
      let result = try fixture.run(arguments)
      #expect(result.status == 0, "\(arguments): \(result.standardError)")
      #expect(result.standardOutput.contains(expected), "\(arguments): \(result.standardOutput)")
    }
    let backup = fixture.output + "/backup.sqlite"
    let result = try fixture.run("backup", backup)
    #expect(result.status == 0, "backup: \(result.standardError)")
    #expect(
      try OperationsFixture.scalar("SELECT name FROM animals WHERE species = 'Crow'", in: backup)
        == .text("Catie"))
    // Nothing was written beside the database: no -wal, no -shm, the file unchanged.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: fixture.top + "/case")
        == ["cases.sqlite"])
    #expect(OperationsFixture.bytes(fixture.database) == before)
  }

  @Test func writesStillFailWithExit74AndChangeNothing() throws {
    let fixture = try Fixture()
    let before = try #require(OperationsFixture.bytes(fixture.database))
    let result = try fixture.run("suspect", "crow", "0.5")
    #expect(result.status == 74, "\(result.standardError)")
    #expect(result.standardError.hasPrefix("inspector: error: the database is read-only"))
    #expect(OperationsFixture.bytes(fixture.database) == before)
  }

  /// `search` never writes, so a file it cannot write changes nothing: what another client
  /// wrote and nobody indexed yet is found, without a warning.
  @Test func searchFindsChangesNobodyIndexedWithoutAWarning() throws {
    let fixture = try Fixture()
    chmod(fixture.top + "/case", 0o755)
    try RestoreSafetyTests.shell(
      fixture.database,
      "INSERT INTO alibis (animal_id, statement) VALUES (4, 'Perched on the weather vane')",
      in: fixture.cli)
    chmod(fixture.top + "/case", 0o555)
    let before = try #require(OperationsFixture.bytes(fixture.database))
    let result = try fixture.run("search", "vane", "--format", "csv")
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      result.standardOutput.contains(",alibi,4,Catie the Crow,Perched on the weather [vane],"))
    #expect(result.standardError == "")
    #expect(OperationsFixture.bytes(fixture.database) == before)
  }
}
