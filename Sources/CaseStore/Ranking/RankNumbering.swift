/// Numbers the rows of a ranking as its pages go by: 1 for the first row, counting on from one
/// page to the next.
struct RankNumbering {
  /// How many rows were numbered so far.
  private var ranked = 0

  /// The next row of the ranking: `suspect` with its `clues` (empty without an incident).
  mutating func next(_ suspect: Suspect, clues: [ClueVerdict] = []) -> RankedSuspect {
    ranked += 1
    return RankedSuspect(rank: ranked, suspect: suspect, clues: clues)
  }
}
