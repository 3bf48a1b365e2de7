import CaseStore
import Foundation
import SQLiteKit
import Testing

@testable import InspectorCLI

/// `inspector check` lists every finding, in every format, and exits 65 when any is a fault.
/// Each damage is made the way another client would make it: plain SQL through a second
/// connection, with the pragmas a careless script might set.
@Suite("check: every finding, in every format")
struct CheckCommandTests {
  /// What another client writes to damage a seeded case file in four ways at once.
  static let damage = """
    PRAGMA foreign_keys = OFF;
    PRAGMA ignore_check_constraints = ON;
    UPDATE animals SET paw_size = 'huge' WHERE id = 2;
    INSERT INTO suspicion_levels (animal_id, level) VALUES (3, 7.0);
    INSERT INTO favorite_fruits (animal_id, fruit_id, position) VALUES (999, 1, 0);
    INSERT INTO animals (name, species, paw_size) VALUES ('Lykos', 'ΑΛΕΠΟΥ', 'small');
    INSERT INTO animals (name, species, paw_size) VALUES ('lykaki', 'αλεπου', 'small');
    CREATE TABLE _litestream_seq (id INTEGER PRIMARY KEY, seq INTEGER);
    """

  @Test func everyFindingIsListedInJSONAndTheCheckFails() throws {
    let cli = try CLITestCase.seeded(writtenByAnotherClient: Self.damage)
    let outcome = cli.run("check", "--json")
    #expect(outcome.status == 65)
    // With --json the error is one JSON line too (docs/exit-codes.md "Errors as JSON").
    #expect(
      outcome.standardError.hasPrefix(
        #"{"error":{"kind":"invalid","message":"check found 7 fault(s)"#))
    let report = try jsonObject(outcome.standardOutput)
    #expect(report["ok"] as? Bool == false)
    let findings = try #require(report["findings"] as? [[String: Any]])
    try #require(findings.count == 10, "\(findings)")
    let summary = findings.map { finding in
      [finding["severity"], finding["check"], finding["table"], finding["row"]].map {
        $0 as? String ?? "-"
      }.joined(separator: " ")
    }
    #expect(
      summary == [
        "fault integrity_check - -",
        "fault integrity_check - -",
        "fault integrity_check - -",
        "fault foreign_key_check favorite_fruits animal_id 999, fruit_id 1",
        "note schema _litestream_seq -",
        "note derived_column animals -",
        "fault duplicate animals id 11",
        "fault domain animals id 2",
        "fault domain suspicion_levels animal_id 3",
        // The other client's change sets, not sealed yet: a note, not a fault.
        "note history history_change_sets -",
      ])
    #expect(
      findings[6]["message"] as? String == "'ΑΛΕΠΟΥ' (id 11) and 'αλεπου' (id 12) are one"
        + " species ignoring case, so look-ups of it are ambiguous")
    #expect(findings[7]["message"] as? String == "paw_size 'huge' is not small, medium or large")
    #expect(
      findings[7]["hint"] as? String
        == "inspector sql --write \"UPDATE animals SET paw_size = 'small' WHERE id = 2\""
        + " (or 'medium', 'large')")
    // The hint's SQL is what repairs the row.
    cli.succeed("sql", "--write", "UPDATE animals SET paw_size = 'small' WHERE id = 2")
    #expect(try cli.suspect("id:2")["paw_size"] as? String == "small")
    #expect(findings[8]["message"] as? String == "level 7.0 is not a number from 0 to 1")
  }

  @Test func everyFindingIsListedInCSVAndTable() throws {
    let cli = try CLITestCase.seeded(writtenByAnotherClient: Self.damage)
    let rows = cli.failedCheckRows()
    #expect(rows.first == "severity,check,table,row,finding,hint")
    #expect(rows.count == 11)
    #expect(
      rows.contains(
        "fault,domain,suspicion_levels,animal_id 3,level 7.0 is not a number"
          + " from 0 to 1,inspector suspect id:3 LEVEL"))
    let table = cli.run("check")
    #expect(table.status == 65)
    #expect(table.standardOutput.contains("case rules         3 fault(s)"))
    #expect(table.standardOutput.contains("paw_size 'huge' is not small, medium or large"))
    #expect(table.standardOutput.contains("table _litestream_seq is not one of inspector's"))
  }

  /// A row that breaks a CHECK no rule of ours repeats (a fruit colour): only integrity_check on
  /// a connection that could write sees it.
  @Test func aRowBreakingACheckConstraintIsAFault() throws {
    let rows = try CLITestCase.failedCheckRows(
      afterAnotherClientRan:
        "PRAGMA ignore_check_constraints = ON; UPDATE fruits SET color = 'Not A Colour!' WHERE id = 1"
    )
    #expect(
      rows.contains(
        "fault,integrity_check,,,CHECK constraint failed in fruits,"
          + "restore a good backup: inspector restore BACKUP --force"))
  }

  @Test func tablesOfOtherToolsAreNotesNotFaults() throws {
    let cli = try CLITestCase.seeded(
      writtenByAnotherClient:
        """
        CREATE TABLE _litestream_seq (id INTEGER PRIMARY KEY, seq INTEGER);
        CREATE TABLE _litestream_lock (id INTEGER);
        CREATE VIRTUAL TABLE animals_fts USING fts5 (name, species, content = 'animals');
        ANALYZE;
        """)
    let report = try jsonObject(cli.succeed("check", "--json"))
    #expect(report["ok"] as? Bool == true)
    let findings = try #require(report["findings"] as? [[String: Any]])
    #expect(findings.allSatisfy { $0["severity"] as? String == "note" })
    let tables = Set(findings.compactMap { $0["table"] as? String })
    #expect(tables.isSuperset(of: ["_litestream_seq", "_litestream_lock", "animals_fts"]))
    #expect(tables.contains("sqlite_stat1"))
  }

  /// `sqlite-utils transform` rebuilds a table without its triggers; so does this.
  @Test func aTableRebuiltWithoutItsTriggersIsNamed() throws {
    let cli = try CLITestCase.seeded(
      writtenByAnotherClient:
        """
        PRAGMA foreign_keys = OFF;
        BEGIN;
        CREATE TABLE fruits_new (id INTEGER PRIMARY KEY, name TEXT NOT NULL, color TEXT NOT NULL,
          name_key TEXT UNIQUE, name_folded_from TEXT);
        INSERT INTO fruits_new SELECT id, name, color, name_key, name_folded_from FROM fruits;
        DROP TABLE fruits;
        ALTER TABLE fruits_new RENAME TO fruits;
        COMMIT;
        """)
    let outcome = cli.run("check", "--json")
    #expect(outcome.status == 65)
    let findings = try #require(
      try jsonObject(outcome.standardOutput)["findings"] as? [[String: Any]])
    let messages = findings.compactMap { $0["message"] as? String }
    #expect(messages.contains("table fruits differs from what the migrations create: not STRICT"))
    for missing in [
      "index fruits_unvouched_keys", "trigger fruits_keys_after_insert",
      "trigger fruits_keys_after_update", "trigger fruits_name_before_insert",
      "trigger fruits_name_before_update",
    ] {
      #expect(messages.contains("\(missing) is missing"), "\(messages)")
    }
    // migrate status alone would say all is applied: it warns on stderr.
    let warnings = StandardErrorText()
    let status = Inspector.run(
      arguments: ["migrate", "status"], environment: cli.environment,
      writeToStandardError: warnings.append)
    #expect(status.status == 0)
    #expect(warnings.text.contains("see 'inspector check'"))
  }

  /// Reported at once, however fresh, since its process is gone (it once took ten minutes);
  /// the file of a backup whose process is alive (this one) is not.
  @Test func aKilledBackupsTemporaryFileBesideTheDatabaseIsReported() throws {
    let cli = try CLITestCase(seeded: true)
    let leftover = cli.directory.appendingPathComponent(".old.sqlite.tmp-999999999-7").path
    #expect(
      FileManager.default.createFile(
        atPath: leftover, contents: Data(count: 4096), attributes: [.posixPermissions: 0o600]))
    let running = cli.directory.appendingPathComponent(".new.sqlite.tmp-\(getpid())-8").path
    #expect(FileManager.default.createFile(atPath: running, contents: Data(count: 4096)))
    let report = try jsonObject(cli.succeed("check", "--json"))
    let findings = try #require(report["findings"] as? [[String: Any]])
    #expect(findings.count == 1)
    #expect(findings.first?["check"] as? String == "file")
    #expect(findings.first?["severity"] as? String == "note")
    #expect(
      findings.first?["message"] as? String
        == "\(leftover) is a temporary file left by a killed backup")
  }

  @Test func aWrongKeyOrMirroredLevelWrittenWithTriggersOffIsAFault() throws {
    let cli = try CLITestCase(seeded: true)
    let writer = try Connection(path: cli.databasePath)
    // Only a writer that drops the guard can store these; check still sees them.
    try writer.execute(
      """
      DROP TRIGGER animals_keys_after_update;
      DROP TRIGGER animals_level_before_update;
      UPDATE animals SET species_key = 'wolf' WHERE id = 4;
      UPDATE animals SET suspicion_level = 0.9 WHERE id = 1;
      """)
    let rows = cli.failedCheckRows()
    #expect(rows.contains { $0.hasPrefix("fault,derived_column,animals,id 4,the folded keys") })
    #expect(
      rows.contains(
        "fault,derived_column,animals,id 1,suspicion_level is 0.9 but"
          + " suspicion_levels.level is 0.0,set the level again: inspector suspect id:1 LEVEL"))
    #expect(
      rows.contains {
        $0.hasPrefix("fault,schema,animals,,trigger animals_keys_after_update is missing")
      })
  }

  /// A fruit colour another client stored against the schema's CHECK is named, with SQL that
  /// repairs it.
  @Test func aBadFruitColourIsNamedWithItsRepair() throws {
    let cli = try CLITestCase.seeded(
      writtenByAnotherClient: """
        PRAGMA ignore_check_constraints = ON;
        UPDATE fruits SET color = 'NotAColour' WHERE id = 2;
        """)
    let outcome = cli.run("check", "--format", "csv")
    #expect(outcome.status == 65)
    #expect(
      outcome.standardOutput.contains(
        "fault,domain,fruits,id 2,color 'NotAColour' is not a lower-case colour name or #RRGGBB,"
          + "\"inspector sql --write \"\"UPDATE fruits SET color = 'red' WHERE id = 2\"\"\"\r\n"),
      "\(outcome.standardOutput)")
    cli.succeed("sql", "--write", "UPDATE fruits SET color = 'red' WHERE id = 2")
    #expect(cli.run("check").status == 0)
  }

  /// A duplicate's values are escaped like every other finding's (`TextRules.escaped`): a
  /// species holding a terminal's escape sequence reaches no output as raw control bytes.
  @Test func aDuplicateHoldingControlCharactersIsEscaped() throws {
    let rows = try CLITestCase.failedCheckRows(
      afterAnotherClientRan: """
        DROP TRIGGER animals_names_before_update;
        DROP TRIGGER animals_keys_after_update;
        UPDATE animals SET species = 'Fi' || char(27) || ']0;x' || char(7) || 'sh' WHERE id IN (1, 2);
        """)
    let duplicate = try #require(rows.first { $0.hasPrefix("fault,duplicate,animals,id 1,") })
    #expect(
      duplicate.hasPrefix(
        #"fault,duplicate,animals,id 1,"'Fi\u{1B}]0;x\u{7}sh' (id 1) and "#
          + #"'Fi\u{1B}]0;x\u{7}sh' (id 2)"#))
    #expect(!rows.joined().unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
  }

  /// The case rules' findings come in the order the docs list their checks: every derived
  /// column's (both tables' folded keys, the mirrored level), then the duplicates, then the
  /// domain rules', whichever table each is about (the duplicate species used to come between
  /// the animals' and the fruits' folded keys).
  @Test func caseRuleFindingsAreListedByCheck() throws {
    let rows = try CLITestCase.failedCheckRows(
      afterAnotherClientRan: """
        PRAGMA ignore_check_constraints = ON;
        DROP TRIGGER animals_names_before_update;
        DROP TRIGGER animals_keys_after_update;
        DROP TRIGGER animals_level_before_update;
        DROP TRIGGER fruits_keys_after_update;
        UPDATE animals SET species = 'Fish' WHERE id IN (1, 2);
        UPDATE fruits SET name_key = 'wrong' WHERE id = 2;
        UPDATE animals SET suspicion_level = 0.9 WHERE id = 1;
        UPDATE animals SET paw_size = 'huge' WHERE id = 3;
        """)
    let order = ["derived_column", "duplicate", "domain"]
    let listed = rows.map { String($0.split(separator: ",")[1]) }.filter(order.contains)
    #expect(Set(listed) == Set(order), "\(rows)")
    #expect(
      listed == listed.sorted { order.firstIndex(of: $0)! < order.firstIndex(of: $1)! },
      "\(rows)")
    #expect(rows.contains { $0.hasPrefix("fault,derived_column,fruits,id 2,") })
  }

  /// A row beyond ASCII that another client wrote is noted as holding SQL's keys only when it
  /// does: a key that is not even `lower()` of its text (written with the key trigger
  /// dropped) is a fault, as it is on ASCII text, and so is one on text holding a NUL (whose
  /// byte count passes its length, so it looked like text beyond ASCII).
  @Test(arguments: ["'Crème'", "'Fox' || char(0) || 'x'"])
  func aWrongKeyBeyondASCIIIsAFaultNotANote(species: String) throws {
    let rows = try CLITestCase.failedCheckRows(
      afterAnotherClientRan: """
        DROP TRIGGER animals_keys_after_update;
        UPDATE animals SET species = \(species), species_key = 'wrong' WHERE id = 1;
        UPDATE animals SET species = 'ÉCLAIR', species_key = lower('ÉCLAIR') WHERE id = 2;
        """)
    #expect(
      rows.contains {
        $0.hasPrefix(
          "fault,derived_column,animals,id 1,the folded keys do not match the species and name")
      }, "\(rows)")
    // The row that does hold SQL's key stays a note, and the note no longer names the other.
    let note = try #require(rows.first { $0.hasPrefix("note,derived_column,animals,,") })
    #expect(note.contains("1 row(s) written by another client hold SQL's keys"), "\(note)")
    #expect(note.contains("(ids 2)"), "\(note)")
  }

  /// A fruit has one folded key, and its finding says so (not "the name and name").
  @Test func aFruitsWrongKeyIsWordedForItsOneKey() throws {
    let rows = try CLITestCase.failedCheckRows(
      afterAnotherClientRan: """
        DROP TRIGGER fruits_keys_after_update;
        UPDATE fruits SET name_key = 'wrong' WHERE id = 2;
        """)
    #expect(
      rows.contains(
        "fault,derived_column,fruits,id 2,the folded key does not match the name as stored,"
          + "\"UPDATE fruits SET name_folded_from = NULL WHERE id = 2 gives the row SQL's key,"
          + " and the next inspector write folds it\""))
  }
}

/// The records of a CSV document without quoted line breaks (RFC 4180 ends lines with CRLF).
func csvLines(_ text: String) -> [String] {
  text.split(separator: "\r\n", omittingEmptySubsequences: true).map(String.init)
}

/// Collects what a command writes to stderr while it runs (progress, warnings).
final class StandardErrorText: @unchecked Sendable {
  private let lock = NSLock()
  private var parts: [String] = []

  /// Everything written so far.
  var text: String { lock.withLock { parts.joined() } }

  /// Appends `part`; safe from any thread.
  @Sendable func append(_ part: String) { lock.withLock { parts.append(part) } }
}
