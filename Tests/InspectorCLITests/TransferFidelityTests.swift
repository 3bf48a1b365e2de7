import Foundation
import Testing

@testable import InspectorCLI

/// What the tool writes for programs imports back, and what an import refuses leaves nothing
/// behind (docs/export-format.md): placeholders are never data, listings' CSV imports, a
/// duplicate JSON key and a control character are refused, and a bad record undoes the fruits
/// before it.
@Suite struct TransferFidelityTests {
  /// A file in the session's directory holding `text`.
  private func file(_ session: CLITestCase, _ name: String, _ text: String) throws -> String {
    let path = session.directory.appendingPathComponent(name).path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// Runs `arguments` in `session`, with what goes to stderr outside the outcome (warnings).
  private func runCollectingWarnings(_ session: CLITestCase, _ arguments: String...) -> (
    outcome: Inspector.Outcome, warnings: String
  ) {
    let warnings = StandardErrorText()
    let outcome = Inspector.run(
      arguments: arguments, environment: session.environment,
      writeToStandardError: warnings.append)
    return (outcome, warnings.text)
  }

  /// A migrated case file without records.
  private func emptySession() throws -> CLITestCase {
    let session = try CLITestCase()
    session.succeed("init")
    return session
  }

  // MARK: - A placeholder for display is never data

  /// Another client deletes Pink Pearl Apple (id 15) with foreign keys off: Ding the Dove
  /// (id 3) and Catie the Crow (id 4) still favour fruit id 15.
  private static let orphaningPinkPearl =
    "PRAGMA foreign_keys = OFF; DELETE FROM fruits WHERE name = 'Pink Pearl Apple'"

  @Test func exportWritesAMissingFavoriteAsNullWithAWarning() throws {
    let source = try CLITestCase.seeded(writtenByAnotherClient: Self.orphaningPinkPearl)
    let (export, warnings) = runCollectingWarnings(source, "export")
    #expect(export.status == 0)
    #expect(
      warnings
        == "warning: suspect 3 favours fruit id 15, which does not exist; written as null;"
        + " see 'inspector check'\n"
        + "warning: suspect 4 favours fruit id 15, which does not exist; written as null;"
        + " see 'inspector check'\n"
        + "warning: incident 1 refers to fruit id 15, which does not exist; see 'inspector check'\n"
    )
    #expect(!export.standardOutput.contains("missing fruit"))
    let suspects = try #require(
      try jsonObject(export.standardOutput)["suspects"] as? [[String: Any]])
    let crow = try #require(suspects.first { $0["species"] as? String == "Crow" })
    let favorites = try #require(crow["favorite_fruits"] as? [Any])
    #expect(favorites.count == 3)
    #expect(favorites[0] is NSNull)
    #expect(
      favorites.dropFirst().map { $0 as? String } == ["Golden Nectar Plum", "Hauer Pippin Apple"])
    // The CSV export and the listings write null too; only a table shows the placeholder.
    let (csv, csvWarnings) = runCollectingWarnings(source, "export", "--format", "csv")
    #expect(
      csv.standardOutput.contains(#""[""Channel Island Oak Acorn"",null,""Lapins Sweet Cherry""]""#)
    )
    #expect(csvWarnings.contains("suspect 3 favours fruit id 15"))
    #expect((try source.suspect("crow")["favorite_fruits"] as? [Any])?.first is NSNull)
    #expect(source.succeed("list").contains("(missing fruit id 15), Golden Nectar Plum"))

    // Into a case that now holds a fruit of the placeholder's name: refused, nothing linked.
    let target = try emptySession()
    target.succeed("fruit", "add", "(missing fruit id 15)", "--color", "red")
    let path = try file(source, "case.json", export.standardOutput)
    target.expectRefusal(
      ["import", path], status: 65, messageContains: "$.suspects[2].favorite_fruits[1]: null")
    #expect(target.run("show", "crow").status == 65)
  }

  @Test func importNeverTakesThePlaceholderOfAnOlderExportForAFruit() throws {
    let target = try emptySession()
    target.succeed("fruit", "add", "(missing fruit id 9)", "--color", "red")
    target.succeed("fruit", "add", "Elstar Apple", "--color", "yellow")
    let old = """
      {"format": "fruit-inspectors-case", "version": 1,
       "suspects": [{"name": "Catie", "species": "Crow", "paw_size": "small",
                     "favorite_fruits": ["Elstar Apple", "(missing fruit id 9)"]}]}
      """
    target.expectRefusal(
      ["import", try file(target, "old.json", old)], status: 65,
      messageContains:
        "$.suspects[0].favorite_fruits[1]: '(missing fruit id 9)' is what an older export wrote")
    let oldCSV =
      "name,species,paw_size,favorite_fruits\nCatie,Crow,small,\"[\"\"(missing fruit id 9)\"\"]\"\n"
    target.expectRefusal(
      ["import", try file(target, "old.csv", oldCSV)], status: 65,
      messageContains: "line 2, column favorite_fruits[0]")
    let oldIncident = """
      {"format": "fruit-inspectors-case", "version": 1,
       "incidents": [{"fruit": "(missing fruit id 9)", "occurred_at": "2026-11-29T09:41",
                      "paw_size": null, "latitude": null, "longitude": null, "notes": ""}]}
      """
    target.expectRefusal(
      ["import", try file(target, "incident.json", oldIncident)], status: 65,
      messageContains: "$.incidents[0].fruit: '(missing fruit id 9)' is what an older export")
    // A document that carries a fruit of that very name means that fruit.
    let real = """
      {"format": "fruit-inspectors-case", "version": 1,
       "fruits": [{"name": "(missing fruit id 9)", "color": "red"}],
       "suspects": [{"name": "Catie", "species": "Crow", "paw_size": "small",
                     "favorite_fruits": ["(missing fruit id 9)"]}]}
      """
    target.succeed("import", try file(target, "real.json", real))
    #expect(try target.suspect("crow")["favorite_fruits"] as? [String] == ["(missing fruit id 9)"])
  }

  // MARK: - Listings' CSV imports back

  @Test func listAsCSVImportsBack() throws {
    let source = try CLITestCase(seeded: true)
    source.succeed("alibi", "crow", "On the \"old\" tower;\nall night")
    source.succeed("sleep", "dove", "--sleep", "21:00", "--wake", "05:15")
    source.succeed("suspect", "raccoon", "0.95")
    let csv = source.succeed("list", "--format", "csv")
    #expect(
      csv.components(separatedBy: "\r\n")[1]
        == #"1,Fabrizio,Fish,🐟,small,"[""Strawberry Tree"",""Big Berry Manzanita"",""Elstar Apple""]","",,,0.0,Unlikely"#
    )
    let target = try emptySession()
    target.succeed(
      "import", try file(source, "fruits.csv", source.succeed("fruit", "list", "--format", "csv")))
    let report = try jsonObject(
      target.succeed("import", try file(source, "list.csv", csv), "--json"))
    #expect((report["suspects"] as? [String: Int])?["added"] == 10)
    #expect(target.succeed("list", "--json") == source.succeed("list", "--json"))
    #expect(try target.suspect("crow")["alibi"] as? String == "On the \"old\" tower;\nall night")
  }

  // MARK: - A refused import leaves nothing

  @Test func aBadSuspectAfterANewFruitLeavesNothing() throws {
    let session = try CLITestCase(seeded: true)
    // Durian is a valid new fruit; the suspect after it favours a fruit that exists nowhere,
    // which only the import's write (not the parsing) can find.
    let json = """
      {"format": "fruit-inspectors-case", "version": 1,
       "fruits": [{"name": "Durian", "color": "#AABB00"}],
       "suspects": [{"name": "Foxy", "species": "Fox", "paw_size": "large",
                     "favorite_fruits": ["Durian"]},
                    {"name": "Hoot", "species": "Owl", "paw_size": "small",
                     "favorite_fruits": ["Quince"]}]}
      """
    session.expectRefusal(
      ["import", try file(session, "bad.json", json)], status: 65,
      messageContains: "$.suspects[1].favorite_fruits[0]: no fruit named 'Quince'")
    expectFailure(session.run("fruit", "remove", "Durian"), status: 65, messageContains: "Durian")
    #expect(session.run("show", "fox").status == 65)
    #expect(!session.succeed("fruit", "list", "--format", "csv").contains("Durian"))
    // CSV carries fruits in a file of their own: a new fruit, then one that repeats it.
    let csv = "name,color\nDurian,#AABB00\nQuince,yellow\ndurian,green\n"
    session.expectRefusal(
      ["import", try file(session, "bad.csv", csv)], status: 65,
      messageContains: "line 4, column name: the same fruit as line 2")
    #expect(session.succeed("fruit", "list", "--json").contains("Quince") == false)
    #expect(try jsonArray(session.succeed("fruit", "list", "--json")).count == 19)
  }

  @Test(arguments: [
    ("name", "Fox\u{1B}[31m"), ("species", "Fox\nTail"), ("name", "Tab\tby"),
    ("species", "Fox\u{85}"), ("name", "Evil\u{202E}Fox"),
  ])
  func anImportedNameWithAControlCharacterIsRefused(field: String, value: String) throws {
    let session = try CLITestCase(seeded: true)
    var record = ["name": "Foxy", "species": "Fox", "paw_size": "large"]
    record[field] = value
    let object = try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])
    let json =
      #"{"format": "fruit-inspectors-case", "version": 1, "suspects": [{"name": "Hoot", "#
      + #""species": "Owl", "paw_size": "small"}, "# + String(decoding: object, as: UTF8.self)
      + "]}"
    session.expectRefusal(
      ["import", try file(session, "c.json", json)], status: 65,
      messageContains: "bad record at $.suspects[1].\(field): ")
    var csvRecord = "name,species,paw_size\nHoot,Owl,small\n"
    let quoted = "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    csvRecord += field == "name" ? "\(quoted),Fox,large\n" : "Foxy,\(quoted),large\n"
    session.expectRefusal(
      ["import", try file(session, "c.csv", csvRecord)], status: 65,
      messageContains: "bad record at line 3, column \(field): ")
    #expect(session.run("show", "owl").status == 65)
  }

  // MARK: - A key given twice

  @Test(arguments: [
    (#"{"format": "fruit-inspectors-case", "version": 1, "version": 1}"#, "$.version"),
    (
      #"{"format": "fruit-inspectors-case", "version": 1, "suspects": [{"name": "A", "species": "Ant", "paw_size": "small"}, {"name": "B", "species": "Bee", "paw_size": "small"}, {"name": "Foxy", "species": "Fox", "paw_size": "small", "name": "Vixen"}]}"#,
      "$.suspects[2].name"
    ),
    // The same key spelled with an escape, after a string value holding quotes and braces.
    (
      #"{"format": "fruit-inspectors-case", "version": 1, "suspects": [{"name": "F\"o{x}[", "species": "Fox", "paw_size": "small", "alibi": "x", "ali\u0062i": "y"}]}"#,
      "$.suspects[0].alibi"
    ),
    (
      #"{"format": "fruit-inspectors-case", "version": 1, "suspects": [{"name": "Foxy", "species": "Fox", "paw_size": "small", "sleep_schedule": {"sleep": "22:00", "wake": "06:00", "sleep": "23:00"}}]}"#,
      "$.suspects[0].sleep_schedule.sleep"
    ),
  ])
  func aKeyGivenTwiceIsRefusedWithItsPath(json: String, path: String) throws {
    let session = try CLITestCase(seeded: true)
    session.expectRefusal(
      ["import", try file(session, "twice.json", json)], status: 65,
      messageContains: "bad record at \(path): the key is given twice")
    #expect(session.run("show", "fox").status == 65)
  }

  @Test func keysThatOnlyLookAlikeAreNoDuplicates() throws {
    let session = try CLITestCase(seeded: true)
    // Equal member names in different objects, and an escaped quote inside a key's value.
    let json = #"""
      {"format": "fruit-inspectors-case", "version": 1,
       "fruits": [{"name": "Durian", "color": "red"}, {"name": "Quince \"q\"", "color": "red"}],
       "suspects": [{"name": "Foxy", "species": "Fox", "paw_size": "small",
                     "sleep_schedule": {"sleep": "22:00", "wake": "06:00"},
                     "favorite_fruits": ["Durian"]}]}
      """#
    session.succeed("import", try file(session, "fine.json", json))
    #expect(try session.suspect("fox")["favorite_fruits"] as? [String] == ["Durian"])
  }
}
