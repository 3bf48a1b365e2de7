import SQLiteKit

extension IncidentRepository where Kind == Writing {
  /// Changes the incident `reference` names; fields left `nil` in `edit` stay.
  ///
  /// The same rules as ``add(_:)``: the fruit must exist (matched ignoring case), notes are at
  /// most 100,000 characters without terminal control characters. The fruit is written only
  /// when `edit` names one, so an incident whose fruit row another client deleted can still
  /// have its other fields corrected. One transaction: nothing is stored when it throws.
  ///
  /// - Parameters:
  ///   - reference: The incident's id as typed (see ``find(_:)``).
  ///   - edit: The new values.
  /// - Returns: The incident as stored afterwards.
  /// - Throws: ``CaseError/unknownIncident(_:)``, ``CaseError/unknownFruit(_:)``,
  ///   ``CaseError/ambiguousFruit(_:candidates:)``,
  ///   ``CaseError/invalidValue(field:value:expected:)`` for bad notes, or `SQLiteError`.
  @discardableResult
  public func edit(_ reference: String, _ edit: IncidentEdit) throws -> Incident {
    if let notes = edit.notes { try Self.validate(notes: notes) }
    var incident = try find(reference)
    if let name = edit.fruit {
      let fruit = try database.unit.fruits.find(name)
      try database.statement("UPDATE incidents SET fruit_id = ? WHERE id = ?").run([
        fruit.id, incident.id,
      ])
    }
    incident.occurredAt = edit.occurredAt ?? incident.occurredAt
    if let pawSize = edit.pawSize { incident.pawSize = pawSize }
    if let location = edit.location { incident.location = location }
    incident.notes = edit.notes ?? incident.notes
    try database.statement(
      """
      UPDATE incidents SET occurred_at = ?, paw_size = ?, latitude = ?, longitude = ?, notes = ?
      WHERE id = ?
      """
    ).run([
      incident.occurredAt.description, incident.pawSize?.rawValue, incident.location?.latitude,
      incident.location?.longitude, incident.notes, incident.id,
    ])
    return try find(id: incident.id)
  }

  /// Deletes the incident `reference` names.
  ///
  /// - Parameter reference: The incident's id as typed (see ``find(_:)``).
  /// - Returns: The incident as it was.
  /// - Throws: ``CaseError/unknownIncident(_:)`` or `SQLiteError`.
  @discardableResult
  public func remove(_ reference: String) throws -> Incident {
    let incident = try find(reference)
    try database.statement("DELETE FROM incidents WHERE id = ?").run([incident.id])
    return incident
  }

  /// Refuses notes over 100,000 characters or with terminal control characters (tabs and line
  /// breaks are fine).
  static func validate(notes: String) throws {
    guard notes.unicodeScalars.count <= 100_000 else {
      throw CaseError.invalidValue(
        field: "notes", value: notes, expected: "at most 100,000 characters")
    }
    try TextRules.requirePrintable(notes, field: "notes", allowingLineBreaks: true)
  }
}
