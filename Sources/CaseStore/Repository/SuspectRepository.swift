import SQLiteKit

/// Reads and changes suspects: identity in `animals`, favourites in `favorite_fruits`, the
/// interview in `alibis`, `sleep_schedules` and `suspicion_levels` (docs/schema.md "Tables").
///
/// Every change is one transaction (nested inside the caller's, if any). Names and species lose
/// leading and trailing whitespace (so `" Crow "` is the crow); otherwise names, species, alibis
/// and emoji are stored exactly as given. They are validated first (blank or over 10,000
/// characters is refused), and nothing is stored when an error is thrown.
public struct SuspectRepository<Kind: UnitOfWorkKind> {
  // MARK: - Properties

  let database: CaseDatabase
  private var connection: Connection { database.connection }

  // MARK: - Reading

  /// Every suspect with favourites and interview, in id order.
  ///
  /// Holds every suspect in memory; listings use ``forEachPage(size:_:)`` instead.
  ///
  /// - Throws: What ``forEachPage(size:_:)`` throws.
  public func all() throws -> [Suspect] {
    var result: [Suspect] = []
    try forEachPage { result += $0 }
    return result
  }

  /// Hands every suspect, with favourites and interview, to `body` in id order, a page at a
  /// time, as the rows are read (the `list` command streams them).
  ///
  /// Two queries whatever the number of suspects, both in id order and read side by side: one
  /// for identities and interviews, one for all favourites in order. Both stay open until the
  /// last page, so every page comes from the same snapshot of the file; memory holds one page.
  ///
  /// - Parameters:
  ///   - size: Suspects per page (1 or more; 1,000 by default).
  ///   - body: Receives each page, never an empty one; what it throws stops the walk.
  /// - Throws: `SQLiteError` when the database cannot be read,
  ///   ``CaseError/invalidStoredValue(table:id:column:value:expected:)`` for a stored value
  ///   outside the domain, or what `body` throws.
  public func forEachPage(size: Int = 1000, _ body: ([Suspect]) throws -> Void) throws {
    let favoriteRows = try database.statement(
      """
      SELECT \(FavoriteRow.columns)
      FROM favorite_fruits ff LEFT JOIN fruits f ON f.id = ff.fruit_id
      ORDER BY ff.animal_id, ff.position, ff.fruit_id
      """)
    let favoriteColumns = try FavoriteRow(favoriteRows)
    let rows = try database.statement(
      "SELECT \(SuspectRow.columns) \(SuspectRow.joins) ORDER BY a.id")
    let columns = try SuspectRow(rows)
    var favorite = try favoriteRows.nextRow()
    try rows.forEachPage(
      size: size,
      record: { row in
        let id = try row.int64(columns.id)
        var favorites = FavoriteList()
        while let current = favorite {
          let owner = try favoriteColumns.animalID(in: current)
          guard owner <= id else { break }
          if owner == id { try favoriteColumns.append(current, to: &favorites) }
          favorite = try favoriteRows.nextRow()
        }
        var suspect = try columns.suspect(from: row, favorites: [])
        suspect.setFavorites(favorites)
        return suspect
      }, body)
  }

  /// The suspect with this id, or `nil`.
  ///
  /// - Throws: `SQLiteError` when the database cannot be read.
  public func suspect(id: Int64) throws -> Suspect? {
    var suspect: Suspect
    do {
      let rows = try database.statement(
        "SELECT \(SuspectRow.columns) \(SuspectRow.joins) WHERE a.id = ?")
      try rows.bind([id])
      guard let row = try rows.nextRow() else { return nil }
      suspect = try SuspectRow(rows).suspect(from: row, favorites: [])
    }
    suspect.setFavorites(try favoriteNames(of: id))
    return suspect
  }

  /// Finds the suspect a person means (see ``resolve(_:)``).
  ///
  /// - Parameter reference: What was typed, e.g. `raccoon`, `Rénard`, `10` or `id:10`.
  /// - Throws: ``CaseError/unknownSuspect(_:)`` or ``CaseError/ambiguousSuspect(_:candidates:)``
  ///   (the word matches several suspects; the candidates are listed).
  public func find(_ reference: String) throws -> Suspect {
    let id = try resolve(reference)
    guard let suspect = try suspect(id: id) else { throw CaseError.unknownSuspect(reference) }
    return suspect
  }

