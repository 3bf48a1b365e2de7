import Foundation
import Testing

@testable import InspectorCLI

/// `inspector export` and `inspector import` end to end (docs/export-format.md).
@Suite struct TransferCommandTests {
  /// A file in the session's directory holding `bytes`.
  private func file(_ session: CLITestCase, _ name: String, _ bytes: [UInt8]) throws -> String {
    let path = session.directory.appendingPathComponent(name).path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// An empty case file (migrated, no records) as a second session.
  private func emptySession() throws -> CLITestCase {
    let session = try CLITestCase()
    session.succeed("init")
    return session
  }

  @Test func exportWritesTheVersionedDocumentOfTheSeedCase() throws {
    let session = try CLITestCase(seeded: true)
    session.succeed("alibi", "crow", "Perched on the\nchurch tower")
    session.succeed("sleep", "dove")
    let document = try jsonObject(session.succeed("export"))
    #expect(document["format"] as? String == "fruit-inspectors-case")
    #expect(document["version"] as? Int == 1)
    let fruits = try #require(document["fruits"] as? [[String: Any]])
    #expect(fruits.count == 19)
    #expect(fruits.first?["name"] as? String == "Golden Gem Apple")
    #expect(fruits.first?["color"] as? String == "yellow")
    let suspects = try #require(document["suspects"] as? [[String: Any]])
    #expect(suspects.map { $0["species"] as? String }.last == "Raccoon")
    let crow = try #require(suspects.first { $0["species"] as? String == "Crow" })
    #expect(crow["emoji"] as? String == "\u{1F426}\u{200D}\u{2B1B}")
    #expect(
      crow["favorite_fruits"] as? [String]
        == ["Pink Pearl Apple", "Golden Nectar Plum", "Hauer Pippin Apple"])
    #expect(crow["alibi"] as? String == "Perched on the\nchurch tower")
    let dove = try #require(suspects.first { $0["species"] as? String == "Dove" })
    #expect(dove["sleep_schedule"] as? [String: String] == ["sleep": "22:30", "wake": "06:30"])
    let incidents = try #require(document["incidents"] as? [[String: Any]])
    #expect(incidents.first?["fruit"] as? String == "Pink Pearl Apple")
    #expect(incidents.first?["latitude"] as? Double == 37.334371)
  }

