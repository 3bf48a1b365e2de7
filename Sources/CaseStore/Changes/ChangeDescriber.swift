import SQLiteKit

/// Turns SQLite's changeset changes into ``RecordChange``s: column names from the schema,
/// derived columns left out, and words that name suspects, fruits and incidents (docs/changes.md
/// "In words").
struct ChangeDescriber {
  let connection: Connection
  /// The schemas to look names up in, in order (`main`, and `base` for a diff).
  let schemas: [String]

  /// The changes as records, in order; a change of derived columns only is left out.
  func describe(_ changes: [ChangesetChange]) throws -> [RecordChange] {
    try records(changes).compactMap { $0 }
  }

  /// The changes as records, one per change in order (`nil` for a change of derived columns
  /// only), each named with what the whole changeset says.
  func records(_ changes: [ChangesetChange]) throws -> [RecordChange?] {
    var names = Names()
    for change in changes where change.table == "animals" || change.table == "fruits" {
      let columns = try self.columns(change.table)
      for values in [change.new, change.old] {
        let row = Dictionary(
          zip(columns, values).compactMap { name, value in value.map { (name, $0) } },
          uniquingKeysWith: { first, _ in first })
        guard case .integer(let id)? = row["id"] else { continue }
        if change.table == "animals", case .text(let name)? = row["name"],
          case .text(let species)? = row["species"]
        {
          names.suspects[id] = names.suspects[id] ?? "\(name) the \(species)"
        }
        if change.table == "fruits", case .text(let name)? = row["name"] {
          names.fruits[id] = names.fruits[id] ?? name
        }
      }
    }
    return try changes.map { try record(of: $0, names: &names) }
  }

  /// A row of `table` as this database holds it (`values`: every column, in order), named
  /// from the database alone: `Ding the Dove: favourite Apricot`, `incident #7 (Apricot)`.
  func row(_ table: String, _ values: [SQLiteValue?]) throws -> String {
    var names = Names()
    let row = Dictionary(
      zip(try columns(table), values).map { ($0, $1.map(AdHocValue.init) ?? .null) },
      uniquingKeysWith: { first, _ in first })
    func id(_ column: String) -> Int64 {
      if case .integer(let id)? = row[column] { return id }
      return 0
    }
    switch table {
    case "favorite_fruits":
      return
        "\(try suspect(id("animal_id"), &names)): favourite \(try fruit(id("fruit_id"), &names))"
    case "alibis":
      return "\(try suspect(id("animal_id"), &names)): alibi \(spoken(row["statement"]))"
    case "sleep_schedules":
      return "\(try suspect(id("animal_id"), &names)): sleep schedule"
        + " \(spoken(row["sleep_at"]))-\(spoken(row["wake_at"]))"
    case "suspicion_levels":
      return "\(try suspect(id("animal_id"), &names)): suspicion level \(spoken(row["level"]))"
    case "incidents":
      return "incident #\(id("id")) (\(try fruit(id("fruit_id"), &names)))"
    default:
      return "\(table) row"
    }
  }

  /// `true` when `current` (the row as the database holds it) differs from what `change`
  /// expects only in derived columns.
  func differsOnlyInDerivedColumns(_ change: ChangesetChange, _ current: [SQLiteValue?]) -> Bool {
    guard let columns = try? columns(change.table), current.count == change.old.count else {
      return false
    }
    for (index, expected) in change.old.enumerated() {
      guard let expected, current[index] != expected else { continue }
      if !CaseDatabase.derivedColumns.contains("\(change.table).\(columns[index])") {
        return false
      }
    }
    return true
  }

  // MARK: - Helpers

  /// Names found so far: suspect id to `Name the Species`, fruit id to name.
  private struct Names {
    var suspects: [Int64: String] = [:]
    var fruits: [Int64: String] = [:]
  }

  private func columns(_ table: String) throws -> [String] {
    let rows = try connection.prepare("SELECT name FROM pragma_table_info(?) ORDER BY cid")
    try rows.bind([table])
    var names: [String] = []
    while try rows.step() { names.append(rows.text(at: 0)) }
    return names
  }

  private func record(of change: ChangesetChange, names: inout Names) throws -> RecordChange? {
    let columns = try self.columns(change.table)
    func fields(_ values: [SQLiteValue?], keyOnly: Bool = false) -> [RecordChange.Field] {
      zip(columns, values).enumerated().compactMap { index, pair in
        let (column, value) = pair
        guard let value else { return nil }
        if keyOnly != (change.primaryKey.indices.contains(index) && change.primaryKey[index]) {
          if keyOnly { return nil }
          if change.operation == .update { return nil }
        }
        if CaseDatabase.derivedColumns.contains("\(change.table).\(column)") { return nil }
        return RecordChange.Field(column: column, value: AdHocValue(value))
      }
    }
    let key = fields(change.operation == .insert ? change.new : change.old, keyOnly: true)
    let before = fields(change.old)
    let after = fields(change.new)
    if change.operation == .update, after.isEmpty { return nil }
    let words = try sentence(change, key: key, before: before, after: after, names: &names)
    return RecordChange(
      table: change.table, operation: RecordChange.Operation(rawValue: change.operation.rawValue)!,
      key: key, before: before, after: after, description: words)
  }