  /// The id of the suspect `reference` means (the `<animal>` argument,
  /// docs/command-line.md "<animal>").
  ///
  /// `id:N` means the suspect with id N and nothing else. Any other word is compared with every
  /// suspect's species (ignoring case and Unicode normalization), name (the same; a name typed
  /// without its accents matches when no name matches with them) and, when it is a whole
  /// number, id. Exactly one suspect must match, in whichever of these ways: a word that
  /// matches several (an id and another suspect's species, two names, two species that differ
  /// only in letter case, stored by another client) is ambiguous, so that no command acts on
  /// the wrong record. Rows whose keys nobody vouches for (text beyond ASCII that other clients
  /// wrote, keyed by SQL's `lower()`, docs/schema.md "Folded keys") are compared in Swift,
  /// through a partial index, never a table scan. Nothing is written.
  ///
  /// - Parameter reference: What was typed, e.g. `raccoon`, `Rénard`, `10` or `id:10`.
  /// - Throws: ``CaseError/unknownSuspect(_:)``, or ``CaseError/ambiguousSuspect(_:candidates:)``
  ///   with every candidate as `Name the Species (id N)`.
  public func resolve(_ reference: String) throws -> Int64 {
    let typed = reference
    let reference = reference.trimmingSpaces()
    if reference.hasPrefix("id:") {
      guard let id = Int64(reference.dropFirst(3)), id > 0,
        try database.scalar("SELECT 1 FROM animals WHERE id = ?", [id]) != nil
      else { throw CaseError.unknownSuspect(typed) }
      return id
    }
    return try SuspectLookup.resolve(typed, among: try candidates(matching: reference))
  }

  /// The rows that may be the suspect `reference` (not `id:N`) means: those whose species or
  /// name key is the word's, those whose keys nobody vouches for, and the one whose id it is;
  /// ``SuspectLookup/resolve(_:among:)`` picks the one it means. Each holds the row's own
  /// text (a key another client wrote by hand never makes a row answer to a word it does not
  /// match: the text is compared there).
  ///
  /// - Parameter reference: What was typed, without leading and trailing spaces.
  /// - Throws: `SQLiteError`; ``CaseError/invalidStoredValue(table:id:column:value:expected:)``.
  func candidates(matching reference: String) throws -> [Candidate] {
    var rows =
      try candidates(
        "SELECT id, name, species FROM animals WHERE species_key = ? ORDER BY id",
        [NameKey.caseKey(reference)])
      + candidates(
        "SELECT id, name, species FROM animals WHERE name_key = ? ORDER BY id",
        [NameKey.sortKey(reference)])
      + unvouchedRows()
    if let id = Int64(reference), id > 0 {
      rows += try candidates("SELECT id, name, species FROM animals WHERE id = ?", [id])
    }
    return rows
  }

  /// Number of suspects.
  ///
  /// - Throws: `SQLiteError` when the database cannot be read.
  public func count() throws -> Int {
    Int(try database.scalar("SELECT count(*) FROM animals")?.integerValue ?? 0)
  }

  // MARK: - Internal helpers

  func favoriteNames(of id: Int64) throws -> FavoriteList {
    let rows = try database.statement(
      """
      SELECT \(FavoriteRow.columns)
      FROM favorite_fruits ff LEFT JOIN fruits f ON f.id = ff.fruit_id
      WHERE ff.animal_id = ? ORDER BY ff.position, ff.fruit_id
      """)
    try rows.bind([id])
    let columns = try FavoriteRow(rows)
    var list = FavoriteList()
    while let row = try rows.nextRow() { try columns.append(row, to: &list) }
    return list
  }

  /// Refuses a name, species or fruit name that breaks ``TextRules`` (blank, over 10,000
  /// characters as SQLite's `length()` counts them, only invisible characters, or a control
  /// character; NUL only when `allowingNul`, for imports).
  static func validate(text: String, field: String, allowingNul: Bool = false) throws {
    var problem = TextRules.problem(text, in: .name)
    if problem == nil, !allowingNul, text.utf8.contains(0) { problem = .controlCharacter("\0") }
    if let problem {
      throw CaseError.invalidValue(
        field: field, value: text, expected: problem.expected(field: field, kind: .name))
    }
  }

  /// An emoji: `nil` or empty means none; at most 64 characters, without control characters.
  static func validated(emoji: String?, allowingNul: Bool = false) throws -> String? {
    guard let emoji, !emoji.allSatisfy(\.isWhitespace) else { return nil }
    guard emoji.unicodeScalars.count <= 64, emoji.unicodeScalars.first != "\0" else {
      throw CaseError.invalidValue(field: "emoji", value: emoji, expected: "at most 64 characters")
    }
    try TextRules.requirePrintable(
      emoji, field: "emoji", allowingLineBreaks: false, allowingNul: allowingNul)
    return emoji
  }

