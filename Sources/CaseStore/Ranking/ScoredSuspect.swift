/// A suspect's id and its verdict on each checked clue: what the plans choose, before the
/// winners' rows are read (docs/ranking.md "The top-k plan").
struct ScoredSuspect {
  /// The suspect's id.
  let id: Int64
  /// The verdict on each checked clue, in ``Clue`` order.
  let verdicts: [ClueVerdict]

  /// How many checked clues the suspect matches.
  var score: Int { verdicts.filter(\.matched).count }
}
