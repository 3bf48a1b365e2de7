import CommandLineKit
import Foundation
import Testing

@testable import InspectorCLI

/// `list`, `show`, `rank` and `fruit list` on the seed case (README "The documented schema"), run
/// in-process.
@Suite struct ReadingCommandTests {
  static let suspectKeys: Set<String> = [
    "id", "name", "species", "emoji", "paw_size", "favorite_fruits", "alibi", "sleep_schedule",
    "suspicion_level", "suspicion_label",
  ]

  static let seedSpecies = [
    "Fish", "Snail", "Dove", "Crow", "Cat", "Rabbit", "Duck", "Mouse", "Hedgehog", "Raccoon",
  ]

  // MARK: - list

  @Test func listJSONHoldsTheTenSeedSuspectsWithExactKeys() throws {
    let session = try CLITestCase(seeded: true)
    let suspects = try session.suspects()
    #expect(suspects.count == 10)
    for suspect in suspects {
      #expect(Set(suspect.keys) == Self.suspectKeys)
    }
    #expect(suspects.map { $0["species"] as? String } == Self.seedSpecies)
    #expect(
      suspects.map { $0["name"] as? String } == [
        "Fabrizio", "Soloman", "Ding", "Catie", "Miko", "Ricardo", "Cornelius", "Maria", "Haku",
        "Rénard",
      ])

    let crow = try #require(suspects.first { $0["species"] as? String == "Crow" })
    #expect(crow["name"] as? String == "Catie")
    #expect(crow["emoji"] as? String == "🐦‍⬛")
    #expect((crow["emoji"] as? String)?.unicodeScalars.map(\.value) == [0x1F426, 0x200D, 0x2B1B])
    #expect(crow["paw_size"] as? String == "small")
    #expect(crow["alibi"] as? String == "")
    #expect(crow["sleep_schedule"] is NSNull)
    #expect(number(crow["suspicion_level"]) == 0)
    #expect(crow["suspicion_label"] as? String == "Unlikely")

    let dove = try #require(suspects.first { $0["species"] as? String == "Dove" })
    #expect((dove["emoji"] as? String)?.unicodeScalars.map(\.value) == [0x1F54A, 0xFE0F])

