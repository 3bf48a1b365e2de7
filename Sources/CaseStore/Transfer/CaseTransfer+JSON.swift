import Foundation

extension CaseTransfer {
  /// Parses a JSON case document (docs/export-format.md): `format`, `version`, and the
  /// `fruits`, `suspects` and `incidents` arrays (each optional).
  ///
  /// - Throws: ``CaseError/unreadableInput(_:)`` for text that is not JSON;
  ///   ``CaseError/invalidRecord(record:field:problem:)`` naming the JSON path of the first
  ///   bad member (`$.suspects[3]`, `paw_size`), or of a key given twice in one object.
  static func parseJSON(_ text: String) throws -> CaseDocument {
    let root: JSONNode
    do {
      root = try JSONDecoder().decode(JSONNode.self, from: Data(text.utf8))
    } catch let error as JSONNode.UnreadableString {
      throw error.caseError
    } catch {
      throw CaseError.unreadableInput("the input is not valid JSON: \(Self.reason(error))")
    }
    // The decoder keeps one of two equal keys silently: refuse them, naming the second.
    if let duplicate = JSONDuplicateKeys.first(in: text) {
      throw CaseError.invalidRecord(
        record: duplicate.path, field: duplicate.key,
        problem: "the key is given twice in this object; give each member once")
    }
    guard case .object(let members) = root else {
      throw CaseError.invalidRecord(
        record: "$", field: "format", problem: "expected the case document, a JSON object")
    }
    let document = JSONRecord(path: "$", members: members)
    try document.requireOnly(["format", "version", "fruits", "suspects", "incidents"])
    guard case .string(let format)? = members["format"], format == Self.format else {
      throw CaseError.invalidRecord(
        record: "$", field: "format", problem: "expected \"\(Self.format)\"")
    }
    guard case .number(let version)? = members["version"], version == Double(Self.version) else {
      throw CaseError.invalidRecord(
        record: "$", field: "version",
        problem: "this inspector reads version \(Self.version) of the case document")
    }
    var result = CaseDocument()
    for (path, fruit) in try document.records("fruits") {
      try fruit.requireOnly(["name", "color"] + ignoredColumns)
      let name = try checkedName(try fruit.string("name"), record: path, field: "name")
      let color = try fruit.string("color")
      result.fruits.append(
        ImportedFruit(
          record: path, name: name,
          color: try checked(record: path, field: "color") { try Fruit.normalizedColor(color) }))
    }
    for (path, suspect) in try document.records("suspects") {
      result.suspects.append(try Self.suspect(suspect, path: path))
    }
    for (path, incident) in try document.records("incidents") {
      result.incidents.append(try Self.incident(incident, path: path))
    }
    return result
  }

  /// One suspect object.
  private static func suspect(_ object: JSONRecord, path: String) throws -> ImportedSuspect {
    try object.requireOnly(
      [
        "name", "species", "paw_size", "emoji", "favorite_fruits", "alibi", "sleep_schedule",
        "suspicion_level",
      ] + ignoredColumns)
    let paw = try object.string("paw_size")
    var suspect = ImportedSuspect(
      record: path, name: try checkedName(try object.string("name"), record: path, field: "name"),
      species: try checkedName(try object.string("species"), record: path, field: "species"),
      pawSize: try checked(record: path, field: "paw_size") { try PawSize(parsing: paw) })
    if let emoji = try object.optionalString("emoji") {
      suspect.emoji = .some(try emoji.flatMap { try checkedEmoji($0, record: path) })
    }
    if let fruits = object.members["favorite_fruits"] {
      guard case .array(let names) = fruits else {
        throw object.wrongType("favorite_fruits", "an array of fruit names")
      }
      suspect.favoriteFruits = try names.enumerated().map { index, name in
        try favoriteName(name, record: path, field: "favorite_fruits[\(index)]")
      }
    }
    if let alibi = try object.optionalString("alibi") {
      suspect.alibi = try checkedFreeText(alibi ?? "", record: path, field: "alibi")
    }
    if let schedule = object.members["sleep_schedule"] {
      switch schedule {
      case .null:
        suspect.sleepSchedule = .some(nil)
      case .object(let times):
        let times = JSONRecord(path: path + ".sleep_schedule", members: times)
        try times.requireOnly(["sleep", "wake"])
        let sleep = try times.string("sleep")
        let wake = try times.string("wake")
        suspect.sleepSchedule = SleepSchedule(
          sleep: try checked(record: times.path, field: "sleep") {
            try ClockTime(parsing: sleep, field: "sleep time")
          },
          wake: try checked(record: times.path, field: "wake") {
            try ClockTime(parsing: wake, field: "wake time")
          })
      default:
        throw object.wrongType(
          "sleep_schedule", "{\"sleep\": \"HH:MM\", \"wake\": \"HH:MM\"} or null")
      }
    }
    if let level = object.members["suspicion_level"] {
      guard case .number(let value) = level else {
        throw object.wrongType("suspicion_level", "a number from 0 to 1")
      }
      guard let level = SuspicionLevel(value) else {
        throw CaseError.invalidRecord(
          record: path, field: "suspicion_level",
          problem: "invalid suspicion level \(value): expected a number from 0 to 1")
      }
      suspect.suspicionLevel = level
    }
    return suspect
  }

