import SQLiteKit

extension CaseHistory {
  /// One field of a record as `inspector blame` shows it (docs/history.md "Blame"): its value
  /// now and the change set that last set it.
  public struct BlamedField: Sendable, Equatable {
    /// Where the value comes from.
    public enum Source: String, Sendable, Equatable {
      /// A recorded change set set it, and the live value is the one the history holds.
      case history
      /// The row is not there and the history never held it: the value is the field's
      /// default (no alibi, no sleep schedule, suspicion level 0).
      case `default`
      /// The live value is not the one the history holds (or the history holds no row where
      /// there is one): it was written around the history's triggers.
      case unrecorded
    }

    /// The field's name, as the record's JSON names it: `name`, `species`, `paw_size`,
    /// `emoji`, `favorite_fruits[N]` and `favorite_fruits[N].position` (N counting from 1),
    /// `alibi`, `sleep_schedule.sleep`, `sleep_schedule.wake`, `suspicion_level`; a fruit's
    /// `name`, `color`; an incident's `fruit`, `occurred_at`, `paw_size`, `latitude`,
    /// `longitude`, `notes`.
    public let field: String
    /// The value now, as stored (a favourite's fruit by its name, `null` when the fruit row is
    /// gone; a favourite's position as people count it, from 1; the default where the row is
    /// not there: `""` alibi, `null` sleep times, `0.0` suspicion level).
    public let value: AdHocValue
    /// Where the value comes from.
    public let source: Source
    /// The change set that last set the field (``Source/history`` only; a removed row's
    /// fields are set by the change set that removed it).
    public let changeSet: ChangeSet?
  }

  /// Each field of suspect `id` now, with the change set that last set it: identity (`name`,
  /// `species`, `paw_size`, `emoji`), each favourite in order (its fruit, set when it became a
  /// favourite, and its position, set when it was last added or moved), the interview
  /// (`alibi`, `sleep_schedule.sleep`, `sleep_schedule.wake`, `suspicion_level`). Writes
  /// nothing.
  ///
  /// - Throws: ``CaseError/unknownSuspect(_:)`` when there is no such suspect;
  ///   ``CaseError/historyDisagrees(_:)`` for a history changed by hand; `SQLiteError`.
  public func blame(suspect id: Int64) throws -> [BlamedField] {
    let animal: [String: SQLiteValue] = ["id": .integer(id)]
    guard let animals = RecordedTable.named("animals"),
      try liveRow(animals, key: animal) != nil
    else { throw CaseError.unknownSuspect("id:\(id)") }
    var fields = try blame(
      animals, key: animal,
      [
        ("name", "name", nil), ("species", "species", nil), ("paw_size", "paw_size", nil),
        ("emoji", "emoji", nil),
      ])
    if let favorites = RecordedTable.named("favorite_fruits") {
      let rows = try database.statement(
        """
        SELECT ff.fruit_id, f.name FROM favorite_fruits ff LEFT JOIN fruits f ON f.id = ff.fruit_id
        WHERE ff.animal_id = ? ORDER BY ff.position, ff.fruit_id
        """)
      try rows.bind([id])
      var found: [(fruit: Int64, name: SQLiteValue)] = []
      while let row = try rows.nextRow() {
        found.append((try row.int64("fruit_id"), try row.value("name")))
      }
      for (index, favorite) in found.enumerated() {
        let field = "favorite_fruits[\(index + 1)]"
        fields += try blame(
          favorites, key: ["animal_id": .integer(id), "fruit_id": .integer(favorite.fruit)],
          [
            (field, "fruit_id", favorite.name),
            (field + ".position", "position", .integer(Int64(index + 1))),
          ])
      }
    }
    let interview: [(table: String, fields: [BlameSpec])] = [
      ("alibis", [("alibi", "statement", nil)]),
      (
        "sleep_schedules",
        [("sleep_schedule.sleep", "sleep_at", nil), ("sleep_schedule.wake", "wake_at", nil)]
      ),
      ("suspicion_levels", [("suspicion_level", "level", nil)]),
    ]
    let defaults: [String: SQLiteValue] = ["statement": .text(""), "level": .real(0)]
    for part in interview {
      guard let table = RecordedTable.named(part.table) else { continue }
      fields += try blame(
        table, key: ["animal_id": .integer(id)], part.fields, defaults: defaults)
    }
    return fields
  }

  /// Each field of fruit `id` now (`name`, `color`), with the change set that last set it.
  /// Writes nothing.
  ///
  /// - Throws: ``CaseError/unknownFruit(_:)`` when there is no such fruit;
  ///   ``CaseError/historyDisagrees(_:)`` for a history changed by hand; `SQLiteError`.
  public func blame(fruit id: Int64) throws -> [BlamedField] {
    let key: [String: SQLiteValue] = ["id": .integer(id)]
    guard let fruits = RecordedTable.named("fruits"), try liveRow(fruits, key: key) != nil
    else { throw CaseError.unknownFruit("id:\(id)") }
    return try blame(fruits, key: key, [("name", "name", nil), ("color", "color", nil)])
  }

  /// Each recorded field of incident `id` now (`fruit`, by its name; `occurred_at`,
  /// `paw_size`, `latitude`, `longitude`, `notes`), with the change set that last set it.
  /// Writes nothing.
  ///
  /// - Throws: ``CaseError/unknownIncident(_:)`` when there is no such incident;
  ///   ``CaseError/historyDisagrees(_:)`` for a history changed by hand; `SQLiteError`.
  public func blame(incident id: Int64) throws -> [BlamedField] {
    let key: [String: SQLiteValue] = ["id": .integer(id)]
    guard let incidents = RecordedTable.named("incidents"),
      let live = try liveRow(incidents, key: key)
    else { throw CaseError.unknownIncident("\(id)") }
    let fruit =
      try database.connection.scalar(
        "SELECT name FROM fruits WHERE id = ?", [live["fruit_id"] ?? .null]) ?? .null
    return try blame(
      incidents, key: key,
      [
        ("fruit", "fruit_id", fruit), ("occurred_at", "occurred_at", nil),
        ("paw_size", "paw_size", nil), ("latitude", "latitude", nil),
        ("longitude", "longitude", nil), ("notes", "notes", nil),
      ])
  }

  /// A field of a row to blame: its name, the recorded column it shows and the value to show
  /// (`nil`: the column's live value).
  private typealias BlameSpec = (name: String, column: String, shown: SQLiteValue?)

  /// The fields of one row: for each, its name, the recorded column it shows and the value to
  /// show (`nil`: the column's live value, else its value in `defaults`, else NULL).
  private func blame(
    _ table: RecordedTable, key: [String: SQLiteValue],
    _ fields: [BlameSpec],
    defaults: [String: SQLiteValue] = [:]
  ) throws -> [BlamedField] {
    let live = try liveRow(table, key: key)
    let recorded = try recordedRow(table, key: key)
    let setters = try lastSetters(of: table, key: key)
    return fields.map { field in
      let value = field.shown ?? live?[field.column] ?? defaults[field.column] ?? .null
      let source: BlamedField.Source
      switch (live, recorded) {
      case (nil, nil):
        source = setters[field.column] == nil ? .default : .history
      case (let live?, let recorded?)
      where (live[field.column] ?? .null) == (recorded[field.column] ?? .null)
        && setters[field.column] != nil:
        source = .history
      default:
        source = .unrecorded
      }
      return BlamedField(
        field: field.name, value: AdHocValue(value), source: source,
        changeSet: source == .history ? setters[field.column] : nil)
    }
  }
}
