import Testing

@testable import CaseStore
@testable import InspectorCLI

/// The record writers write their JSON directly; it must be byte for byte what the same members
/// built as ``JSONValue``s serialise to (the layout docs/output-formats.md describes).
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

  /// A suspect's members as values, in docs/output-formats.md's order.
  static func members(_ suspect: Suspect) -> [(String, JSONValue)] {
    let schedule: JSONValue =
      suspect.sleepSchedule.map {
        .object([("sleep", .string($0.sleep.description)), ("wake", .string($0.wake.description))])
      } ?? .null
    return [
      ("id", .integer(suspect.id)),
      ("name", .string(suspect.name)),
      ("species", .string(suspect.species)),
      ("emoji", JSONValue(suspect.emoji)),
      ("paw_size", .string(suspect.pawSize.rawValue)),
      ("favorite_fruits", .array(suspect.favoriteFruitNames.map(JSONValue.init))),
      ("alibi", .string(suspect.alibi)),
      ("sleep_schedule", schedule),
      ("suspicion_level", .double(suspect.suspicionLevel.value)),
      ("suspicion_label", .string(suspect.suspicionLevel.label.rawValue)),
    ]
  }

  /// A ranking row's members as values.
  static func members(_ row: RankedSuspect) -> [(String, JSONValue)] {
    let clues: JSONValue =
      row.clues.isEmpty ? .null : .object(row.clues.map { ($0.clue.rawValue, .bool($0.matched)) })
    return [("rank", .integer(Int64(row.rank)))] + members(row.suspect) + [
      ("clues_matched", .integer(Int64(row.cluesMatched))),
      ("clues_checked", .integer(Int64(row.cluesChecked))),
      ("clues", clues),
    ]
  }

  @Test("a suspect", arguments: [true, false])
  func suspect(pretty: Bool) {
    for suspect in Self.suspects {
      var output = UTF8Buffer()
      SuspectPresenter.json.write(suspect, to: &output, pretty: pretty, indent: pretty ? 1 : 0)
      #expect(output.text == Self.serialized(.object(Self.members(suspect)), pretty: pretty))
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
      RankingPresenter.json.write(row, to: &output, pretty: pretty, indent: pretty ? 1 : 0)
      #expect(output.text == Self.serialized(.object(Self.members(row)), pretty: pretty))
    }
  }

  @Test("sql values", arguments: [true, false])
  func sqlValues(pretty: Bool) {
    let columns = ["i", "r", "t", "b", "n", "i"]
    let row: [AdHocValue] = [
      .integer(.min), .real(0.1), .text("a\u{1}b"), .blob([0, 0xAB]), .null, .real(.infinity),
    ]
    // As `sqlite3 -json`: integers exact, reals that read back the same, NULL null, text as
    // is, blobs as hex text.
    let values: [JSONValue] = [.integer(.min), .double(0.1), "a\u{1}b", "00AB", .null, .null]
    var output = UTF8Buffer()
    let json = JSONValue.object(Array(zip(columns, values)))
    var object = JSONObjectWriter(pretty: pretty, indent: pretty ? 1 : 0, to: &output)
    for (column, value) in zip(columns, row) {
      object.member(column, to: &output)
      SQLPresenter.writeJSON(value, to: &output)
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