  private func sentence(
    _ change: ChangesetChange, key: [RecordChange.Field], before: [RecordChange.Field],
    after: [RecordChange.Field], names: inout Names
  ) throws -> String {
    let old = Dictionary(before.map { ($0.column, $0.value) }, uniquingKeysWith: { a, _ in a })
    let new = Dictionary(after.map { ($0.column, $0.value) }, uniquingKeysWith: { a, _ in a })
    let keyValues = Dictionary(key.map { ($0.column, $0.value) }, uniquingKeysWith: { a, _ in a })
    func id(_ column: String) -> Int64 {
      if case .integer(let id)? = keyValues[column] ?? new[column] ?? old[column] { return id }
      return 0
    }
    func changed(_ labels: [String: String]) -> String {
      new.keys.sorted().map { column in
        "\(labels[column] ?? column) \(spoken(old[column])) -> \(spoken(new[column]))"
      }.joined(separator: ", ")
    }
    let added = change.operation == .insert
    let removed = change.operation == .delete
    switch change.table {
    case "animals":
      let who = try suspect(id("id"), &names)
      if added { return "suspect added: \(who) (id \(id("id")))" }
      if removed { return "suspect removed: \(who) (id \(id("id")))" }
      return "\(who): " + changed(["paw_size": "paw size"])
    case "fruits":
      let fruit = try self.fruit(id("id"), &names)
      if added { return "fruit added: \(fruit) (\(spoken(new["color"])))" }
      if removed { return "fruit removed: \(fruit)" }
      return "fruit \(fruit): " + changed(["color": "colour"])
    case "favorite_fruits":
      let who = try suspect(id("animal_id"), &names)
      let fruit = try self.fruit(id("fruit_id"), &names)
      if added {
        return "\(who): favourite added: \(fruit) at position \(position(new["position"]))"
      }
      if removed { return "\(who): favourite removed: \(fruit)" }
      return
        "\(who): favourite \(fruit) moved: position \(position(old["position"])) -> \(position(new["position"]))"
    case "alibis":
      let who = try suspect(id("animal_id"), &names)
      if added { return "\(who): alibi \(spoken(new["statement"]))" }
      if removed { return "\(who): alibi removed (was \(spoken(old["statement"])))" }
      return "\(who): " + changed(["statement": "alibi"])
    case "sleep_schedules":
      let who = try suspect(id("animal_id"), &names)
      if added {
        return "\(who): sleep schedule \(spoken(new["sleep_at"]))-\(spoken(new["wake_at"]))"
      }
      if removed { return "\(who): sleep schedule removed" }
      return "\(who): " + changed(["sleep_at": "sleeps at", "wake_at": "wakes at"])
    case "suspicion_levels":
      let who = try suspect(id("animal_id"), &names)
      let from = added ? "0.0" : spoken(old["level"])
      let to = removed ? "0.0" : spoken(new["level"])
      return "\(who): suspicion level \(from) -> \(to)"
    case "incidents":
      if added {
        let fruit = try self.fruit(id("fruit_id"), &names)
        return "incident #\(id("id")) added: \(fruit), \(spoken(new["occurred_at"]))"
      }
      if removed { return "incident #\(id("id")) removed" }
      return "incident #\(id("id")): " + changed(["fruit_id": "fruit id", "paw_size": "paw size"])
    default:
      return "\(change.table) \(change.operation.rawValue)"
    }
  }

  /// A stored 0-based favourite position as people count it, from 1.
  private func position(_ value: AdHocValue?) -> String {
    if case .integer(let position)? = value { return "\(position + 1)" }
    return spoken(value)
  }

  private func suspect(_ id: Int64, _ names: inout Names) throws -> String {
    if let name = names.suspects[id] { return name }
    for schema in schemas {
      let row = try connection.prepare(
        "SELECT name, species FROM \(schema).animals WHERE id = ?")
      try row.bind([id])
      if try row.step() {
        names.suspects[id] = "\(row.text(at: 0)) the \(row.text(at: 1))"
        return names.suspects[id]!
      }
    }
    return "suspect #\(id)"
  }

  private func fruit(_ id: Int64, _ names: inout Names) throws -> String {
    if let name = names.fruits[id] { return name }
    for schema in schemas {
      let row = try connection.prepare("SELECT name FROM \(schema).fruits WHERE id = ?")
      try row.bind([id])
      if try row.step() {
        names.fruits[id] = row.text(at: 0)
        return row.text(at: 0)
      }
    }
    return "fruit #\(id)"
  }
}
