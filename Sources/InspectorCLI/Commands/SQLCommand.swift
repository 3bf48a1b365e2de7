import CaseStore
import CommandLineKit

/// `inspector sql QUERY [--param NAME=VALUE]... [--write]`: ad-hoc SQL (docs/command-line.md
/// "sql").
struct SQLCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "sql",
    abstract: "Run ad-hoc SQL; read-only unless --write.",
    discussion: """
      One or more statements; the rows of the last one that returns rows are printed. Without
      --write the connection is read-only (no statement, PRAGMA or ATTACH can change the database
      or write a file; temporary tables and views work, as with sqlite3 -readonly);
      with --write the whole script is one transaction that may change rows and tables (a dropped
      trigger of inspector's is reported by check), never the file's own format: BEGIN, COMMIT,
      ROLLBACK, ATTACH and setting PRAGMA writable_schema, journal_mode, schema_version,
      ignore_check_constraints or trusted_schema are refused. SQL that starts with "-" (a
      comment) goes last, after "--" and the options: inspector sql --json -- "-- note ...".
      """)

  let query = Argument<String>("query", help: "The SQL script.")
  let parameters = Option<[AdHocQuery.Parameter]>(
    "param", valueName: "name=value",
    help: "Bind :name, @name or $name (whole numbers bind as integers, the rest as text);"
      + " each name once.")
  let write = Flag("write", help: "Allow changes; the script runs in one transaction.")

  var declarations: [any CommandDeclaration] { [query, parameters, write] }

  /// A parameter named twice would leave one of the two values unused without a word.
  func validate(_ context: CommandContext) throws(UsageError) {
    var seen = Set<String>()
    for parameter in try context[parameters] where !seen.insert(parameter.name).inserted {
      throw context.usageError("--param \(parameter.name) is given twice")
    }
  }

  func run(_ context: CommandContext) throws -> String {
    let query = AdHocQuery(sql: try context[self.query], parameters: try context[parameters])
    if context[write] {
      // Not streamed: rows are shown only once the transaction has committed, as one page, so
      // a table's widths come from every row.
      let result = try query.run(
        writingTo: context.openDatabase(write: true, allowingDamagedSchema: true))
      guard !result.columns.isEmpty else {
        return context.format == .table
          ? "\(result.changes) row(s) changed.\n" : Self.noResult(context)
      }
      let listing = Self.listing(columns: result.columns, context)
      try listing.write(result.values)
      try listing.finish()
      return ""
    }
    try context.requireDatabaseFile()
    var listing: ListingWriter<[AdHocValue]>?
    try query.stream(
      readingAt: context.databasePath, busyTimeout: context.busyTimeout,
      columns: { listing = Self.listing(columns: $0, context) },
      page: { try listing?.write($0) })
    guard let listing else { return Self.noResult(context) }
    try listing.finish()
    return ""
  }

  /// What a script none of whose statements returns rows prints: `[]` in JSON, nothing else.
  static func noResult(_ context: CommandContext) -> String {
    context.format == .json ? "[]\n" : ""
  }

  /// A writer for rows with these columns: JSON objects keyed by column name (a repeated name
  /// keeps each value), CSV under the names, or a table with NULL shown as `NULL`.
  static func listing(columns: [String], _ context: CommandContext) -> ListingWriter<[AdHocValue]> {
    let keys = JSONObjectWriter.KeyList(columns)
    return ListingWriter(
      context,
      writeJSON: { row, output, pretty, indent in
        var object = JSONObjectWriter(pretty: pretty, indent: indent, to: &output)
        keys.withKeys { key in
          // By index: iterating a zip retains every key and value it hands out.
          for index in 0..<min(keys.count, row.count) {
            object.member(quoted: key(index), to: &output)
            writeJSON(row[index], to: &output)
          }
        }
        object.finish(to: &output)
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

  /// Appends ``json(_:)`` of `value` without building it.
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

  /// As `sqlite3 -json`: integers exact, reals that read back the same, NULL null, text as is,
  /// blobs as hex text.
  static func json(_ value: AdHocValue) -> JSONValue {
    switch value {
    case .null: .null
    case .integer(let integer): .integer(integer)
    case .real(let double): .double(double)
    case .text(let text): .string(text)
    case .blob(let bytes): .string(hex(bytes))
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
}
