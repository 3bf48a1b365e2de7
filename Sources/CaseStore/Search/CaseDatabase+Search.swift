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
  /// matching word between the two marks given to ``CaseDatabase/search(_:raw:limit:marks:)``.
  public let text: String
  /// FTS5's `bm25()` relevance, negated: higher is more relevant.
  public let relevance: Double
}

extension CaseDatabase {
  /// How many changed records wait in `search_queue` to be indexed (writes since the last
  /// ``refreshSearchIndex()``, by any client).
  ///
  /// - Throws: `SQLiteError` when the database cannot be read.
  public func pendingSearchChanges() throws -> Int {
    Int(try connection.scalar("SELECT count(*) FROM search_queue")?.integerValue ?? 0)
  }

  /// Brings the search index up to date with the records `search_queue` names, in one
  /// transaction, and empties the queue (migration 0008).
  ///
  /// - Returns: How many records were re-indexed.
  /// - Throws: `SQLiteError` when the database cannot be written (read-only file, busy).
  @discardableResult
  public func refreshSearchIndex() throws -> Int {
    try write {
      let pending = try pendingSearchChanges()
      guard pending > 0 else { return 0 }
      let bound = "BETWEEN -1152921504606846976 AND 1152921504606846976"
      try connection.execute(
        """
        DELETE FROM search_index WHERE rowid IN (
          SELECT ref * 4 + CASE kind WHEN 'suspect' THEN 1 WHEN 'alibi' THEN 2 ELSE 3 END
          FROM search_queue WHERE ref \(bound));
        INSERT INTO search_index (rowid, kind, ref, text)
          SELECT id * 4 + 1, 'suspect', id, name || ' ' || species FROM animals
          WHERE id IN (SELECT ref FROM search_queue WHERE kind = 'suspect' AND ref \(bound));
        INSERT INTO search_index (rowid, kind, ref, text)
          SELECT animal_id * 4 + 2, 'alibi', animal_id, statement FROM alibis
          WHERE statement <> ''
            AND animal_id IN (SELECT ref FROM search_queue WHERE kind = 'alibi' AND ref \(bound));
        INSERT INTO search_index (rowid, kind, ref, text)
          SELECT id * 4 + 3, 'incident', id, notes FROM incidents
          WHERE notes <> ''
            AND id IN (SELECT ref FROM search_queue WHERE kind = 'incident' AND ref \(bound));
        DELETE FROM search_queue;
        """)
      return pending
    }
  }

  /// The records matching `text`, most relevant first (FTS5's `bm25`).
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
  public func search(
    _ text: String, raw: Bool, limit: Int, marks: (open: String, close: String)
  ) throws -> [SearchHit] {
    guard let query = raw ? text : Self.searchQuery(text) else {
      throw CaseError.invalidValue(
        field: "search text", value: text, expected: "at least one word (letters or digits)")
    }
    let rows = try connection.prepare(
      """
      SELECT s.kind, s.ref,
        CASE s.kind WHEN 'suspect' THEN highlight(search_index, 2, ?2, ?3)
          ELSE snippet(search_index, 2, ?2, ?3, '…', 12) END AS text,
        -bm25(search_index) AS relevance,
        CASE s.kind WHEN 'incident' THEN 'incident #' || s.ref
          ELSE (SELECT a.name || ' the ' || a.species FROM animals a WHERE a.id = s.ref) END
          AS subject
      FROM search_index s WHERE search_index MATCH ?1
      ORDER BY bm25(search_index), s.rowid LIMIT ?4
      """)
    try rows.bind([query, marks.open, marks.close, Int64(limit)])
    var hits: [SearchHit] = []
    do {
      while try rows.step() {
        hits.append(
          SearchHit(
            rank: hits.count + 1, kind: SearchHit.Kind(rawValue: rows.text(at: 0)) ?? .suspect,
            id: rows.int64(at: 1),
            subject: rows.optionalText(at: 4) ?? "suspect #\(rows.int64(at: 1))",
            text: rows.text(at: 2), relevance: rows.double(at: 3)))
      }
    } catch let error as SQLiteError where raw && error.code == .error {
      throw CaseError.invalidValue(
        field: "FTS5 query", value: text, expected: "FTS5 query syntax (\(error.message))")
    }
    return hits
  }

  /// The FTS5 query for words a person typed: each whitespace-separated word with a letter or
  /// digit in it, as a quoted string (inner quotes doubled), all required; `nil` when there is
  /// no such word.
  static func searchQuery(_ text: String) -> String? {
    let words = text.split(whereSeparator: \.isWhitespace).filter { word in
      word.contains { $0.isLetter || $0.isNumber }
    }
    guard !words.isEmpty else { return nil }
    return words.map { word in
      "\"" + String(word.flatMap { $0 == "\"" ? ["\"", "\""] : [$0] }) + "\""
    }.joined(separator: " ")
  }
}