  /// One incident object.
  private static func incident(_ object: JSONRecord, path: String) throws -> ImportedIncident {
    try object.requireOnly(
      ["fruit", "occurred_at", "paw_size", "latitude", "longitude", "notes", "id"])
    let fruit = try object.string("fruit")
    let when = try object.string("occurred_at")
    guard when.contains("T") else {
      throw CaseError.invalidRecord(
        record: path, field: "occurred_at", problem: "expected YYYY-MM-DDTHH:MM")
    }
    let occurredAt = try checked(record: path, field: "occurred_at") {
      try LocalDateTime(parsing: when)
    }
    var pawSize: PawSize?
    if let paw = try object.optionalString("paw_size") ?? nil {
      pawSize = try checked(record: path, field: "paw_size") { try PawSize(parsing: paw) }
    }
    let latitude = try object.optionalNumber("latitude")
    let longitude = try object.optionalNumber("longitude")
    var location: Location?
    switch (latitude, longitude) {
    case (nil, nil): break
    case (let latitude?, let longitude?):
      guard let place = Location(latitude: latitude, longitude: longitude) else {
        throw CaseError.invalidRecord(
          record: path, field: "latitude",
          problem: "expected a latitude in -90...90 and a longitude in -180...180")
      }
      location = place
    default:
      throw CaseError.invalidRecord(
        record: path, field: latitude == nil ? "latitude" : "longitude",
        problem: "give both latitude and longitude, or neither")
    }
    let notes = try checkedFreeText(
      (try object.optionalString("notes") ?? nil) ?? "", record: path, field: "notes")
    return ImportedIncident(
      record: path, fruit: fruit, occurredAt: occurredAt, pawSize: pawSize, location: location,
      notes: notes)
  }

  /// One JSON value (the `favorite_fruits` field of a CSV row).
  ///
  /// - Throws: `DecodingError` for text that is not one JSON value.
  public static func parseJSONValue(_ text: String) throws -> JSONNode {
    try JSONDecoder().decode(JSONNode.self, from: Data(text.utf8))
  }

