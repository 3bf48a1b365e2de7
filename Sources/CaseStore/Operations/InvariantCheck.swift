import SQLiteKit

/// The case file's own rules that SQLite's checks do not see: derived columns (folded keys,
/// the mirrored suspicion level), duplicates ignoring case that SQL could not catch, and stored
/// values outside the domain (written with `PRAGMA ignore_check_constraints` or by a rebuilt
/// table without its CHECKs). Read-only: it reports, never repairs.
///
/// The rules come from `migrations/0005_guarded_derived_columns.sql`,
/// `migrations/0012_folded_from.sql` and docs/schema.md "Derived columns and their triggers"
/// and "Folded keys".
enum InvariantCheck {
  /// Findings listed per kind before the rest are summed up in one line.
  static let listLimit = 200

  /// Every finding on `connection` (a case file at schema version 5 or later): each of
  /// ``jobs(foldedKeys:)``' findings, in ``listed(_:)`` order.
  ///
  /// A check that cannot run (its table is missing or rebuilt without a column) becomes a
  /// fault naming the table and SQLite's message; the other checks still run.
  static func findings(_ connection: Connection, foldedKeys: Bool) -> [CheckFinding] {
    listed(jobs(foldedKeys: foldedKeys).flatMap { $0(connection) })
  }

  /// The jobs' findings (in the jobs' order) in the order docs/operations.md "check" lists
  /// the checks: first a table whose rows could not be checked (a `schema` fault), then every
  /// `derived_column` finding, then `duplicate`, then `domain`; within a check, as the jobs
  /// gave them. (A table's duplicates come from the job that reads its folded keys, so the
  /// jobs' order alone put the duplicate species between the two tables' folded keys.)
  static func listed(_ findings: [CheckFinding]) -> [CheckFinding] {
    let rank: [CheckFinding.Kind: Int] = [.derivedColumn: 1, .duplicate: 2, .domain: 3]
    return findings.enumerated()
      .sorted { (rank[$0.element.kind] ?? 0, $0.offset) < (rank[$1.element.kind] ?? 0, $1.offset) }
      .map(\.element)
  }

  /// The checks of ``findings(_:foldedKeys:)`` as independent jobs, in the order their
  /// findings are listed: each reads one table (or a rule's) on the connection it is handed and
  /// never fails (a check that cannot run is its one finding), so that two connections can
  /// share them (``SharedCheckJobs``, `check`'s second connection once its `integrity_check` is
  /// done). `foldedKeys` includes the folded keys' check of animals and fruits, which a file
  /// needs ``foldedKeysVersion`` for.
  static func jobs(foldedKeys: Bool) -> [SharedCheckJobs.Job] {
    var jobs: [SharedCheckJobs.Job] = []
    if foldedKeys { jobs += foldedKeyJobs }
    jobs += domainRules.map { rule in
      { connection in
        guarded(rule.table) {
          try rows(connection, rule.sql, limit: listLimit).map { row in
            CheckFinding(
              .fault, rule.kind, table: rule.table, row: "\(rule.rowLabel) \(row[0])",
              rule.message(row),
              hint: rule.hint.map {
                $0.split(separator: "id:N", omittingEmptySubsequences: false)
                  .joined(separator: "id:\(row[0])")
                  .split(separator: "{id}", omittingEmptySubsequences: false)
                  .joined(separator: "\(row[0])")
              })
          }
        }
      }
    }
    jobs += ["animals", "fruits", "alibis", "incidents"].map { table in
      { connection in
        guarded(table) { try TextRuleCheck.findings(connection, table: table, limit: listLimit) }
      }
    }
    // The rules above stop at a NUL (`GLOB`, `length()`): `'red'`, NUL, `'x'` passes as `'red'`.
    jobs += ["animals", "fruits", "sleep_schedules", "incidents"].map { table in
      { connection in
        guarded(table) {
          try DomainTextNULCheck.findings(connection, table: table, limit: listLimit)
        }
      }
    }
    return jobs
  }

  /// The schema version the folded keys' check needs: migration 0012 added the
  /// `*_folded_from` columns it reads (docs/schema.md "Folded keys").
  static let foldedKeysVersion = 12

