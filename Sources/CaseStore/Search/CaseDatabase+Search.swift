import SQLiteKit

/// One record that full-text search found (docs/search.md).
public struct SearchHit: Sendable, Equatable {
  /// What kind of record matched.
  public enum Kind: String, Sendable {
    /// A suspect's name or species.
    case suspect
    /// A suspect's alibi.
    case alibi
    /// An incident's notes.
    case incident
  }

  /// 1 for the best match.
  public let rank: Int
  /// Suspect name or species, alibi, or incident notes.
  public let kind: Kind
  /// The suspect's id (for a suspect or an alibi) or the incident's.
  public let id: Int64
  /// Whose record: `Catie the Crow`, or `incident #1`.
  public let subject: String
  /// The matching text (for long text, the part around the match, cut with `…`), each
  /// matching word between the two marks given to ``CaseTransaction/search(_:raw:limit:marks:)``.
  public let text: String
  /// FTS5's `bm25()` relevance, negated: higher is more relevant.
  public let relevance: Double
}

extension CaseDatabase {
  /// How many changed records wait in `search_queue` to be indexed (writes since the last
  /// write of inspector, by any client).
  ///
  /// - Throws: `SQLiteError` when the database cannot be read.
  func pendingSearchChanges() throws -> Int {
    Int(try connection.scalar("SELECT count(*) FROM search_queue")?.integerValue ?? 0)
  }

  /// Re-indexes the records `search_queue` names from their current rows (text folded by
  /// `SearchText`, docs/search.md) and empties the queue, inside the caller's transaction.
  /// Costs one probe of the queue when it is empty.
  ///
  /// - Returns: How many queued records there were.
  /// - Throws: `SQLiteError` when the index or its source tables cannot be read or written.
  @discardableResult
  func drainSearchQueue() throws -> Int {
    guard let queued = try searchQueue() else { return 0 }
    let delete = try statement("DELETE FROM search_index WHERE rowid = ?")
    let insert = try statement(
      "INSERT INTO search_index (rowid, kind, ref, shown, text) VALUES (?, ?, ?, ?, ?)")
    for (kind, ref) in queued where Self.indexedRefs.contains(ref) {
      let rowid = Self.searchRowID(kind, ref)
      try delete.run([rowid])
      guard let shown = try searchedText(kind, ref) else { continue }
      try insert.run([rowid, kind.rawValue, ref, shown, SearchText.folded(shown)])
    }
    try statement("DELETE FROM search_queue").run([])
    return queued.count
  }

  /// The records matching `text`, most relevant first (FTS5's `bm25`). Reads only: nothing is
  /// written to the case file, whatever other clients wrote (docs/search.md "Kept in step with
  /// every client").
  ///
  /// Records that other clients changed since inspector's last write wait in `search_queue`,
  /// and the index holds their old text or none. Their entries in the index are left out, and
  /// their current text is searched instead, in a private index of this connection's `temp`
  /// database holding only them: their matches follow the indexed ones, ordered by their
  /// relevance among themselves. Everything is read in one snapshot of the file.
  ///
  /// - Parameters:
  ///   - text: Words to find (all of them, in any order, ignoring case and accents); with
  ///     `raw`, an FTS5 query (`"exact phrase"`, `pond OR lake`, `snail*`, `NEAR(a b)`).
  ///   - raw: Whether `text` is FTS5 query syntax; otherwise every word is quoted, so
  ///     quotes, `-`, `*` or `NEAR` in it are plain text.
  ///   - limit: How many hits at most (1 or more).
  ///   - marks: What goes before and after each matching word in ``SearchHit/text``.
  /// - Throws: ``CaseError/invalidValue(field:value:expected:)`` when `text` has no word to
  ///   search for, or (raw) is not a valid FTS5 query; `SQLiteError` when the database cannot
  ///   be read.
  func search(
    _ text: String, raw: Bool, limit: Int, marks: (open: String, close: String)
  ) throws -> [SearchHit] {
    guard let query = raw ? SearchText.foldedQuery(text) : Self.searchQuery(text) else {
      throw CaseError.invalidValue(
        field: "search text", value: text, expected: "at least one word (letters or digits)")
    }
    func run() throws -> [SearchHit] {
      let queued = try queuedSearchRecords()
      var hits = try matches(
        query, in: "search_index", excludingQueued: !queued.isEmpty, limit: limit, marks: marks)
      if !queued.isEmpty, hits.count < limit {
        let recent = try withRecentRecordsIndex(queued) {
          try matches(
            query, in: "temp.search_recent", excludingQueued: false, limit: limit - hits.count,
            marks: marks)
        }
        hits += recent
      }
      return hits.enumerated().map { offset, hit in
        SearchHit(
          rank: offset + 1, kind: hit.kind, id: hit.id, subject: hit.subject, text: hit.text,
          relevance: hit.relevance)
      }
    }
    do {
      guard connection.isAutocommit else { return try run() }
      return try connection.inTransaction(.deferred, run)
    } catch let error as SQLiteError where raw && error.code == .error {
      throw CaseError.invalidValue(
        field: "FTS5 query", value: text, expected: "FTS5 query syntax (\(error.message))")
    }
  }

