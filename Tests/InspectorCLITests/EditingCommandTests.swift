import CommandLineKit
import Foundation
import Testing

@testable import InspectorCLI

/// Commands that change the case file: every edit is read back by a later, separate run
/// (README "A short tour"), in-process.
@Suite struct EditingCommandTests {
  // MARK: - suspect

  @Test func suspicionLevelPersists() throws {
    let session = try CLITestCase(seeded: true)
    let output = session.succeed("suspect", "crow", "0.95")
    #expect(output == "Catie the Crow: suspicion 0.95 (Extremely suspicious!)\n")
    let crow = try session.suspect("crow")
    #expect(number(crow["suspicion_level"]) == 0.95)
    #expect(crow["suspicion_label"] as? String == "Extremely suspicious!")
    // Nobody else moved.
    let others = try session.suspects().filter { $0["species"] as? String != "Crow" }
    #expect(others.allSatisfy { number($0["suspicion_level"]) == 0 })
  }

  @Test(arguments: [
    ("0", 0.0, "Unlikely"), ("0.19", 0.19, "Unlikely"), ("0.2", 0.2, "Fishy"),
    (".5", 0.5, "Very suspicious"), ("0.5", 0.5, "Very suspicious"),
    ("0.89", 0.89, "Very suspicious"), ("0.9", 0.9, "Extremely suspicious!"),
    ("1", 1.0, "Extremely suspicious!"), ("1.0", 1.0, "Extremely suspicious!"),
    ("0.1", 0.1, "Unlikely"), ("0.30000000000000004", 0.30000000000000004, "Fishy"),
  ])
  func suspicionLevelsReadBackExactly(text: String, level: Double, label: String) throws {
    let session = try CLITestCase(seeded: true)
    let json = try jsonObject(session.succeed("suspect", "raccoon", text, "--json"))
    #expect(number(json["suspicion_level"]) == level)
    let raccoon = try session.suspect("Rénard")
    #expect(number(raccoon["suspicion_level"]) == level)
    #expect(raccoon["suspicion_label"] as? String == label)
  }

  // MARK: - alibi

