import SQLiteKit

extension SuspectRepository {
  /// One page of the suspects `filter` selects, in its order, starting after `position`
  /// (keyset paging, docs/web-desk.md "API"), with the position of its last suspect when more
  /// may follow.
  ///
  /// The query is ``forEachPage(matching:size:_:)``'s with one more condition, the order's key
  /// columns compared with the position's values (`(a.name_key, a.id) > (?, ?)`), so SQLite
  /// seeks the order's index to the position instead of stepping over every earlier suspect:
  /// page 20,000 costs what page 1 costs. The filter's `offset` is ignored; its `limit` (or
  /// 50) is the page size.
  ///
  /// - Parameters:
  ///   - filter: The conditions and order; `limit` is the page size.
  ///   - position: Where the previous page ended (its order must be the filter's), or `nil`
  ///     for the first page.
  /// - Returns: The page, and where it ended when it is full (`nil` when it is the last).
  /// - Throws: ``CaseError/invalidValue(field:value:expected:)`` for a position of another
  ///   order; what ``forEachPage(matching:size:_:)`` throws.
  public func page(matching filter: SuspectFilter, after position: SuspectPosition?) throws
    -> (suspects: [Suspect], next: SuspectPosition?)
  {
    let cursor = try pageCursor(matching: filter, after: position)
    var suspects: [Suspect] = []
    while true {
      let batch = try cursor.next(upTo: cursor.size)
      if batch.isEmpty { break }
      suspects += batch
    }
    return (suspects, cursor.next)
  }

  /// The page ``page(matching:after:)`` reads, read a few suspects at a time
  /// (``SuspectPageCursor/next(upTo:)``), so that a response can be sent while it is read
  /// (the desk's `/api/suspects`, docs/web-desk.md "API"). The same suspects in the same
  /// order, with the same ``SuspectPageCursor/next``, as the page read whole.
  ///
  /// The cursor reads on this unit of work's connection: use it only inside the unit of work
  /// it was made in.
  ///
  /// - Parameters:
  ///   - filter: The conditions and order; `limit` is the page size (50 when `nil`).
  ///   - position: Where the previous page ended, or `nil` for the first page.
  /// - Throws: ``CaseError/invalidValue(field:value:expected:)`` for a position of another
  ///   order; ``CaseError/unknownFruit(_:)`` (or what finding a fruit throws) for
  ///   a `favorite` no fruit has; `SQLiteError` when the database cannot be read.
  public func pageCursor(matching filter: SuspectFilter, after position: SuspectPosition?) throws
    -> SuspectPageCursor<Kind>
  {
    if let position, position.sort != filter.sort || position.reverse != filter.reverse {
      throw CaseError.invalidValue(
        field: "after", value: position.cursor,
        expected: "a cursor of the same sort and order")
    }
    var filter = filter
    filter.limit = max(filter.limit ?? 50, 1)
    filter.offset = 0
    let fruitID = try filter.favorite.map { try database.unit.fruits.find($0).id }
    let unvouchedIDs = try filter.species.map { species in
      let key = NameKey.caseKey(species.trimmingSpaces())
      return try unvouchedRows().filter { NameKey.caseKey($0.species) == key }.map(\.id)
    }
    return SuspectPageCursor(
      repository: self, filter: filter, favoriteFruitID: fruitID,
      unvouchedSpeciesIDs: unvouchedIDs ?? [],
      // The level order after a position is two index ranges, read one after the other; the
      // fruits order is two parts (with favourites, without), each read in its index order.
      arms: position.map { Self.keysetArms(after: $0) } ?? Self.firstArms(of: filter))
  }

  /// The order's key columns a keyset page selects besides ``SuspectRow/columns``.
  static var keyColumns: String {
    "a.suspicion_level AS key_level, a.name_key AS key_name, a.species_key AS key_species"
  }

