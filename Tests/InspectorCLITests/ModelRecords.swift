import Foundation

/// The JSON objects of README "A short tour", as the product prints them and as the model expects
/// them. Both sides are compared as canonical JSON text (sorted keys, one object per line), byte
/// for byte, so an NFD spelling differs from an NFC one and `-0` from `0`.
enum ModelRecords {
  /// A suspect object (`list`, `show`, and the suspect-changing commands).
  struct Suspect: Codable, Equatable {
    var id: Int64
    var name: String
    var species: String
    @NullWhenAbsent var emoji: String?
    var pawSize: String
    var favoriteFruits: [String]
    var alibi: String
    @NullWhenAbsent var sleepSchedule: Schedule?
    var suspicionLevel: Double
    var suspicionLabel: String

    enum CodingKeys: String, CodingKey, CaseIterable {
      case id, name, species, emoji, alibi
      case pawSize = "paw_size"
      case favoriteFruits = "favorite_fruits"
      case sleepSchedule = "sleep_schedule"
      case suspicionLevel = "suspicion_level"
      case suspicionLabel = "suspicion_label"
    }
  }

  /// `{"sleep": "HH:MM", "wake": "HH:MM"}`.
  struct Schedule: Codable, Equatable {
    var sleep: String
    var wake: String
  }

  /// A fruit object.
  struct Fruit: Codable, Equatable {
    var id: Int64
    var name: String
    var color: String

    enum CodingKeys: String, CodingKey, CaseIterable {
      case id, name, color
    }
  }

  /// An incident object.
  struct Incident: Codable, Equatable {
    var id: Int64
    var fruit: String
    var fruitID: Int64
    var occurredAt: String
    @NullWhenAbsent var pawSize: String?
    @NullWhenAbsent var latitude: Double?
    @NullWhenAbsent var longitude: Double?
    var notes: String

    enum CodingKeys: String, CodingKey, CaseIterable {
      case id, fruit, latitude, longitude, notes
      case fruitID = "fruit_id"
      case occurredAt = "occurred_at"
      case pawSize = "paw_size"
    }
  }

  /// A ranking row: the suspect's keys and `rank`, `clues_matched`, `clues_checked`, `clues`.
  struct RankRow: Codable, Equatable, ModelRecord {
    var rank: Int
    var suspect: Suspect
    var cluesMatched: Int
    var cluesChecked: Int
    var clues: [String: Bool]?

    enum CodingKeys: String, CodingKey, CaseIterable {
      case rank, clues
      case cluesMatched = "clues_matched"
      case cluesChecked = "clues_checked"
    }

    static let keys = Set(CodingKeys.allCases.map(\.rawValue)).union(Suspect.keys)

    var recordID: Int64 { suspect.id }

    var label: String {
      "rank \(rank) \(suspect.label), \(cluesMatched)/\(cluesChecked) clues, level "
        + "\(suspect.suspicionLevel)"
    }

    init(rank: Int, suspect: Suspect, cluesMatched: Int, cluesChecked: Int, clues: [String: Bool]?)
    {
      self.rank = rank
      self.suspect = suspect
      self.cluesMatched = cluesMatched
      self.cluesChecked = cluesChecked
      self.clues = clues
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      rank = try container.decode(Int.self, forKey: .rank)
      cluesMatched = try container.decode(Int.self, forKey: .cluesMatched)
      cluesChecked = try container.decode(Int.self, forKey: .cluesChecked)
      clues = try container.decodeIfPresent([String: Bool].self, forKey: .clues)
      suspect = try Suspect(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(rank, forKey: .rank)
      try container.encode(cluesMatched, forKey: .cluesMatched)
      try container.encode(cluesChecked, forKey: .cluesChecked)
      try container.encode(clues, forKey: .clues)
      try suspect.encode(to: encoder)
    }
  }

  // MARK: - From the model

