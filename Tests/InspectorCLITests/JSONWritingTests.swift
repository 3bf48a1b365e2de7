import Testing

@testable import CaseStore
@testable import InspectorCLI

/// The listings write their JSON directly; it must be byte for byte what the JSON values of
/// `show` and the whole-listing renderers serialise to.
@Suite("JSON written directly")
struct JSONWritingTests {
  static let suspects = [
    Suspect(id: 1, name: "Catie", species: "Cat", pawSize: .small, emoji: nil),
    Suspect(
      id: 10, name: "Rénard \"the\" fox\n", species: "Raccoon", pawSize: .large, emoji: "🦝",
      favoriteFruits: ["Apple", "Kiwi\t", "梨"], alibi: "I was\\asleep",
      sleepSchedule: SleepSchedule(
        sleep: ClockTime(hour: 22, minute: 5)!, wake: ClockTime(hour: 6, minute: 30)!),
      suspicionLevel: SuspicionLevel(1.0 / 3)!),
  ]

  /// `value` as the listings write an element: pretty one level deep, or compact.
  static func serialized(_ value: JSONValue, pretty: Bool) -> String {
    value.serialized(pretty: pretty, nestedLevels: pretty ? 1 : 0)
  }

  @Test("a suspect", arguments: [true, false])
  func suspect(pretty: Bool) {
    for suspect in Self.suspects {
      var output = UTF8Buffer()
      SuspectPresenter.writeJSON(suspect, to: &output, pretty: pretty, indent: pretty ? 1 : 0)
      #expect(
        output.text == Self.serialized(.object(SuspectPresenter.json(suspect)), pretty: pretty))
    }
  }

  @Test("a ranking row, with and without clues", arguments: [true, false])
  func rankedSuspect(pretty: Bool) {
    let verdicts = [
      ClueVerdict(clue: .pawSize, matched: true), ClueVerdict(clue: .awake, matched: false),
    ]
    for (index, suspect) in Self.suspects.enumerated() {
      let row = RankedSuspect(rank: index + 1, suspect: suspect, clues: index == 0 ? [] : verdicts)
      var output = UTF8Buffer()
      RankCommand.writeJSON(row, to: &output, pretty: pretty, indent: pretty ? 1 : 0)
      #expect(output.text == Self.serialized(.object(RankCommand.json(row)), pretty: pretty))
    }
  }

  @Test("sql values", arguments: [true, false])
  func sqlValues(pretty: Bool) {
    let columns = ["i", "r", "t", "b", "n", "i"]
    let row: [AdHocValue] = [
      .integer(.min), .real(0.1), .text("a\u{1}b"), .blob([0, 0xAB]), .null, .real(.infinity),
    ]
    var output = UTF8Buffer()
    let json = JSONValue.object(zip(columns, row).map { ($0, SQLCommand.json($1)) })
    var object = JSONObjectWriter(pretty: pretty, indent: pretty ? 1 : 0, to: &output)
    for (column, value) in zip(columns, row) {
      object.member(column, to: &output)
      SQLCommand.writeJSON(value, to: &output)
    }
    object.finish(to: &output)
    #expect(output.text == Self.serialized(json, pretty: pretty))
  }

  @Test("integers as String(_:) writes them, doubles as interpolation does")
  func numbers() {
    for value: Int64 in [0, 7, -7, 10, 1_234_567_890, .max, .min] {
      var output = UTF8Buffer()
      output.append(value)
      #expect(output.text == String(value))
    }
    for value in [0.0, -0.0, 0.1, 1.0 / 3, 1e16, .leastNonzeroMagnitude, .infinity, -.nan] {
      var output = UTF8Buffer()
      output.append(value)
      #expect(output.text == "\(value)")
    }
  }
}
