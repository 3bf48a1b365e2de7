import Foundation
import SQLiteKit
import Testing

@testable import InspectorCLI

/// The seeded template of the tests (``SeededCaseTemplate``): each seeded test gets a file of
/// its own, private (mode 0600, as `init` creates it), holding exactly what `inspector init
/// --seed` makes on a new file.
@Suite struct SeededCaseTemplateTests {
  /// `stat(2)` of `path`: its inode and permission bits.
  func fileStatus(_ path: String) throws -> (inode: UInt64, mode: mode_t) {
    var status = stat()
    guard stat(path, &status) == 0 else { throw SetupFailure(description: "no file \(path)") }
    return (UInt64(status.st_ino), status.st_mode & 0o777)
  }

  /// Every schema object and every row of every table of the file at `path`, read with a plain
  /// SQLite connection, with each instant (`2026-12-02T05:49:33Z`, a migration's or a change
  /// set's time, the time of seeding) read as `<instant>`.
  func contents(_ path: String) throws -> [String: [[SQLiteValue]]] {
    let connection = try Connection(path: path, mode: .readOnly)
    let instant = /[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z/
    func rows(_ sql: String) throws -> [[SQLiteValue]] {
      let statement = try connection.prepare(sql)
      var rows: [[SQLiteValue]] = []
      while try statement.step() {
        rows.append(
          statement.row().map {
            if case .text(let text) = $0, text.wholeMatch(of: instant) != nil {
              return .text("<instant>")
            }
            return $0
          })
      }
      return rows
    }
    var contents = [
      "schema": try rows("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name"),
      "pragmas": try rows(
        "SELECT * FROM pragma_application_id, pragma_user_version, pragma_journal_mode"),
    ]
    let tables = try rows(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    // A seal hashes its change set's time, so only the sealed ids can match.
    contents["history_seals"] = try rows("SELECT change_set_id FROM history_seals")
    for case .text(let table) in tables.map(\.[0]) where table != "history_seals" {
      // Sorted here: some tables are WITHOUT ROWID, so no one ORDER BY fits all.
      contents[table] = try rows("SELECT * FROM \"\(table)\"").sorted {
        "\($0)" < "\($1)"
      }
    }
    return contents
  }

  @Test func twoCopiesAreSeparatePrivateFilesAndAWriteToOneStaysInIt() throws {
    let first = try CLITestCase(seeded: true)
    let second = try CLITestCase(seeded: true)
    let (firstInode, firstMode) = try fileStatus(first.databasePath)
    let (secondInode, secondMode) = try fileStatus(second.databasePath)
    #expect(first.databasePath != second.databasePath)
    #expect(firstInode != secondInode)
    #expect(firstMode == 0o600)
    #expect(secondMode == 0o600)
    #expect(try first.directoryContents() == ["cases.sqlite"])

    first.succeed("animal", "add", "--name", "Quill", "--species", "Porcupine", "--paw", "small")
    #expect(try first.suspects().count == 11)
    #expect(try second.suspects().count == 10)
    #expect(try second.suspects().contains { $0["species"] as? String == "Porcupine" } == false)
    // The template itself is untouched: a copy made after the write is the seed case.
    let third = try CLITestCase(seeded: true)
    #expect(try third.suspects().count == 10)
  }

  @Test func aCopyHoldsWhatInitSeedMakesOnANewFile() throws {
    let copy = try CLITestCase(seeded: true)
    let fresh = try CLITestCase()
    fresh.succeed("init", "--seed")
    let copied = try contents(copy.databasePath)
    let seeded = try contents(fresh.databasePath)
    #expect(copied.keys.sorted() == seeded.keys.sorted())
    for table in seeded.keys.sorted() {
      #expect(copied[table] == seeded[table], "\(table)")
    }
    // The seed case's actual rows: ten suspects, among them the crow, and the one bulletin.
    #expect(copied["animals"]?.count == 10)
    #expect(copied["incidents"]?.count == 1)
    #expect(try copy.suspect("crow")["name"] as? String == "Catie")
    #expect(try fileStatus(copy.databasePath).mode == 0o600)
  }

  @Test func aSandboxGetsItsOwnCopyToo() throws {
    let sandbox = try ProcessSandbox()
    let cli = try CLITestCase(seeded: true)
    #expect(try fileStatus(sandbox.databasePath).inode != fileStatus(cli.databasePath).inode)
    #expect(try fileStatus(sandbox.databasePath).mode == 0o600)
    #expect(try sandbox.caseDirectoryContents() == ["cases.sqlite"])
    #expect(try contents(sandbox.databasePath) == contents(cli.databasePath))
  }
}
