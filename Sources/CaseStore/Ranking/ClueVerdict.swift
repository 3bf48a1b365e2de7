/// One clue's verdict for one suspect (docs/ranking.md "With an incident").
public struct ClueVerdict: Hashable, Sendable {
  /// Which clue.
  public let clue: Clue
  /// `true` when the suspect matches it (points towards the suspect).
  public let matched: Bool
}