  @Test func exportAsCSVPutsFavoritesInOneJSONColumn() throws {
    let session = try CLITestCase(seeded: true)
    let csv = session.succeed("export", "--format", "csv")
    let lines = csv.components(separatedBy: "\r\n")
    #expect(
      lines[0] == "name,species,paw_size,emoji,favorite_fruits,alibi,sleep,wake,suspicion_level")
    #expect(
      lines[1]
        == #"Fabrizio,Fish,small,🐟,"[""Strawberry Tree"",""Big Berry Manzanita"",""Elstar Apple""]","",,,0.0"#
    )
    expectFailure(session.run("export", "--format", "ndjson"), status: 64)
  }

  @Test func roundTripGivesTheSameBytes() throws {
    let source = try CLITestCase(seeded: true)
    let long = String(repeating: "Ω🍎", count: 5_000)
    source.succeed("animal", "add", "--name", long, "--species", "Longcat", "--paw", "large")
    source.succeed("fruit", "add", "Pe\u{301}che de vigne", "--color", "#AA3366")
    source.succeed(
      "animal", "add", "--name", "Re\u{301}nard", "--species", "Fox", "--paw", "medium",
      "--emoji", "🦊", "--fruit", "Pe\u{301}che de vigne", "--fruit", "Elstar Apple")
    source.succeed("alibi", "fox", "Under the \"old\" oak,\r\nall night")
    source.succeed("sleep", "fox", "--sleep", "23:15", "--wake", "05:00")
    source.succeed("suspect", "fox", "0.1")
    source.succeed("suspect", "crow", "0.95")
    source.succeed(
      "sql", "--write",
      """
      INSERT INTO fruits (name, color) VALUES ('Nul' || char(0) || 'fruit', 'red');
      INSERT INTO animals (name, species, paw_size) VALUES ('Nu' || char(0) || 'll', 'Zero' || char(0) || 'bug', 'small');
      INSERT INTO alibis (animal_id, statement)
        SELECT id, 'home' || char(0) || 'alone' FROM animals WHERE name = 'Nu' || char(0) || 'll';
      INSERT INTO favorite_fruits (animal_id, fruit_id, position)
        SELECT a.id, f.id, 0 FROM animals a, fruits f
        WHERE a.name = 'Nu' || char(0) || 'll' AND f.name = 'Nul' || char(0) || 'fruit';
      """)
    source.succeed(
      "incident", "add", "--fruit", "Pe\u{301}che de vigne", "--at", "2026-06-01T23:59",
      "--notes", "Seeds 🍑\nleft")
    let exported = source.succeed("export")
    #expect(exported.contains(#""name": "Nu\u0000ll""#))
    let path = try file(source, "case.json", Array(exported.utf8))
    let target = try emptySession()
    let report = try jsonObject(target.succeed("import", path, "--json"))
    #expect((report["suspects"] as? [String: Int])?["added"] == 13)
    #expect((report["fruits"] as? [String: Int])?["added"] == 21)
    #expect((report["incidents"] as? [String: Int])?["added"] == 2)
    let again = target.succeed("export")
    #expect(Array(again.utf8) == Array(exported.utf8))
    #expect(try target.suspect("longcat")["name"] as? String == long)
    #expect(
      try target.suspect("fox")["name"] as? String == "Re\u{301}nard"
        && (try target.suspect("fox")["name"] as? String)?.unicodeScalars.count == 7)
    // Importing the same document again changes nothing.
    let second = try jsonObject(target.succeed("import", path, "--json"))
    #expect((second["suspects"] as? [String: Int])?["unchanged"] == 13)
    #expect((second["incidents"] as? [String: Int])?["unchanged"] == 2)
    #expect(Array(target.succeed("export").utf8) == Array(exported.utf8))
    // The suspects' CSV round-trips too, into a case that holds the fruits.
    let csv = source.succeed("export", "--format", "csv")
    let csvTarget = try emptySession()
    csvTarget.succeed(
      "import",
      try file(source, "fruits.csv", Array(source.succeed("fruit", "list", "--format", "csv").utf8))
    )
    csvTarget.succeed("import", try file(source, "suspects.csv", Array(csv.utf8)))
    #expect(Array(csvTarget.succeed("export", "--format", "csv").utf8) == Array(csv.utf8))
  }

  @Test func csvWithBOMCRLFAndQuotedNewlinesImports() throws {
    let session = try CLITestCase(seeded: true)
    let csv =
      "\u{FEFF}species,name,paw_size,alibi,favorite_fruits,sleep,wake,suspicion_level\r\n"
      + "Fox,Foxy,large,\"At the \"\"den\"\",\r\nall night\",\"[\"\"Elstar Apple\"\"]\",23:00,07:00,0.75\r\n"
      + "Owl,Hoot,small,,,,,\r\n"
    let path = try file(session, "s.csv", Array(csv.utf8))
    let report = try jsonObject(session.succeed("import", path, "--json"))
    #expect((report["suspects"] as? [String: Int])?["added"] == 2)
    let fox = try session.suspect("fox")
    #expect(fox["alibi"] as? String == "At the \"den\",\r\nall night")
    #expect(fox["favorite_fruits"] as? [String] == ["Elstar Apple"])
    #expect(fox["sleep_schedule"] as? [String: String] == ["sleep": "23:00", "wake": "07:00"])
    #expect(fox["suspicion_level"] as? Double == 0.75)
    #expect(try session.suspect("owl")["sleep_schedule"] is NSNull)
    // A header-only file imports nothing and succeeds.
    let header = try file(session, "h.csv", Array("name,color\r\n".utf8))
    #expect(session.succeed("import", header).contains("fruits: 0 added"))
  }

  @Test func badRecordsFailTheWholeImportNamingRecordAndField() throws {
    let session = try CLITestCase(seeded: true)
    let csv = "name,species,paw_size\nFoxy,Fox,large\nHoot,Owl,huge\n"
    session.expectRefusal(
      ["import", try file(session, "bad.csv", Array(csv.utf8))], status: 65,
      messageContains: "line 3, column paw_size")
    #expect(session.run("show", "fox").status == 65)
    let json = """
      {"format": "fruit-inspectors-case", "version": 1,
       "suspects": [{"name": "Foxy", "species": "Fox", "paw_size": "large"},
                    {"name": "Hoot", "species": "Owl", "paw_size": "small", "suspicion_level": 2}]}
      """
    session.expectRefusal(
      ["import", try file(session, "bad.json", Array(json.utf8))], status: 65,
      messageContains: "$.suspects[1].suspicion_level")
    session.expectRefusal(
      ["import", try file(session, "latin1.csv", [0x6E, 0x61, 0x6D, 0x65, 0x0A, 0xE9])],
      status: 65, messageContains: "not UTF-8")
    session.expectRefusal(
      [
        "import",
        try file(
          session, "v2.json", Array(#"{"format": "fruit-inspectors-case", "version": 2}"#.utf8)),
      ],
      status: 65, messageContains: "version")
    session.expectRefusal(
      [
        "import",
        try file(session, "unknown.csv", Array("name,species,paw_size\nA,Ant,small,x\n".utf8)),
      ],
      status: 65, messageContains: "line 2")
    session.expectRefusal(
      [
        "import",
        try file(
          session, "fav.csv",
          Array("name,species,paw_size,favorite_fruits\nA,Ant,small,\"[\"\"Durian\"\"]\"\n".utf8)),
      ],
      status: 65, messageContains: "no fruit named 'Durian'")
    session.expectRefusal(
      ["import", session.directory.appendingPathComponent("missing.json").path], status: 66)
    session.expectRefusal(
      ["import", "x.json", "--on-conflict", "merge"], status: 64,
      messageContains: "--on-conflict")
  }

  /// A lone surrogate escape (`"\ud800"`) is no character: it was reported as a type mismatch
  /// "expected value of type Double". It is one line naming the JSON path, exit 65, and
  /// nothing is stored; a whole surrogate pair imports.
  @Test(arguments: [
    (
      #"{"name": "Foxy", "species": "Fox", "paw_size": "large"}, {"name": "\ud800", "species": "Owl", "paw_size": "small"}"#,
      "bad record at $.suspects[1].name: a string or member name holds an escape that is no"
    ),
    (
      #"{"\udc00": "Foxy", "species": "Fox", "paw_size": "large"}"#,
      "bad record at $.suspects[0]: a string or member name holds an escape that is no"
    ),
    (
      #"{"name": "A", "species": "Ant", "paw_size": "small", "favorite_fruits": ["Durian", "\ud800x"]}"#,
      "bad record at $.suspects[0].favorite_fruits[1]: a string or member name holds an escape"
    ),
  ])
  func aLoneSurrogateEscapeIsABadRecordNamedByItsPath(suspects: String, message: String)
    throws
  {
    let session = try CLITestCase(seeded: true)
    let before = session.snapshot()
    let json =
      #"{"format": "fruit-inspectors-case", "version": 1, "suspects": ["#
      + suspects + "]}"
    let outcome = session.run("import", try file(session, "surrogate.json", Array(json.utf8)))
    #expect(outcome.status == 65)
    let errors = lines(outcome.standardError)
    #expect(errors.count == 1, "\(errors)")
    #expect(errors.first?.hasPrefix("inspector: error: " + message) == true, "\(errors)")
    #expect(session.snapshot() == before)
    let pair =
      #"{"format": "fruit-inspectors-case", "version": 1, "suspects": ["#
      + #"{"name": "Kiwi\ud83e\udd5d", "species": "Kiwi", "paw_size": "small"}]}"#
    session.succeed("import", try file(session, "pair.json", Array(pair.utf8)))
    #expect(try session.suspect("Kiwi")["name"] as? String == "Kiwi\u{1F95D}")
  }

  @Test func conflictsFailSkipOrUpdateAndDryRunStoresNothing() throws {
    let session = try CLITestCase(seeded: true)
    let csv = "name,species,paw_size,suspicion_level\nCatie II,crow,large,0.5\nFoxy,Fox,small,0.2\n"
    let path = try file(session, "c.csv", Array(csv.utf8))
    session.expectRefusal(
      ["import", path], status: 65, messageContains: "line 2, column species")
    let before = session.snapshot()
    let dry = session.succeed("import", path, "--on-conflict", "update", "--dry-run")
    #expect(dry.contains("Dry run"))
    #expect(dry.contains("suspects: 1 added, 1 updated"))
    #expect(session.snapshot() == before)
    let skipped = try jsonObject(session.succeed("import", path, "--on-conflict", "skip", "--json"))
    #expect(
      (skipped["suspects"] as? [String: Int]) == [
        "added": 1, "updated": 0, "unchanged": 0, "skipped": 1,
      ])
    #expect(try session.suspect("crow")["name"] as? String == "Catie")
    session.succeed("import", path, "--on-conflict", "update")
    let crow = try session.suspect("crow")
    #expect(crow["name"] as? String == "Catie II")
    #expect(crow["paw_size"] as? String == "large")
    #expect(crow["suspicion_level"] as? Double == 0.5)
    // Fields the file leaves out stay as they were.
    #expect(
      crow["favorite_fruits"] as? [String]
        == ["Pink Pearl Apple", "Golden Nectar Plum", "Hauer Pippin Apple"])
  }

  @Test func importReadsStandardInput() throws {
    let sandbox = try ProcessSandbox(seeded: false)
    expectSuccess(try sandbox.run("init"), "init")
    let input = sandbox.directory.appendingPathComponent("in.csv")
    try Data("name,color\nDurian,#AABB00\n".utf8).write(to: input)
    let process = try sandbox.makeProcess(["import", "-"], environment: [:])
    process.standardInput = try FileHandle(forReadingFrom: input)
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(text.contains("fruits: 1 added"))
    let fruits = try sandbox.run("fruit", "list", "--format", "csv")
    #expect(fruits.standardOutput.contains(",Durian,#"))
  }
}
