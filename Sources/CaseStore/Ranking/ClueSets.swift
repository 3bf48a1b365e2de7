import SQLiteKit

/// Which suspects each of an incident's clues points at, as bitsets over the suspects' ids, read
/// in one pass over each clue's table or index (docs/ranking.md "The top-k plan").
///
/// From them every suspect's score is a few bit operations, and the number of suspects with
/// each score is counted a machine word (64 ids) at a time, so the ranking knows, before it
/// reads a suspect in rank order, which scores the top `limit` will have and how many suspects
/// of each it needs.
struct ClueSets {
  /// The largest id range (highest id - lowest id + 1) the sets are built for: 2^26 ids, 8 MiB
  /// per set. Beyond it the ranking walks every suspect instead.
  static let maximumSpan: Int64 = 1 << 26

  /// The clues checked, in ``Clue`` order (the paw clue only with a paw print).
  let checked: [Clue]
  /// Every suspect.
  private let suspects: IDBitset
  /// The suspects whose paw size is the incident's (empty without a paw clue).
  private let pawMatches: IDBitset
  /// The suspects who favour the incident's fruit.
  private let favourers: IDBitset
  /// The suspects with an alibi that is not empty or only white space.
  private let stated: IDBitset
  /// The suspects asleep at the incident's clock time.
  private let asleep: IDBitset

  /// Reads the sets for `incident`, or returns `nil` when there are no suspects or their ids
  /// span more than ``maximumSpan`` values.
  ///
  /// Reads `animals` through the index `animals_paw_size`, the incident fruit's rows of
  /// `favorite_fruits` through `favorite_fruits_fruit`, the stated alibis through the partial
  /// index `alibis_stated`, and then the chunks of `asleepPass` that no other connection has
  /// taken (every row of `sleep_schedules` when none is).
  ///
  /// - Parameters:
  ///   - database: The case file, read in the caller's snapshot.
  ///   - incident: The incident whose clues are checked.
  ///   - asleepPass: The pass over `sleep_schedules` at the incident's clock time, shared with
  ///     the connection that runs ``AsleepPass/partnerShare(on:)``; a new one by default.
  ///   - partnerShare: Called once this connection has no chunk left: the set that the other
  ///     connection read from the same snapshot, or `nil` when there is none to use. When it is
  ///     `nil` (or covers other ids), the chunks this connection did not read are read here.
  /// - Throws: `SQLiteError` when the database cannot be read, `RowDecodingError` for an id that
  ///   is not an integer.
  init?(
    database: CaseDatabase, incident: Incident,
    asleepPass: AsleepPass? = nil, partnerShare: () -> IDBitset? = { nil }
  ) throws {
    guard let (low, span) = try Self.idRange(on: database.connection) else { return nil }
    func read(_ sql: String, _ parameters: [any SQLiteBindable]) throws -> IDBitset {
      var set = IDBitset(base: low, span: span)
      try set.insert(selectedBy: sql, parameters, on: database.connection)
      return set
    }
    checked = Clue.allCases.filter { $0 != .pawSize || incident.pawSize != nil }
    // Ids without gaps (the usual case) need no pass over the suspects.
    suspects =
      try database.connection.scalar("SELECT count(*) FROM animals")?.integerValue
      == Int64(span)
      ? IDBitset(base: low, filled: span) : try read("SELECT id FROM animals", [])
    pawMatches =
      try incident.pawSize.map { try read(Self.pawMatchesSQL, [$0.rawValue]) }
      ?? IDBitset(base: low, span: span)
    favourers = try read(Self.favourersSQL, [incident.fruitID])
    // Named, since after ANALYZE the planner may prefer trimming every alibi; without the
    // index (dropped by another client) the same set is read from the table.
    stated = try (try? read(Self.statedAlibisSQL, [])) ?? read(Self.statedAlibisScanSQL, [])
    let pass = asleepPass ?? AsleepPass(time: incident.occurredAt.time.description)
    var asleep = IDBitset(base: low, span: span)
    let mine = try pass.readChunksLeft(on: database.connection, into: &asleep)
    if let theirs = partnerShare(), theirs.base == low, theirs.span == span {
      asleep.formUnion(theirs)
    } else {
      for chunk in 0..<AsleepPass.chunkCount where !mine.contains(chunk) {
        try pass.read(chunk: chunk, on: database.connection, into: &asleep)
      }
    }
    self.asleep = asleep
  }

  /// The lowest suspect id and the number of ids from it to the highest, read on `connection`
  /// (two look-ups in the rowid B-tree); `nil` when there are no suspects or the ids span more
  /// than ``maximumSpan`` values. Ids are any 64-bit integers (negative ones too): the span is
  /// computed without overflow.
  ///
  /// - Throws: `SQLiteError` when the database cannot be read.
  static func idRange(on connection: Connection) throws -> (low: Int64, span: Int)? {
    let range = try connection.cachedStatement(
      "SELECT (SELECT min(id) FROM animals), (SELECT max(id) FROM animals)")
    guard try range.step(), !range.isNull(at: 0), !range.isNull(at: 1) else { return nil }
    let (low, high) = (range.int64(at: 0), range.int64(at: 1))
    let (difference, overflow) = high.subtractingReportingOverflow(low)
    guard !overflow, difference < maximumSpan else { return nil }
    return (low, Int(difference + 1))
  }

