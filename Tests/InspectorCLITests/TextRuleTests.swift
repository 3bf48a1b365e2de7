import CaseStore
import Foundation
import SQLiteKit
import Testing

@testable import InspectorCLI

/// The text rules hold for every client (docs/schema.md "Text rules"): the schema refuses what
/// SQL can see, `check` reports every stored value that breaks them, `export` refuses up front
/// what `import` would refuse, and whatever exports imports back.
@Suite struct TextRuleTests {
  /// Names that break the rules: control characters, and nothing visible.
  static let badNames: [(String, String)] = [
    ("Fox\nTail", "control"), ("Tab\tby", "control"), ("Esc\u{1B}[31m", "control"),
    ("Bell\u{07}", "control"), ("Next\u{85}line", "control"), ("Evil\u{202E}xoF", "control"),
    ("\u{200B}", "invisible"), ("\u{2060}", "invisible"), ("\u{FEFF}", "invisible"),
    ("\u{3164}", "invisible"), ("\u{2800}", "invisible"), ("\u{AD}", "invisible"),
    ("\u{115F}\u{1160}", "invisible"), ("\u{FFA0}", "invisible"), ("\u{180E}", "invisible"),
    ("\u{200C}\u{200D}", "invisible"), ("\u{2061}\u{2064}", "invisible"),
    ("\u{FE0F}", "invisible"), ("\u{301}\u{308}", "invisible"), ("\u{3000}\u{A0}", "invisible"),
  ]

  // MARK: - The schema refuses