  static func suspect(_ suspect: CaseModel.Suspect) -> Suspect {
    Suspect(
      id: suspect.id, name: suspect.name, species: suspect.species, emoji: suspect.emoji,
      pawSize: suspect.paw, favoriteFruits: suspect.favorites, alibi: suspect.alibi,
      sleepSchedule: suspect.sleep.map { Schedule(sleep: $0.sleep, wake: $0.wake) },
      suspicionLevel: suspect.level, suspicionLabel: CaseModel.label(suspect.level))
  }

  static func fruit(_ fruit: CaseModel.Fruit) -> Fruit {
    Fruit(id: fruit.id, name: fruit.name, color: fruit.color)
  }

  static func incident(_ incident: CaseModel.Incident) -> Incident {
    Incident(
      id: incident.id, fruit: incident.fruit, fruitID: incident.fruitID,
      occurredAt: incident.occurredAt,
      pawSize: incident.paw, latitude: incident.latitude, longitude: incident.longitude,
      notes: incident.notes)
  }

  static func rankRow(_ row: CaseModel.RankRow) -> RankRow {
    RankRow(
      rank: row.rank, suspect: suspect(row.suspect),
      cluesMatched: row.clues?.values.filter { $0 }.count ?? 0, cluesChecked: row.clues?.count ?? 0,
      clues: row.clues)
  }

  // MARK: - Comparing

