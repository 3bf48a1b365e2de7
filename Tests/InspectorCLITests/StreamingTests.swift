import CaseStore
import CommandLineKit
import Foundation
import Testing

@testable import InspectorCLI

/// Listings write their rows as they read them (docs/output-formats.md "Streaming"): output
/// begins before the query ends, an error part-way leaves the rows before it and reports the
/// error, table widths come from the first page, and NDJSON is one object a line.
@Suite("Listings stream their rows")
struct StreamingTests {
  /// The seed case plus `count` suspects named `Extra N` (ids 11...), written as another client
  /// would, and then `sql` run the same way.
  static func largeCase(extra count: Int, then sql: String = "") throws -> CLITestCase {
    try CLITestCase.seeded(
      writtenByAnotherClient: """
        WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < \(count))
        INSERT INTO animals (name, species, paw_size)
          SELECT 'Extra ' || x, 'Species ' || x, 'small' FROM c;
        \(sql)
        """)
  }

  @Test func aListingThatFailsPartWayKeepsTheRowsBeforeIt() throws {
    // Suspect 1600 has a sleep time no reader accepts, written with the checks off: the first
    // page (ids 1...1000) is out before the second page meets it.
    let cli = try Self.largeCase(
      extra: 2490,
      then: """
        PRAGMA ignore_check_constraints = ON;
        INSERT INTO sleep_schedules (animal_id, sleep_at, wake_at) VALUES (1600, '25:99', '06:00');
        """)
    let outcome = cli.run("list")
    #expect(outcome.status == 65)
    #expect(
      outcome.standardError.hasPrefix("inspector: error: ")
        && outcome.standardError.contains("sleep_schedules")
        && outcome.standardError.contains("1600"),
      "\(outcome.standardError)")
    let shown = lines(outcome.standardOutput)
    #expect(shown.count == 2 + 1000, "the header, the rule and the first page")
    #expect(shown[0].hasPrefix("  ID  SUSPECT"))
    #expect(shown.last?.hasPrefix("1000  Extra 990 ") == true, "\(shown.last ?? "")")

