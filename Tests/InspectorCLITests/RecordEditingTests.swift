import Foundation
import Testing

@testable import InspectorCLI

/// `fruit edit`, `incident edit`, `incident remove` and `favorite move`: every change read
/// back by later runs, every refusal with its exit code and nothing changed (issue 13, "Every
/// record editable").
@Suite struct RecordEditingTests {
  /// Everything these commands can change: suspects, fruits and incidents, as JSON text.
  static func everything(_ session: CLITestCase) -> String {
    session.snapshot() + session.succeed("incident", "list", "--json")
  }

  /// Runs `arguments`, expects the error contract with `status`, and the case file unchanged.
  static func expectRefusal(
    _ session: CLITestCase, _ arguments: [String], status: Int32,
    messageContains fragment: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let before = everything(session)
    expectFailure(
      session.run(arguments), status: status, messageContains: fragment,
      sourceLocation: sourceLocation)
    #expect(
      everything(session) == before, "\(arguments) changed the case file",
      sourceLocation: sourceLocation)
  }

  /// The fruit named `name` in `fruit list --json`, or `nil`.
  static func fruit(_ session: CLITestCase, _ name: String) throws -> [String: Any]? {
    try jsonArray(session.succeed("fruit", "list", "--json")).first {
      $0["name"] as? String == name
    }
  }

  // MARK: - fruit edit

  @Test func fruitEditRenamesAndRecolours() throws {
    let session = try CLITestCase(seeded: true)
    #expect(
      session.succeed("fruit", "edit", "pink pearl apple", "--name", "Rosy Pearl Apple")
        == "Updated Rosy Pearl Apple (pink, id 15).\n")
    #expect(try Self.fruit(session, "Pink Pearl Apple") == nil)
    let rosy = try #require(try Self.fruit(session, "Rosy Pearl Apple"))
    #expect(number(rosy["id"]) == 15)
    #expect(rosy["color"] as? String == "pink")
    // Favourites and the seed bulletin refer to the fruit by id: they follow the rename.
    #expect(
      try session.suspect("crow")["favorite_fruits"] as? [String] == [
        "Rosy Pearl Apple", "Golden Nectar Plum", "Hauer Pippin Apple",
      ])
    let bulletin = try jsonObject(session.succeed("incident", "show", "1", "--json"))
    #expect(bulletin["fruit"] as? String == "Rosy Pearl Apple")

    let json = try jsonObject(
      session.succeed("fruit", "edit", "ROSY pearl apple", "--color", "Deep Pink", "--json"))
    #expect(json["name"] as? String == "Rosy Pearl Apple")
    #expect(json["color"] as? String == "deep pink")
    session.succeed("fruit", "edit", "Elstar Apple", "--name", "Elstar", "--color", "#AABB00")
    let elstar = try #require(try Self.fruit(session, "Elstar"))
    #expect(number(elstar["id"]) == 9)
    #expect(elstar["color"] as? String == "#AABB00")
    #expect(try jsonArray(session.succeed("fruit", "list", "--json")).count == 19)
  }

  @Test func fruitEditMayChangeTheLetterCaseOfItsOwnName() throws {
    let session = try CLITestCase(seeded: true)
    session.succeed("fruit", "edit", "elstar apple", "--name", "ELSTAR APPLE")
    #expect(try Self.fruit(session, "ELSTAR APPLE")?["color"] as? String == "yellow")
  }

  @Test func fruitEditRefusals() throws {
    let session = try CLITestCase(seeded: true)
    Self.expectRefusal(
      session, ["fruit", "edit", "Elstar Apple"], status: 64, messageContains: "Nothing to change")
    Self.expectRefusal(
      session, ["fruit", "edit", "Elstar Apple", "--name", "golden GEM apple"], status: 65,
      messageContains: "already exists")
    Self.expectRefusal(
      session, ["fruit", "edit", "Elstar Apple", "--name", "Elstar Pippin", "--color", "bluish!"],
      status: 65, messageContains: "colour")
    Self.expectRefusal(
      session, ["fruit", "edit", "Elstar Apple", "--name", " "], status: 65,
      messageContains: "non-blank")
    Self.expectRefusal(
      session, ["fruit", "edit", "Durian", "--color", "red"], status: 65,
      messageContains: "no fruit named 'Durian'")
    Self.expectRefusal(session, ["fruit", "edit", "--name", "Kiwi"], status: 64)
    Self.expectRefusal(
      session, ["fruit", "edit", "Elstar Apple", "--name", "Kiwi", "--flavour", "sour"],
      status: 64)
  }

  @Test func fruitEditAnswersHelp() throws {
    let session = try CLITestCase(seeded: true)
    let help = session.succeed("fruit", "edit", "--help")
    #expect(help.contains("Rename a fruit or change its colour."))
    #expect(help.contains("--name"))
    #expect(help.contains("--color"))
    #expect(session.succeed("fruit", "--help").contains("edit"))
  }

  // MARK: - incident edit

  /// `rank --incident 1 --json`: each row's name and clue counts, best first.
  static func ranking(_ session: CLITestCase, limit: Int = 3) throws -> [String] {
    try jsonArray(session.succeed("rank", "--incident", "1", "--limit", "\(limit)", "--json"))
      .map { row in
        "\(row["name"] as? String ?? "?") \(number(row["clues_matched"]) ?? -1)"
          + "/\(number(row["clues_checked"]) ?? -1)"
      }
  }

  @Test func incidentEditChangesEveryFieldAndTheRanking() throws {
    let session = try CLITestCase(seeded: true)
    // The seed bulletin: Pink Pearl Apple, large paw; the crow and the dove favour the fruit.
    #expect(try Self.ranking(session) == ["Catie 3.0/4.0", "Ding 3.0/4.0", "Cornelius 2.0/4.0"])
    #expect(
      session.succeed(
        "incident", "edit", "1", "--fruit", "christmas berry", "--at", "2026-02-28T23:30",
        "--paw", "medium", "--lat", "-33.9", "--lon", "151.2", "--notes", "Stems left\non the step")
        == "Updated incident 1: Christmas Berry nibbled 2026-02-28 23:30.\n")
    let incident = try jsonObject(session.succeed("incident", "show", "1", "--json"))
    #expect(incident["fruit"] as? String == "Christmas Berry")
    #expect(number(incident["fruit_id"]) == 16)
    #expect(incident["occurred_at"] as? String == "2026-02-28T23:30")
    #expect(incident["paw_size"] as? String == "medium")
    #expect(number(incident["latitude"]) == -33.9)
    #expect(number(incident["longitude"]) == 151.2)
    #expect(incident["notes"] as? String == "Stems left\non the step")
    // The raccoon (medium paw, favours Christmas Berry) now matches every clue.
    #expect(try Self.ranking(session) == ["Rénard 4.0/4.0", "Cornelius 3.0/4.0", "Haku 3.0/4.0"])

    // Without the clue, paw size is no longer checked.
    let json = try jsonObject(
      session.succeed("incident", "edit", "1", "--no-paw", "--no-place", "--json"))
    #expect(json["paw_size"] is NSNull)
    #expect(json["latitude"] is NSNull)
    #expect(json["longitude"] is NSNull)
    #expect(json["fruit"] as? String == "Christmas Berry")
    #expect(json["notes"] as? String == "Stems left\non the step")
    #expect(try Self.ranking(session) == ["Haku 3.0/3.0", "Rénard 3.0/3.0", "Catie 2.0/3.0"])

    // A sleeping suspect is no longer awake at the new time.
    session.succeed("sleep", "hedgehog", "--sleep", "22:00", "--wake", "07:00")
    #expect(try Self.ranking(session, limit: 2) == ["Rénard 3.0/3.0", "Catie 2.0/3.0"])
    session.succeed("incident", "edit", "1", "--at", "2026-02-28T12:00", "--notes", "")
    #expect(try Self.ranking(session, limit: 2) == ["Haku 3.0/3.0", "Rénard 3.0/3.0"])
    let after = try jsonObject(session.succeed("incident", "show", "1", "--json"))
    #expect(after["notes"] as? String == "")
    #expect(after["occurred_at"] as? String == "2026-02-28T12:00")
  }

  @Test func incidentEditAtHHMMMeansToday() throws {
    let session = try CLITestCase(seeded: true)
    let before = try jsonObject(session.succeed("incident", "show", "1", "--json"))
    let json = try jsonObject(
      session.succeed("incident", "edit", "1", "--at", "7:05", "--format", "json"))
    let occurredAt = try #require(json["occurred_at"] as? String)
    #expect(occurredAt.hasSuffix("T07:05"))
    #expect(json["paw_size"] as? String == before["paw_size"] as? String)
    #expect(json["notes"] as? String == before["notes"] as? String)
  }

  @Test func incidentEditRefusals() throws {
    let session = try CLITestCase(seeded: true)
    let refusals: [([String], Int32, String?)] = [
      (["1"], 64, "Nothing to change"),
      (["1", "--paw", "small", "--no-paw"], 64, "--no-paw"),
      (["1", "--lat", "1"], 64, "go together"),
      (["1", "--lon", "1", "--notes", "x"], 64, "go together"),
      (["1", "--lat", "1", "--lon", "2", "--no-place"], 64, "--no-place"),
      (["1", "--paw", "huge"], 64, "huge"),
      (["1", "--notes"], 64, nil),
      ([], 64, nil),
      (["2", "--notes", "x"], 65, "no incident with id '2'"),
      (["one", "--notes", "x"], 64, "The value 'one' is invalid for '<id>'"),
      (["1", "--fruit", "Durian"], 65, "no fruit named 'Durian'"),
      (["1", "--at", "2026-02-30T10:00"], 65, "2026-02-30T10:00"),
      (["1", "--at", "25:00", "--notes", "x"], 65, "25:00"),
      (["1", "--lat", "91", "--lon", "0"], 65, "latitude"),
      (["1", "--lat", "1e2", "--lon", "0"], 65, "latitude"),
      (["1", "--lat", "0", "--lon", "-180.5"], 65, "longitude"),
      (["1", "--notes", "red \u{1B}[31m"], 65, "control characters"),
    ]
    for (arguments, status, fragment) in refusals {
      Self.expectRefusal(
        session, ["incident", "edit"] + arguments, status: status, messageContains: fragment)
    }
  }

  @Test func incidentEditAnswersHelp() throws {
    let session = try CLITestCase(seeded: true)
    let help = session.succeed("incident", "edit", "--help")
    for option in [
      "--fruit", "--at", "--paw", "--no-paw", "--lat", "--lon", "--no-place", "--notes",
    ] {
      #expect(help.contains(option), "\(option)")
    }
    #expect(session.succeed("incident", "--help").contains("edit"))
  }

  // MARK: - incident remove

  @Test func incidentRemoveDeletesTheBulletin() throws {
    let session = try CLITestCase(seeded: true)
    #expect(
      session.succeed(
        "incident", "add", "--fruit", "Kaki Fuyu Persimmon", "--at", "2026-02-28T07:00")
        == "Recorded incident 2: Kaki Fuyu Persimmon nibbled 2026-02-28 07:00.\n")
    let seed = try jsonObject(session.succeed("incident", "show", "1", "--json"))
    let removed = try jsonObject(session.succeed("incident", "remove", "1", "--json"))
    #expect(NSDictionary(dictionary: removed) == NSDictionary(dictionary: seed))
    let remaining = try jsonArray(session.succeed("incident", "list", "--json"))
    #expect(remaining.map { number($0["id"]) } == [2])
    expectFailure(session.run("incident", "show", "1"), status: 65)
    expectFailure(session.run("rank", "--incident", "1"), status: 65)
    // The Pink Pearl Apple is nibbled by no incident any more; the persimmon still is.
    session.succeed("favorite", "remove", "crow", "Pink Pearl Apple")
    session.succeed("favorite", "remove", "dove", "Pink Pearl Apple")
    #expect(session.succeed("fruit", "remove", "pink pearl apple") == "Removed Pink Pearl Apple.\n")
    session.succeed("favorite", "remove", "raccoon", "Kaki Fuyu Persimmon")
    Self.expectRefusal(
      session, ["fruit", "remove", "Kaki Fuyu Persimmon"], status: 65,
      messageContains: "incident 2")
    #expect(
      session.succeed("incident", "remove", "2")
        == "Removed incident 2: Kaki Fuyu Persimmon nibbled 2026-02-28 07:00.\n")
    #expect(session.succeed("incident", "list", "--json") == "[]\n")
    // Suspects are untouched.
    #expect(try session.suspects().count == 10)
  }

  @Test func incidentRemoveRefusals() throws {
    let session = try CLITestCase(seeded: true)
    Self.expectRefusal(
      session, ["incident", "remove", "2"], status: 65, messageContains: "no incident with id '2'")
    Self.expectRefusal(
      session, ["incident", "remove", "0"], status: 64, messageContains: "The value '0' is invalid")
    Self.expectRefusal(
      session, ["incident", "remove", "latest"], status: 64, messageContains: "'latest'")
    Self.expectRefusal(session, ["incident", "remove"], status: 64, messageContains: "<id>")
    Self.expectRefusal(session, ["incident", "remove", "1", "2"], status: 64)
    #expect(session.succeed("incident", "remove", "--help").contains("Remove a bulletin."))
  }

  // MARK: - favorite move

  @Test func favoriteMoveReordersAndTheOthersKeepTheirOrder() throws {
    let session = try CLITestCase(seeded: true)
    #expect(
      session.succeed("favorite", "move", "raccoon", "kaki fuyu persimmon", "--to", "1")
        == "Rénard the Raccoon now favours: Kaki Fuyu Persimmon, Belle De Boskoop Apple,"
        + " Big Berry Manzanita, Christmas Berry.\n")
    #expect(
      try session.suspect("raccoon")["favorite_fruits"] as? [String] == [
        "Kaki Fuyu Persimmon", "Belle De Boskoop Apple", "Big Berry Manzanita", "Christmas Berry",
      ])
    session.succeed("favorite", "move", "Rénard", "Belle De Boskoop Apple", "--to=3")
    #expect(
      try session.suspect("id:10")["favorite_fruits"] as? [String] == [
        "Kaki Fuyu Persimmon", "Big Berry Manzanita", "Belle De Boskoop Apple", "Christmas Berry",
      ])
    // Past the last position: moved last.
    let json = try jsonObject(
      session.succeed("favorite", "move", "raccoon", "KAKI FUYU PERSIMMON", "--to", "99", "--json"))
    #expect(
      json["favorite_fruits"] as? [String] == [
        "Big Berry Manzanita", "Belle De Boskoop Apple", "Christmas Berry", "Kaki Fuyu Persimmon",
      ])
    // The suspect table shows the first three in the new order; nobody else moved.
    let listed = try session.suspects()
    #expect(
      listed.first { $0["species"] as? String == "Raccoon" }?["favorite_fruits"] as? [String] == [
        "Big Berry Manzanita", "Belle De Boskoop Apple", "Christmas Berry", "Kaki Fuyu Persimmon",
      ])
    #expect(
      listed.first { $0["species"] as? String == "Fish" }?["favorite_fruits"] as? [String] == [
        "Strawberry Tree", "Big Berry Manzanita", "Elstar Apple",
      ])
    // Where it already is: nothing moves.
    session.succeed("favorite", "move", "raccoon", "Christmas Berry", "--to", "3")
    #expect(
      try session.suspect("raccoon")["favorite_fruits"] as? [String] == [
        "Big Berry Manzanita", "Belle De Boskoop Apple", "Christmas Berry", "Kaki Fuyu Persimmon",
      ])
    // A favourite added later still goes after the others.
    session.succeed("favorite", "add", "raccoon", "Elstar Apple")
    session.succeed("favorite", "move", "raccoon", "Elstar Apple", "--to", "2")
    #expect(
      try session.suspect("raccoon")["favorite_fruits"] as? [String] == [
        "Big Berry Manzanita", "Elstar Apple", "Belle De Boskoop Apple", "Christmas Berry",
        "Kaki Fuyu Persimmon",
      ])
  }

  @Test func favoriteMoveRefusals() throws {
    let session = try CLITestCase(seeded: true)
    let move = ["favorite", "move", "raccoon", "Christmas Berry"]
    for position in ["0", "-1", "x", "1.5", "", " 2", "99999999999999999999"] {
      Self.expectRefusal(
        session, move + ["--to", position], status: 64, messageContains: "--to <n>")
    }
    Self.expectRefusal(session, move, status: 64, messageContains: "--to <n>")
    Self.expectRefusal(session, ["favorite", "move", "raccoon", "--to", "1"], status: 64)
    Self.expectRefusal(
      session, ["favorite", "move", "raccoon", "Elstar Apple", "--to", "1"], status: 65,
      messageContains: "Elstar Apple is not one of Rénard's favourite fruits")
    Self.expectRefusal(
      session, ["favorite", "move", "raccoon", "Durian", "--to", "1"], status: 65,
      messageContains: "no fruit named 'Durian'")
    Self.expectRefusal(
      session, ["favorite", "move", "unicorn", "Christmas Berry", "--to", "1"], status: 65,
      messageContains: "unicorn")
    let help = session.succeed("favorite", "move", "--help")
    #expect(help.contains("--to <n>"))
    #expect(
      help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        .contains("past the last moves it last"))
    #expect(session.succeed("favorite", "--help").contains("move"))
  }
}
