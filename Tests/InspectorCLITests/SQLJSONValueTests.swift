import Foundation
import Testing

@testable import InspectorCLI

/// `sql --json` values follow docs/output-formats.md "sql": reals as the shortest text that
/// reads back as the same double, `-0.0` kept, NaN as null, blobs as upper-case hex, integers
/// exact.
@Suite("sql --json values")
struct SQLJSONValueTests {
  @Test func everyValueIsWrittenByTheDocumentedRule() throws {
    let cli = try CLITestCase(seeded: true)
    let json = cli.succeed(
      "sql", "--format", "ndjson",
      """
      SELECT 0.1 AS a, -0.0 AS b, 1e300 AS c, x'00ff41' AS d, 1.0 AS e, 2.5e-7 AS f,
        9007199254740993 AS g, 1e16 AS h, 1.0 / 3 AS i, 5e-324 AS j,
        1.7976931348623157e308 AS k, NULL AS l, 'tab\tand "quote"' AS m, 1e308 * 10 AS n
      """)
    #expect(
      json
        == #"{"a":0.1,"b":-0.0,"c":1e+300,"d":"00FF41","e":1.0,"f":2.5e-07,"#
        + #""g":9007199254740993,"h":1e+16,"i":0.3333333333333333,"j":5e-324,"#
        + #""k":1.7976931348623157e+308,"l":null,"m":"tab\tand \"quote\"","n":null}"# + "\n")
    // Every real reads back as exactly the double SQLite computed.
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let expected: [String: Double] = [
      "a": 0.1, "c": 1e300, "e": 1.0, "f": 2.5e-7, "h": 1e16, "i": 1.0 / 3,
      "j": Double.leastNonzeroMagnitude,
      "k": 1.7976931348623157e308,
    ]
    for (key, value) in expected {
      #expect((object[key] as? NSNumber)?.doubleValue == value, "\(key)")
    }
    #expect((object["b"] as? NSNumber)?.doubleValue.sign == .minus)
  }
}
