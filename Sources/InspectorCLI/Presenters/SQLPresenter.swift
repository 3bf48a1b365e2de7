import CaseStore

/// The rows of `sql` (docs/output-formats.md "sql") and the stored values of other records: JSON
/// objects keyed by column name, CSV under the names, a table with NULL shown as `NULL`.
enum SQLPresenter {
  /// Writes the rows of `sql --write` once its transaction has committed, as one page (so a
  /// table's widths come from every row); a script whose statements return no rows prints
  /// `N row(s) changed.` as a table, `[]` in JSON, nothing else.
  ///
  /// - Throws: ``OutputError`` when stdout refuses the text.
  static func write(_ result: AdHocQuery.Result, _ context: CommandContext) throws(OutputError) {
    guard !result.columns.isEmpty else {
      if context.format == .table {
        try context.output.write("\(result.changes) row(s) changed.\n")
      } else {
        try finish(nil, context)
      }
      return
    }
    let listing = listing(columns: result.columns, context)
    try listing.write(result.values)
    try listing.finish()
  }

  /// Ends a streamed result: finishes `listing`, or, when no statement returned rows (no
  /// listing was started), prints `[]` in JSON and nothing else.
  ///
  /// - Throws: ``OutputError`` when stdout refuses the text.
  static func finish(_ listing: ListingWriter<[AdHocValue]>?, _ context: CommandContext)
    throws(OutputError)
  {
    guard let listing else {
      if context.format == .json { try context.output.write("[]\n") }
      return
    }
    try listing.finish()
  }

  /// A writer for rows with these columns: JSON objects keyed by column name (a repeated name
  /// keeps each value), CSV under the names, or a table with NULL shown as `NULL`.
  static func listing(columns: [String], _ context: CommandContext) -> ListingWriter<[AdHocValue]> {
    let keys = JSONObjectWriter.KeyList(columns)
    return ListingWriter(
      context,
      json: JSONRecordWriter { row, object, output in
        keys.withKeys { key in
          // By index: iterating a zip retains every key and value it hands out.
          for index in 0..<min(keys.count, row.count) {
            object.member(quoted: key(index), to: &output)
            writeJSON(row[index], to: &output)
          }
        }
      },
      csvHeader: columns,
      writeCSV: { row, output in
        for (index, value) in row.enumerated() {
          if index > 0 { output.append(byte: UInt8(ascii: ",")) }
          writeCSV(value, to: &output)
        }
        output.append("\r\n")
      },
      layout: { _ in
        TableLayout(
          columns: columns.map { TextTable.Column($0) }, cells: { $0.map { text($0) ?? "NULL" } },
          keepsWhole: { row, column in
            switch row[column] {
            case .text, .blob: false
            case .null, .integer, .real: true
            }
          })
      })
  }

  /// Appends `value`'s JSON, as `sqlite3 -json` writes it: integers exact, reals that read
  /// back the same (NaN and the infinities as `null`), NULL `null`, text as is, blobs as hex
  /// text. The one JSON writer of a stored value (`sql`'s cells, the recorded values of
  /// `history`, `diff` and `changes show`).
  static func writeJSON(_ value: AdHocValue, to output: inout UTF8Buffer) {
    switch value {
    case .null: output.append("null")
    case .integer(let integer): output.append(integer)
    case .real(let double): JSONValue.writeNumber(double, to: &output)
    case .text(let text): JSONValue.writeString(text, to: &output)
    case .blob(let bytes): JSONValue.writeString(hex(bytes), to: &output)
    }
  }

  /// Appends the CSV field of `value` (``text(_:)`` escaped, NULL empty) without building it.
  static func writeCSV(_ value: AdHocValue, to output: inout UTF8Buffer) {
    switch value {
    case .null: break
    case .integer(let integer): output.append(integer)
    case .real(let double): output.append(double)
    case .text(let text): CSVWriter.appendField(text, to: &output)
    case .blob(let bytes): CSVWriter.appendField(hex(bytes), to: &output)
    }
  }

  /// Text of a value for CSV and tables (`nil` for NULL).
  static func text(_ value: AdHocValue) -> String? {
    switch value {
    case .null: nil
    case .integer(let integer): "\(integer)"
    case .real(let double): "\(double)"
    case .text(let text): text
    case .blob(let bytes): hex(bytes)
    }
  }

  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789ABCDEF")
    var text = ""
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0xF)])
    }
    return text
  }

  /// Recorded values, column name to value, as one object (a change's `key`, `before` and
  /// `after`, in `history`, `diff` and `changes show`).
  static let fieldsJSON = JSONRecordWriter<[(column: String, value: AdHocValue)]> {
    fields, object, output in
    for field in fields {
      object.member(field.column, to: &output)
      writeJSON(field.value, to: &output)
    }
  }
}