  /// The suspects with the paw size `?`, through the index `animals_paw_size`.
  static let pawMatchesSQL = "SELECT id FROM animals WHERE paw_size = ?"

  /// The suspects who favour the fruit `?`, through the index `favorite_fruits_fruit`.
  static let favourersSQL = "SELECT animal_id FROM favorite_fruits WHERE fruit_id = ?"

  /// The condition on a row of `sleep_schedules` that its suspect is asleep at the clock time
  /// `?1` (`HH:MM`): sleep <= t < wake when sleep < wake, t >= sleep or t < wake when sleep >
  /// wake, never when they are equal.
  ///
  /// Written as comparisons SQLite can stop early (two for most rows, three at most), not as
  /// values to add up: when t < wake, asleep means sleep <= t (a daytime sleep) or sleep > wake
  /// (a night's sleep, not over yet); when t >= wake, it means wake < sleep <= t (a night's
  /// sleep that has begun), and that second case cannot hold when t < wake. Equal times match
  /// neither. A whole pass costs about two thirds of the added-up form's.
  static let asleepCondition = """
    (?1 < wake_at AND (sleep_at <= ?1 OR sleep_at > wake_at))
      OR (sleep_at <= ?1 AND sleep_at > wake_at)
    """

  /// The suspects with a stated alibi, in the words of the partial index `alibis_stated`
  /// (migration 0006), which it names, so that SQLite reads that index alone: `trim()` with the
  /// characters of ``Suspect/alibiWhitespace`` written as `char()` codes.
  static let statedAlibisSQL = statedAlibis(from: "alibis INDEXED BY alibis_stated")

  /// ``statedAlibisSQL`` without the index, for a file whose index another client dropped.
  static let statedAlibisScanSQL = statedAlibis(from: "alibis")

  /// `SELECT animal_id FROM <source> WHERE trim(statement, char(...)) <> ''`.
  private static func statedAlibis(from source: String) -> String {
    let codes = Suspect.alibiWhitespace.unicodeScalars.map { String($0.value) }
    return "SELECT animal_id FROM \(source) WHERE trim(statement, char("
      + codes.joined(separator: ", ") + ")) <> ''"
  }

  // MARK: - Scores

  /// How many clues are checked: the best score.
  var best: Int { checked.count }

  /// The verdicts of the suspect `id` on each checked clue, in ``Clue`` order.
  func verdicts(_ id: Int64) -> [ClueVerdict] {
    checked.map { clue in
      let matched =
        switch clue {
        case .pawSize: pawMatches.contains(id)
        case .favoriteFruit: favourers.contains(id)
        case .noAlibi: !stated.contains(id)
        case .awake: !asleep.contains(id)
        }
      return ClueVerdict(clue: clue, matched: matched)
    }
  }

  /// The score of the suspect `id`: how many checked clues it matches.
  func score(_ id: Int64) -> Int { verdicts(id).filter(\.matched).count }

  /// `counts[s]`: how many suspects match exactly `s` clues, for `s` in `0...best`.
  func scoreCounts() -> [Int] {
    var counts = [Int](repeating: 0, count: best + 1)
    for index in suspects.words.indices {
      let slices = scoreSlices(index)
      for score in 0...best { counts[score] += mask(slices, score: score).nonzeroBitCount }
    }
    return counts
  }

  /// The suspects whose score is in `scores`, in id order.
  func ids(scoring scores: ClosedRange<Int>) -> [Int64] {
    var ids: [Int64] = []
    for index in suspects.words.indices {
      let slices = scoreSlices(index)
      var word: UInt64 = 0
      for score in scores { word |= mask(slices, score: score) }
      if word != 0 { ids += suspects.ids(in: word, at: index) }
    }
    return ids
  }

  /// The suspects of word `index` and their scores as a 3-bit binary number per id (`low`,
  /// `middle`, `high`): each matching clue's bits are added with carries, so no id is visited.
  private func scoreSlices(_ index: Int) -> (
    suspects: UInt64, low: UInt64, middle: UInt64, high: UInt64
  ) {
    let present = suspects.words[index]
    var (low, middle, high): (UInt64, UInt64, UInt64) = (0, 0, 0)
    for clue in checked {
      let matches =
        switch clue {
        case .pawSize: pawMatches.words[index]
        case .favoriteFruit: favourers.words[index]
        case .noAlibi: ~stated.words[index]
        case .awake: ~asleep.words[index]
        }
      let carry = low & matches & present
      low ^= matches & present
      high |= middle & carry
      middle ^= carry
    }
    return (present, low, middle, high)
  }

  /// The suspects among `slices` whose score is `score` (0 to 7).
  private func mask(
    _ slices: (suspects: UInt64, low: UInt64, middle: UInt64, high: UInt64), score: Int
  ) -> UInt64 {
    slices.suspects & (score & 1 != 0 ? slices.low : ~slices.low)
      & (score & 2 != 0 ? slices.middle : ~slices.middle)
      & (score & 4 != 0 ? slices.high : ~slices.high)
  }
}