  /// The folded keys' check of animals and fruits, one job each (``jobs(foldedKeys:)``).
  private static var foldedKeyJobs: [SharedCheckJobs.Job] {
    [
      { connection in
        guarded("animals") {
          try keyFindings(
            connection, table: "animals",
            sql: """
              SELECT id, species AS unique_text, species_key AS unique_key, name AS sort_text,
                name_key AS sort_key, \(KeyedTable.animals.unvouchedCondition) AS unvouched,
                \(asciiKeyHolds("species", "species_key")) AS unique_plain,
                \(asciiKeyHolds("name", "name_key")) AS sort_plain,
                \(sqlKeyHolds("species", "species_key")) AS unique_sql,
                \(sqlKeyHolds("name", "name_key")) AS sort_sql
              FROM animals
              WHERE NOT (\(asciiKeyHolds("species", "species_key"))
                AND \(asciiKeyHolds("name", "name_key")))
              """,
            uniqueKeyName: "species")
        }
      },
      { connection in
        guarded("fruits") {
          try keyFindings(
            connection, table: "fruits",
            sql: """
              SELECT id, name AS unique_text, name_key AS unique_key, NULL AS sort_text,
                NULL AS sort_key, \(KeyedTable.fruits.unvouchedCondition) AS unvouched,
                \(asciiKeyHolds("name", "name_key")) AS unique_plain, 1 AS sort_plain,
                \(sqlKeyHolds("name", "name_key")) AS unique_sql, 1 AS sort_sql
              FROM fruits
              WHERE NOT \(asciiKeyHolds("name", "name_key"))
              """,
            uniqueKeyName: "name")
        }
      },
    ]
  }

  /// The note that lists the folded keys' check as skipped, for a file at `version`, older than
  /// ``foldedKeysVersion`` (its pending migrations are faults of their own).
  static func foldedKeysSkipped(version: Int) -> CheckFinding {
    CheckFinding(
      .note, .derivedColumn,
      "skipped: the folded keys' check needs schema version \(foldedKeysVersion); the file is"
        + " at version \(version)",
      hint: "inspector migrate up")
  }

  /// What `check` returns, or one fault saying it could not run on `table`.
  private static func guarded(_ table: String, _ check: () throws -> [CheckFinding])
    -> [CheckFinding]
  {
    do {
      return try check()
    } catch {
      return [
        CheckFinding(
          .fault, .schema, table: table,
          "could not check the rows of \(table): \(CaseFile.sqliteMessage(error))",
          hint: "see the schema findings above")
      ]
    }
  }

  // MARK: - Folded keys

  /// SQL that holds when `text` is ASCII without NUL (its byte count is its length, which
  /// stops at a NUL) and `key` is text holding exactly `lower(text)`: both keys' right value
  /// (``NameKey/asciiKey(_:)``), so such a row needs no folding in Swift. Other rows go on to
  /// ``keyFindings(_:table:sql:uniqueKeyName:)``'s comparison, which decides.
  static func asciiKeyHolds(_ text: String, _ key: String) -> String {
    "(length(CAST(\(text) AS BLOB)) = length(\(text)) AND typeof(\(key)) = 'text'"
      + " AND \(key) = lower(\(text)))"
  }

  /// SQL that holds when `key` is text holding exactly `lower(text)`, every byte of it (a NUL
  /// included): the key SQL's triggers give a row another client wrote. A row nobody vouches
  /// for is a note only while it holds these keys; any other key is wrong.
  static func sqlKeyHolds(_ text: String, _ key: String) -> String {
    "(typeof(\(key)) = 'text' AND \(key) = lower(\(text)))"
  }

