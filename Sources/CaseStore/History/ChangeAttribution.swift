/// Who makes the changes of a transaction and why: the actor and note of the change set that
/// ``CaseDatabase/write(_:_:)`` opens for each unit of work it runs (docs/history.md).
public struct ChangeAttribution: Sendable, Equatable {
  /// Who: a person's or job's name (`--as NAME`, `$INSPECTOR_ACTOR` or the login name); 1 to
  /// 1,000 characters.
  public var actor: String
  /// Why: free text, or `nil` for none; at most 100,000 characters.
  public var note: String?

  /// An attribution.
  ///
  /// - Parameters:
  ///   - actor: Who makes the changes; must not be empty or only white space.
  ///   - note: Why, or `nil`.
  /// - Throws: ``CaseError/invalidValue(field:value:expected:)`` for an empty, blank or
  ///   over-long actor, an over-long note, or terminal control characters in either.
  public init(actor: String, note: String? = nil) throws {
    guard !actor.trimmingSpaces().isEmpty, actor.unicodeScalars.count <= 1000 else {
      throw CaseError.invalidValue(
        field: "actor", value: actor, expected: "a name of 1 to 1,000 characters, not blank")
    }
    try TextRules.requirePrintable(actor, field: "actor", allowingLineBreaks: false)
    if let note {
      guard note.unicodeScalars.count <= 100_000 else {
        throw CaseError.invalidValue(
          field: "note", value: note, expected: "at most 100,000 characters")
      }
      try TextRules.requirePrintable(note, field: "note", allowingLineBreaks: true)
    }
    self.actor = actor
    self.note = note
  }
}