  /// The hits of FTS5 query `query` in `table` (`search_index`, or the private index of
  /// ``withRecentRecordsIndex(_:_:)``), best first, ranked from 1; with `excludingQueued`,
  /// without the records `search_queue` names (their entries are out of date).
  private func matches(
    _ query: String, in table: String, excludingQueued: Bool, limit: Int,
    marks: (open: String, close: String)
  ) throws -> [SearchHit] {
    let name = table.split(separator: ".").last.map(String.init) ?? table
    let queuedFilter =
      excludingQueued
      ? """
      AND s.rowid NOT IN (SELECT ref * 4 + CASE kind WHEN 'suspect' THEN 1
        WHEN 'alibi' THEN 2 ELSE 3 END FROM search_queue)
      """ : ""
    let rows = try connection.prepare(
      """
      SELECT s.kind, s.ref, s.shown, highlight(\(name), 3, char(64976), char(64977)),
        -bm25(\(name)) AS relevance,
        CASE s.kind WHEN 'incident' THEN 'incident #' || s.ref
          ELSE (SELECT a.name || ' the ' || a.species FROM animals a WHERE a.id = s.ref) END
          AS subject
      FROM \(table) s WHERE \(name) MATCH ?1 \(queuedFilter)
      ORDER BY bm25(\(name)), s.rowid LIMIT ?2
      """)
    try rows.bind([query, Int64(limit)])
    var hits: [SearchHit] = []
    while try rows.step() {
      let kind = SearchHit.Kind(rawValue: rows.text(at: 0)) ?? .suspect
      let shown = rows.text(at: 2)
      // Marked in the original text; suspects whole, alibis and notes cut around the match.
      let text =
        SearchText(shown).marked(
          rows.text(at: 3), open: marks.open, close: marks.close,
          window: kind == .suspect ? nil : 12) ?? shown
      hits.append(
        SearchHit(
          rank: hits.count + 1, kind: kind, id: rows.int64(at: 1),
          subject: rows.optionalText(at: 5) ?? "suspect #\(rows.int64(at: 1))",
          text: text, relevance: rows.double(at: 4)))
    }
    return hits
  }

  /// The records `search_queue` names (changed by any client since inspector's last write),
  /// each once, those whose id lies beyond ±2^60 left out (they are never indexed).
  private func queuedSearchRecords() throws -> [(kind: SearchHit.Kind, ref: Int64)] {
    try searchQueue()?.filter { Self.indexedRefs.contains($0.ref) } ?? []
  }

  /// The ids the search index holds: an index rowid is `ref * 4` plus the kind
  /// (``searchRowID(_:_:)``), so a `ref` beyond ±2^60 is never indexed.
  private static let indexedRefs: ClosedRange<Int64> = -(1 << 60)...(1 << 60)