    let json = cli.run("list", "--json")
    #expect(json.status == 65)
    #expect(json.standardOutput.hasPrefix("[\n  {\n    \"id\": 1,"))
    #expect(!json.standardOutput.hasSuffix("]\n"), "a cut array is left open")
  }

  @Test func sqlStreamsTheLastStatementsRows() throws {
    let cli = try CLITestCase(seeded: true)
    // Row 1500 overflows (abs of the smallest integer): the first 1000 rows are out by then.
    let failing = """
      WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000)
      SELECT x, CASE WHEN x < 1500 THEN x ELSE abs(-9223372036854775807 - 1) END AS y FROM c
      """
    let csv = cli.run("sql", failing, "--format", "csv")
    #expect(csv.status != 0)
    #expect(csv.standardError.hasPrefix("inspector: error: "))
    let shown = csv.standardOutput.components(separatedBy: "\r\n").dropLast()
    #expect(shown.first == "x,y")
    #expect(shown.count == 1 + 1000, "the header and the first page")
    #expect(shown.last == "1000,1000")
    // A statement that returns rows and is followed by one that returns none is still the
    // result, printed whole at the end.
    let earlier = cli.succeed("sql", "SELECT 1 AS a; PRAGMA temp_store = MEMORY", "--format", "csv")
    #expect(earlier == "a\r\n1\r\n")
    #expect(cli.succeed("sql", "PRAGMA temp_store = MEMORY", "--json") == "[]\n")
    // Past the first page a long text is cut, a number or NULL never.
    let table = lines(
      cli.succeed(
        "sql",
        """
        WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 1500)
        SELECT i, CASE WHEN i = 1200 THEN 123456789012 ELSE i END AS n,
          CASE WHEN i = 1300 THEN 'a very long text' WHEN i = 1400 THEN NULL ELSE 'ab' END AS t
        FROM c
        """))
    #expect(table[2 + 1199] == "1200  123456789012  ab")
    #expect(table[2 + 1299] == "1300  1300  a…")
    #expect(table[2 + 1399] == "1400  1400  NULL")
    #expect(
      cli.succeed("sql", "SELECT 1 AS a; SELECT 2 AS b -- the last", "--format", "ndjson")
        == "{\"b\":2}\n")
  }

  @Test func aStreamedListingIsTheSameAsOneDrawnWhole() throws {
    let cli = try Self.largeCase(extra: 1500)
    let suspects = try CaseDatabase(path: cli.databasePath, access: .readOnly).suspects.all()
    #expect(suspects.count == 1510)
    let json = try jsonArray(cli.succeed("list", "--json"))
    #expect(json.map { $0["id"] as? Int } == suspects.map { Int($0.id) })
    let csv = cli.succeed("list", "--format", "csv")
    #expect(csv == SuspectPresenter.csv(suspects))
    let ndjson = lines(cli.succeed("list", "--format", "ndjson"))
    #expect(ndjson.count == 1510)
    for (line, suspect) in zip(ndjson, suspects) {
      #expect(line + "\n" == SuspectPresenter.json.document(suspect, pretty: false))
    }
    let ranking = try jsonArray(cli.succeed("rank", "--all", "--json"))
    #expect(ranking.map { $0["rank"] as? Int } == Array(1...1510).map { Optional($0) })
  }

  @Test func tableWidthsComeFromTheFirstPageAndLaterCellsAreCut() throws {
    // Extra 1200's species is longer than any species on the first page.
    let long = String(repeating: "Longtail ", count: 5) + "Weasel"
    let cli = try Self.largeCase(
      extra: 1500, then: "UPDATE animals SET species = '\(long)' WHERE id = 1210;")
    let shown = lines(cli.succeed("list"))
    #expect(shown.count == 2 + 1510)
    // Numbers are never cut: ids past the first page's widest (4 digits here) are shown whole.
    #expect(shown.last?.hasPrefix("1510  Extra 1500") == true)
    // No line is wider than the rule, which spans every column at its first-page width.
    #expect(shown.allSatisfy { displayWidth(of: $0) <= displayWidth(of: shown[1]) })
    let row = try #require(shown.first { $0.hasPrefix("1210  ") })
    #expect(row.contains("  Longtail L…  "), "\(row)")
    #expect(!row.contains("Weasel"))
    #expect(displayWidth(of: row) <= displayWidth(of: shown[1]))
    // The JSON keeps the whole value.
    let json = try jsonArray(cli.succeed("list", "--json"))
    #expect(json.first { $0["id"] as? Int == 1210 }?["species"] as? String == long)
  }

  @Test func aSmallListingLooksAsIfDrawnWhole() throws {
    let cli = try CLITestCase(seeded: true)
    let suspects = try CaseDatabase(path: cli.databasePath, access: .readOnly).suspects.all()
    let expected = SuspectPresenter(style: OutputStyle(usesColor: false))
      .table(suspects)
    #expect(cli.succeed("list") == expected + "\n")
    #expect(cli.succeed("fruit", "list").hasPrefix("ID  FRUIT"))
  }
}

/// The rules of a streamed table's cells, without a database.
@Suite("A streamed table's cells")
struct StreamingTableTests {
  @Test func aWideTextCellIsCutByDisplayWidthAndANumberNever() {
    let table = StreamingTable(
      columns: [.init("ID", alignment: .right), .init("NAME")],
      firstPage: [["7", "Catie"]])
    #expect(table.widths == [2, 5])
    #expect(table.headerLines(headerStyle: { $0 }) == ["ID  NAME", "──  ─────"])
    #expect(table.line(["8", "Rénard"]) { $1 } == " 8  Réna…", "four columns and the ellipsis")
    // Emoji count two columns: "🦝 R" is four, and the ellipsis the fifth.
    #expect(table.line(["9", "🦝 Rénard"]) { $1 } == " 9  🦝 R…")
    #expect(table.line(["12345", "Bo"]) { $1 } == "12345  Bo")
    #expect(StreamingTable.cut("Catie", to: 5) == "Catie")
  }
}
