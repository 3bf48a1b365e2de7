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
}
