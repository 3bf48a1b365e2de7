import Foundation
import SQLiteKit
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `inspector backup DEST` writes only a new path or an existing regular file, through a
/// symbolic link to its target; a device, directory, FIFO or socket is refused with exit 73 and
/// left exactly as it was.
@Suite struct BackupDestinationTests {
  /// The file type bits, device number and inode of `path` (not following a link).
  private func identity(_ path: String) -> (type: mode_t, device: UInt64, inode: UInt64)? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return (info.st_mode & S_IFMT, UInt64(info.st_rdev), UInt64(info.st_ino))
  }

  /// Runs `backup path`, expects exit 73 naming `kind`, and checks the node is unchanged.
  private func expectRefused(_ cli: CLITestCase, _ path: String, kind: String) throws {
    let before = try #require(identity(path))
    expectFailure(
      cli.run("backup", path), status: 73,
      messageContains: "cannot write a backup to \(path): it is \(kind), not a regular file")
    let after = try #require(identity(path))
    #expect(after.type == before.type && after.device == before.device)
    #expect(after.inode == before.inode)
    #expect(!(try cli.directoryContents().contains { $0.contains(".tmp-") }))
  }

  /// A backup written over the database's `-wal` destroyed the transactions committed there but
  /// not yet checkpointed; every file SQLite keeps beside the database is refused by name, by
  /// symbolic link and by hard link, and nothing is lost.
  @Test(arguments: ["-wal", "-shm", "-journal"])
  func theDatabasesOwnFilesAreRefused(suffix: String) throws {
    let cli = try CLITestCase(seeded: true)
    // Another client commits into the WAL and keeps it from being checkpointed.
    let writer = try Connection(path: cli.databasePath)
    try writer.execute(
      """
      PRAGMA wal_autocheckpoint = 0;
      INSERT INTO alibis (animal_id, statement) VALUES (1, 'committed in the WAL');
      """)
    let file = cli.databasePath + suffix
    let symbolic = cli.directory.appendingPathComponent("link").path
    #expect(symlink(file, symbolic) == 0)
    var targets = [file, symbolic, cli.directory.path + "/./cases.sqlite" + suffix]
    if suffix != "-journal" {
      let hard = cli.directory.appendingPathComponent("hard").path
      #expect(link(file, hard) == 0)
      targets.append(hard)
    }
    for target in targets {
      let outcome = cli.run("backup", target)
      #expect(outcome.status == 73, "\(target)")
      #expect(
        lines(outcome.standardError).first
          == "inspector: error: cannot write a backup to \(target): it is the database's"
          + " \(suffix) file, which SQLite needs", "\(target)")
    }
    #expect(try cli.suspect("fish")["alibi"] as? String == "committed in the WAL")
  }

  /// With `--db` a symbolic link (or a hard link) to the database, SQLite names its `-wal`
  /// after the real file: that one is protected too.
  @Test(arguments: [true, false])
  func theRealWALIsRefusedWhenTheDatabaseIsNamedThroughALink(symbolic: Bool) throws {
    let cli = try CLITestCase(seeded: true)
    let alias = cli.directory.appendingPathComponent("alias.sqlite").path
    #expect((symbolic ? symlink(cli.databasePath, alias) : link(cli.databasePath, alias)) == 0)
    let writer = try Connection(path: cli.databasePath)
    try writer.execute(
      """
      PRAGMA wal_autocheckpoint = 0;
      INSERT INTO alibis (animal_id, statement) VALUES (1, 'committed in the WAL');
      """)
    let outcome = cli.run("--db", alias, "backup", cli.databasePath + "-wal")
    #expect(outcome.status == 73)
    #expect(outcome.standardError.contains("it is the database's -wal file"))
    #expect(try cli.suspect("fish")["alibi"] as? String == "committed in the WAL")
  }

  @Test func fifoIsRefusedAndLeftAlone() throws {
    let cli = try CLITestCase(seeded: true)
    let fifo = cli.directory.appendingPathComponent("pipe").path
    #expect(mkfifo(fifo, 0o600) == 0)
    try expectRefused(cli, fifo, kind: "a FIFO")
    #expect(identity(fifo)?.type == S_IFIFO)
  }

  @Test func directoryIsRefusedAndLeftEmpty() throws {
    let cli = try CLITestCase(seeded: true)
    let directory = cli.directory.appendingPathComponent("backups").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    try expectRefused(cli, directory, kind: "a directory")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
  }

  @Test func socketIsRefusedAndLeftAlone() throws {
    let cli = try CLITestCase(seeded: true)
    let path = cli.directory.appendingPathComponent("sock").path
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #expect(descriptor >= 0)
    defer { close(descriptor) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 {
        raw[index] = byte
      }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    try #require(bound == 0, "cannot bind a socket at \(path)")
    try expectRefused(cli, path, kind: "a socket")
    #expect(identity(path)?.type == S_IFSOCK)
  }

  /// A character device like /dev/null (major 1, minor 3), made in the test's own directory so
  /// that a regression cannot damage the real /dev/null. Needs root (mknod).
  @Test func characterDeviceIsRefusedAndLeftADevice() throws {
    let cli = try CLITestCase(seeded: true)
    let device = cli.directory.appendingPathComponent("null").path
    guard let number = OperationsFixture.makeNullDevice(at: device) else { return }
    try expectRefused(cli, device, kind: "a character device")
    #expect(identity(device)?.device == UInt64(number))
  }

  @Test func symlinkIsWrittenThroughAndStaysALink() throws {
    let cli = try CLITestCase(seeded: true)
    let elsewhere = cli.directory.appendingPathComponent("elsewhere")
    try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: false)
    let target = elsewhere.appendingPathComponent("latest.sqlite").path
    try Data("an older backup".utf8).write(to: URL(fileURLWithPath: target))
    let link = cli.directory.appendingPathComponent("latest-link.sqlite").path
    // A relative link, read relative to the link's directory.
    #expect(symlink("elsewhere/latest.sqlite", link) == 0)
    cli.succeed("backup", link)
    #expect(identity(link)?.type == S_IFLNK)
    #expect(identity(target)?.type == S_IFREG)
    #expect(
      try OperationsFixture.contents(of: target)
        == OperationsFixture.contents(of: cli.databasePath))
    #expect(
      try OperationsFixture.scalar("SELECT name FROM animals WHERE species = 'Crow'", in: target)
        == .text("Catie"))
    #expect(try OperationsFixture.mode(target) == 0o600)
    // The temporary file went beside the target, and nothing is left of it.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == [
        "latest.sqlite"
      ])
    #expect(!(try cli.directoryContents().contains { $0.contains(".tmp-") }))
  }

  @Test func danglingSymlinkCreatesItsTarget() throws {
    let cli = try CLITestCase(seeded: true)
    let target = cli.directory.appendingPathComponent("new-target.sqlite").path
    let link = cli.directory.appendingPathComponent("link.sqlite").path
    #expect(symlink(target, link) == 0)
    cli.succeed("backup", link)
    #expect(identity(link)?.type == S_IFLNK)
    #expect(identity(target)?.type == S_IFREG)
    #expect(
      try OperationsFixture.scalar("SELECT count(*) FROM animals", in: target) == .integer(10))
  }
}
