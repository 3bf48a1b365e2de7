import Foundation
import Testing

@testable import InspectorCLI

/// `inspector list` with filters, orders and slices, end to end.
struct ListFilterTests {
  /// The seed case with the crow at 0.95, the fish at 0.4 with an alibi, and the dove asleep
  /// 22:00-06:00.
  private func session() throws -> CLITestCase {
    let session = try CLITestCase(seeded: true)
    session.succeed("suspect", "crow", "0.95")
    session.succeed("suspect", "fish", "0.4")
    session.succeed("alibi", "fish", "Swimming laps")
    session.succeed("sleep", "dove", "--sleep", "22:00", "--wake", "06:00")
    return session
  }

  /// The species `list` prints as JSON for these options.
  private func species(_ session: CLITestCase, _ options: String...) throws -> [String] {
    let outcome = session.run(["list", "--json"] + options)
    #expect(outcome.status == 0, "list \(options): \(outcome.standardError)")
    return try jsonArray(outcome.standardOutput).map { $0["species"] as? String ?? "" }
  }

  @Test func filtersCombineAndReadBackRealSuspects() throws {
    let session = try session()
    #expect(try species(session, "--paw", "medium") == ["Duck", "Raccoon"])
    #expect(try species(session, "--species", "CROW") == ["Crow"])
    #expect(try species(session, "--favorite", "elstar apple") == ["Fish", "Snail"])
    #expect(try species(session, "--favorite", "Elstar Apple", "--no-alibi") == ["Snail"])
    #expect(try species(session, "--min-level", "0.4") == ["Fish", "Crow"])
    #expect(try species(session, "--min-level", ".3", "--max-level", "0.5") == ["Fish"])
    #expect(try !species(session, "--awake-at", "23:30").contains("Dove"))
    #expect(try species(session, "--awake-at", "06:00").contains("Dove"))
    #expect(try species(session, "--paw", "large").isEmpty)
  }

  @Test func sortReverseLimitAndOffset() throws {
    let session = try session()
    #expect(try species(session, "--sort", "level", "--limit", "3") == ["Crow", "Fish", "Duck"])
    #expect(
      try species(session, "--sort", "level", "--reverse", "--limit", "2") == ["Snail", "Rabbit"])
    #expect(try species(session, "--sort", "name", "--offset", "8") == ["Rabbit", "Snail"])
    #expect(try species(session, "--sort", "species", "--limit", "2") == ["Cat", "Crow"])
    #expect(try species(session, "--reverse", "--limit", "1") == ["Raccoon"])
    #expect(try species(session, "--offset", "10").isEmpty)
    // Every format streams the same rows.
    let csv = session.succeed("list", "--paw", "medium", "--format", "csv")
    #expect(csv.hasPrefix("id,name,species,"))
    #expect(csv.contains("\r\n7,Cornelius,Duck,🦆,medium,"))
    #expect(csv.contains("\r\n10,Rénard,Raccoon,🦝,medium,"))
    let ndjson = session.succeed("list", "--species", "crow", "--format", "ndjson")
    #expect(try jsonObject(ndjson)["suspicion_level"] as? Double == 0.95)
    let table = session.succeed("list", "--sort", "level", "--limit", "1", "--no-color")
    #expect(table.contains("Catie") && !table.contains("Fabrizio"))
  }

  /// `--sort fruits`: by the first favourite fruit's name, then id; the badger without
  /// favourites last (first reversed), in every format.
  @Test func sortByFirstFavouriteFruit() throws {
    let session = try session()
    session.succeed("animal", "add", "--name", "Pip", "--species", "Badger", "--paw", "medium")
    #expect(
      try species(session, "--sort", "fruits")
        == [
          "Cat", "Raccoon", "Dove", "Hedgehog", "Snail", "Duck", "Rabbit", "Crow", "Fish", "Mouse",
          "Badger",
        ])
    #expect(
      try species(session, "--sort", "fruits", "--reverse", "--limit", "3")
        == ["Badger", "Mouse", "Fish"])
    #expect(try species(session, "--sort", "fruits", "--offset", "9") == ["Mouse", "Badger"])
    #expect(
      try species(session, "--sort", "fruits", "--paw", "medium") == ["Raccoon", "Duck", "Badger"])
    let table = session.succeed("list", "--sort", "fruits", "--no-color")
    let order = ["Miko", "Rénard", "Ding", "Haku", "Soloman", "Cornelius", "Ricardo", "Catie"]
      .compactMap { table.range(of: " \($0) ")?.lowerBound }
    #expect(order.count == 8 && order == order.sorted(), "\(table)")
    #expect(table.range(of: " Pip ")!.lowerBound > table.range(of: "Maria")!.lowerBound)
    let csv = session.succeed("list", "--sort", "fruits", "--limit", "2", "--format", "csv")
    #expect(csv.contains("\r\n5,Miko,Cat,") && csv.contains("\r\n10,Rénard,Raccoon,"))
  }

  @Test func badFilterValuesAreRefused() throws {
    let session = try session()
    expectFailure(
      session.run("list", "--sort", "size"), status: 64, messageContains: "--sort <key>")
    expectFailure(session.run("list", "--paw", "huge"), status: 64)
    expectFailure(session.run("list", "--limit", "0"), status: 64)
    expectFailure(session.run("list", "--offset", "-1"), status: 64)
    expectFailure(
      session.run("list", "--min-level", "2"), status: 65, messageContains: "suspicion level")
    expectFailure(
      session.run("list", "--awake-at", "25:00"), status: 65, messageContains: "HH:MM")
    expectFailure(
      session.run("list", "--favorite", "Durian"), status: 65,
      messageContains: "no fruit named 'Durian'")
  }
}