  /// Wrong keys (a fault where inspector's folding or SQL vouches for them), SQL's keys of text
  /// beyond ASCII that nobody vouches for (one note: the next write re-folds them), and rows
  /// that are one ignoring case (a fault each). `sql` may leave out rows whose keys SQL
  /// already found right (``asciiKeyHolds(_:_:)``): only wrong or unfolded keys matter here;
  /// its `unique_plain` and `sort_plain` say which of a row's keys SQL found right, and those
  /// are not folded again. Text beyond ASCII repeats (a handful of accented names among a
  /// million suspects): its keys are folded once per distinct text.
  private static func keyFindings(
    _ connection: Connection, table: String, sql: String, uniqueKeyName: String
  ) throws -> [CheckFinding] {
    var findings: [CheckFinding] = []
    var unvouched: [Int64] = []
    var unfolded: [(id: Int64, key: String, value: String)] = []
    var caseKeys = KeyMemo(NameKey.caseKey)
    var sortKeys = KeyMemo(NameKey.sortKey)
    // Animals keep two folded keys (the unique one and the name's), fruits one.
    let wording =
      table == "animals"
      ? (
        mismatch: "the folded keys do not match the \(uniqueKeyName) and name as stored",
        foldedFrom: "species_folded_from = NULL, name_folded_from = NULL", keys: "keys",
        them: "them"
      )
      : (
        mismatch: "the folded key does not match the \(uniqueKeyName) as stored",
        foldedFrom: "name_folded_from = NULL", keys: "key", them: "it"
      )
    let statement = try connection.prepare(sql + " ORDER BY id")
    while let row = try statement.nextRow() {
      let id = try row.int64("id")
      let unique = try row.text("unique_text")
      let storedUniqueKey = try row.value("unique_key").textValue
      // SQL found the stored key right: it is the folded key (``asciiKeyHolds(_:_:)``).
      let uniquePlain = try row.int64("unique_plain") == 1
      let uniqueKey = uniquePlain ? storedUniqueKey ?? caseKeys[unique] : caseKeys[unique]
      // Byte for byte: Swift's == on strings ignores Unicode normalization, and a key stored
      // decomposed does not find the composed key under the index. A key that is not text
      // (NULL, or a number another client stored) is wrong.
      var right = uniquePlain || sameBytes(storedUniqueKey, uniqueKey)
      if try row.int64("sort_plain") != 1, let sortText = try row.optionalText("sort_text") {
        let sortKey = try row.value("sort_key").textValue
        right = right && sameBytes(sortKey, sortKeys[sortText])
      }
      if right { continue }
      unfolded.append((id, uniqueKey, unique))
      // Unvouched, and holding what SQL's triggers give such a row: the next write folds it.
      let holdsSQLKeys = try row.int64("unique_sql") == 1 && row.int64("sort_sql") == 1
      if try row.int64("unvouched") == 1 && holdsSQLKeys {
        unvouched.append(id)
      } else if findings.count < listLimit {
        findings.append(
          CheckFinding(
            .fault, .derivedColumn, table: table, row: "id \(id)", wording.mismatch,
            hint: "UPDATE \(table) SET \(wording.foldedFrom) WHERE id = \(id) gives the row"
              + " SQL's \(wording.keys), and the next inspector write folds \(wording.them)"))
      }
    }
    if !unvouched.isEmpty {
      let shown = unvouched.prefix(10).map(String.init).joined(separator: ", ")
      findings.append(
        CheckFinding(
          .note, .derivedColumn, table: table,
          "\(unvouched.count) row(s) written by another client hold SQL's keys, folded in "
            + "ASCII only, until inspector re-folds them (ids \(shown)"
            + "\(unvouched.count > 10 ? ", ..." : "")); look-ups find them, ties may sort apart",
          hint: "the next inspector write, or 'inspector optimize', re-folds them"))
    }
    findings += try duplicates(connection, table: table, unfolded, uniqueKeyName: uniqueKeyName)
    return findings
  }

  /// Rows whose Unicode key equals another row's: among the unfolded rows, and against the
  /// keys stored under the unique index.
  private static func duplicates(
    _ connection: Connection, table: String,
    _ unfolded: [(id: Int64, key: String, value: String)], uniqueKeyName: String
  ) throws -> [CheckFinding] {
    let keyColumn = table == "animals" ? "species_key" : "name_key"
    let valueColumn = table == "animals" ? "species" : "name"
    let probeSQL =
      "SELECT id, \(valueColumn) AS value FROM \(table) WHERE \(keyColumn) = ? AND id <> ?"
    var groups: [String: [(id: Int64, value: String)]] = [:]
    for row in unfolded { groups[row.key, default: []].append((row.id, row.value)) }
    var findings: [CheckFinding] = []
    for (key, rows) in groups.sorted(by: { $0.value[0].id < $1.value[0].id }) {
      var members = rows
      // A cached statement is reset when released, ready for the next group.
      let probe = try connection.cachedStatement(probeSQL)
      try probe.bind([key, rows[0].id])
      while let row = try probe.nextRow() {
        let (id, value) = (try row.int64("id"), try row.text("value"))
        // Only a row whose own text folds to the key: a key written by hand proves nothing.
        guard NameKey.caseKey(value) == key else { continue }
        if !members.contains(where: { $0.id == id }) { members.append((id, value)) }
      }
      guard members.count > 1 else { continue }
      members.sort { $0.id < $1.id }
      let named = members.map { "'\(TextRules.escaped($0.value))' (id \($0.id))" }
      findings.append(
        CheckFinding(
          .fault, .duplicate, table: table, row: "id \(members[0].id)",
          named.dropLast().joined(separator: ", ") + " and \(named.last!) are one "
            + "\(uniqueKeyName) ignoring case, so look-ups of it are ambiguous",
          hint: "rename or remove all but one, naming each by id (id:N)"))
    }
    return findings
  }

