import Foundation
import SQLiteKit
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every option that writes a file follows one rule (docs/operations.md "Files the tool
/// writes"): `changes export --output` once replaced the live case file, the base, a link's
/// target case file and a device node with exit 0. Each is refused with exit 73 and left byte
/// for byte as it was; a new path and an existing regular file get exactly what stdout gets.
@Suite struct OutputFileRuleTests {
  /// A seeded case, a base taken by `backup`, then Catie's level set to 0.9 so that the
  /// changeset is not empty; returns the session, the base and the export as stdout gives it.
  private func caseWithBase() throws -> (cli: CLITestCase, base: String, exported: String) {
    let cli = try CLITestCase(seeded: true)
    let base = cli.directory.appendingPathComponent("base.sqlite").path
    cli.succeed("backup", base)
    cli.succeed("suspect", "crow", "0.9")
    let exported = cli.succeed("changes", "export", "--base", base)
    #expect(exported.hasPrefix("fruit-inspectors changeset 1 schema "))
    return (cli, base, exported)
  }

  /// The bytes of every file a refusal must leave alone.
  private func bytes(_ paths: [String]) -> [String: Data?] {
    Dictionary(uniqueKeysWithValues: paths.map { ($0, OperationsFixture.bytes($0)) })
  }

  /// Runs `changes export --base base --output destination` and expects exit 73 with `reason`,
  /// every watched file byte for byte unchanged, and no temporary file left.
  private func expectRefused(
    _ cli: CLITestCase, base: String, output destination: String, reason: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let watched = Array(
      Set([cli.databasePath, cli.databasePath + "-wal", base, base + "-wal", destination]))
    let before = bytes(watched)
    expectFailure(
      cli.run("changes", "export", "--base", base, "--output", destination), status: 73,
      messageContains: "cannot write a changeset to \(destination): \(reason)",
      sourceLocation: sourceLocation)
    for path in watched {
      #expect(
        OperationsFixture.bytes(path) == before[path] ?? nil, "\(path) changed",
        sourceLocation: sourceLocation)
    }
    #expect(
      !(try cli.directoryContents().contains { $0.contains(".tmp-") }),
      sourceLocation: sourceLocation)
    // Both files still open as the case they were.
    #expect(try cli.suspect("crow")["suspicion_level"] as? Double == 0.9)
    #expect(
      try OperationsFixture.scalar("SELECT count(*) FROM animals", in: base) == .integer(10))
  }

  @Test func theLiveCaseFileAndItsWALAreRefused() throws {
    let (cli, base, _) = try caseWithBase()
    try expectRefused(
      cli, base: base, output: cli.databasePath, reason: "it is the database itself")
    // Another client keeps a WAL beside the case file.
    let writer = try Connection(path: cli.databasePath)
    try writer.execute(
      """
      PRAGMA wal_autocheckpoint = 0;
      INSERT INTO alibis (animal_id, statement) VALUES (1, 'committed in the WAL');
      """)
    try expectRefused(
      cli, base: base, output: cli.databasePath + "-wal",
      reason: "it is the database's -wal file, which SQLite needs")
    #expect(try cli.suspect("fish")["alibi"] as? String == "committed in the WAL")
  }

  @Test func theBaseIsRefused() throws {
    let (cli, base, _) = try caseWithBase()
    try expectRefused(cli, base: base, output: base, reason: "it is the base itself")
    try expectRefused(
      cli, base: base, output: base + "-journal",
      reason: "it is the base's -journal file, which SQLite needs")
  }

  /// A symbolic link (relative, and a chain of two) whose final target is the case file or the
  /// base: the link's target is what would be replaced, so it is refused.
  @Test func aSymlinkToTheCaseFileOrTheBaseIsRefused() throws {
    let (cli, base, _) = try caseWithBase()
    let toDatabase = cli.directory.appendingPathComponent("latest.changes").path
    #expect(symlink("cases.sqlite", toDatabase) == 0)
    let chain = cli.directory.appendingPathComponent("chain.changes").path
    #expect(symlink(toDatabase, chain) == 0)
    let toBase = cli.directory.appendingPathComponent("base-link").path
    #expect(symlink(base, toBase) == 0)
    try expectRefused(cli, base: base, output: toDatabase, reason: "it is the database itself")
    try expectRefused(cli, base: base, output: chain, reason: "it is the database itself")
    try expectRefused(cli, base: base, output: toBase, reason: "it is the base itself")
    for link in [toDatabase, chain, toBase] {
      var info = stat()
      #expect(lstat(link, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
    }
  }

  @Test func aDirectoryAFIFOAndADeviceAreRefused() throws {
    let (cli, base, _) = try caseWithBase()
    let directory = cli.directory.appendingPathComponent("out").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    try expectRefused(
      cli, base: base, output: directory, reason: "it is a directory, not a regular file")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
    let fifo = cli.directory.appendingPathComponent("pipe").path
    #expect(mkfifo(fifo, 0o600) == 0)
    try expectRefused(cli, base: base, output: fifo, reason: "it is a FIFO, not a regular file")
    let device = cli.directory.appendingPathComponent("null").path
    guard let number = OperationsFixture.makeNullDevice(at: device) else { return }
    try expectRefused(
      cli, base: base, output: device, reason: "it is a character device, not a regular file")
    var info = stat()
    #expect(lstat(device, &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    #expect(UInt64(info.st_rdev) == UInt64(number))
  }

  /// A new path, an existing regular file (replaced whole, mode 0600) and a symbolic link to a
  /// regular file (written through, the link stays) all get the bytes stdout gives.
  @Test func aNewPathARegularFileAndALinkToOneGetTheExport() throws {
    let (cli, base, exported) = try caseWithBase()
    let fresh = cli.directory.appendingPathComponent("laptop.changes").path
    cli.succeed("changes", "export", "--base", base, "--output", fresh)
    #expect(OperationsFixture.bytes(fresh) == Data(exported.utf8))
    #expect(try OperationsFixture.mode(fresh) == 0o600)

    let existing = cli.directory.appendingPathComponent("old.changes").path
    try Data(String(repeating: "an older, longer file\n", count: 500).utf8)
      .write(to: URL(fileURLWithPath: existing))
    cli.succeed("changes", "export", "--base", base, "--output", existing)
    #expect(OperationsFixture.bytes(existing) == Data(exported.utf8))

    let link = cli.directory.appendingPathComponent("current.changes").path
    #expect(symlink("old.changes", link) == 0)
    try Data("replaced through the link".utf8).write(to: URL(fileURLWithPath: existing))
    cli.succeed("changes", "export", "--base", base, "--output", link)
    var info = stat()
    #expect(lstat(link, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
    #expect(OperationsFixture.bytes(existing) == Data(exported.utf8))
    #expect(!(try cli.directoryContents().contains { $0.contains(".tmp-") }))
    // What was written is a changeset `changes show` reads.
    #expect(
      cli.succeed("changes", "show", fresh).contains("Catie the Crow: suspicion level 0.0 -> 0.9"))
  }
}