  /// The error to report for a `SQLITE_CONSTRAINT_UNIQUE` refusal of a write of `species`:
  /// ``CaseError/duplicateSpecies(_:)`` when another suspect holds its key, else `error` itself.
  ///
  /// Which unique constraint fired is read from the table, never from SQLite's message: the
  /// refused statement changed nothing, so another row with the same `species_key` means the
  /// species is taken. The key is the one the write bound (``NameKey/caseKey(_:)``), which the
  /// schema's triggers keep as it is (its `species_folded_from` vouches for it).
  ///
  /// - Parameters:
  ///   - error: The refusal.
  ///   - species: The species as written.
  ///   - id: The suspect being edited, or `nil` for a new one.
  /// - Throws: `SQLiteError` when the table cannot be read.
  func caseError(for error: SQLiteError, species: String, except id: Int64?) throws -> Error {
    let taken = try database.scalar(
      "SELECT 1 FROM animals WHERE species_key = ? AND id IS NOT ? LIMIT 1",
      [NameKey.caseKey(species), id])
    return taken != nil ? CaseError.duplicateSpecies(species) : error
  }

  /// A suspect as a look-up names it.
  typealias Candidate = SuspectLookup.Candidate

  /// The rows of a query selecting `id, name, species`, with `values` bound.
  private func candidates(_ sql: String, _ values: [any SQLiteBindable]) throws -> [Candidate] {
    let rows = try database.statement(sql)
    try rows.bind(values)
    var result: [Candidate] = []
    while let row = try rows.nextRow() {
      let id = try row.int64("id")
      result.append(
        try StoredRow.read("animals", id: id) {
          (id, try row.text("name"), try row.text("species"))
        })
    }
    return result
  }

  /// The rows whose keys nobody vouches for (``KeyedTable/unvouchedCondition``: text beyond
  /// ASCII keyed by SQL's `lower()`), read through the partial index `animals_unvouched_keys`:
  /// the look-ups compare them in Swift.
  func unvouchedRows() throws -> [Candidate] {
    try candidates(
      "SELECT id, name, species FROM animals WHERE \(KeyedTable.animals.unvouchedCondition) "
        + "ORDER BY id", [])
  }

  /// Gives the rows nobody vouches for inspector's Unicode keys, with the text each was folded
  /// from, so that the unique index on `species_key` and the orders by `name_key` see them as
  /// inspector would. A row whose Unicode species key collides with another's (a duplicate
  /// stored through plain SQL) keeps SQL's species key; its name is still folded.
  func refoldUnvouchedKeys() throws {
    let update = try database.statement(
      """
      UPDATE animals SET species_key = ?, species_folded_from = ?, name_key = ?,
        name_folded_from = ?
      WHERE id = ?
      """)
    let updateName = try database.statement(
      "UPDATE animals SET name_key = ?, name_folded_from = ? WHERE id = ?")
    // In batches along the partial index, so memory stays flat however many rows there are.
    // A row whose species key collides fails alone (SQLite undoes only that statement), gets
    // its name key alone, and stays unvouched; the cursor moves past it.
    var after: Int64 = 0
    while true {
      let batch = try candidates(
        """
        SELECT id, name, species FROM animals
        WHERE (\(KeyedTable.animals.unvouchedCondition)) AND id > ?
        ORDER BY id LIMIT 500
        """, [after])
      guard let last = batch.last else { return }
      after = last.id
      for row in batch {
        do {
          try update.run([
            NameKey.caseKey(row.species), NameKey.foldedFrom(row.species),
            NameKey.sortKey(row.name), NameKey.foldedFrom(row.name), row.id,
          ])
        } catch let error as SQLiteError where error.code == .constraint {
          try updateName.run([NameKey.sortKey(row.name), NameKey.foldedFrom(row.name), row.id])
        }
      }
    }
  }

  /// The species keys of rows nobody vouches for after ``refoldUnvouchedKeys()`` (their Unicode
  /// key collides with another row's), which the unique index on `species_key` cannot check.
  func unvouchedSpeciesKeys() throws -> Set<String> {
    Set(try unvouchedRows().map { NameKey.caseKey($0.species) })
  }

  /// Throws ``CaseError/duplicateSpecies(_:)`` when a row nobody vouches for has this species
  /// ignoring case (the unique index checks the rest).
  private func requireSpeciesFree(_ species: String, except id: Int64?) throws {
    let folded = NameKey.caseKey(species)
    if try unvouchedRows().contains(where: { $0.id != id && NameKey.caseKey($0.species) == folded })
    {
      throw CaseError.duplicateSpecies(species)
    }
  }
}

extension SuspectRepository where Kind == Writing {
  // MARK: - Changing identity

  /// Stores a new suspect with its favourites (default interview), in one transaction.
  ///
  /// - Returns: The stored suspect, with its new id.
  /// - Throws: ``CaseError/invalidValue(field:value:expected:)`` for a blank or over-long name or
  ///   species, ``CaseError/duplicateSpecies(_:)``, ``CaseError/unknownFruit(_:)``,
  ///   ``CaseError/alreadyFavorite(suspect:fruit:)`` for a fruit listed twice, or `SQLiteError`.
  @discardableResult
  public func add(_ new: NewSuspect) throws -> Suspect {
    let id = try add(contentsOf: [new])[0]
    return try suspect(id: id)!
  }