  /// A key function remembered for the texts it was asked about, up to 4,096 of them (then it
  /// starts afresh, so memory stays bounded).
  private struct KeyMemo {
    let fold: (String) -> String
    /// By bytes: Swift's `String` equality would take one normalization form for another.
    var keys: [[UInt8]: String] = [:]

    init(_ fold: @escaping (String) -> String) { self.fold = fold }

    subscript(text: String) -> String {
      mutating get {
        let bytes = Array(text.utf8)
        if let key = keys[bytes] { return key }
        if keys.count >= 4096 { keys.removeAll(keepingCapacity: true) }
        let key = fold(text)
        keys[bytes] = key
        return key
      }
    }
  }

  /// `true` when `stored` holds exactly the bytes of `expected`.
  private static func sameBytes(_ stored: String?, _ expected: String) -> Bool {
    stored.map { $0.utf8.elementsEqual(expected.utf8) } ?? false
  }

  // MARK: - Domain rules

  private struct DomainRule: Sendable {
    let table: String
    let kind: CheckFinding.Kind
    let rowLabel: String
    let sql: String
    let message: @Sendable ([String]) -> String
    let hint: String?
  }

  /// Unicode white space as an SQL `char(...)` expression: the characters of
  /// ``Suspect/alibiWhitespace``, which the schema's blank-name triggers also trim.
  static let whiteSpace =
    "char("
    + Suspect.alibiWhitespace.unicodeScalars.map { String($0.value) }.joined(separator: ", ")
    + ")"

  /// SQL that holds when `column` is blank: empty or only ``whiteSpace``. `trim()` with that
  /// long set costs a parse of the set per row, so a value whose first character is visible
  /// ASCII (`!` to `~`, none of them white space) is passed at once (`unicode()` reads one
  /// character); `trim()` decides for the rest, NULL as before.
  static func blank(_ column: String) -> String {
    let visibleASCII = Suspect.alibiWhitespace.unicodeScalars.allSatisfy {
      !(33...126).contains($0.value)
    }
    let passed = visibleASCII ? "coalesce(unicode(\(column)) BETWEEN 33 AND 126, 0)" : "0"
    return "(NOT \(passed) AND trim(\(column), \(whiteSpace)) = '')"
  }

  private static let clock = "GLOB '[0-2][0-9]:[0-5][0-9]'"