  /// The records `search_queue` names, of a known kind, or `nil` when the queue is empty (one
  /// probe of it).
  private func searchQueue() throws -> [(kind: SearchHit.Kind, ref: Int64)]? {
    let probe = try statement("SELECT EXISTS (SELECT 1 FROM search_queue)")
    guard try probe.step(), probe.int64(at: 0) == 1 else { return nil }
    var queued: [(kind: SearchHit.Kind, ref: Int64)] = []
    let rows = try statement("SELECT kind, ref FROM search_queue")
    while try rows.step() {
      guard let kind = SearchHit.Kind(rawValue: rows.text(at: 0)) else { continue }
      queued.append((kind, rows.int64(at: 1)))
    }
    return queued
  }

  /// Runs `body` with `temp.search_recent`, an FTS5 index of this connection's own `temp`
  /// database (never the case file) holding the current text of the `queued` records, folded
  /// as `search_index` holds it, under the same rowids; drops it afterwards.
  private func withRecentRecordsIndex<T>(
    _ queued: [(kind: SearchHit.Kind, ref: Int64)], _ body: () throws -> T
  ) throws -> T {
    try writingTemp {
      try connection.execute("DROP TABLE IF EXISTS temp.search_recent")
      try connection.execute(
        """
        CREATE VIRTUAL TABLE temp.search_recent USING fts5 (
          kind UNINDEXED, ref UNINDEXED, shown UNINDEXED, text,
          tokenize = 'unicode61 remove_diacritics 2')
        """)
      let insert = try connection.prepare(
        "INSERT INTO temp.search_recent (rowid, kind, ref, shown, text) VALUES (?, ?, ?, ?, ?)")
      for (kind, ref) in queued {
        guard let shown = try searchedText(kind, ref) else { continue }
        try insert.run([
          Self.searchRowID(kind, ref), kind.rawValue, ref, shown, SearchText.folded(shown),
        ])
      }
    }
    defer { try? writingTemp { try connection.execute("DROP TABLE IF EXISTS temp.search_recent") } }
    return try body()
  }

  /// Runs `body`, which writes only to this connection's private `temp` database, with
  /// `PRAGMA query_only` off: a read unit on a writable connection turns it on
  /// (``read(_:)``), and SQLite's `query_only` refuses `temp` tables too. It is on again
  /// afterwards, so the reads around `body` still cannot write the case file.
  private func writingTemp(_ body: () throws -> Void) throws {
    guard try connection.scalar("PRAGMA query_only")?.integerValue == 1 else { return try body() }
    try connection.execute("PRAGMA query_only = 0")
    defer { try? connection.execute("PRAGMA query_only = 1") }
    try body()
  }

  /// The index's rowid of a record: `ref * 4` plus 1 (suspect), 2 (alibi) or 3 (incident).
  static func searchRowID(_ kind: SearchHit.Kind, _ ref: Int64) -> Int64 {
    ref * 4 + (kind == .suspect ? 1 : kind == .alibi ? 2 : 3)
  }

  /// The FTS5 query for words a person typed: each whitespace-separated word with a letter or
  /// digit in it, folded as the index is (`SearchText`) and quoted (inner quotes doubled), all
  /// required; `nil` when there is no such word.
  static func searchQuery(_ text: String) -> String? {
    let words = text.split(whereSeparator: \.isWhitespace).filter { word in
      word.contains { $0.isLetter || $0.isNumber }
    }
    guard !words.isEmpty else { return nil }
    return words.map { word in
      SearchText.quoted(SearchText.folded(String(word)), closed: true)
    }.joined(separator: " ")
  }

  /// The text a record puts in the index: a suspect's name and species, a suspect's alibi (not
  /// blank) or an incident's notes (not empty); `nil` when the record is gone or has none.
  private func searchedText(_ kind: SearchHit.Kind, _ ref: Int64) throws -> String? {
    let sql =
      switch kind {
      case .suspect: "SELECT name || ' ' || species FROM animals WHERE id = ?"
      case .alibi: "SELECT statement FROM alibis WHERE animal_id = ? AND statement <> ''"
      case .incident: "SELECT notes FROM incidents WHERE id = ? AND notes <> ''"
      }
    let row = try statement(sql)
    try row.bind([ref])
    guard try row.step() else { return nil }
    return row.optionalText(at: 0)
  }
}
