import Testing

@testable import InspectorCLI

@Suite("JSON value")
struct JSONValueTests {
  @Test(
    "scalars serialise exactly",
    arguments: [
      (JSONValue.integer(.max), "9223372036854775807"),
      (.integer(.min), "-9223372036854775808"),
      (.integer(0), "0"),
      (.double(0.1), "0.1"),
      (.double(1), "1.0"),
      (.double(-0.0), "-0.0"),
      (.double(37.334371), "37.334371"),
      (.double(-122.009558), "-122.009558"),
      (.double(1e16), "1e+16"),
      (.double(2.5e-7), "2.5e-07"),
      (.double(.greatestFiniteMagnitude), "1.7976931348623157e+308"),
      (.double(.nan), "null"),
      (.double(.infinity), "null"),
      (.double(-.infinity), "null"),
      (.null, "null"),
      (.bool(true), "true"),
      (.bool(false), "false"),
    ])
  func scalars(value: JSONValue, expected: String) {
    #expect(value.serialized(pretty: false) == expected)
    #expect(value.serialized(pretty: true) == expected)
  }

  @Test(
    "strings are escaped per RFC 8259",
    arguments: [
      ("a\u{0}b", #""a\u0000b""#),
      ("quote\"", #""quote\"""#),
      ("back\\slash", #""back\\slash""#),
      ("line\nbreak\r\ttab", #""line\nbreak\r\ttab""#),
      ("\u{8}\u{C}\u{1}\u{1F}", #""\b\f\u0001\u001f""#),
      ("a/b", #""a/b""#),
      ("Rénard 🐦‍⬛ 猫", "\"Rénard 🐦‍⬛ 猫\""),
      ("\u{7F}", "\"\u{7F}\""),
      ("", #""""#),
    ])
  func strings(text: String, expected: String) {
    #expect(JSONValue.string(text).serialized() == expected)
    #expect(JSONValue.quoted(text) == expected)
  }

  @Test(
    "doubles read back to the same Double",
    arguments: [0.1, 1.0, 1.0 / 3.0, Double.leastNonzeroMagnitude, 1e300, -0.5])
  func doublesRoundTrip(value: Double) {
    let text = JSONValue.double(value).serialized()
    #expect(Double(text) == value)
    #expect(text.contains(".") || text.contains("e"))
  }

  @Test("nested arrays and objects keep their order, compact")
  func nestedCompact() {
    let value: JSONValue = [
      "id": 4, "name": "Catie", "emoji": "🐦‍⬛",
      "favorite_fruits": ["Pink Pearl Apple", "Golden Nectar Plum"],
      "sleep_schedule": nil, "suspicion_level": 0.0, "nested": [[1, 2], [], [[nil]]], "empty": [:],
    ]
    #expect(
      value.serialized(pretty: false)
        == #"{"id":4,"name":"Catie","emoji":"🐦‍⬛","#
        + #""favorite_fruits":["Pink Pearl Apple","Golden Nectar Plum"],"#
        + #""sleep_schedule":null,"suspicion_level":0.0,"nested":[[1,2],[],[[null]]],"empty":{}}"#
    )
  }

  @Test(
    "pretty output: two-space indent, \"key\": value, objects one per line, scalar arrays inline")
  func pretty() {
    let value: JSONValue = [
      ["id": 1, "name": "Fabrizio", "favorite_fruits": ["Strawberry Tree", "Elstar Apple"]],
      [
        "id": 3, "name": "Ding", "sleep_schedule": ["sleep": "22:30", "wake": "06:30"],
        "favorite_fruits": [],
      ],
    ]
    let expected = """
      [
        {
          "id": 1,
          "name": "Fabrizio",
          "favorite_fruits": ["Strawberry Tree", "Elstar Apple"]
        },
        {
          "id": 3,
          "name": "Ding",
          "sleep_schedule": {
            "sleep": "22:30",
            "wake": "06:30"
          },
          "favorite_fruits": []
        }
      ]
      """
    #expect(value.serialized(pretty: true) == expected)
  }

  @Test("sql --json shape: column order kept, not sorted")
  func columnOrderKept() {
    let row = JSONValue.object([("species", "Crow"), ("name", "Catie"), ("id", 4)])
    #expect(JSONValue.array([row]).serialized() == #"[{"species":"Crow","name":"Catie","id":4}]"#)
  }

  @Test("objects compare member by member, in order")
  func equality() {
    let a = JSONValue.object([("a", 1), ("b", 2)])
    #expect(a == .object([("a", 1), ("b", 2)]))
    #expect(a != .object([("b", 2), ("a", 1)]))
    #expect(JSONValue.integer(1) != .double(1))
  }

  @Test("optional initialisers map nil to null")
  func optionals() {
    #expect(JSONValue(nil as String?) == .null)
    #expect(JSONValue("🐟" as String?) == .string("🐟"))
    #expect(JSONValue(0.5 as Double?) == .double(0.5))
    #expect(JSONValue(nil as Int64?) == .null)
  }
}
