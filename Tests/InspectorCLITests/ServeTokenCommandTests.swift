import CaseStore
import Foundation
import Testing

@testable import InspectorCLI

@Suite("serve token add, list and revoke")
struct ServeTokenCommandTests {
  @Test func theCommandsSitUnderServeToken() throws {
    let token = try #require(
      CommandTree.root.subcommand(named: "serve")?.subcommand(named: "token"))
    #expect(token.subcommands.map(\.name) == ["add", "list", "revoke"])
    #expect(token.isGroup)
    #expect(CommandTree.commands[["serve", "token", "list"]] == ServeTokenListCommand.self)
  }

  @Test func addPrintsTheTokenOnceAndItSignsTheInvestigatorIn() throws {
    let cli = try CLITestCase(seeded: true)
    let output = cli.succeed("serve", "token", "add", "Ann")
    let shown = lines(output)
    #expect(shown.count == 2)
    #expect(
      shown.first
        == "Added investigator Ann. Their token, shown only this once (only its hash is kept):")
    let token = try #require(shown.last)
    #expect(token.count == 43)
    let database = try CaseDatabase(path: cli.databasePath, access: .readOnly)
    #expect(
      try database.read { try $0.investigators.investigator(presenting: token)?.name } == "Ann")
    // Nothing the commands print later holds the token.
    for format in ["table", "json", "ndjson", "csv"] {
      #expect(!cli.succeed("serve", "token", "list", "--format", format).contains(token))
    }
    #expect(!cli.succeed("sql", "SELECT * FROM investigator_tokens", "--json").contains(token))
  }

  @Test func addGivesTheTokenInEveryFormat() throws {
    let cli = try CLITestCase(seeded: true)
    let json = try jsonObject(cli.succeed("serve", "token", "add", "Ann", "--json"))
    #expect(json.keys.sorted() == ["created_at", "name", "token"])
    #expect(json["name"] as? String == "Ann")
    #expect((json["token"] as? String)?.count == 43)
    let csv = csvLines(cli.succeed("serve", "token", "add", "Bob", "--format", "csv"))
    #expect(csv.first == "name,created_at,token")
    #expect(csv.count == 2 && csv[1].hasPrefix("Bob,20"))
    let ndjson = try jsonObject(cli.succeed("serve", "token", "add", "Cy", "--format", "ndjson"))
    #expect(ndjson["name"] as? String == "Cy")
  }

  @Test func listShowsNamesAndTimesInEveryFormat() throws {
    let cli = try CLITestCase(seeded: true)
    #expect(lines(cli.succeed("serve", "token", "list")).first?.hasPrefix("INVESTIGATOR") == true)
    #expect(try jsonArray(cli.succeed("serve", "token", "list", "--json")).isEmpty)
    cli.succeed("serve", "token", "add", "Zed")
    cli.succeed("serve", "token", "add", "amy")
    let created = try jsonArray(cli.succeed("serve", "token", "list", "--json")).map {
      try #require($0["created_at"] as? String)
    }
    let json = try jsonArray(cli.succeed("serve", "token", "list", "--json"))
    #expect(json.map { $0["name"] as? String } == ["amy", "Zed"])
    #expect(json.allSatisfy { $0.keys.sorted() == ["created_at", "name"] })
    let table = lines(cli.succeed("serve", "token", "list"))
    #expect(table.count == 4)
    #expect(table[0].hasPrefix("INVESTIGATOR  CREATED"))
    #expect(table[2] == "amy           \(created[0])")
    #expect(table[3] == "Zed           \(created[1])")
    #expect(
      csvLines(cli.succeed("serve", "token", "list", "--format", "csv"))
        == ["name,created_at", "amy,\(created[0])", "Zed,\(created[1])"])
    let ndjson = lines(cli.succeed("serve", "token", "list", "--format", "ndjson"))
    #expect(ndjson.count == 2)
    #expect(try jsonObject(ndjson[1])["name"] as? String == "Zed")
  }

  @Test func revokeRemovesTheTokenAndAddsNoChangeSet() throws {
    let cli = try CLITestCase(seeded: true)
    let history = cli.succeed("history", "--json")
    let token = try #require(lines(cli.succeed("serve", "token", "add", "Ann")).last)
    #expect(
      cli.succeed("serve", "token", "revoke", "ann")
        == "Revoked the token of Ann; it signs nobody in any more.\n")
    #expect(try jsonArray(cli.succeed("serve", "token", "list", "--json")).isEmpty)
    let database = try CaseDatabase(path: cli.databasePath, access: .readOnly)
    #expect(try database.read { try $0.investigators.investigator(presenting: token) } == nil)
    #expect(cli.succeed("history", "--json") == history)
    cli.succeed("serve", "token", "add", "Ann")
    let revoked = try jsonObject(cli.succeed("serve", "token", "revoke", "Ann", "--json"))
    #expect(revoked["name"] as? String == "Ann")
    #expect(revoked["token"] == nil)
  }

  @Test func refusalsSayWhyAndChangeNothing() throws {
    let cli = try CLITestCase(seeded: true)
    cli.succeed("serve", "token", "add", "Ann")
    let before = cli.succeed("serve", "token", "list", "--json")
    cli.expectRefusal(
      ["serve", "token", "add", "ANN"], status: 65,
      messageContains: "investigator 'ANN' already has a token; revoke it first")
    cli.expectRefusal(
      ["serve", "token", "add", " Ann"], status: 65,
      messageContains: "invalid investigator name ' Ann': expected 1 to 64 characters")
    cli.expectRefusal(
      ["serve", "token", "revoke", "Bob"], status: 65,
      messageContains: "no investigator named 'Bob' has a token")
    cli.expectRefusal(["serve", "token", "add"], status: 64)
    cli.expectRefusal(["serve", "token"], status: 64)
    #expect(cli.succeed("serve", "token", "list", "--json") == before)
  }

  /// CSV's records (RFC 4180: each ends in CRLF).
  private func csvLines(_ text: String) -> [String] {
    #expect(text.hasSuffix("\r\n"))
    return text.components(separatedBy: "\r\n").dropLast()
  }
}
