import CaseStore

/// A field of a suspect that `PATCH /api/suspects/{id}` changes: the `field` of its body, named
/// as the Suspect record's key (docs/output-formats.md "Suspects").
enum DeskSuspectField: String, CaseIterable, Sendable {
  /// `name`: a string.
  case name
  /// `species`: a string (unique ignoring case).
  case species
  /// `emoji`: a string, or `null` (or `""`) for none.
  case emoji
  /// `paw_size`: `small`, `medium` or `large`.
  case pawSize = "paw_size"
  /// `favorite_fruits`: the fruits' names in order, most favoured first.
  case favoriteFruits = "favorite_fruits"
  /// `alibi`: a string (`""` or `null` clears it).
  case alibi
  /// `sleep_schedule`: `{"sleep": "HH:MM", "wake": "HH:MM"}` or `null`.
  case sleepSchedule = "sleep_schedule"
  /// `suspicion_level`: a number (or plain decimal text) from 0 to 1.
  case suspicionLevel = "suspicion_level"

  /// The field in words, for messages (`sleep schedule`).
  var words: String { rawValue.split(separator: "_").joined(separator: " ") }

  /// The field's value in `suspect` as the Suspect record prints it (through the one writer,
  /// ``SuspectPresenter/json``), read back as JSON, so that it compares with what a page that
  /// read the record sends as `expected` (numbers as numbers, objects member by member).
  ///
  /// - Throws: ``CaseError/unreadableInput(_:)`` if the record did not read back (never
  ///   expected).
  func value(of suspect: Suspect) throws -> JSONNode {
    guard
      case .object(let members) = try JSONNode.document(
        SuspectPresenter.json.compactText(suspect))
    else { return .null }
    return members[rawValue] ?? .null
  }
}

/// One field's new value, read from the request with the command line's value types and
/// applied with the case-store operations its command uses (docs/web-desk.md "API"), so that
/// the desk refuses what the command line refuses, with the same messages.
enum DeskSuspectEdit: Sendable {
  /// `animal edit --name`, `--species`, `--paw`, `--emoji`.
  case identity(SuspectEdit)
  /// `favorite add`, `favorite remove`, `favorite move`: the names in their new order.
  case favorites([String])
  /// `alibi TEXT` (`""`: `alibi --clear`).
  case alibi(String)
  /// `sleep --sleep --wake`, or (`nil`) `sleep --clear`; times as typed.
  case sleepSchedule((sleep: String, wake: String)?)
  /// `suspect LEVEL`.
  case suspicionLevel(SuspicionLevel)

  /// Reads `value` for `field`.
  ///
  /// - Throws: ``DeskError`` usage for a value of the wrong JSON type; what the value types
  ///   throw (`PawSize(parsing:)`, `SuspicionLevel(parsing:)`: ``CaseError/invalidValue(field:value:expected:)``).
  init(field: DeskSuspectField, value: JSONNode) throws {
    switch field {
    case .name:
      self = .identity(SuspectEdit(name: try Self.text(value, field)))
    case .species:
      self = .identity(SuspectEdit(species: try Self.text(value, field)))
    case .emoji:
      let emoji = value == .null ? nil : try Self.text(value, field)
      self = .identity(SuspectEdit(emoji: .some(emoji?.isEmpty == true ? nil : emoji)))
    case .pawSize:
      self = .identity(SuspectEdit(pawSize: try PawSize(parsing: try Self.text(value, field))))
    case .favoriteFruits:
      guard case .array(let elements) = value else { throw Self.wrongType(value, field) }
      self = .favorites(try elements.map { try Self.text($0, field) })
    case .alibi:
      self = .alibi(value == .null ? "" : try Self.text(value, field))
    case .sleepSchedule:
      switch value {
      case .null:
        self = .sleepSchedule(nil)
      case .object(let members):
        guard case .string(let sleep)? = members["sleep"], case .string(let wake)? = members["wake"]
        else { throw Self.wrongType(value, field) }
        self = .sleepSchedule((sleep, wake))
      default:
        throw Self.wrongType(value, field)
      }
    case .suspicionLevel:
      switch value {
      case .number(let number):
        // A number in range is the level; any other goes through the command line's parser,
        // which refuses it with its message.
        self = .suspicionLevel(try SuspicionLevel(number) ?? SuspicionLevel(parsing: "\(number)"))
      case .string(let text):
        self = .suspicionLevel(try SuspicionLevel(parsing: text))
      default:
        throw Self.wrongType(value, field)
      }
    }
  }

