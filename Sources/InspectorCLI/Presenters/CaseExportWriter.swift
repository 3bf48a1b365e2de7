import CaseStore

/// Writes the case document of `inspector export` (docs/export-format.md) straight to the
/// output, one page of records at a time: fruits, suspects with favourites and interviews,
/// then incidents, all read from one snapshot. Or, for `--format csv`, the suspects as CSV.
enum CaseExportWriter {
  /// Writes the JSON case document.
  ///
  /// - Throws: ``CaseError/invalidStoredValue(table:id:column:value:expected:)`` before
  ///   writing anything when a stored text breaks the text rules (``CaseDatabase/requireTextRules()``);
  ///   `SQLiteError` or ``OutputError``; the document is then left unclosed.
  static func writeDocument(_ database: CaseDatabase, _ context: CommandContext) throws {
    var text = UTF8Buffer()
    text.append("{\n  \"format\": ")
    JSONValue.writeString(CaseTransfer.format, to: &text)
    text.append(",\n  \"version\": ")
    text.append(CaseTransfer.version)
    try database.readingOneSnapshot {
      // Nothing is written yet: a value that import would refuse stops the export here.
      try database.requireTextRules()
      try writeArray("fruits", &text, context) { body in
        try database.fruits.forEachPage { page in try body(page.map(fruitWriter)) }
      }
      try writeArray("suspects", &text, context) { body in
        try database.suspects.forEachPage { page in
          SuspectPresenter.warnAboutBrokenReferences(page, context)
          try body(page.map(suspectWriter))
        }
      }
      try writeArray("incidents", &text, context) { body in
        try database.incidents.forEachPage { page in
          IncidentPresenter.warnAboutBrokenReferences(page, context)
          try body(page.map(incidentWriter))
        }
      }
    }
    text.append("\n}\n")
    try context.output.write(text)
  }

  /// Writes the suspects as CSV, columns ``CaseTransfer/suspectColumns``.
  static func writeSuspectsCSV(_ database: CaseDatabase, _ context: CommandContext) throws {
    try database.readingOneSnapshot { try writeSuspectsCSVRows(database, context) }
  }

  /// The rows of ``writeSuspectsCSV(_:_:)``, inside its read transaction.
  private static func writeSuspectsCSVRows(_ database: CaseDatabase, _ context: CommandContext)
    throws
  {
    try database.requireTextRules()
    var text = UTF8Buffer()
    CSVWriter.appendRecord(CaseTransfer.suspectColumns, to: &text)
    try database.suspects.forEachPage { page in
      SuspectPresenter.warnAboutBrokenReferences(page, context)
      for suspect in page {
        CSVWriter.appendRecord(
          [
            suspect.name, suspect.species, suspect.pawSize.rawValue, suspect.emoji,
            SuspectPresenter.favoritesField(suspect), suspect.alibi,
            suspect.sleepSchedule?.sleep.description,
            suspect.sleepSchedule?.wake.description, suspect.suspicionLevel.description,
          ], to: &text)
      }
      try context.output.write(text)
      text.removeAll()
    }
    try context.output.write(text)
  }

  // MARK: - Private helpers

  /// Writes `,\n  "key": [` then each element a page at a time, then `]`.
  private static func writeArray(
    _ key: String, _ text: inout UTF8Buffer, _ context: CommandContext,
    _ pages: (_ body: ([(inout UTF8Buffer) -> Void]) throws -> Void) throws -> Void
  ) throws {
    text.append(",\n  ")
    JSONValue.writeString(key, to: &text)
    text.append(": [")
    var count = 0
    var buffer = text
    try pages { writers in
      for write in writers {
        buffer.append(count == 0 ? "\n    " : ",\n    ")
        write(&buffer)
        count += 1
      }
      try context.output.write(buffer)
      buffer.removeAll()
    }
    text = buffer
    text.append(count == 0 ? "]" : "\n  ]")
  }

  private static func fruitWriter(_ fruit: Fruit) -> (inout UTF8Buffer) -> Void {
    { fruitJSON.write(fruit, to: &$0, pretty: true, indent: 2) }
  }

  private static func suspectWriter(_ suspect: Suspect) -> (inout UTF8Buffer) -> Void {
    { suspectJSON.write(suspect, to: &$0, pretty: true, indent: 2) }
  }

  private static func incidentWriter(_ incident: Incident) -> (inout UTF8Buffer) -> Void {
    { incidentJSON.write(incident, to: &$0, pretty: true, indent: 2) }
  }

  /// The one JSON writer of a fruit in the document: `name`, `color` (no id: `import` matches
  /// fruits by name).
  static let fruitJSON = JSONRecordWriter<Fruit> { fruit, object, output in
    object.member("name", fruit.name, to: &output)
    object.member("color", fruit.color, to: &output)
  }

  /// The one JSON writer of a suspect in the document: `name`, `species`, `paw_size`, `emoji`,
  /// `favorite_fruits`, `alibi`, `sleep_schedule`, `suspicion_level` (no id, no label).
  static let suspectJSON = JSONRecordWriter<Suspect> { suspect, object, output in
    object.member("name", suspect.name, to: &output)
    object.member("species", suspect.species, to: &output)
    object.member("paw_size", suspect.pawSize.rawValue, to: &output)
    object.member("emoji", suspect.emoji, to: &output)
    object.member("favorite_fruits", strings: suspect.favoriteFruitNames, to: &output)
    object.member("alibi", suspect.alibi, to: &output)
    object.member(
      "sleep_schedule", suspect.sleepSchedule, SuspectPresenter.sleepScheduleJSON,
      to: &output)
    object.member("suspicion_level", suspect.suspicionLevel.value, to: &output)
  }

  /// The one JSON writer of an incident in the document: `fruit` (by name), `occurred_at`,
  /// `paw_size`, `latitude`, `longitude`, `notes` (no id).
  static let incidentJSON = JSONRecordWriter<Incident> { incident, object, output in
    object.member("fruit", incident.fruit, to: &output)
    IncidentPresenter.circumstancesJSON.writeMembers(incident, &object, &output)
  }
}