  private static let domainRules: [DomainRule] = [
    DomainRule(
      table: "animals", kind: .derivedColumn, rowLabel: "id",
      sql: """
        SELECT a.id, quote(a.suspicion_level), quote(coalesce(l.level, 0.0)) FROM animals a
        LEFT JOIN suspicion_levels l ON l.animal_id = a.id
        WHERE a.suspicion_level IS NOT coalesce(l.level, 0.0) ORDER BY a.id
        """,
      message: { "suspicion_level is \($0[1]) but suspicion_levels.level is \($0[2])" },
      hint: "set the level again: inspector suspect id:N LEVEL"),
    DomainRule(
      table: "animals", kind: .domain, rowLabel: "id",
      sql: """
        SELECT id, quote(paw_size) FROM animals
        WHERE paw_size IS NULL OR paw_size NOT IN ('small', 'medium', 'large') ORDER BY id
        """,
      message: { "paw_size \($0[1]) is not small, medium or large" },
      // inspector cannot read such a row to edit it, so the hint is the SQL that repairs it.
      hint: "inspector sql --write \"UPDATE animals SET paw_size = 'small' WHERE id = {id}\""
        + " (or 'medium', 'large')"),
    DomainRule(
      table: "animals", kind: .domain, rowLabel: "id",
      sql: """
        SELECT id, quote(name), quote(species) FROM animals
        WHERE \(blank("name")) OR \(blank("species")) ORDER BY id
        """,
      message: { "name \($0[1]) or species \($0[2]) is blank" },
      hint: "inspector animal edit id:N --name NAME --species SPECIES"),
    DomainRule(
      table: "fruits", kind: .domain, rowLabel: "id",
      sql: "SELECT id, quote(name) FROM fruits WHERE \(blank("name")) ORDER BY id",
      message: { "name \($0[1]) is blank" }, hint: nil),
    DomainRule(
      table: "fruits", kind: .domain, rowLabel: "id",
      // The CHECK of migration 0001 on fruits.color.
      sql: """
        SELECT id, quote(color) FROM fruits
        WHERE typeof(color) <> 'text' OR NOT (
          (length(color) = 7 AND color GLOB '#[0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f]')
          OR (length(color) BETWEEN 1 AND 40 AND color NOT GLOB '*[^a-z -]*' AND color GLOB '[a-z]*'))
        ORDER BY id
        """,
      message: { "color \($0[1]) is not a lower-case colour name or #RRGGBB" },
      hint: "inspector sql --write \"UPDATE fruits SET color = 'red' WHERE id = {id}\""),
    DomainRule(
      table: "suspicion_levels", kind: .domain, rowLabel: "animal_id",
      sql: """
        SELECT animal_id, quote(level) FROM suspicion_levels
        WHERE typeof(level) <> 'real' OR level < 0 OR level > 1 ORDER BY animal_id
        """,
      message: { "level \($0[1]) is not a number from 0 to 1" },
      hint: "inspector suspect id:N LEVEL"),
    DomainRule(
      table: "sleep_schedules", kind: .domain, rowLabel: "animal_id",
      sql: """
        SELECT animal_id, quote(sleep_at), quote(wake_at) FROM sleep_schedules
        WHERE NOT (sleep_at \(clock) AND sleep_at < '24:00' AND length(sleep_at) = 5)
          OR NOT (wake_at \(clock) AND wake_at < '24:00' AND length(wake_at) = 5)
        ORDER BY animal_id
        """,
      message: { "sleep \($0[1]) or wake \($0[2]) is not a time HH:MM" },
      hint: "inspector sleep id:N --sleep HH:MM --wake HH:MM"),
    DomainRule(
      table: "incidents", kind: .domain, rowLabel: "id",
      sql: """
        SELECT id, quote(paw_size) FROM incidents
        WHERE paw_size IS NOT NULL AND paw_size NOT IN ('small', 'medium', 'large') ORDER BY id
        """,
      message: { "paw_size clue \($0[1]) is not small, medium or large" }, hint: nil),
    DomainRule(
      table: "incidents", kind: .domain, rowLabel: "id",
      sql: """
        SELECT id, quote(latitude), quote(longitude) FROM incidents
        WHERE (latitude IS NULL) <> (longitude IS NULL)
          OR latitude < -90 OR latitude > 90 OR longitude < -180 OR longitude > 180
        ORDER BY id
        """,
      message: {
        "latitude \($0[1]) and longitude \($0[2]) are not degrees from -90 to 90 and -180 to"
          + " 180, both or neither"
      }, hint: nil),
    DomainRule(
      table: "incidents", kind: .domain, rowLabel: "id",
      sql: """
        SELECT id, quote(occurred_at) FROM incidents
        WHERE typeof(occurred_at) <> 'text' OR length(occurred_at) <> 16
          OR date(substr(occurred_at, 1, 10), '+0 days') IS NOT substr(occurred_at, 1, 10)
          OR NOT substr(occurred_at, 12, 5) \(clock) OR substr(occurred_at, 11, 1) <> 'T'
        ORDER BY id
        """,
      message: { "occurred_at \($0[1]) is not a date and time YYYY-MM-DDTHH:MM" }, hint: nil),
  ]

  private static func rows(_ connection: Connection, _ sql: String, limit: Int) throws
    -> [[String]]
  {
    let statement = try connection.prepare(sql)
    var result: [[String]] = []
    while result.count < limit, try statement.step() {
      result.append((0..<statement.columnCount).map { statement.text(at: $0) })
    }
    return result
  }
}
