import SQLiteKit
import Testing

@testable import CaseStore

@Suite("Finding a suspect: by species, name or id, or id:N; several matches are ambiguous")
struct LookupTests {
  @Test(
    "finds the seed suspects by species, name or id",
    arguments: [
      ("raccoon", "R\u{E9}nard"), ("RACCOON", "R\u{E9}nard"), ("Raccoon", "R\u{E9}nard"),
      ("r\u{E9}nard", "R\u{E9}nard"), ("R\u{C9}NARD", "R\u{E9}nard"),
      ("Re\u{301}nard", "R\u{E9}nard"), ("RE\u{301}NARD", "R\u{E9}nard"),
      ("renard", "R\u{E9}nard"), ("RENARD", "R\u{E9}nard"), ("10", "R\u{E9}nard"),
      ("crow", "Catie"), ("catie", "Catie"), ("4", "Catie"), ("1", "Fabrizio"),
      ("fish", "Fabrizio"), ("cat", "Miko"), ("MIKO", "Miko"),
    ])
  func finds(reference: String, name: String) throws {
    let database = try seededDatabase()
    let suspect = try database.read { try $0.suspects.find(reference) }
    #expect(suspect.name == name)
    #expect(try database.read { try $0.suspects.resolve(reference) } == suspect.id)
  }

  @Test(
    "unknown references",
    arguments: [
      "", " ", "Wolf", "0", "-1", "11", "99999999999999999999", "ren",
      "raccoo", "Rénardo", "%", "_", "' OR 1=1 --",
    ])
  func unknown(reference: String) throws {
    let database = try seededDatabase()
    expectUnknown(reference, in: database)
  }

  @Test func twoSuspectsNamedAlikeAreAmbiguous() throws {
    let database = try seeded(adding: NewSuspect(name: "DING", species: "Pigeon", pawSize: .small))
    expectAmbiguous(
      "ding", among: ["Ding the Dove (id 3)", "DING the Pigeon (id 11)"], in: database)
    // Species and id still tell them apart.
    #expect(try database.read { try $0.suspects.find("pigeon").id } == 11)
    #expect(try database.read { try $0.suspects.find("dove").id } == 3)
    #expect(try database.read { try $0.suspects.find("11").name } == "DING")
  }

  @Test func accentsDecideBetweenNamesThatDifferOnlyByThem() throws {
    let database = try seeded(adding: NewSuspect(name: "Renard", species: "Fox", pawSize: .medium))
    #expect(try database.read { try $0.suspects.find("renard").species } == "Fox")
    #expect(try database.read { try $0.suspects.find("RENARD").species } == "Fox")
    #expect(try database.read { try $0.suspects.find("r\u{E9}nard").species } == "Raccoon")
    #expect(try database.read { try $0.suspects.find("Re\u{301}nard").species } == "Raccoon")
    // Neither spelling matches exactly: both are candidates.
    expectAmbiguous(
      "r\u{E8}nard", among: ["R\u{E9}nard the Raccoon (id 10)", "Renard the Fox (id 11)"],
      in: database)
  }

  /// A word that is one suspect's species and another's name used to pick the species: now it
  /// is ambiguous, and `id:N` names either one.
  @Test func aSpeciesAndAnotherSuspectsNameAreAmbiguous() throws {
    let database = try seeded(adding: NewSuspect(name: "Crow", species: "Magpie", pawSize: .small))
    expectAmbiguous(
      "crow", among: ["Catie the Crow (id 4)", "Crow the Magpie (id 11)"], in: database)
    #expect(try database.read { try $0.suspects.find("magpie").name } == "Crow")
    #expect(try database.read { try $0.suspects.find("id:4").name } == "Catie")
    #expect(try database.read { try $0.suspects.find("id:11").name } == "Crow")
  }

  /// `animal add --species 4` then `animal remove 4` removed that suspect, not id 4.
  @Test func aNumericNameOrSpeciesAndAnIdAreAmbiguous() throws {
    let database = try seeded(
      adding: NewSuspect(name: "3", species: "Number", pawSize: .small),
      NewSuspect(name: "Quad", species: "4", pawSize: .small))
    expectAmbiguous("3", among: ["Ding the Dove (id 3)", "3 the Number (id 11)"], in: database)
    expectAmbiguous("4", among: ["Catie the Crow (id 4)", "Quad the 4 (id 12)"], in: database)
    #expect(try database.read { try $0.suspects.find("11").species } == "Number")
    #expect(try database.read { try $0.suspects.find("id:3").species } == "Dove")
    #expect(try database.read { try $0.suspects.find("id:12").name } == "Quad")
  }

  @Test(arguments: ["id:", "id:0", "id:-1", "id:99", "id:x", "id: 3", "id:3.0", "ID:3x"])
  func anIdReferenceNamesOnlyAStoredId(reference: String) throws {
    let database = try seededDatabase()
    expectUnknown(reference, in: database)
  }

