/// Settings that put the ranking on a plan its size thresholds would not choose for a small
/// case, so that tests reach every plan (docs/ranking.md "Which plan runs when").
///
/// Only tests set them: ``SuspicionRanking/init(database:)`` leaves both `nil`, which means the
/// thresholds of the plans themselves.
struct RankingTestHooks {
  /// How many suspects the top-k walk reads before it gives way to the clue sets; `nil` for
  /// ``TopKWalk/budget(limit:)``. 0 reaches the clue sets on any case.
  var walkBudget: Int?
  /// The most equally scored candidates the clue-set ranking lets SQLite sort; `nil` for
  /// ``ClueSetRanking/sortedCandidatesLimit``. 0 reaches the walk that picks them instead.
  var candidatesSortedAtMost: Int?
}

extension SuspicionRanking {
  /// A ranking over `database` whose plans are chosen with `testHooks` (tests only).
  init(database: CaseDatabase, testHooks: RankingTestHooks) {
    self.database = database
    self.testHooks = testHooks
  }
}
