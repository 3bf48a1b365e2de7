extension CaseTransfer {
  /// Parses CSV of suspects (the header names `species`) or of fruits (the header names
  /// `color` and not `species`), one record a row (docs/export-format.md "CSV").
  ///
  /// Columns are found by the header's names, in any order; `id` and `suspicion_label` are
  /// ignored. A suspect CSV needs `name`, `species` and `paw_size`; a column it leaves out
  /// leaves that field out of every record (kept on update, the default for a new suspect).
  /// In a column that is there, an empty field means none: no emoji, no favourites, no alibi,
  /// no sleep schedule (`sleep` and `wake` both empty), level 0.
  ///
  /// - Throws: ``CaseError/unreadableInput(_:)`` for input without a header;
  ///   ``CaseError/invalidRecord(record:field:problem:)`` naming the line and the column.
  static func parseCSV(_ text: String) throws -> CaseDocument {
    let records = try CSVReader.records(text)
    guard let header = records.first else {
      throw CaseError.unreadableInput(
        "the input is empty: expected a JSON case document or CSV with a header row")
    }
    var columns: [String: Int] = [:]
    for (index, name) in header.fields.enumerated() {
      let name = name.trimmingSpaces()
      guard columns[name] == nil else {
        throw CaseError.invalidRecord(
          record: "line \(header.line)", field: name, problem: "the column is named twice")
      }
      columns[name] = index
    }
    let isSuspects = columns["species"] != nil
    guard isSuspects || columns["color"] != nil else {
      throw CaseError.unreadableInput(
        "the CSV header names neither 'species' (suspects) nor 'color' (fruits): "
          + header.fields.joined(separator: ","))
    }
    let known = (isSuspects ? suspectColumns : fruitColumns) + ignoredColumns
    for name in header.fields.map({ $0.trimmingSpaces() }) where !known.contains(name) {
      throw CaseError.invalidRecord(
        record: "line \(header.line)", field: name,
        problem: "unknown column; expected "
          + (isSuspects ? suspectColumns : fruitColumns).joined(separator: ", "))
    }
    for name in isSuspects ? ["name", "species", "paw_size"] : fruitColumns
    where columns[name] == nil {
      throw CaseError.invalidRecord(
        record: "line \(header.line)", field: name, problem: "the header lacks this column")
    }
    var document = CaseDocument()
    for record in records.dropFirst() {
      let row = CSVRow(record: record, columns: columns, width: header.fields.count)
      try row.requireWidth()
      if isSuspects {
        document.suspects.append(try suspect(row))
      } else {
        let color = row["color"] ?? ""
        document.fruits.append(
          ImportedFruit(
            record: row.location,
            name: try checkedName(row["name"] ?? "", record: row.location, field: "name"),
            color: try checked(record: row.location, field: "color") {
              try Fruit.normalizedColor(color)
            }))
      }
    }
    return document
  }

  /// One suspect row.
  private static func suspect(_ row: CSVRow) throws -> ImportedSuspect {
    let record = row.location
    let paw = row["paw_size"] ?? ""
    var suspect = ImportedSuspect(
      record: record, name: try checkedName(row["name"] ?? "", record: record, field: "name"),
      species: try checkedName(row["species"] ?? "", record: record, field: "species"),
      pawSize: try checked(record: record, field: "paw_size") { try PawSize(parsing: paw) })
    if let emoji = row["emoji"] { suspect.emoji = .some(try checkedEmoji(emoji, record: record)) }
    if let fruits = row["favorite_fruits"] {
      suspect.favoriteFruits = try favoriteNames(fruits, record: record)
    }
    if let alibi = row["alibi"] {
      suspect.alibi = try checkedFreeText(alibi, record: record, field: "alibi")
    }
    let sleep = row["sleep"]
    let wake = row["wake"]
    if sleep != nil || wake != nil {
      switch (sleep ?? "", wake ?? "") {
      case ("", ""):
        suspect.sleepSchedule = .some(nil)
      case ("", _), (_, ""):
        throw CaseError.invalidRecord(
          record: record, field: (sleep ?? "").isEmpty ? "sleep" : "wake",
          problem: "give both sleep and wake (HH:MM), or neither")
      case (let sleep, let wake):
        suspect.sleepSchedule = SleepSchedule(
          sleep: try checked(record: record, field: "sleep") {
            try ClockTime(parsing: sleep, field: "sleep time")
          },
          wake: try checked(record: record, field: "wake") {
            try ClockTime(parsing: wake, field: "wake time")
          })
      }
    }
    if let text = row["suspicion_level"] {
      if text.trimmingSpaces().isEmpty {
        suspect.suspicionLevel = .zero
      } else {
        guard let level = level(text.trimmingSpaces()) else {
          throw CaseError.invalidRecord(
            record: record, field: "suspicion_level",
            problem: "invalid suspicion level '\(CaseError.shown(text))': expected a number "
              + "from 0 to 1, such as 0.5")
        }
        suspect.suspicionLevel = level
      }
    }
    return suspect
  }

  /// The `favorite_fruits` field: a JSON array of names, or empty for none.
  private static func favoriteNames(_ text: String, record: String) throws -> [String] {
    guard !text.trimmingSpaces().isEmpty else { return [] }
    let problem = "expected a JSON array of fruit names, such as [\"Elstar Apple\"]"
    guard let node = try? parseJSONValue(text), case .array(let elements) = node else {
      throw CaseError.invalidRecord(record: record, field: "favorite_fruits", problem: problem)
    }
    return try elements.enumerated().map { index, element in
      switch element {
      case .string, .null:
        return try favoriteName(element, record: record, field: "favorite_fruits[\(index)]")
      default:
        throw CaseError.invalidRecord(record: record, field: "favorite_fruits", problem: problem)
      }
    }
  }
}

/// One CSV record, its fields found by column name.
struct CSVRow {
  let record: CSVReader.Record
  let columns: [String: Int]
  let width: Int

  /// `line 4`.
  var location: String { "line \(record.line)" }

  /// The field of column `name`, or `nil` when the header has no such column.
  subscript(name: String) -> String? {
    guard let index = columns[name] else { return nil }
    return record.fields[index]
  }

  /// Throws unless the record has as many fields as the header.
  func requireWidth() throws {
    guard record.fields.count == width else {
      throw CaseError.invalidRecord(
        record: location, field: "",
        problem: "\(record.fields.count) field(s), but the header names \(width) column(s)")
    }
  }
}