  @Test func rowsWrittenByPlainSQLAreFound() throws {
    let database = try seededDatabase()
    try database.connection.execute(
      "INSERT INTO animals(name, species, paw_size) VALUES ('Zo\u{EB}','\u{C9}lan','small')")
    #expect(try database.read { try $0.suspects.find("\u{E9}lan").name } == "Zo\u{EB}")
    #expect(try database.read { try $0.suspects.find("\u{C9}LAN").name } == "Zo\u{EB}")
    #expect(try database.read { try $0.suspects.find("E\u{301}lan").name } == "Zo\u{EB}")
    #expect(try database.read { try $0.suspects.find("ZO\u{CB}").species } == "\u{C9}lan")
    #expect(try database.read { try $0.suspects.find("zoe").species } == "\u{C9}lan")
    #expect(try database.read { try $0.suspects.find("11").species } == "\u{C9}lan")
    // The repository sees the row as a suspect with the default interview.
    let zoe = try database.read { try $0.suspects.find("\u{E9}lan") }
    #expect(zoe.pawSize == .small)
    #expect(zoe.emoji == nil)
    #expect(zoe.favoriteFruits.isEmpty)
    #expect(zoe.alibi == "")
    #expect(zoe.sleepSchedule == nil)
    #expect(zoe.suspicionLevel == .zero)
  }

  @Test func rowsWrittenByPlainSQLBeyondLatin1AreFound() throws {
    let database = try seededDatabase()
    try database.connection.execute(
      "INSERT INTO animals(name, species, paw_size) VALUES ('\u{416}\u{435}\u{43D}\u{44F}', "
        + "'\u{3A9}mega', 'small')")
    #expect(
      try database.read { try $0.suspects.find("\u{3C9}MEGA").name }
        == "\u{416}\u{435}\u{43D}\u{44F}")
    #expect(
      try database.read { try $0.suspects.find("\u{436}\u{415}\u{41D}\u{42F}").species }
        == "\u{3A9}mega")
  }

  @Test func renamedByPlainSQLIsFoundByTheNewName() throws {
    let database = try seededDatabase()
    try database.connection.execute(
      "UPDATE animals SET name = '\u{C9}mile', species = '\u{C9}cureuil' WHERE id = 1")
    #expect(try database.read { try $0.suspects.find("emile").id } == 1)
    #expect(try database.read { try $0.suspects.find("\u{E9}CUREUIL").id } == 1)
    expectUnknown("fabrizio", in: database)
    expectUnknown("fish", in: database)
  }

  /// A species keyed by the SQL trigger and another suspect's name: ambiguous, not the species.
  @Test func aPlainSQLSpeciesAndAnotherSuspectsNameAreAmbiguous() throws {
    let database = try seededDatabase()
    try database.connection.execute(
      """
      INSERT INTO animals (name, species, paw_size) VALUES ('Olga', '\u{3A9}mega', 'small');
      INSERT INTO animals (name, species, paw_size) VALUES ('\u{3C9}mega', 'Wolf', 'large');
      """)
    expectAmbiguous(
      "\u{3C9}mega", among: ["Olga the \u{3A9}mega (id 11)", "\u{3C9}mega the Wolf (id 12)"],
      in: database)
    #expect(try database.read { try $0.suspects.find("wolf").name } == "\u{3C9}mega")
    #expect(try database.read { try $0.suspects.find("olga").id } == 11)
  }

  /// Two species that differ only in letter case beyond Latin-1 (Greek, Cyrillic), stored by
  /// plain INSERTs: SQL cannot fold them, so both are stored, and every look-up of either
  /// spelling is ambiguous instead of acting on the other suspect.
  @Test(arguments: [
    ("\u{391}\u{39B}\u{395}\u{3A0}\u{39F}\u{3A5}", "\u{3B1}\u{3BB}\u{3B5}\u{3C0}\u{3BF}\u{3C5}"),
    ("\u{41B}\u{418}\u{421}\u{410}", "\u{43B}\u{438}\u{441}\u{430}"),
  ])
  func caseDuplicatesBeyondLatin1AreAmbiguous(upper: String, lower: String) throws {
    let database = try seededDatabase()
    try database.connection.execute(
      """
      INSERT INTO animals (name, species, paw_size) VALUES ('Big', '\(upper)', 'small');
      INSERT INTO animals (name, species, paw_size) VALUES ('Small', '\(lower)', 'small');
      """)
    for reference in [upper, lower] {
      expectAmbiguous(
        reference, among: ["Big the \(upper) (id 11)", "Small the \(lower) (id 12)"], in: database)
    }
    // A write through inspector refolds the keys it can; the duplicate keeps SQL's key.
    try database.write(nil) {
      try $0.suspects.add(NewSuspect(name: "Kit", species: "Fox", pawSize: .small))
    }
    expectAmbiguous(
      lower, among: ["Big the \(upper) (id 11)", "Small the \(lower) (id 12)"], in: database)
    #expect(try database.read { try $0.suspects.find("id:12").species } == lower)
  }

  /// The seeded database with `suspects` added, one write each.
  private func seeded(adding suspects: NewSuspect...) throws -> CaseDatabase {
    let database = try seededDatabase()
    for suspect in suspects { try database.write(nil) { try $0.suspects.add(suspect) } }
    return database
  }

  /// Expects `reference` to match no suspect of `database`.
  private func expectUnknown(
    _ reference: String, in database: CaseDatabase,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(throws: CaseError.unknownSuspect(reference), sourceLocation: sourceLocation) {
      try database.read { try $0.suspects.find(reference) }
    }
  }

  /// Expects `reference` to match several suspects of `database`: exactly `candidates`.
  private func expectAmbiguous(
    _ reference: String, among candidates: [String], in database: CaseDatabase,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(
      throws: CaseError.ambiguousSuspect(reference, candidates: candidates),
      sourceLocation: sourceLocation
    ) {
      try database.read { try $0.suspects.find(reference) }
    }
  }
}
