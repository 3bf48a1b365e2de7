import CaseStore

/// Writes the case document of `inspector export` (docs/export-format.md) straight to the
/// output, one page of records at a time: fruits, suspects with favourites and interviews,
/// then incidents, all read from the one snapshot of the command's read unit of work. Or, for `--format csv`, the suspects as CSV.
enum CaseExportWriter {
  /// Writes the JSON case document.
  ///
  /// - Throws: ``CaseError/invalidStoredValue(table:id:column:value:expected:)`` before
  ///   writing anything when a stored text breaks the text rules (``CaseTransaction/requireTextRules()``);
  ///   `SQLiteError` or ``OutputError``; the document is then left unclosed.
  static func writeDocument(_ db: CaseReader, _ context: CommandContext) throws {
    var text = UTF8Buffer()
    text.append("{\n  \"format\": ")
    JSONValue.writeString(CaseTransfer.format, to: &text)
    text.append(",\n  \"version\": ")
    text.append(CaseTransfer.version)
    // Nothing is written yet: a value that import would refuse stops the export here.
    try db.requireTextRules()
    try writeArray("fruits", &text, context) { body in
      try db.fruits.forEachPage { page in try body(page.map(fruitWriter)) }
    }
    try writeArray("suspects", &text, context) { body in
      try db.suspects.forEachPage { page in
        SuspectPresenter.warnAboutBrokenReferences(page, context)
        try body(page.map(suspectWriter))
      }
    }
    try writeArray("incidents", &text, context) { body in
      try db.incidents.forEachPage { page in
        IncidentPresenter.warnAboutBrokenReferences(page, context)
        try body(page.map(incidentWriter))
      }
    }
    text.append("\n}\n")
    try context.output.write(text)
  }

  /// Writes the suspects as CSV, columns ``CaseTransfer/suspectColumns``.
  static func writeSuspectsCSV(_ db: CaseReader, _ context: CommandContext) throws {
    try db.requireTextRules()
    var text = UTF8Buffer()
    CSVWriter.appendRecord(CaseTransfer.suspectColumns, to: &text)
    try db.suspects.forEachPage { page in
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
    { output in
      var object = JSONObjectWriter(pretty: true, indent: 2, to: &output)
      object.member(JSONKeys.name, to: &output)
      JSONValue.writeString(fruit.name, to: &output)
      object.member(colorKey, to: &output)
      JSONValue.writeString(fruit.color, to: &output)
      object.finish(to: &output)
    }
  }

  private static func suspectWriter(_ suspect: Suspect) -> (inout UTF8Buffer) -> Void {
    { output in
      var object = JSONObjectWriter(pretty: true, indent: 2, to: &output)
      object.member(JSONKeys.name, to: &output)
      JSONValue.writeString(suspect.name, to: &output)
      object.member(JSONKeys.species, to: &output)
      JSONValue.writeString(suspect.species, to: &output)
      object.member(JSONKeys.pawSize, to: &output)
      JSONValue.writeString(suspect.pawSize.rawValue, to: &output)
      object.member(JSONKeys.emoji, to: &output)
      JSONValue(suspect.emoji).write(to: &output, pretty: true, indent: 3)
      object.member(JSONKeys.favoriteFruits, to: &output)
      JSONValue.writeStrings(suspect.favoriteFruitNames, pretty: true, to: &output)
      object.member(JSONKeys.alibi, to: &output)
      JSONValue.writeString(suspect.alibi, to: &output)
      object.member(JSONKeys.sleepSchedule, to: &output)
      SuspectPresenter.writeJSON(suspect.sleepSchedule, to: &output, pretty: true, indent: 3)
      object.member(JSONKeys.suspicionLevel, to: &output)
      JSONValue.writeNumber(suspect.suspicionLevel.value, to: &output)
      object.finish(to: &output)
    }
  }

  private static func incidentWriter(_ incident: Incident) -> (inout UTF8Buffer) -> Void {
    { output in
      JSONValue.object([
        ("fruit", JSONValue(incident.fruit)),
        ("occurred_at", .string(incident.occurredAt.description)),
        ("paw_size", JSONValue(incident.pawSize?.rawValue)),
        ("latitude", JSONValue(incident.location?.latitude)),
        ("longitude", JSONValue(incident.location?.longitude)),
        ("notes", .string(incident.notes)),
      ]).write(to: &output, pretty: true, indent: 2)
    }
  }

  private static let colorKey: JSONObjectWriter.Key = "color"
}