  /// The queries of a first page, read one after the other: one, or the fruits order's two
  /// parts (suspects with favourites, then without; reversed, without first).
  static func firstArms(of filter: SuspectFilter) -> [KeysetArm] {
    guard filter.sort == .fruits else { return [KeysetArm(part: .favourites, condition: nil)] }
    let parts: [ListingPart] =
      filter.reverse ? [.withoutFavourites, .favourites] : [.favourites, .withoutFavourites]
    return parts.map { KeysetArm(part: $0, condition: nil) }
  }

  /// The queries of the page after `position`, read one after the other
  /// (``keysetConditions(after:)`` each in its part of the order).
  ///
  /// In the fruits order the suspects after a position are the rest of its fruit
  /// (`fr.id = ? AND ff.animal_id > ?`, a seek of `favorite_fruits_fruit`), the later fruits
  /// (`(fr.name_key, fr.id) > (?, ?)`, a seek of the fruits' name index) and then every
  /// suspect without favourites; after a suspect without favourites, the rest of those
  /// (`a.id > ?`). Reversed, each comparison turns round and the parts change places.
  static func keysetArms(after position: SuspectPosition) -> [KeysetArm] {
    guard position.sort == .fruits else {
      return keysetConditions(after: position).map { KeysetArm(part: .favourites, condition: $0) }
    }
    let later = position.reverse ? "<" : ">"
    guard let fruitID = position.fruitID else {
      let rest = KeysetArm(part: .withoutFavourites, condition: ("a.id \(later) ?", [position.id]))
      return position.reverse ? [rest, KeysetArm(part: .favourites, condition: nil)] : [rest]
    }
    var arms = [
      KeysetArm(
        part: .favourites,
        condition: ("fr.id = ? AND ff.animal_id \(later) ?", [fruitID, position.id])),
      KeysetArm(
        part: .favourites,
        condition: (
          "(fr.name_key, fr.id) \(later) (?, ?)", [position.fruitKey ?? "", fruitID]
        )),
    ]
    if !position.reverse { arms.append(KeysetArm(part: .withoutFavourites, condition: nil)) }
    return arms
  }

  /// The conditions that keep the suspects after `position` in its order (the orders of
  /// ``listingQuery(_:favoriteFruitID:unvouchedSpeciesIDs:keyset:after:)``), each with its
  /// values: the suspects after it are those of the first, then those of the second.
  ///
  /// The level order mixes directions (level descending, then name, species and id
  /// ascending), which one row-value comparison cannot say, and an `OR` of two ranges would
  /// make SQLite walk the index from its start (or sort): so it is two conditions, the rest of
  /// the position's level (`level = ? AND (name_key, species_key, id) > (?, ?, ?)`) and the
  /// levels after it (`level < ?`), each one seek of `animals_rank_order`.
  static func keysetConditions(after position: SuspectPosition) -> [(
    sql: String, parameters: [any SQLiteBindable]
  )] {
    let later = position.reverse ? "<" : ">"
    let earlier = position.reverse ? ">" : "<"
    switch position.sort {
    case .id:
      return [("a.id \(later) ?", [position.id])]
    case .fruits:
      // Only the conditions; ``keysetArms(after:)`` places them in the order's parts.
      return keysetArms(after: position).compactMap(\.condition)
    case .species:
      return [("a.species_key \(later) ?", [position.speciesKey])]
    case .name:
      return [("(a.name_key, a.id) \(later) (?, ?)", [position.nameKey, position.id])]
    case .level:
      return [
        (
          "a.suspicion_level = ? AND (a.name_key, a.species_key, a.id) \(later) (?, ?, ?)",
          [position.level, position.nameKey, position.speciesKey, position.id]
        ),
        ("a.suspicion_level \(earlier) ?", [position.level]),
      ]
    }
  }
}

/// One page of suspects read a few at a time (``SuspectRepository/pageCursor(matching:after:)``):
/// each ``next(upTo:)`` steps the page's query on and reads the favourites of the suspects it
/// returns; ``next`` is where the page ended once it is read whole. Valid only inside the unit
/// of work it was made in; not for use from several threads.
public final class SuspectPageCursor<Kind: UnitOfWorkKind> {
  // MARK: - Properties