  @Test(arguments: badNames)
  func anotherClientCannotStoreSuchANameSpeciesOrFruit(name: String, kind: String) throws {
    let cli = try CLITestCase(seeded: true)
    let client = try Connection(path: cli.databasePath)
    for (sql, values) in [
      ("INSERT INTO animals (name, species, paw_size) VALUES (?, 'Fox', 'small')", [name]),
      ("INSERT INTO animals (name, species, paw_size) VALUES ('Foxy', ?, 'small')", [name]),
      ("UPDATE animals SET name = ? WHERE id = 1", [name]),
      ("UPDATE animals SET species = ? WHERE id = 1", [name]),
      ("INSERT INTO fruits (name, color) VALUES (?, 'red')", [name]),
      ("UPDATE fruits SET name = ? WHERE id = 1", [name]),
    ] as [(String, [String])] {
      #expect(throws: SQLiteError.self, "\(sql) took \(name.unicodeScalars.map(\.value))") {
        try client.execute(sql, values)
      }
    }
    #expect(try client.scalar("SELECT count(*) FROM animals") == .integer(10))
    #expect(try client.scalar("SELECT name FROM animals WHERE id = 1")?.textValue == "Fabrizio")
  }

  @Test func freeTextKeepsLineBreaksAndTabsButNotEscapes() throws {
    let cli = try CLITestCase(seeded: true)
    let client = try Connection(path: cli.databasePath)
    try client.execute(
      "INSERT INTO alibis (animal_id, statement) VALUES (4, ?)", ["On the\ttower,\r\nall night"])
    try client.execute("UPDATE incidents SET notes = ? WHERE id = 1", ["Seeds\n\tleft"])
    for (sql, value) in [
      ("UPDATE alibis SET statement = ? WHERE animal_id = 4", "red \u{1B}[31m alert"),
      ("INSERT INTO alibis (animal_id, statement) VALUES (5, ?)", "bidi \u{2066}"),
      ("UPDATE incidents SET notes = ? WHERE id = 1", "clear \u{1B}[2J"),
      ("UPDATE animals SET emoji = ? WHERE id = 1", "\u{1B}"),
    ] {
      #expect(throws: SQLiteError.self, "\(sql) took \(value)") { try client.execute(sql, [value]) }
    }
    #expect(try cli.suspect("crow")["alibi"] as? String == "On the\ttower,\r\nall night")
  }

  @Test func inspectorRefusesNamesWithNothingVisible() throws {
    let cli = try CLITestCase(seeded: true)
    cli.expectRefusal(
      ["animal", "add", "--name", "\u{200B}", "--species", "Fox", "--paw", "small"], status: 65,
      messageContains: "a name with a visible character")
    cli.expectRefusal(
      ["fruit", "add", "\u{3164}", "--color", "red"], status: 65,
      messageContains: "a fruit name with a visible character")
    let json = """
      {"format": "fruit-inspectors-case", "version": 1,
       "suspects": [{"name": "Foxy", "species": "\u{2800}", "paw_size": "small"}]}
      """
    let path = cli.directory.appendingPathComponent("i.json").path
    try Data(json.utf8).write(to: URL(fileURLWithPath: path))
    cli.expectRefusal(
      ["import", path], status: 65, messageContains: "bad record at $.suspects[0].species: ")
    // Visible text with invisible characters in it is fine.
    cli.succeed(
      "animal", "add", "--name", "Re\u{301}nard\u{200D}", "--species", "Fox", "--paw", "small")
  }

  // MARK: - check reports, export refuses, and the fixed file round-trips

  /// Rows another client stored before migration 0009 (and two it can still store: a control
  /// character after a NUL, which SQL does not see, and an invisible tag character, which the
  /// schema's list leaves to `check`).
  static let legacyRows = """
    INSERT INTO animals (id, name, species, paw_size, emoji) VALUES
      (11, 'Fox' || char(10) || 'Tail', 'Fox', 'small', NULL),
      (12, char(8203), 'Zero', 'small', NULL),
      (13, 'Hoot', 'Owl' || char(27) || '[31m', 'small', char(27)),
      (14, char(917569), 'Tag', 'small', NULL),
      (15, 'Nu' || char(0) || char(27), 'Nul', 'small', NULL);
    INSERT INTO fruits (id, name, color) VALUES (20, char(12644), 'red');
    INSERT INTO alibis (animal_id, statement) VALUES (4, 'clear ' || char(27) || '[2J');
    UPDATE incidents SET notes = 'bell' || char(7) WHERE id = 1;
    """

  @Test func checkNamesEveryRowAndExportRefusesUntilTheyAreFixed() throws {
    let cli = try CLITestCase.seeded(writtenBeforeTextRules: Self.legacyRows)
    // The rows still open and read.
    #expect(try cli.suspect("id:11")["name"] as? String == "Fox\nTail")
    #expect(cli.succeed("show", "id:13").contains("Hoot the Owl\u{FFFD}[31m"))
    let rows = cli.failedCheckRows()
    for expected in [
      #"fault,domain,animals,id 11,name 'Fox\u{A}Tail' holds control character U+000A,inspector animal edit id:11 --name NAME"#,
      #"fault,domain,animals,id 12,name '\u{200B}' holds only invisible characters,inspector animal edit id:12 --name NAME"#,
      #"fault,domain,animals,id 13,species 'Owl\u{1B}[31m' holds control character U+001B,inspector animal edit id:13 --species SPECIES"#,
      #"fault,domain,animals,id 13,emoji '\u{1B}' holds control character U+001B,inspector animal edit id:13 --emoji EMOJI"#,
      #"fault,domain,animals,id 14,name '\u{E0041}' holds only invisible characters,inspector animal edit id:14 --name NAME"#,
      #"fault,domain,animals,id 15,name 'Nu\u{0}\u{1B}' holds control character U+001B,inspector animal edit id:15 --name NAME"#,
      #"fault,domain,fruits,id 20,name '\u{3164}' holds only invisible characters,"inspector sql --write ""UPDATE fruits SET name = 'NAME' WHERE id = 20""""#,
      #"fault,domain,alibis,animal_id 4,statement 'clear \u{1B}[2J' holds control character U+001B,inspector alibi id:4 TEXT (or --clear)"#,
      #"fault,domain,incidents,id 1,notes 'bell\u{7}' holds control character U+0007,inspector incident edit 1 --notes TEXT"#,
    ] {
      #expect(rows.contains(expected), "\(rows)")
    }
    #expect(rows.filter { $0.contains(",domain,") }.count == 9)
    // export says so up front: nothing on stdout, the first row named.
    expectFailure(
      cli.run("export"), status: 65,
      messageContains: #"fruits id 20 holds name \u{3164}, which is not a name with a visible"#)
    expectFailure(cli.run("export", "--format", "csv"), status: 65, messageContains: "fruits id 20")

    // Each hint fixes its row, even where another column of the row is still bad.
    cli.succeed("animal", "edit", "id:11", "--name", "Fox Tail")
    cli.succeed("animal", "edit", "id:12", "--name", "Zed")
    cli.succeed("animal", "edit", "id:13", "--species", "Owl")
    cli.succeed("animal", "edit", "id:13", "--emoji", "🦉")
    cli.succeed("animal", "edit", "id:14", "--name", "Tag")
    cli.succeed("animal", "edit", "id:15", "--name", "Nu")
    cli.succeed("sql", "--write", "UPDATE fruits SET name = 'Hangul Pear' WHERE id = 20")
    cli.succeed("alibi", "id:4", "--clear")
    cli.succeed("incident", "edit", "1", "--notes", "bell")
    #expect(cli.run("check").status == 0)
    try Self.expectExportImportsBack(cli)
  }

  /// Whatever the schema lets another client store today, export writes and import takes back.
  @Test func whatTheSchemaTakesExportsAndImportsBack() throws {
    let cli = try CLITestCase.seeded(
      writtenByAnotherClient: """
        INSERT INTO animals (name, species, paw_size, emoji) VALUES
          ('Re' || char(769) || 'nard' || char(8205), 'Fox' || char(0) || 'x', 'small', 'x' || char(0)),
          ('Zwsp' || char(8203), char(8203) || 'Owl', 'small', char(65039));
        INSERT INTO alibis (animal_id, statement) VALUES (4, 'tab' || char(9) || 'cr' || char(13) || char(10));
        """)
    #expect(cli.run("check").status == 0)
    try Self.expectExportImportsBack(cli)
  }

  /// `export` of `cli`'s case imports into a new case file whose own export is byte for byte
  /// the same.
  static func expectExportImportsBack(
    _ cli: CLITestCase, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let exported = cli.succeed("export")
    let target = try CLITestCase()
    target.succeed("init")
    let path = target.directory.appendingPathComponent("case.json").path
    try Data(exported.utf8).write(to: URL(fileURLWithPath: path))
    target.succeed("import", path)
    #expect(
      Array(target.succeed("export").utf8) == Array(exported.utf8),
      sourceLocation: sourceLocation)
  }

  // MARK: - The migration

  @Test func migration9KeepsExistingBadRowsReadable() throws {
    let directory = try TestDirectory.create(prefix: "text-rules-migration")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("old.sqlite").path
    let connection = try Connection(path: path, mode: .readWriteCreate)
    try CaseDatabase.migrator.migrate(connection, upTo: 8)
    try connection.execute(
      """
      INSERT INTO animals (id, name, species, paw_size) VALUES
        (1, 'Esc' || char(27), 'Fox', 'small'), (2, char(8203), 'Owl', 'small');
      """)
    try CaseDatabase.migrator.migrate(connection)
    #expect(
      try CaseDatabase.migrator.currentVersion(of: connection)
        == CaseDatabase.migrator.latestVersion)
    #expect(try connection.scalar("SELECT count(*) FROM animals") == .integer(2))
    // Other columns of such a row still change; the bad value itself cannot be written again.
    try connection.execute("UPDATE animals SET paw_size = 'large', name = name WHERE id = 1")
    #expect(throws: SQLiteError.self) {
      try connection.execute("UPDATE animals SET name = 'Esc' || char(27) || 'x' WHERE id = 1")
    }
  }
}
