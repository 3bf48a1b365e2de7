/// One row of the ranking: a suspect, its place, and (with an incident) its clue verdicts.
public struct RankedSuspect: Hashable, Sendable {
  /// 1 for the most suspicious.
  public let rank: Int
  /// The suspect, with favourites and interview.
  public let suspect: Suspect
  /// The verdict of each clue checked, in ``Clue`` order; empty without an incident.
  public let clues: [ClueVerdict]

  /// How many clues the suspect matches.
  public var cluesMatched: Int { clues.filter(\.matched).count }
  /// How many clues were checked (0 without an incident; 3 or 4 with one).
  public var cluesChecked: Int { clues.count }
}