    let raccoon = try #require(suspects.first { $0["species"] as? String == "Raccoon" })
    #expect(
      (raccoon["name"] as? String)?.unicodeScalars.map(\.value) == [
        0x52, 0xE9, 0x6E, 0x61, 0x72, 0x64,
      ])
    #expect(raccoon["paw_size"] as? String == "medium")
    #expect(
      raccoon["favorite_fruits"] as? [String] == [
        "Belle De Boskoop Apple", "Big Berry Manzanita", "Christmas Berry", "Kaki Fuyu Persimmon",
      ])
    let duck = try #require(suspects.first { $0["species"] as? String == "Duck" })
    #expect(duck["favorite_fruits"] as? [String] == ["Green Gage Plum", "Golden Nectar Plum"])
    #expect(duck["emoji"] as? String == "🦆")
  }

  @Test func listCSVHasAHeaderAndOneCRLFRowPerSuspect() throws {
    let session = try CLITestCase(seeded: true)
    let output = session.succeed("list", "--format", "csv")
    #expect(output.hasSuffix("\r\n"))
    let rows = output.components(separatedBy: "\r\n").dropLast()
    #expect(
      rows.first
        == "id,name,species,emoji,paw_size,favorite_fruits,alibi,sleep,wake,suspicion_level,"
        + "suspicion_label")
    #expect(rows.count == 11)
    // No bare LF: every line ends in CRLF.
    #expect(!output.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    #expect(
      rows.contains(
        #"10,Rénard,Raccoon,🦝,medium,"[""Belle De Boskoop Apple"",""Big Berry Manzanita"",""Christmas Berry"","#
          + #"""Kaki Fuyu Persimmon""]","",,,0.0,Unlikely"#))
  }

  @Test func listTableAlignsColumnsByDisplayWidth() throws {
    let session = try CLITestCase(seeded: true)
    let table = lines(session.succeed("list"))
    #expect(table.count == 12)  // header, rule, ten suspects
    #expect(table[0].hasPrefix("ID  SUSPECT"))
    let rows = [
      try #require(table.first { $0.hasPrefix("ID") }),
      try #require(table.first { $0.contains("Catie") }),
      try #require(table.first { $0.contains("Ding") }),
      try #require(table.first { $0.contains("Rénard") }),
      try #require(table.first { $0.contains("Fabrizio") }),
    ]
    // Each column starts at the same display column on every row.
    for (header, cells) in [
      ("SPECIES", ["SPECIES", "Crow", "Dove", "Raccoon", "Fish"]),
      (
        "FAVOURITE FRUITS",
        ["FAVOURITE FRUITS", "Pink Pearl Apple", "Channel Island", "Belle", "Strawberry"]
      ),
      ("SUSPICION", ["SUSPICION", "░", "░", "░", "░"]),
    ] {
      let starts = zip(rows, cells).map { row, cell in
        row.range(of: cell).map { displayWidth(of: String(row[..<$0.lowerBound])) }
      }
      #expect(starts.allSatisfy { $0 != nil }, "\(header): \(starts)")
      #expect(Set(starts).count == 1, "\(header) starts at \(starts)")
    }
    let crow = rows[1]
    #expect(crow.contains("🐦‍⬛ Catie"))
    #expect(rows[3].contains("Belle De Boskoop Apple, Big Berry Manzanita, Christmas Berry, …"))
    #expect(crow.hasSuffix("░░░░░░░░░░ Unlikely"))
    // Every row is as wide as the header row's columns allow: the rule line.
    let ruleWidth = displayWidth(of: table[1].trimmingCharacters(in: .whitespaces))
    for row in table[2...] {
      #expect(displayWidth(of: row) <= ruleWidth, "\(row)")
    }
  }

  @Test func listOnAnEmptyDatabaseSucceeds() throws {
    let session = try CLITestCase()
    session.succeed("init")
    #expect(try session.suspects().isEmpty)
    #expect(session.succeed("list", "--json") == "[]\n")
    #expect(lines(session.succeed("list", "--format", "csv")).count == 1)
  }

  // MARK: - show

  @Test(arguments: [
    "Crow", "crow", "CROW", "Catie", "catie", "4",
  ])
  func showFindsTheCrow(reference: String) throws {
    let session = try CLITestCase(seeded: true)
    let crow = try session.suspect(reference)
    #expect(crow["name"] as? String == "Catie")
    #expect(crow["species"] as? String == "Crow")
    #expect(number(crow["id"]) == 4)
    #expect(
      crow["favorite_fruits"] as? [String] == [
        "Pink Pearl Apple", "Golden Nectar Plum", "Hauer Pippin Apple",
      ])
  }

  @Test(arguments: ["Rénard", "Re\u{301}nard", "RÉNARD", "rénard", "raccoon", "10"])
  func showFindsRenardUnicodeAware(reference: String) throws {
    let session = try CLITestCase(seeded: true)
    let raccoon = try session.suspect(reference)
    #expect(raccoon["species"] as? String == "Raccoon")
    #expect((raccoon["name"] as? String)?.unicodeScalars.count == 6)
  }

  @Test func showTableIsTheInspectorView() throws {
    let session = try CLITestCase(seeded: true)
    let view = lines(session.succeed("show", "dove"))
    #expect(view.first == "🕊️ Ding the Dove  (id 3)")
    #expect(view.contains("Identity"))
    #expect(view.contains("Interview"))
    #expect(view.contains { $0.hasPrefix("  Name") && $0.hasSuffix("Ding") })
    #expect(view.contains { $0.hasPrefix("  Paw size") && $0.hasSuffix("small") })
    #expect(view.contains { $0.hasSuffix("1. Channel Island Oak Acorn") })
    #expect(view.contains { $0.hasSuffix("2. Pink Pearl Apple") })
    #expect(view.contains { $0.hasSuffix("3. Lapins Sweet Cherry") })
    #expect(view.contains { $0.hasPrefix("  Alibi") && $0.hasSuffix("(none)") })
    #expect(view.contains { $0.hasPrefix("  Suspicion") && $0.contains("Unlikely") })
    // Values start at one display column, after labels padded to one width.
    let values = [
      ("Name", "Ding"), ("Species", "Dove"), ("Paw size", "small"), ("Emoji", "🕊️"),
      ("Favourites", "1. Channel"), ("Alibi", "(none)"), ("Sleep", "(none)"),
      ("Suspicion", "0.0  "),
    ]
    let starts = try values.map { label, value in
      let line = try #require(view.first { $0.hasPrefix("  \(label) ") })
      let start = try #require(line.range(of: value)).lowerBound
      return displayWidth(of: String(line[..<start]))
    }
    #expect(starts == Array(repeating: 14, count: values.count), "\(view)")
    #expect(view.contains("              2. Pink Pearl Apple"))
  }

  @Test func showCSVIsOneRowUnderTheHeader() throws {
    let session = try CLITestCase(seeded: true)
    let rows = session.succeed("show", "snail", "--format=csv").components(separatedBy: "\r\n")
    #expect(rows.count == 3)
    #expect(
      rows[1]
        == #"2,Soloman,Snail,🐌,small,"[""Elstar Apple"",""Flavor King Plum""]","",,,0.0,Unlikely"#)
    #expect(rows[2] == "")
  }

  @Test func showAnUnknownAnimalIsADataError() throws {
    let session = try CLITestCase(seeded: true)
    expectFailure(session.run("show", "Unicorn"), status: 65, messageContains: "'Unicorn'")
    expectFailure(session.run("show", "99"), status: 65)
    expectFailure(session.run("show", ""), status: 65)
  }

  @Test func anAmbiguousNameListsEveryCandidate() throws {
    let session = try CLITestCase(seeded: true)
    session.succeed("animal", "add", "--name", "Twin", "--species", "Otter", "--paw", "small")
    session.succeed("animal", "add", "--name", "twin", "--species", "Badger", "--paw", "large")
    let outcome = session.run("show", "TWIN")
    expectFailure(outcome, status: 65, messageContains: "matches several suspects")
    let message = lines(outcome.standardError)[0]
    #expect(message.contains("Otter"))
    #expect(message.contains("Badger"))
    #expect(message.contains("id 11"))
    #expect(message.contains("id 12"))
    // Species still picks one.
    #expect(try session.suspect("otter")["name"] as? String == "Twin")
    #expect(try session.suspect("12")["species"] as? String == "Badger")
    // Ambiguity refuses writes too.
    session.expectRefusal(["suspect", "twin", "0.5"], status: 65)
  }

  @Test func aWordMatchingSeveralSuspectsInAnyWayIsAmbiguous() throws {
    let session = try CLITestCase(seeded: true)
    // A suspect named "Crow" of another species: "crow" now names two suspects.
    session.succeed("animal", "add", "--name", "Crow", "--species", "Magpie", "--paw", "small")
    let crow = session.run("show", "crow")
    expectFailure(crow, status: 65, messageContains: "matches several suspects")
    #expect(
      crow.standardError
        == "inspector: error: 'crow' matches several suspects: Catie the Crow (id 4),"
        + " Crow the Magpie (id 11)\nhint: name one suspect by its id, as id:N\n")
    #expect(try session.suspect("magpie")["name"] as? String == "Crow")
    #expect(try session.suspect("id:4")["name"] as? String == "Catie")
    // `animal add --species 4` then `animal remove 4` removed that suspect, not id 4: now
    // refused, and nothing changes; `id:4` removes the crow.
    session.succeed("animal", "add", "--name", "Quad", "--species", "4", "--paw", "small")
    session.expectRefusal(["animal", "remove", "4"], status: 65)
    session.succeed("animal", "remove", "id:4")
    #expect(try session.suspect("4")["name"] as? String == "Quad")
    expectFailure(session.run("show", "id:4"), status: 65, messageContains: "no suspect matches")
  }

  // MARK: - rank

  @Test func rankOrdersByLevelThenName() throws {
    let session = try CLITestCase(seeded: true)
    session.succeed("suspect", "raccoon", "0.7")
    session.succeed("suspect", "crow", "0.95")
    session.succeed("suspect", "mouse", ".3")
    session.succeed("suspect", "dove", "0.3")
    let ranking = try jsonArray(session.succeed("rank", "--json"))
    #expect(ranking.count == 10)
    #expect(
      ranking.map { $0["species"] as? String } == [
        "Crow", "Raccoon", "Dove", "Mouse", "Duck", "Fish", "Hedgehog", "Cat", "Rabbit", "Snail",
      ])
    #expect(ranking.map { number($0["rank"]) } == (1...10).map(Double.init))
    let first = ranking[0]
    #expect(
      Set(first.keys)
        == Self.suspectKeys.union(["rank", "clues_matched", "clues_checked", "clues"]))
    #expect(number(first["suspicion_level"]) == 0.95)
    #expect(first["suspicion_label"] as? String == "Extremely suspicious!")
    #expect(first["clues"] is NSNull)
    #expect(ranking[1]["suspicion_label"] as? String == "Very suspicious")
    #expect(ranking[2]["suspicion_label"] as? String == "Fishy")
  }

  @Test func rankTieBreaksNamesIgnoringAccents() throws {
    let session = try CLITestCase(seeded: true)
    let names = try jsonArray(session.succeed("rank", "--json")).map { $0["name"] as? String }
    // Rénard sorts as "renard", before Ricardo.
    #expect(
      names == [
        "Catie", "Cornelius", "Ding", "Fabrizio", "Haku", "Maria", "Miko", "Rénard", "Ricardo",
        "Soloman",
      ])
  }

  @Test func rankLimits() throws {
    let session = try CLITestCase(seeded: true)
    session.succeed("suspect", "crow", "1")
    let top3 = try jsonArray(session.succeed("rank", "--limit", "3", "--json"))
    #expect(top3.count == 3)
    #expect(top3.first?["species"] as? String == "Crow")
    #expect(try jsonArray(session.succeed("rank", "--limit=1", "--json")).count == 1)
    #expect(try jsonArray(session.succeed("rank", "--all", "--json")).count == 10)
    #expect(try jsonArray(session.succeed("rank", "--limit", "50", "--json")).count == 10)
    for _ in 0..<12 {
      session.succeed(
        "animal", "add", "--name", "Ant", "--species", "Ant \(UUID().uuidString)", "--paw", "small")
    }
    #expect(try jsonArray(session.succeed("rank", "--json")).count == 20)
    #expect(try jsonArray(session.succeed("rank", "--all", "--json")).count == 22)
  }

  @Test(arguments: [
    ["--limit", "0"], ["--limit", "x"], ["--limit", "-1"], ["--limit", "2.5"],
    ["--limit", "3", "--all"], ["--limit"],
  ])
  func rankRefusesBadLimits(options: [String]) throws {
    let session = try CLITestCase(seeded: true)
    let outcome = session.run(["rank"] + options)
    expectFailure(outcome, status: 64)
    #expect(outcome.standardError.hasSuffix("See 'inspector rank --help'.\n"))
  }

  @Test func rankTableShowsLevelsAndLabels() throws {
    let session = try CLITestCase(seeded: true)
    session.succeed("suspect", "crow", "0.95")
    let table = lines(session.succeed("rank", "--limit", "2"))
    #expect(table.count == 4)
    #expect(table[0].hasPrefix("RANK  SUSPECT"))
    #expect(table[2].contains("🐦‍⬛ Catie"))
    #expect(table[2].hasSuffix("0.95  ██████████ Extremely suspicious!"))
    #expect(table[3].contains("🦆 Cornelius"))
  }

  // MARK: - fruit list

  @Test func fruitListHoldsTheNineteenSeedFruits() throws {
    let session = try CLITestCase(seeded: true)
    let fruits = try jsonArray(session.succeed("fruit", "list", "--json"))
    #expect(fruits.count == 19)
    for fruit in fruits {
      #expect(Set(fruit.keys) == ["id", "name", "color"])
    }
    let colors = Dictionary(
      uniqueKeysWithValues: fruits.map { ($0["name"] as? String ?? "", $0["color"] as? String) })
    #expect(colors["Golden Gem Apple"] == "yellow")
    #expect(colors["Flavor King Plum"] == "purple")
    #expect(colors["Creeping Snowberry"] == "white")
    #expect(colors["Channel Island Oak Acorn"] == "brown")
    #expect(colors["Pink Pearl Apple"] == "pink")
    #expect(colors["Kaki Fuyu Persimmon"] == "orange")
    #expect(colors["Strawberry Tree"] == "red")
    let table = lines(session.succeed("fruit", "list"))
    #expect(table.count == 21)
    #expect(table.contains { $0.contains("Kaki Fuyu Persimmon") && $0.hasSuffix("orange") })
  }

  // MARK: - Missing database

  @Test(arguments: [
    ["list"], ["show", "crow"], ["rank"], ["fruit", "list"], ["list", "--format", "csv"],
    ["alibi", "crow"], ["suspect", "crow", "0.5"], ["sleep", "crow"],
    ["animal", "add", "--name", "A", "--species", "B", "--paw", "small"],
    ["fruit", "add", "Kiwi", "--color", "green"], ["favorite", "add", "crow", "Elstar Apple"],
  ])
  func commandsOnAMissingDatabaseExit66AndCreateNothing(arguments: [String]) throws {
    let session = try CLITestCase()
    let outcome = session.run(arguments)
    expectFailure(outcome, status: 66)
    #expect(
      outcome.standardError == """
        inspector: error: no database at \(session.databasePath)
        hint: create it with 'inspector init' (or 'inspector demo' for the seed case)

        """)
    #expect(!session.fileExists(session.databasePath))
    #expect(try session.directoryContents() == [])
  }

  @Test func theDefaultPathFollowsXDGDataHome() throws {
    let session = try CLITestCase()
    session.environment["INSPECTOR_DB"] = nil
    let expected = session.directory.appendingPathComponent("xdg/fruit-inspectors/cases.sqlite")
      .path
    expectFailure(session.run("list"), status: 66, messageContains: expected)
    #expect(!session.fileExists(expected))
    let created = try jsonObject(session.succeed("init", "--json"))
    #expect(created["path"] as? String == expected)
    #expect(created["created"] as? Bool == true)
    #expect(session.fileExists(expected))
    let attributes = try FileManager.default.attributesOfItem(atPath: expected)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
  }

  @Test func theDefaultPathFallsBackToHome() throws {
    let session = try CLITestCase()
    session.environment["INSPECTOR_DB"] = nil
    session.environment["XDG_DATA_HOME"] = nil
    let expected = session.directory
      .appendingPathComponent("home/.local/share/fruit-inspectors/cases.sqlite").path
    expectFailure(session.run("rank"), status: 66, messageContains: expected)
    session.succeed("init", "--seed")
    #expect(session.fileExists(expected))
    #expect(try session.suspects().count == 10)
  }

  /// A relative HOME or XDG_DATA_HOME is never used (the XDG Base Directory spec ignores
  /// relative values); without an absolute one the error says which is unset, empty or relative.
  @Test(arguments: [
    (
      ["HOME": "relative/dir"],
      "HOME is relative ('relative/dir') and XDG_DATA_HOME is not set"
    ),
    (
      ["HOME": "relative/dir", "XDG_DATA_HOME": "data"],
      "HOME is relative ('relative/dir') and XDG_DATA_HOME is relative ('data')"
    ),
    ([:], "HOME is not set and XDG_DATA_HOME is not set"),
    (
      ["HOME": "", "XDG_DATA_HOME": "data"], "HOME is empty and XDG_DATA_HOME is relative ('data')"
    ),
  ])
  func aRelativeHomeIsNamedAsRelative(variables: [String: String], state: String) throws {
    let session = try CLITestCase()
    session.environment["INSPECTOR_DB"] = nil
    session.environment["HOME"] = variables["HOME"]
    session.environment["XDG_DATA_HOME"] = variables["XDG_DATA_HOME"]
    let outcome = session.run("init")
    expectFailure(outcome, status: 64)
    #expect(
      outcome.standardError == """
        inspector: error: no database path: \(state); the default database needs an absolute \
        path in one of them
        hint: give --db PATH or set INSPECTOR_DB

        """)
    #expect(try session.directoryContents() == [])
  }

  /// A relative XDG_DATA_HOME is ignored, as the XDG Base Directory spec says: HOME's default.
  @Test func aRelativeXDGDataHomeFallsBackToHome() throws {
    let session = try CLITestCase()
    session.environment["INSPECTOR_DB"] = nil
    session.environment["XDG_DATA_HOME"] = "xdg"
    let expected = session.directory
      .appendingPathComponent("home/.local/share/fruit-inspectors/cases.sqlite").path
    expectFailure(session.run("list"), status: 66, messageContains: expected)
  }

  @Test func dbOptionOverridesTheEnvironment() throws {
    let session = try CLITestCase(seeded: true)
    let other = session.directory.appendingPathComponent("other.sqlite").path
    expectFailure(session.run("list", "--db", other), status: 66, messageContains: other)
    session.succeed("--db", other, "init")
    #expect(session.succeed("--db", other, "list", "--json") == "[]\n")
    #expect(try session.suspects().count == 10)
    #expect(
      try jsonArray(session.succeed("list", "--json", "--db=\(session.databasePath)")).count == 10)
  }
}