  /// Changes identity fields of suspect `id`; fields left `nil` in `edit` stay.
  ///
  /// - Returns: The suspect as stored afterwards.
  /// - Throws: ``CaseError/unknownSuspect(_:)``, ``CaseError/invalidValue(field:value:expected:)``,
  ///   ``CaseError/duplicateSpecies(_:)``, or `SQLiteError`.
  @discardableResult
  public func edit(id: Int64, _ edit: SuspectEdit) throws -> Suspect {
    if let name = edit.name { try Self.validate(text: name, field: "name") }
    if let species = edit.species { try Self.validate(text: species, field: "species") }
    var edit = edit
    edit.name = edit.name?.trimmingSpaces()
    edit.species = edit.species?.trimmingSpaces()
    let emoji = try edit.emoji.map { try Self.validated(emoji: $0) }
    guard var suspect = try suspect(id: id) else { throw CaseError.unknownSuspect("\(id)") }
    suspect.name = edit.name ?? suspect.name
    suspect.species = edit.species ?? suspect.species
    suspect.pawSize = edit.pawSize ?? suspect.pawSize
    if let emoji { suspect.emoji = emoji }
    try requireSpeciesFree(suspect.species, except: id)
    do {
      try database.execute(
        """
        UPDATE animals SET name = ?, species = ?, paw_size = ?, emoji = ?, species_key = ?,
          species_folded_from = ?, name_key = ?, name_folded_from = ?
        WHERE id = ?
        """,
        [
          suspect.name, suspect.species, suspect.pawSize.rawValue, suspect.emoji,
          NameKey.caseKey(suspect.species), NameKey.foldedFrom(suspect.species),
          NameKey.sortKey(suspect.name), NameKey.foldedFrom(suspect.name), id,
        ])
    } catch let error as SQLiteError where error.extendedCode == .constraintUnique {
      throw try caseError(for: error, species: suspect.species, except: id)
    }
    return try self.suspect(id: id)!
  }

  /// Deletes suspect `id` with its interview and favourites (one transaction).
  ///
  /// - Returns: The suspect as it was.
  /// - Throws: ``CaseError/unknownSuspect(_:)`` or `SQLiteError`.
  @discardableResult
  public func remove(id: Int64) throws -> Suspect {
    guard let suspect = try suspect(id: id) else { throw CaseError.unknownSuspect("\(id)") }
    try database.execute("DELETE FROM animals WHERE id = ?", [id])
    return suspect
  }
}

/// Which suspect a word means among given rows (``SuspectRepository/resolve(_:)``'s rule,
/// docs/command-line.md "<animal>"), whether the rows are the case's own or the history's
/// as they stood at a point (docs/history.md "As of").
enum SuspectLookup {
  /// A suspect as a look-up names it: its id and its own text.
  typealias Candidate = (id: Int64, name: String, species: String)

  /// The one suspect among `rows` that `typed` (not `id:N`) means: its species equal
  /// ignoring case, its name equal ignoring case (or, when no name is, ignoring accents too),
  /// or, for a whole number, its id. `rows` must hold every row that may match (more do no
  /// harm; a row listed twice counts once).
  ///
  /// - Parameters:
  ///   - typed: What was typed (reported as it was in errors).
  ///   - rows: The rows to look among.
  /// - Returns: The suspect's id.
  /// - Throws: ``CaseError/unknownSuspect(_:)``, or
  ///   ``CaseError/ambiguousSuspect(_:candidates:)`` with every candidate as
  ///   `Name the Species (id N)`.
  static func resolve(_ typed: String, among rows: [Candidate]) throws -> Int64 {
    let reference = typed.trimmingSpaces()
    let caseKey = NameKey.caseKey(reference)
    let sortKey = NameKey.sortKey(reference)
    var matches = rows.filter { NameKey.caseKey($0.species) == caseKey }
    let names = rows.filter { NameKey.sortKey($0.name) == sortKey }
    // Prefer names equal ignoring case; accept names equal ignoring accents too (`renard`).
    let exact = names.filter { NameKey.caseKey($0.name) == caseKey }
    matches += exact.isEmpty ? names : exact
    if let id = Int64(reference), id > 0 { matches += rows.filter { $0.id == id } }
    var seen = Set<Int64>()
    matches = matches.filter { seen.insert($0.id).inserted }.sorted { $0.id < $1.id }
    guard let first = matches.first else { throw CaseError.unknownSuspect(typed) }
    guard matches.count == 1 else {
      throw CaseError.ambiguousSuspect(
        typed, candidates: matches.map { "\($0.name) the \($0.species) (id \($0.id))" })
    }
    return first.id
  }
}
