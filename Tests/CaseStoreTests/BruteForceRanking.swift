@testable import CaseStore

/// The clue ranking of docs/ranking.md computed the slow, obvious way: every suspect read whole
/// through the repository, scored in Swift, and sorted by the rules. The model the ranking's
/// plans are checked against.
func bruteForceRanking(_ database: CaseDatabase, _ incident: Incident) throws -> [Suspect] {
  let time = incident.occurredAt.time
  func score(_ suspect: Suspect) -> Int {
    var score = 0
    if let paw = incident.pawSize, suspect.pawSize == paw { score += 1 }
    if let fruit = incident.fruit, suspect.favoriteFruits.contains(fruit) { score += 1 }
    if suspect.hasNoAlibi { score += 1 }
    if !(suspect.sleepSchedule?.isAsleep(at: time) ?? false) { score += 1 }
    return score
  }
  return try database.read {
    try $0.suspects.all().sorted { lhs, rhs in
      let (left, right) = (score(lhs), score(rhs))
      if left != right { return left > right }
      if lhs.suspicionLevel != rhs.suspicionLevel { return lhs.suspicionLevel > rhs.suspicionLevel }
      let (leftName, rightName) = (NameKey.sortKey(lhs.name), NameKey.sortKey(rhs.name))
      if leftName != rightName { return leftName < rightName }
      let (leftSpecies, rightSpecies) = (NameKey.caseKey(lhs.species), NameKey.caseKey(rhs.species))
      if leftSpecies != rightSpecies { return leftSpecies < rightSpecies }
      return lhs.id < rhs.id
    }
  }
}