  /// Makes the change inside `db`'s change set, as the field's command would.
  ///
  /// - Parameters:
  ///   - id: The suspect's id.
  ///   - stored: The suspect as stored before the change.
  /// - Throws: What the case-store operations throw (invalid values, a duplicate species, an
  ///   unknown or ambiguous fruit, a fruit named twice, bad times).
  func apply(to id: Int64, stored: Suspect, _ db: CaseWriter) throws {
    switch self {
    case .identity(let edit):
      try db.suspects.edit(id: id, edit)
    case .favorites(let names):
      try Self.setFavorites(names, of: id, stored: stored, db)
    case .alibi(let text):
      try db.suspects.setAlibi(id: id, text)
    case .sleepSchedule(let times?):
      try db.suspects.setSleepSchedule(
        id: id,
        SleepSchedule(
          sleep: try ClockTime(parsing: times.sleep, field: "sleep time"),
          wake: try ClockTime(parsing: times.wake, field: "wake time")))
    case .sleepSchedule(nil):
      try db.suspects.setSleepSchedule(id: id, nil)
    case .suspicionLevel(let level):
      try db.suspects.setSuspicionLevel(id: id, level)
    }
  }

  // MARK: - Private helpers

  /// Makes `names` the suspect's favourites in that order as `favorite remove`, `favorite add`
  /// and `favorite move` would: the ones left out are removed, the new ones added, then each
  /// moved to its place (a fruit already in place is not written).
  private static func setFavorites(
    _ names: [String], of id: Int64, stored: Suspect, _ db: CaseWriter
  ) throws {
    let wanted = try names.map { try db.fruits.find($0) }
    let held = Set(try stored.favoriteFruits.map { try db.fruits.find($0).id })
    let wantedIDs = Set(wanted.map(\.id))
    for name in stored.favoriteFruits where !wantedIDs.contains(try db.fruits.find(name).id) {
      try db.suspects.removeFavorite(id: id, fruit: name)
    }
    var seen = Set<Int64>()
    for fruit in wanted {
      // A fruit named twice is added twice, which `favorite add` refuses.
      if !held.contains(fruit.id) || seen.contains(fruit.id) {
        try db.suspects.addFavorite(id: id, fruit: fruit.name)
      }
      seen.insert(fruit.id)
    }
    for (index, fruit) in wanted.enumerated() {
      try db.suspects.moveFavorite(id: id, fruit: fruit.name, to: index + 1)
    }
  }

  /// `value` as text.
  private static func text(_ value: JSONNode, _ field: DeskSuspectField) throws -> String {
    guard case .string(let text) = value else { throw wrongType(value, field) }
    return text
  }

  /// A usage error for a value of the wrong JSON type.
  private static func wrongType(_ value: JSONNode, _ field: DeskSuspectField) -> DeskError {
    let expected =
      switch field {
      case .favoriteFruits: "an array of fruit names"
      case .sleepSchedule: "{\"sleep\": \"HH:MM\", \"wake\": \"HH:MM\"} or null"
      case .suspicionLevel: "a number from 0 to 1"
      case .emoji, .alibi: "a string or null"
      case .name, .species, .pawSize: "a string"
      }
    return DeskError(
      .usage, "\"value\" for \(field.rawValue) is \(value.typeName): expected \(expected)",
      members: [("field", .string(field.rawValue))])
  }
}

extension JSONValue {
  /// A value read from a request (``JSONNode``), to write back in an error: numbers as
  /// doubles (as the Suspect record prints its level), object members sorted by key.
  init(_ node: JSONNode) {
    switch node {
    case .null: self = .null
    case .bool(let value): self = .bool(value)
    case .number(let value): self = .double(value)
    case .string(let value): self = .string(value)
    case .array(let elements): self = .array(elements.map(JSONValue.init))
    case .object(let members):
      self = .object(members.sorted { $0.key < $1.key }.map { ($0.key, JSONValue($0.value)) })
    }
  }
}