  /// The page size: how many suspects the page holds at most.
  public var size: Int { filter.limit ?? 50 }
  /// How many suspects were read so far.
  public private(set) var count = 0
  /// Whether the page is read whole: the next ``next(upTo:)`` returns no suspect.
  public var isFinished: Bool { finished }
  /// Where the page ended, when it was read whole and is full (more may follow); `nil` before
  /// that and for a last page.
  public var next: SuspectPosition? {
    finished && count == size ? last : nil
  }

  private let repository: SuspectRepository<Kind>
  private let filter: SuspectFilter
  private let favoriteFruitID: Int64?
  private let unvouchedSpeciesIDs: [Int64]
  private var arms: ArraySlice<KeysetArm>
  private var rows: (statement: Statement, columns: SuspectRow)?
  private var last: SuspectPosition?
  private var finished = false

  // MARK: - Init

  init(
    repository: SuspectRepository<Kind>, filter: SuspectFilter, favoriteFruitID: Int64?,
    unvouchedSpeciesIDs: [Int64], arms: [KeysetArm]
  ) {
    self.repository = repository
    self.filter = filter
    self.favoriteFruitID = favoriteFruitID
    self.unvouchedSpeciesIDs = unvouchedSpeciesIDs
    self.arms = arms[...]
  }

  // MARK: - Reading

  /// The next suspects of the page, at most `limit` (1 or more) of them, with their
  /// favourites; empty once the page is read whole.
  ///
  /// - Throws: `SQLiteError` when the database cannot be read; a broken stored value as
  ///   ``SuspectRepository/page(matching:after:)`` throws it.
  public func next(upTo limit: Int) throws -> [Suspect] {
    var suspects: [Suspect] = []
    let wanted = max(limit, 1)
    while !finished, suspects.count < wanted {
      guard let (statement, columns) = try currentRows() else {
        finished = true
        break
      }
      guard let row = try statement.nextRow() else {
        rows = nil
        continue
      }
      let suspect = try columns.suspect(from: row, favorites: [])
      suspects.append(suspect)
      count += 1
      last = SuspectPosition(
        sort: filter.sort, reverse: filter.reverse, level: try row.double("key_level"),
        nameKey: try row.optionalText("key_name") ?? "",
        speciesKey: try row.optionalText("key_species") ?? "", id: suspect.id,
        fruitKey: filter.sort == .fruits ? try row.optionalText("key_fruit") : nil,
        fruitID: filter.sort == .fruits ? try row.optionalInt64("key_fruit_id") : nil)
      if count == size {
        // The page is full: the statement is left, as the page read whole left it.
        rows = nil
        finished = true
      }
    }
    guard !suspects.isEmpty else { return [] }
    let favorites = try repository.favoriteNames(of: suspects.map(\.id))
    for index in suspects.indices { suspects[index].setFavorites(favorites[suspects[index].id]) }
    return suspects
  }

  // MARK: - Private helpers

  /// The statement of the arm being read, prepared for the suspects still wanted; `nil` when
  /// every arm is read.
  private func currentRows() throws -> (Statement, SuspectRow)? {
    if let rows { return rows }
    guard let arm = arms.popFirst() else { return nil }
    var filter = filter
    filter.limit = size - count
    let query = SuspectRepository<Kind>.listingQuery(
      filter, favoriteFruitID: favoriteFruitID, unvouchedSpeciesIDs: unvouchedSpeciesIDs,
      keyset: true, after: arm.condition, part: arm.part)
    let statement = try repository.database.statement(query.sql)
    try statement.bind(query.parameters)
    let made = (statement, try SuspectRow(statement))
    rows = made
    return made
  }
}

/// One query of a keyset page: which part of the order it reads (``ListingPart``, only the
/// fruits order has two) and the condition that keeps the suspects after the position, `nil`
/// for the part from its start.
struct KeysetArm {
  var part: ListingPart
  var condition: (sql: String, parameters: [any SQLiteBindable])?
}