  /// A decoding error in a few words.
  static func reason(_ error: any Error) -> String {
    if case DecodingError.dataCorrupted(let context) = error {
      if let underlying = context.underlyingError {
        return (underlying as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
          ?? context.debugDescription
      }
      return context.debugDescription
    }
    return "\(error)"
  }
}

/// A JSON value as the import (and the desk's API, for request bodies) reads it.
public enum JSONNode: Decodable, Sendable, Equatable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// Any number, as the nearest `Double`.
  case number(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONNode])
  /// An object; member order is not kept.
  case object([String: JSONNode])

  /// A string (or member name) whose escapes are no text, such as a lone surrogate `"\ud800"`:
  /// the decoder reports it only as data it cannot read, without a path, so the value that
  /// meets it throws this with its own path.
  struct UnreadableString: Error {
    /// Where the value is, from the document's root.
    let codingPath: [any CodingKey]

    /// The error `import` reports: ``CaseError/invalidRecord(record:field:problem:)`` naming
    /// the JSON path (`$.suspects[0]`, `name`).
    var caseError: CaseError {
      var record = "$"
      for key in codingPath.dropLast() {
        record += key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)"
      }
      let problem =
        "a string or member name holds an escape that is no character (such as a lone"
        + " surrogate \\ud800); write the character, or a whole surrogate pair"
      guard let last = codingPath.last else {
        return CaseError.invalidRecord(record: record, field: "", problem: problem)
      }
      if let index = last.intValue {
        return CaseError.invalidRecord(record: record + "[\(index)]", field: "", problem: problem)
      }
      return CaseError.invalidRecord(record: record, field: last.stringValue, problem: problem)
    }
  }

  /// One JSON document that gives no object member twice (a request body of the desk's API).
  ///
  /// - Throws: ``CaseError/unreadableInput(_:)`` for text that is not JSON, a string whose
  ///   escapes are no text, or a member given twice (named with its path).
  public static func document(_ text: String) throws -> JSONNode {
    let node: JSONNode
    do {
      node = try CaseTransfer.parseJSONValue(text)
    } catch {
      throw CaseError.unreadableInput("not JSON: \(CaseTransfer.reason(error))")
    }
    if let duplicate = JSONDuplicateKeys.first(in: text) {
      throw CaseError.unreadableInput(
        "\(duplicate.path) gives member '\(duplicate.key)' twice")
    }
    return node
  }

  /// Decodes any JSON value.
  ///
  /// - Throws: `DecodingError` for text that is not JSON, `UnreadableString` for a string
  ///   whose escapes are no text.
  public init(from decoder: any Decoder) throws {
    // Data the decoder cannot read inside a string: a number, a boolean or null then fails
    // with a type mismatch that would hide it.
    var unreadable = false
    // Strings are most of a case document: try them first, so that most values need no
    // failed attempt.
    if let value = try? decoder.singleValueContainer() {
      do {
        self = .string(try value.decode(String.self))
        return
      } catch is DecodingError {
        // Not a string.
      } catch {
        // Foundation's parser error for the string's own text.
        unreadable = true
      }
    }
    var object: KeyedDecodingContainer<AnyKey>?
    do {
      object = try decoder.container(keyedBy: AnyKey.self)
    } catch is DecodingError {
      // Not an object.
    } catch {
      // An object whose member names cannot be read.
      unreadable = true
    }
    if let object {
      var members: [String: JSONNode] = [:]
      for key in object.allKeys {
        members[key.stringValue] = try object.decode(JSONNode.self, forKey: key)
      }
      self = .object(members)
      return
    }
    if var array = try? decoder.unkeyedContainer() {
      var elements: [JSONNode] = []
      while !array.isAtEnd { elements.append(try array.decode(JSONNode.self)) }
      self = .array(elements)
      return
    }
    let value = try decoder.singleValueContainer()
    if value.decodeNil() {
      self = .null
    } else if let bool = try? value.decode(Bool.self) {
      self = .bool(bool)
    } else if let number = try? value.decode(Double.self) {
      self = .number(number)
    } else if unreadable {
      throw UnreadableString(codingPath: decoder.codingPath)
    } else {
      self = .number(try value.decode(Double.self))
    }
  }

  /// Any member name.
  struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// The JSON type's name, for errors: `null`, `a boolean`, `a number`, `a string`, `an array`,
  /// `an object`.
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

/// One JSON object of the document, with its path, and typed access to its members.
struct JSONRecord {
  /// `$.suspects[3]`.
  let path: String
  let members: [String: JSONNode]

  /// The objects of array member `key` (absent: none), with their paths.
  func records(_ key: String) throws -> [(String, JSONRecord)] {
    guard let value = members[key] else { return [] }
    guard case .array(let elements) = value else { throw wrongType(key, "an array of objects") }
    return try elements.enumerated().map { index, element in
      let path = "\(path).\(key)[\(index)]"
      guard case .object(let members) = element else {
        throw CaseError.invalidRecord(
          record: path, field: "", problem: "expected an object, found \(element.typeName)")
      }
      return (path, JSONRecord(path: path, members: members))
    }
  }

  /// Throws for a member not in `keys` (a typo would otherwise be dropped quietly).
  func requireOnly(_ keys: [String]) throws {
    for key in members.keys.sorted() where !keys.contains(key) {
      throw CaseError.invalidRecord(
        record: path, field: key,
        problem: "unknown member; expected " + keys.joined(separator: ", "))
    }
  }

  /// A required string member.
  func string(_ key: String) throws -> String {
    guard let value = members[key] else {
      throw CaseError.invalidRecord(record: path, field: key, problem: "missing")
    }
    guard case .string(let text) = value else { throw wrongType(key, "a string") }
    return text
  }

  /// An optional string member: `nil` when absent, `.some(nil)` when null.
  func optionalString(_ key: String) throws -> String?? {
    switch members[key] {
    case nil: return nil
    case .null?: return .some(nil)
    case .string(let text)?: return .some(text)
    default: throw wrongType(key, "a string or null")
    }
  }

  /// An optional number member: `nil` when absent or null.
  func optionalNumber(_ key: String) throws -> Double? {
    switch members[key] {
    case nil, .null?: return nil
    case .number(let value)?: return value
    default: throw wrongType(key, "a number or null")
    }
  }

  /// The error for member `key` of the wrong type.
  func wrongType(_ key: String, _ expected: String) -> CaseError {
    let found = members[key]?.typeName ?? "nothing"
    return CaseError.invalidRecord(
      record: path, field: key, problem: "expected \(expected), found \(found)")
  }
}