  /// Canonical JSON text of an object: sorted keys, on one line, `null` kept for absent values.
  static func canonical<T: Encodable>(_ value: T) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return "<not encodable: \(value)>" }
    return String(decoding: data, as: UTF8.self)
  }

  /// Decodes the product's output as `T`, after checking that every object in it has exactly
  /// the keys `keys` (README: absent values are `null`, not missing).
  ///
  /// - Throws: ``SetupFailure`` describing what does not fit.
  static func decode<T: Decodable>(_ type: T.Type, from text: String, keys: Set<String>) throws
    -> T
  {
    let data = Data(text.utf8)
    let parsed: Any
    do {
      parsed = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw SetupFailure(description: "output is not JSON: \(error)\n\(text)")
    }
    let objects = (parsed as? [[String: Any]]) ?? [(parsed as? [String: Any]) ?? [:]]
    for object in objects where Set(object.keys) != keys {
      throw SetupFailure(
        description: "object keys \(object.keys.sorted()) are not \(keys.sorted())\n\(text)")
    }
    do {
      return try JSONDecoder().decode(T.self, from: data)
    } catch {
      throw SetupFailure(description: "output does not decode as \(T.self): \(error)\n\(text)")
    }
  }

  /// `nil` when `expected` and `actual` have the same canonical text (compared as UTF-8
  /// bytes), otherwise the fields that differ and both objects.
  static func difference<T: Encodable & ModelRecord>(expected: T, actual: T) -> String? {
    let (want, got) = (canonical(expected), canonical(actual))
    guard Array(want.utf8) != Array(got.utf8) else { return nil }
    return fieldDifference(expected: want, actual: got)
      + lineDifference(expected: want, actual: got)
  }

  /// `nil` when the lists have the same canonical text, otherwise the differing objects (one
  /// per line, numbered and labelled), and the differing fields of the first object that
  /// differs.
  static func difference<T: Encodable & ModelRecord>(expected: [T], actual: [T]) -> String? {
    let (want, got) = (expected.map { canonical($0) }, actual.map { canonical($0) })
    guard want.map({ Array($0.utf8) }) != got.map({ Array($0.utf8) }) else { return nil }
    let numbered: ([T], [String]) -> String = { items, texts in
      zip(items, texts).enumerated().map {
        "#\($0.offset + 1) \($0.element.0.label): \($0.element.1)"
      }
      .joined(separator: "\n")
    }
    var text = "(\(want.count) expected, \(got.count) printed)\n"
    if let index = want.indices.first(where: {
      $0 >= got.count || Array(want[$0].utf8) != Array(got[$0].utf8)
    }) {
      let mine = expected[index]
      if index < got.count && actual[index].recordID == mine.recordID {
        text += "#\(index + 1) \(mine.label) differs:\n"
        text += fieldDifference(expected: want[index], actual: got[index])
      } else if let match = actual.firstIndex(where: { $0.recordID == mine.recordID }) {
        text +=
          "#\(index + 1) is \(mine.label) in the model, "
          + (index < got.count ? actual[index].label : "missing") + " in the product, which has "
          + "it at #\(match + 1):\n"
        text += fieldDifference(expected: want[index], actual: got[match])
      } else {
        text += "#\(index + 1) \(mine.label) is missing from the product's list\n"
      }
    } else if got.count > want.count {
      text += "the product lists more: \(actual[want.count].label)\n"
    }
    return text + lineDifference(expected: numbered(expected, want), actual: numbered(actual, got))
  }

  /// `  key: model <value>, product <value>` for each top-level key whose values differ.
  static func fieldDifference(expected: String, actual: String) -> String {
    let parse: (String) -> [String: Any] = {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
    }
    let (want, got) = (parse(expected), parse(actual))
    let text: (Any?) -> String = { value in
      guard let value else { return "(absent)" }
      guard
        let data = try? JSONSerialization.data(
          withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
      else { return "\(value)" }
      return visible(String(decoding: data, as: UTF8.self))
    }
    var lines = ""
    for key in Set(want.keys).union(got.keys).sorted() where text(want[key]) != text(got[key]) {
      lines += "  \(key): model \(text(want[key])), product \(text(got[key]))\n"
    }
    return lines
  }

  /// A short diff: the first differing lines with a little context.
  static func lineDifference(expected: String, actual: String) -> String {
    let (want, got) = (lines(expected), lines(actual))
    var first = 0
    while first < min(want.count, got.count), Array(want[first].utf8) == Array(got[first].utf8) {
      first += 1
    }
    var lastWant = want.count - 1
    var lastGot = got.count - 1
    while lastWant > first, lastGot > first,
      Array(want[lastWant].utf8) == Array(got[lastGot].utf8)
    {
      lastWant -= 1
      lastGot -= 1
    }
    let start = max(0, first - 2)
    var text = ""
    for line in want[start..<first] { text += "    \(visible(line))\n" }
    let shown = 6
    if first < want.count {
      for line in want[first...lastWant].prefix(shown) { text += "  - \(visible(line))\n" }
      if lastWant - first >= shown { text += "  - ... \(lastWant - first + 1 - shown) more\n" }
    }
    if first < got.count {
      for line in got[first...lastGot].prefix(shown) { text += "  + \(visible(line))\n" }
      if lastGot - first >= shown { text += "  + ... \(lastGot - first + 1 - shown) more\n" }
    }
    return "(- model, + product)\n" + text
  }

  /// A line with invisible characters spelled out (`\u{2003}`), NFD accents shown as such.
  static func visible(_ line: String) -> String {
    var text = ""
    for scalar in line.unicodeScalars {
      if scalar.isASCII && scalar.value >= 0x20 && scalar.value < 0x7F {
        text.unicodeScalars.append(scalar)
      } else if scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
        || scalar.properties.generalCategory == .nonspacingMark
      {
        text += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        text.unicodeScalars.append(scalar)
      }
    }
    return text
  }
}

/// A record that names itself in a failure report.
protocol ModelRecord {
  /// `Rénard the Raccoon (id 10)`, `Quince (id 20)`, `incident 2`.
  var label: String { get }
  /// The id of the suspect, fruit or incident.
  var recordID: Int64 { get }
}

extension ModelRecords.Suspect: ModelRecord {
  var recordID: Int64 { id }

  var label: String {
    "\(ModelRecords.visible(name)) the \(ModelRecords.visible(species)) (id \(id))"
  }

  /// Every key of a suspect object.
  static let keys = Set(CodingKeys.allCases.map(\.rawValue))
}

extension ModelRecords.Fruit: ModelRecord {
  var recordID: Int64 { id }

  var label: String { "\(ModelRecords.visible(name)) (id \(id))" }

  /// Every key of a fruit object.
  static let keys = Set(CodingKeys.allCases.map(\.rawValue))
}

extension ModelRecords.Incident: ModelRecord {
  var recordID: Int64 { id }

  var label: String { "incident \(id)" }

  /// Every key of an incident object.
  static let keys = Set(CodingKeys.allCases.map(\.rawValue))
}
