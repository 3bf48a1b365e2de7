import SQLiteKit
import Testing

@testable import CaseStore

/// Writes through plain SQL, as the sqlite3 shell, sqlite-utils or Python make them: the
/// schema's triggers (migrations 0005 and 0012) keep every derived column right or refuse the
/// write, so no command acts on a wrong key or shows a wrong level.
@Suite("Writes from other clients")
struct OtherClientWriteTests {
  // MARK: - The mirrored suspicion level

  @Test func anUpdateOfTheMirroredLevelIsRefused() throws {
    let database = try seededDatabase()
    #expect(throws: SQLiteError.self) {
      try database.connection.execute("UPDATE animals SET suspicion_level = 0.9 WHERE id = 1")
    }
    #expect(try level(database, id: 1) == 0.0)
    // Had it been stored, the fish would rank first; all levels are 0, so names decide.
    #expect(try topNames(database, 2) == ["Catie", "Cornelius"])
    // Writing the value it already mirrors is allowed (a no-op).
    try database.connection.execute("UPDATE animals SET suspicion_level = 0.0 WHERE id = 1")
  }

  @Test func theMirroredLevelFollowsSuspicionLevels() throws {
    let database = try seededDatabase()
    try database.connection.execute(
      """
      INSERT INTO suspicion_levels (animal_id, level) VALUES (4, 0.9);
      UPDATE suspicion_levels SET level = 0.25 WHERE animal_id = 4;
      INSERT INTO suspicion_levels (animal_id, level) VALUES (3, 0.5);
      DELETE FROM suspicion_levels WHERE animal_id = 3;
      """)
    #expect(try level(database, id: 4) == 0.25)
    #expect(try level(database, id: 3) == 0.0)
    #expect(try topNames(database, 2) == ["Catie", "Cornelius"])
    #expect(try database.suspects.find("crow").suspicionLevel == SuspicionLevel(0.25))
  }

  @Test func anInsertThatSuppliesTheMirroredLevelGetsTheTrueOne() throws {
    let database = try seededDatabase()
    try database.connection.execute(
      """
      INSERT INTO animals (name, species, paw_size, suspicion_level)
      VALUES ('Foxy', 'Fox', 'small', 0.7)
      """)
    #expect(try level(database, id: 11) == 0.0)
    #expect(try database.suspects.find("fox").suspicionLevel == .zero)
  }

  // MARK: - Folded keys

  @Test func wrongKeysSuppliedByAnInsertAreRecomputed() throws {
    let database = try seededDatabase()
    try insertWithKeys(database, "'Foxy', 'Fox', 'small', 'zzz', 'yyy'")
    #expect(try keys(database, id: 11) == ["fox", "foxy", "0"])
    #expect(try database.suspects.find("FOX").name == "Foxy")
    #expect(try database.suspects.find("foxy").species == "Fox")
    // The species is taken: inspector and plain SQL both refuse a second fox.
    #expect(throws: CaseError.duplicateSpecies("FOX")) {
      try database.suspects.add(NewSuspect(name: "Other", species: "FOX", pawSize: .large))
    }
    #expect(throws: SQLiteError.self) {
      try database.connection.execute(
        "INSERT INTO animals (name, species, paw_size, species_key) VALUES ('O', 'fOx', 'small', 'q')"
      )
    }
    #expect(try database.suspects.count() == 11)
  }

  @Test func aKeyChangedByHandIsRecomputed() throws {
    let database = try seededDatabase()
    try database.connection.execute("UPDATE animals SET species_key = 'wolf' WHERE id = 4")
    #expect(try keys(database, id: 4) == ["crow", "catie", "0"])
    try database.connection.execute("UPDATE fruits SET name_key = 'x' WHERE id = 1")
    #expect(
      try database.connection.scalar("SELECT name_key FROM fruits WHERE id = 1")?.textValue
        == "golden gem apple")
  }

  @Test func textBeyondASCIIGetsSQLsKeyUntilAnInspectorWriteRefoldsIt() throws {
    let database = try seededDatabase()
    try insertWithKeys(database, "'\u{C1}bel', '\u{3A9}mega', 'small', 'wrong', 'wrong'")
    // SQL folds A-Z only; nobody vouches for these keys, and look-ups compare the row in Swift.
    #expect(try keys(database, id: 11) == ["\u{3A9}mega", "\u{C1}bel", "1"])
    #expect(try database.suspects.find("\u{3C9}MEGA").id == 11)
    #expect(try database.suspects.find("abel").id == 11)
    try database.write {}
    #expect(try keys(database, id: 11) == ["\u{3C9}mega", "abel", "0"])
    #expect(
      try database.rows("SELECT species_folded_from, name_folded_from FROM animals WHERE id = 11")
        == [[.text("\u{3A9}mega"), .text("\u{C1}bel")]])
  }

  /// The stock-shell rename of a name inspector folded: the text no longer is what the key
  /// was folded from, so the row gets SQL's key (nobody vouches for it) and is still found.
  @Test func aRenameByAnotherClientLosesInspectorsFoldingAndIsStillFound() throws {
    let database = try seededDatabase()
    let id = try database.suspects.add(
      NewSuspect(name: "No\u{EB}l", species: "Reindeer", pawSize: .large)
    ).id
    #expect(try keys(database, id: id) == ["reindeer", "noel", "0"])
    try database.connection.execute(
      "UPDATE animals SET name = 'NO\u{CB}LLE' WHERE id = ?", [id])
    #expect(try keys(database, id: id) == ["reindeer", "no\u{CB}lle", "1"])
    #expect(try database.suspects.find("no\u{EB}lle").id == id)
    #expect(try database.suspects.find("noelle").id == id)
    // Renamed back by hand, the old folded_from does not vouch for SQL's key again.
    try database.connection.execute("UPDATE animals SET name = 'No\u{EB}l' WHERE id = ?", [id])
    #expect(try keys(database, id: id) == ["reindeer", "no\u{EB}l", "1"])
    #expect(try database.suspects.find("NOEL").id == id)
  }

  /// A key edited by hand is reset to SQL's key, also where inspector vouched for the old one.
  @Test func aKeyEditedByHandAloneIsReset() throws {
    let database = try seededDatabase()
    let (name, species) = (
      "\u{3A3}\u{3AF}\u{3B3}\u{3BC}\u{3B1}", "\u{39B}\u{3A5}\u{39A}\u{39F}\u{3A3}"
    )
    let id = try database.suspects.add(NewSuspect(name: name, species: species, pawSize: .small)).id
    #expect(
      try keys(database, id: id) == [
        "\u{3BB}\u{3C5}\u{3BA}\u{3BF}\u{3C3}", "\u{3C3}\u{3B9}\u{3B3}\u{3BC}\u{3B1}", "0",
      ])
    try database.connection.execute("UPDATE animals SET species_key = 'wolf' WHERE id = ?", [id])
    #expect(try keys(database, id: id) == [species, "\u{3C3}\u{3B9}\u{3B3}\u{3BC}\u{3B1}", "1"])
    #expect(try database.suspects.find("\u{3BB}\u{3C5}\u{3BA}\u{3BF}\u{3C2}").id == id)
    #expect(throws: CaseError.unknownSuspect("wolf")) { try database.suspects.resolve("wolf") }
    // The same for a fruit: its key goes back to SQL's, and the look-up still finds it.
    let fruit = try database.fruits.add(name: "\u{C7}a\u{EF}mite", color: "purple")
    try database.connection.execute("UPDATE fruits SET name_key = 'x' WHERE id = ?", [fruit.id])
    #expect(
      try database.rows("SELECT name_key, name_folded_from FROM fruits WHERE id = ?", [fruit.id])
        == [[.text("\u{C7}a\u{EF}mite"), .null]])
    #expect(try database.fruits.find("\u{E7}A\u{CF}MITE").id == fruit.id)
  }

  /// "ΑΛΕΞ" and "αλεξ" are one species ignoring case: inspector refuses the second, whether it
  /// stored the first itself or the stock shell did (then nobody vouched for its key).
  @Test func inspectorRefusesAUnicodeCaseDuplicateSpecies() throws {
    let (lower, upper) = ("\u{3B1}\u{3BB}\u{3B5}\u{3BE}", "\u{391}\u{39B}\u{395}\u{39E}")
    let database = try seededDatabase()
    try database.suspects.add(NewSuspect(name: "Alex", species: lower, pawSize: .small))
    #expect(throws: CaseError.duplicateSpecies(upper)) {
      try database.suspects.add(NewSuspect(name: "Alexis", species: upper, pawSize: .small))
    }
    let other = try seededDatabase()
    try other.connection.execute(
      "INSERT INTO animals (name, species, paw_size) VALUES ('Alex', ?, 'small')", [upper])
    #expect(throws: CaseError.duplicateSpecies(lower)) {
      try other.suspects.add(NewSuspect(name: "Alexis", species: lower, pawSize: .small))
    }
    try other.connection.execute(
      "INSERT INTO fruits (name, color) VALUES ('\u{3A3}\u{3A5}\u{39A}\u{39F}', 'purple')")
    #expect(throws: CaseError.duplicateFruit("\u{3C3}\u{3C5}\u{3BA}\u{3BF}")) {
      try other.fruits.add(name: "\u{3C3}\u{3C5}\u{3BA}\u{3BF}", color: "purple")
    }
    #expect(try other.suspects.count() == 11)
  }

  /// Two species one ignoring case beyond ASCII, both from the shell: the first cannot take
  /// its Unicode species key (the second holds it), but its name is folded all the same.
  @Test func aRowWhoseSpeciesKeyCollidesStillGetsItsNameFolded() throws {
    let database = try seededDatabase()
    try database.connection.execute(
      """
      INSERT INTO animals (id, name, species, paw_size) VALUES (11, '\u{C1}bel', '\u{391}\u{39B}', 'small');
      INSERT INTO animals (id, name, species, paw_size) VALUES (12, 'Zed', '\u{3B1}\u{3BB}', 'small');
      """)
    try database.write {}
    #expect(try keys(database, id: 11) == ["\u{391}\u{39B}", "abel", "1"])
    #expect(try topNames(database, 2) == ["\u{C1}bel", "Catie"])
    #expect(throws: CaseError.self) { try database.suspects.find("\u{3B1}\u{3BB}") }
  }

  /// Text a write puts back through SQL (undo restores the name it recorded) ends that write
  /// with inspector's key: every write folds what it leaves unvouched before it commits.
  @Test func aNameUndoPutsBackGetsInspectorsKeyInTheSameWrite() throws {
    let database = try seededDatabase()
    let id = try database.suspects.add(
      NewSuspect(name: "\u{C9}douard", species: "Eel", pawSize: .small)
    ).id
    try database.suspects.edit(id: id, SuspectEdit(name: "Ed"))
    #expect(try keys(database, id: id) == ["eel", "ed", "0"])
    _ = try database.history.undo()
    #expect(try database.suspects.suspect(id: id)?.name == "\u{C9}douard")
    #expect(try keys(database, id: id) == ["eel", "edouard", "0"])
  }

  /// The rows nobody vouches for are read through the partial indexes of migration 0012, never
  /// by scanning the tables: the probe of every write and the rows every look-up compares.
  @Test func rowsNobodyVouchesForAreReadThroughThePartialIndexes() throws {
    let database = try seededDatabase()
    for (sql, index) in [
      (CaseDatabase.unvouchedProbe, "animals_unvouched_keys"),
      (CaseDatabase.unvouchedProbe, "fruits_unvouched_keys"),
      (
        "SELECT id FROM animals WHERE \(KeyedTable.animals.unvouchedCondition) ORDER BY id",
        "animals_unvouched_keys"
      ),
      (
        "SELECT id FROM fruits WHERE \(KeyedTable.fruits.unvouchedCondition) ORDER BY id",
        "fruits_unvouched_keys"
      ),
    ] {
      let plan = try database.rows("EXPLAIN QUERY PLAN " + sql).map { $0[3].textValue ?? "" }
      #expect(plan.contains { $0.hasSuffix("USING INDEX \(index)") }, "\(plan)")
      #expect(!plan.contains { $0 == "SCAN animals" || $0 == "SCAN fruits" }, "\(plan)")
    }
  }

  @Test func namesInsertedThroughSQLSortInTheirPlace() throws {
    let database = try seededDatabase()
    // Ties on level 0 are ordered by name ignoring case and accents: Aaron and Ábel come first.
    try database.connection.execute(
      """
      INSERT INTO animals (name, species, paw_size, name_key) VALUES ('Aaron', 'Ant', 'small', 'zzz');
      INSERT INTO animals (name, species, paw_size) VALUES ('\u{C1}bel', 'Bee', 'small');
      """)
    // Reads never write: until inspector's next write, Ábel sorts by SQL's key ('Ábel').
    #expect(try topNames(database, 3) == ["Aaron", "Catie", "Cornelius"])
    try database.write {}
    #expect(try topNames(database, 3) == ["Aaron", "\u{C1}bel", "Catie"])
  }

  // MARK: - Blank names

  @Test(arguments: ["\t", "\u{A0}", "\u{3000}", " \u{2003} ", "\u{85}", "\n"])
  func whiteSpaceOnlyNamesAreRefusedByPlainSQL(blank: String) throws {
    let database = try seededDatabase()
    let statements = [
      "INSERT INTO animals (name, species, paw_size) VALUES (?, 'Newt', 'small')",
      "INSERT INTO animals (name, species, paw_size) VALUES ('Newt', ?, 'small')",
      "UPDATE animals SET name = ? WHERE id = 1",
      "UPDATE animals SET species = ? WHERE id = 1",
      "INSERT INTO fruits (name, color) VALUES (?, 'red')",
      "UPDATE fruits SET name = ? WHERE id = 1",
    ]
    for sql in statements {
      #expect(throws: SQLiteError.self, "\(sql)") {
        try database.connection.execute(sql, [blank])
      }
    }
    #expect(try database.suspects.count() == 10)
    #expect(try database.suspects.find("id:1").name == "Fabrizio")
    #expect(try database.fruits.find("Golden Gem Apple").id == 1)
  }

  // MARK: - Helpers

  /// The first names of the ranking without an incident.
  private func topNames(_ database: CaseDatabase, _ count: Int) throws -> [String] {
    try SuspicionRanking(database: database).bySuspicionLevel(limit: count).map(\.suspect.name)
  }

  private func level(_ database: CaseDatabase, id: Int64) throws -> Double? {
    try database.connection.scalar("SELECT suspicion_level FROM animals WHERE id = ?", [id])?
      .doubleValue
  }

  /// Inserts a suspect through plain SQL that supplies its own keys: `values` are the name,
  /// species, paw size, species_key and name_key, as SQL literals.
  private func insertWithKeys(_ database: CaseDatabase, _ values: String) throws {
    try database.connection.execute(
      "INSERT INTO animals (name, species, paw_size, species_key, name_key) VALUES (\(values))")
  }

  /// The species key, the name key, and `1` when nobody vouches for them (else `0`).
  private func keys(_ database: CaseDatabase, id: Int64) throws -> [String] {
    let row = try database.connection.prepare(
      "SELECT species_key, name_key, \(KeyedTable.animals.unvouchedCondition) FROM animals WHERE id = ?"
    )
    try row.bind([id])
    guard try row.step() else { return [] }
    return [row.text(at: 0), row.text(at: 1), String(row.int64(at: 2))]
  }
}
