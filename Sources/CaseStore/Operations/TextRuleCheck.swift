import SQLiteKit

/// Stored text that breaks ``TextRules``: names, species, emoji, fruit names, alibis and notes
/// that another client wrote before migration 0009's triggers, past them (text after a NUL,
/// which SQL does not see), or with the triggers dropped (docs/schema.md "Text rules").
///
/// `inspector check` reports each such value, and `export` refuses to write a document that
/// `import` would refuse: the two read the same list.
enum TextRuleCheck {
  /// One stored value that breaks the rules.
  struct Violation {
    let table: String
    /// `id`, or `animal_id` for `alibis`.
    let idColumn: String
    let id: Int64
    let column: String
    let value: String
    let field: TextRules.Field
    let problem: TextRules.Problem
  }

  /// The columns the rules cover: table, id column, column, kind of text.
  static let columns: [(table: String, idColumn: String, column: String, field: TextRules.Field)] =
    [
      ("animals", "id", "name", .name), ("animals", "id", "species", .name),
      ("animals", "id", "emoji", .emoji), ("fruits", "id", "name", .name),
      ("alibis", "animal_id", "statement", .freeText), ("incidents", "id", "notes", .freeText),
    ]

  /// The first `limit` violations in `table`, in column then id order.
  ///
  /// SQL hands over only the rows a rule can concern (``candidateCondition(column:field:)``);
  /// Swift decides.
  ///
  /// - Throws: `SQLiteError` when the table cannot be read.
  static func violations(_ connection: Connection, table: String, limit: Int) throws
    -> [Violation]
  {
    var result: [Violation] = []
    for (_, idColumn, column, field) in columns.filter({ $0.table == table })
    where result.count < limit {
      try StoredTextScan.forEachValue(
        connection, table: table, idColumn: idColumn, column: column,
        where: candidateCondition(column: column, field: field),
        parameters: [":controls": .text(controlPattern(for: field))]
      ) { id, value in
        // An emoji that is only white space means none (the tool stores NULL for it).
        if field == .emoji, value.allSatisfy(\.isWhitespace), !value.isEmpty { return true }
        if let problem = TextRules.problem(value, in: field) {
          result.append(
            Violation(
              table: table, idColumn: idColumn, id: id, column: column, value: value,
              field: field, problem: problem))
        }
        return result.count < limit
      }
    }
    return result
  }

  /// Each violation in `table` as a `check` finding (a fault), with the command that fixes it.
  /// Blank names are left to the blank-name rule of ``InvariantCheck``, which reports them.
  static func findings(_ connection: Connection, table: String, limit: Int) throws
    -> [CheckFinding]
  {
    try violations(connection, table: table, limit: limit).filter { $0.problem != .blank }.map {
      CheckFinding(
        .fault, .domain, table: $0.table, row: "\($0.idColumn) \($0.id)",
        "\($0.column) '\(TextRules.escaped($0.value))' \($0.problem.summary)",
        hint: hint($0))
    }
  }

  /// The command that replaces the value.
  private static func hint(_ violation: Violation) -> String {
    let id = violation.id
    switch (violation.table, violation.column) {
    case ("animals", "name"): return "inspector animal edit id:\(id) --name NAME"
    case ("animals", "species"): return "inspector animal edit id:\(id) --species SPECIES"
    case ("animals", _): return "inspector animal edit id:\(id) --emoji EMOJI"
    case ("alibis", _): return "inspector alibi id:\(id) TEXT (or --clear)"
    case ("incidents", _): return "inspector incident edit \(id) --notes TEXT"
    default:
      return "inspector sql --write \"UPDATE fruits SET name = 'NAME' WHERE id = \(id)\""
    }
  }
}

extension CaseTransaction {
  /// Throws for the first stored value that breaks ``TextRules``, or that holds a NUL in a
  /// column with a domain rule (a colour, a time, a paw size), which is
  /// what `import` would refuse, so that `export` refuses up front, naming it, rather than write
  /// a document that does not import. Read-only.
  ///
  /// - Throws: ``CaseError/invalidStoredValue(table:id:column:value:expected:)`` naming the
  ///   table, row, column and rule; `SQLiteError` when the file cannot be read.
  public func requireTextRules() throws {
    for table in ["fruits", "animals", "alibis", "incidents"] {
      guard let first = try TextRuleCheck.violations(connection, table: table, limit: 1).first
      else { continue }
      throw CaseError.invalidStoredValue(
        table: first.table, id: first.id, column: first.column,
        value: TextRules.escaped(first.value),
        expected: first.problem.expected(field: first.column, kind: first.field))
    }
    for table in ["fruits", "animals", "sleep_schedules", "incidents"] {
      guard let first = try DomainTextNULCheck.violations(connection, table: table, limit: 1).first
      else { continue }
      throw CaseError.invalidStoredValue(
        table: first.table, id: first.id, column: first.column,
        value: TextRules.escaped(first.value), expected: first.expected + " (it holds a NUL)")
    }
  }
}

// MARK: - The rows SQL hands over

extension TextRuleCheck {
  /// The SQL condition, on a text `column`, that every value breaking a rule of `field` meets
  /// (and few others do), so that the check reads only those rows, not every emoji and accented
  /// name: a control character other than NUL (the pattern bound as `:controls`), a NUL byte
  /// (after which SQL's string functions see nothing), more bytes than the field's limit of
  /// characters, and for names no visible ASCII character (a blank or invisible-only name has
  /// none).
  static func candidateCondition(column: String, field: TextRules.Field) -> String {
    let limit = field == .name ? 10_000 : field == .freeText ? 100_000 : 64
    // Text of printable ASCII only holds none of the controls: the one-range pattern passes it
    // before the long one is tried (GLOB parses its character class at every position).
    var condition =
      "(\(column) GLOB '*[^ -~]*' AND \(column) GLOB :controls)"
      + " OR instr(CAST(\(column) AS BLOB), x'00') > 0"
      + " OR length(CAST(\(column) AS BLOB)) > \(limit)"
    if field == .name { condition += " OR \(column) NOT GLOB '*[!-~]*'" }
    return condition
  }

  /// A GLOB pattern that matches text holding a character ``TextRules/isControl(_:)`` refuses
  /// in `field` other than NUL: C0 (but tab, line feed and carriage return in free text), DEL,
  /// C1 and the bidirectional embeddings, overrides and isolates.
  static func controlPattern(for field: TextRules.Field) -> String {
    let ranges: [ClosedRange<UInt32>] =
      (field == .freeText ? [0x01...0x08, 0x0B...0x0C, 0x0E...0x1F] : [0x01...0x1F])
      + [0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069]
    var pattern = "*["
    for range in ranges {
      pattern.unicodeScalars.append(Unicode.Scalar(range.lowerBound)!)
      pattern += "-"
      pattern.unicodeScalars.append(Unicode.Scalar(range.upperBound)!)
    }
    return pattern + "]*"
  }
}