  @Test func alibiIsSetPrintedAndCleared() throws {
    let session = try CLITestCase(seeded: true)
    #expect(session.succeed("alibi", "crow") == "Catie the Crow has no alibi.\n")
    let statement = "Was on the roof\nwatching the moon, \"honestly\"; ask Ding"
    #expect(
      session.succeed("alibi", "crow", statement) == "Recorded the alibi of Catie the Crow.\n")
    #expect(try session.suspect("crow")["alibi"] as? String == statement)
    #expect(session.succeed("alibi", "Catie") == statement + "\n")
    let json = try jsonObject(session.succeed("alibi", "crow", "--json"))
    #expect(json["alibi"] as? String == statement)
    #expect(number(json["id"]) == 4)
    // The show view indents continuation lines under the value.
    let view = lines(session.succeed("show", "crow"))
    let first = try #require(view.firstIndex { $0.hasSuffix("Was on the roof") })
    #expect(view[first + 1].hasSuffix("watching the moon, \"honestly\"; ask Ding"))
    #expect(view[first + 1].hasPrefix("    "))
    #expect(
      session.succeed("alibi", "crow", "--clear") == "Cleared the alibi of Catie the Crow.\n")
    #expect(try session.suspect("crow")["alibi"] as? String == "")
  }

  @Test func alibiAfterDoubleDashMayLookLikeAnOption() throws {
    let session = try CLITestCase(seeded: true)
    session.succeed("alibi", "dove", "--", "--clear")
    #expect(try session.suspect("dove")["alibi"] as? String == "--clear")
  }

  @Test func alibiWithTextAndClearIsAUsageError() throws {
    let session = try CLITestCase(seeded: true)
    session.expectRefusal(["alibi", "crow", "home", "--clear"], status: 64)
  }

  // MARK: - sleep

  @Test func sleepWithoutOptionsAddsTheDefaultSchedule() throws {
    let session = try CLITestCase(seeded: true)
    #expect(
      session.succeed("sleep", "hedgehog") == "Haku the Hedgehog sleeps 22:30, wakes 06:30.\n")
    let schedule = try session.suspect("hedgehog")["sleep_schedule"] as? [String: String]
    #expect(schedule == ["sleep": "22:30", "wake": "06:30"])
  }

  @Test func sleepWithoutOptionsKeepsAnExistingSchedule() throws {
    let session = try CLITestCase(seeded: true)
    session.succeed("sleep", "cat", "--sleep", "9:05", "--wake", "17:45")
    #expect(
      try session.suspect("cat")["sleep_schedule"] as? [String: String] == [
        "sleep": "09:05", "wake": "17:45",
      ])
    session.succeed("sleep", "cat")
    #expect(
      try session.suspect("Miko")["sleep_schedule"] as? [String: String] == [
        "sleep": "09:05", "wake": "17:45",
      ])
  }

  @Test func sleepAcceptsMidnightWrapAndClears() throws {
    let session = try CLITestCase(seeded: true)
    session.succeed("sleep", "rabbit", "--sleep=23:59", "--wake=00:00")
    #expect(
      try session.suspect("rabbit")["sleep_schedule"] as? [String: String] == [
        "sleep": "23:59", "wake": "00:00",
      ])
    #expect(
      session.succeed("sleep", "rabbit", "--clear")
        == "Cleared the sleep schedule of Ricardo the Rabbit.\n")
    #expect(try session.suspect("rabbit")["sleep_schedule"] is NSNull)
    let csv = session.succeed("sleep", "rabbit", "--format", "csv").components(
      separatedBy: "\r\n")
    #expect(csv[1].contains(",22:30,06:30,"))
  }

  @Test(arguments: [
    ["--sleep", "22:00"], ["--wake", "06:00"], ["--sleep", "22:00", "--wake", "06:00", "--clear"],
  ])
  func sleepOptionsGoTogether(options: [String]) throws {
    let session = try CLITestCase(seeded: true)
    session.expectRefusal(["sleep", "crow"] + options, status: 64)
  }

  // MARK: - favorite

  @Test func favoritesKeepTheirOrder() throws {
    let session = try CLITestCase(seeded: true)
    #expect(
      session.succeed("favorite", "add", "snail", "pink pearl apple")
        == "Soloman the Snail now favours: Elstar Apple, Flavor King Plum, Pink Pearl Apple.\n")
    session.succeed("favorite", "add", "Soloman", "Christmas Berry")
    #expect(
      try session.suspect("snail")["favorite_fruits"] as? [String] == [
        "Elstar Apple", "Flavor King Plum", "Pink Pearl Apple", "Christmas Berry",
      ])
    session.succeed("favorite", "remove", "snail", "FLAVOR KING PLUM")
    #expect(
      try session.suspect("snail")["favorite_fruits"] as? [String] == [
        "Elstar Apple", "Pink Pearl Apple", "Christmas Berry",
      ])
    session.succeed("favorite", "add", "snail", "Flavor King Plum")
    #expect(
      try session.suspect("snail")["favorite_fruits"] as? [String] == [
        "Elstar Apple", "Pink Pearl Apple", "Christmas Berry", "Flavor King Plum",
      ])
    for fruit in ["Elstar Apple", "Pink Pearl Apple", "Christmas Berry", "Flavor King Plum"] {
      session.succeed("favorite", "remove", "snail", fruit)
    }
    #expect(try session.suspect("snail")["favorite_fruits"] as? [String] == [])
  }

  @Test func favoriteAddOfOneAlreadyThereAndRemoveOfOneMissingFail() throws {
    let session = try CLITestCase(seeded: true)
    session.expectRefusal(
      ["favorite", "add", "raccoon", "christmas berry"], status: 65, messageContains: "already")
    session.expectRefusal(
      ["favorite", "remove", "raccoon", "Elstar Apple"], status: 65, messageContains: "not one of")
    session.expectRefusal(
      ["favorite", "add", "raccoon", "Durian"], status: 65, messageContains: "Durian")
    session.expectRefusal(
      ["favorite", "add", "unicorn", "Elstar Apple"], status: 65, messageContains: "unicorn")
  }

  // MARK: - animal

  @Test func animalAddEditRemove() throws {
    let session = try CLITestCase(seeded: true)
    let added = session.succeed(
      "animal", "add", "--name", "Bartholomew", "--species", "Badger", "--paw", "large",
      "--emoji", "🦡", "--fruit", "elstar apple", "--fruit", "Christmas Berry")
    #expect(added == "Added 🦡 Bartholomew the Badger (id 11).\n")
    var badger = try session.suspect("badger")
    #expect(badger["name"] as? String == "Bartholomew")
    #expect(badger["paw_size"] as? String == "large")
    #expect(badger["emoji"] as? String == "🦡")
    #expect(badger["favorite_fruits"] as? [String] == ["Elstar Apple", "Christmas Berry"])
    #expect(number(badger["id"]) == 11)
    #expect(try session.suspects().count == 11)

    session.succeed("animal", "edit", "badger", "--name", "Bart", "--paw", "medium")
    badger = try session.suspect("11")
    #expect(badger["name"] as? String == "Bart")
    #expect(badger["species"] as? String == "Badger")
    #expect(badger["paw_size"] as? String == "medium")
    session.succeed("animal", "edit", "Bart", "--species", "Honey Badger", "--emoji", "")
    badger = try session.suspect("honey badger")
    #expect(badger["emoji"] is NSNull)
    #expect(badger["favorite_fruits"] as? [String] == ["Elstar Apple", "Christmas Berry"])

    session.succeed("suspect", "honey badger", "0.4")
    session.succeed("alibi", "honey badger", "asleep")
    #expect(
      session.succeed("animal", "remove", "Bart")
        == "Removed Bart the Honey Badger (id 11).\n")
    expectFailure(session.run("show", "bart"), status: 65)
    #expect(try session.suspects().count == 10)
    // The fruits it favoured stay.
    #expect(try jsonArray(session.succeed("fruit", "list", "--json")).count == 19)
  }

  @Test func animalAddWithoutEmojiHasNullEmoji() throws {
    let session = try CLITestCase()
    session.succeed("init")
    let json = try jsonObject(
      session.succeed(
        "animal", "add", "--name=Quill", "--species=Porcupine", "--paw=small", "--json"))
    #expect(json["emoji"] is NSNull)
    #expect(json["favorite_fruits"] as? [String] == [])
    #expect(json["sleep_schedule"] is NSNull)
    #expect(json["suspicion_label"] as? String == "Unlikely")
  }

  @Test func awkwardNamesAreStoredExactly() throws {
    let session = try CLITestCase(seeded: true)
    let name = "O'Brien; DROP TABLE animals; -- \"🦊\" 猫"
    session.succeed("animal", "add", "--name", name, "--species", "Fox", "--paw", "medium")
    #expect(try session.suspect("fox")["name"] as? String == name)
    #expect(try session.suspect(name)["species"] as? String == "Fox")
    #expect(try session.suspects().count == 11)
  }

  @Test func nulBytesAndLongNamesAreStoredExactlyOrRefused() throws {
    let session = try CLITestCase(seeded: true)
    let long = String(repeating: "Ω🍎", count: 5_000)
    session.succeed("animal", "add", "--name", long, "--species", "Longcat", "--paw", "large")
    #expect(try session.suspect("longcat")["name"] as? String == long)
    session.expectRefusal(
      ["animal", "add", "--name", long + "!", "--species", "Toolong", "--paw", "small"], status: 65,
      messageContains: "at most 10,000 characters")
    let withNul = "Nul\u{0}Byte"
    let before = session.snapshot()
    let outcome = session.run(
      "animal", "add", "--name", withNul, "--species", "Nulbird", "--paw", "small")
    if outcome.status == 0 {
      #expect(try session.suspect("nulbird")["name"] as? String == withNul)
    } else {
      expectFailure(outcome, status: 65)
      #expect(session.snapshot() == before)
    }
  }

  @Test func alibisWithControlCharactersSurviveJSONAndCSV() throws {
    let session = try CLITestCase(seeded: true)
    let alibi = "line one\nline \"two\", with comma\ttab end\r\nlast"
    session.succeed("alibi", "duck", alibi)
    // Terminal control characters other than tabs and line breaks are refused (65).
    expectFailure(
      session.run("alibi", "duck", "red \u{1B}[31m alert"), status: 65,
      messageContains: "control characters")
    #expect(try session.suspect("duck")["alibi"] as? String == alibi)
    #expect(try session.suspect("duck")["alibi"] as? String == alibi)
    let csv = session.succeed("show", "duck", "--format", "csv")
    let quoted = "\"" + alibi.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    #expect(csv.contains("," + quoted + ","))
    #expect(csv.hasSuffix(",0.0,Unlikely\r\n"))
  }

  @Test func globalOptionsMayComeBeforeOrAfterTheCommand() throws {
    let session = try CLITestCase(seeded: true)
    let after = session.succeed("show", "crow", "--json")
    #expect(session.succeed("--json", "show", "crow") == after)
    #expect(session.succeed("--format", "json", "show", "crow") == after)
    #expect(session.succeed("--format=json", "--no-color", "show", "crow") == after)
    #expect(session.succeed("show", "--format", "csv", "crow").hasPrefix("id,name,species,"))
  }

  @Test func animalEditWithNothingToChangeIsAUsageError() throws {
    let session = try CLITestCase(seeded: true)
    expectFailure(session.run("animal", "edit", "crow"), status: 64)
  }

  @Test func renamingOnesOwnSpeciesCaseIsAllowed() throws {
    let session = try CLITestCase(seeded: true)
    session.succeed("animal", "edit", "crow", "--species", "CROW")
    #expect(try session.suspect("crow")["species"] as? String == "CROW")
  }

  @Test func speciesAreUniqueIgnoringUnicodeCaseAndNormalization() throws {
    let session = try CLITestCase(seeded: true)
    session.succeed(
      "animal", "add", "--name", "Noisette", "--species", "Écureuil", "--paw", "small")
    let before = session.snapshot()
    for species in ["ÉCUREUIL", "écureuil", "E\u{301}cureuil"] {
      expectFailure(
        session.run("animal", "add", "--name", "Other", "--species", species, "--paw", "small"),
        status: 65, messageContains: "already exists")
    }
    #expect(session.snapshot() == before)
    #expect(try session.suspect("e\u{301}CUREUIL")["name"] as? String == "Noisette")
  }

  @Test
  func surroundingSpacesDoNotMakeANewSpecies() throws {
    let session = try CLITestCase(seeded: true)
    session.succeed(
      "animal", "add", "--name", "  Bob  ", "--species", "  Bobcat ", "--paw", "small")
    let bobcat = try session.suspect("bobcat")
    #expect(bobcat["name"] as? String == "Bob")
    #expect(bobcat["species"] as? String == "Bobcat")
    session.expectRefusal(
      ["animal", "add", "--name", "B", "--species", "Bobcat", "--paw", "small"], status: 65,
      messageContains: "already exists")
    session.expectRefusal(
      ["animal", "add", "--name", "B", "--species", "crow ", "--paw", "small"], status: 65,
      messageContains: "already exists")
  }

  @Test func editingIntoAnotherSpeciesIsRefused() throws {
    let session = try CLITestCase(seeded: true)
    session.expectRefusal(
      ["animal", "edit", "crow", "--species", "dove"], status: 65, messageContains: "dove")
  }

  // MARK: - fruit

  @Test func fruitAddListRemove() throws {
    let session = try CLITestCase(seeded: true)
    #expect(
      session.succeed("fruit", "add", "Kiwi", "--color", "green") == "Added Kiwi (green, id 20).\n")
    let json = try jsonObject(
      session.succeed("fruit", "add", "Lychee", "--color", "#FFC0CB", "--json"))
    #expect(Set(json.keys) == ["id", "name", "color"])
    #expect(json["name"] as? String == "Lychee")
    var fruits = try jsonArray(session.succeed("fruit", "list", "--json"))
    #expect(fruits.count == 21)
    #expect(
      fruits.contains { $0["name"] as? String == "Kiwi" && $0["color"] as? String == "green" })

    session.succeed("favorite", "add", "crow", "KIWI")
    #expect(
      try session.suspect("crow")["favorite_fruits"] as? [String] == [
        "Pink Pearl Apple", "Golden Nectar Plum", "Hauer Pippin Apple", "Kiwi",
      ])
    session.expectRefusal(["fruit", "remove", "kiwi"], status: 65, messageContains: "Catie")

    session.succeed("favorite", "remove", "crow", "kiwi")
    #expect(session.succeed("fruit", "remove", "kiwi") == "Removed Kiwi.\n")
    fruits = try jsonArray(session.succeed("fruit", "list", "--json"))
    #expect(fruits.count == 20)
    #expect(!fruits.contains { $0["name"] as? String == "Kiwi" })
  }

  @Test func removingAFavouredSeedFruitNamesEveryHolder() throws {
    let session = try CLITestCase(seeded: true)
    let outcome = session.run("fruit", "remove", "Strawberry Tree")
    expectFailure(outcome, status: 65)
    let message = lines(outcome.standardError)[0]
    #expect(message.contains("Fabrizio"))
    #expect(message.contains("Maria"))
  }

  @Test func fruitNamesAreUniqueIgnoringCase() throws {
    let session = try CLITestCase(seeded: true)
    session.expectRefusal(
      ["fruit", "add", "ELSTAR apple", "--color", "red"], status: 65,
      messageContains: "already exists")
    session.expectRefusal(["fruit", "remove", "Durian"], status: 65, messageContains: "Durian")
  }

  // MARK: - init and demo

  @Test func initSeedRefusesASecondSeed() throws {
    let session = try CLITestCase(seeded: true)
    session.expectRefusal(["init", "--seed"], status: 65, messageContains: "10 suspect")
    let again = try jsonObject(session.succeed("init", "--json"))
    #expect(again["created"] as? Bool == false)
    #expect(number(again["suspects"]) == 10)
    #expect(number(again["fruits"]) == 19)
  }

  @Test func demoCreatesSeedsAndRanks() throws {
    let session = try CLITestCase()
    let output = session.succeed("demo")
    let text = lines(output)
    #expect(text.first == "Created \(session.databasePath) with the seed case.")
    #expect(text.contains("Suspects"))
    // The latest bulletin (the seed's Pink Pearl Apple) and its ranking.
    #expect(text.contains("FRUIT NIBBLE BULLETIN #1"))
    #expect(text.contains { $0.hasPrefix("  Fruit") && $0.hasSuffix("Pink Pearl Apple") })
    #expect(text.contains { $0.hasPrefix("Ranking for bulletin #1") })
    #expect(text.contains { $0.contains("🦝 Rénard") && $0.contains("Raccoon") })
    #expect(try session.suspects().count == 10)
    // A second demo reuses the file.
    #expect(session.succeed("demo").hasPrefix("Case file: \(session.databasePath)\n"))
    #expect(try session.suspects().count == 10)
    let json = try jsonObject(session.succeed("demo", "--json"))
    #expect((json["suspects"] as? [Any])?.count == 10)
    #expect((json["ranking"] as? [Any])?.count == 10)
    #expect(json["incident"] is [String: Any])
  }

  // MARK: - Colour

  @Test func colourOnlyOnATerminalWithoutNoColor() throws {
    let session = try CLITestCase(seeded: true)
    session.succeed("suspect", "crow", "0.95")
    let escape = "\u{1B}["
    #expect(session.run("list", terminal: true).standardOutput.contains(escape))
    #expect(session.run("rank", terminal: true).standardOutput.contains(escape))
    #expect(!session.run("list", terminal: false).standardOutput.contains(escape))
    #expect(!session.run("list", "--no-color", terminal: true).standardOutput.contains(escape))
    #expect(
      !session.run("show", "crow", "--no-color", terminal: true).standardOutput.contains(escape))
    session.environment["NO_COLOR"] = "1"
    for command in [["list"], ["rank"], ["show", "crow"], ["fruit", "list"], ["demo"]] {
      let output = session.run(command, terminal: true).standardOutput
      #expect(!output.contains(escape), "\(command)")
      #expect(!output.isEmpty)
    }
    // An empty NO_COLOR does not count (no-color.org).
    session.environment["NO_COLOR"] = ""
    #expect(session.run("list", terminal: true).standardOutput.contains(escape))
    // JSON never carries colour.
    session.environment["NO_COLOR"] = nil
    #expect(!session.run("list", "--json", terminal: true).standardOutput.contains(escape))
  }

  @Test func dumbTerminalsGetNoColourAndColorOutputAlwaysForcesIt() throws {
    let session = try CLITestCase(seeded: true)
    session.succeed("suspect", "crow", "0.95")
    let escape = "\u{1B}["
    session.environment["TERM"] = "dumb"
    #expect(!session.run("list", terminal: true).standardOutput.contains(escape))
    // --color always: into a pipe (for less -R), on a dumb terminal, despite NO_COLOR.
    session.environment["NO_COLOR"] = "1"
    let forced = session.run("list", "--color-output", "always", terminal: false)
    #expect(forced.status == 0)
    #expect(forced.standardOutput.contains("\u{1B}[1mID"))
    session.environment["TERM"] = "xterm-256color"
    session.environment["NO_COLOR"] = nil
    #expect(
      !session.run("list", "--color-output", "never", terminal: true).standardOutput.contains(
        escape))
    #expect(
      session.run("list", "--color-output", "auto", terminal: true).standardOutput.contains(escape))
    let contradiction = session.run("list", "--no-color", "--color-output", "always")
    #expect(contradiction.status == 64)
    #expect(
      contradiction.standardError.hasPrefix(
        "inspector: error: --no-color and --color-output always contradict each other"))
    #expect(session.run("list", "--color-output", "sometimes").status == 64)
    // CLICOLOR_FORCE, the environment's way to force colour into a pipe.
    session.environment["CLICOLOR_FORCE"] = "1"
    #expect(session.run("list", terminal: false).standardOutput.contains(escape))
    #expect(!session.run("list", "--no-color", terminal: false).standardOutput.contains(escape))
  }

  @Test func colouredTableStillAligns() throws {
    let session = try CLITestCase(seeded: true)
    session.succeed("suspect", "crow", "0.95")
    let plain = session.succeed("list")
    let coloured = session.run("list", terminal: true).standardOutput
    let stripped = coloured.replacingOccurrences(
      of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    #expect(stripped == plain)
  }
}
