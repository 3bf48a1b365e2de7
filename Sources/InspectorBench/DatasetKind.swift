import CaseStore

/// The family of datasets the ranking is measured on: the friendly case, and one for each case
/// in which few suspects (or none) can match every clue, so an early stop in rank order cannot
/// help. Each is seeded: suspect `n` of a kind is the same in every run.
///
/// Every kind starts from ``SuspectGenerator/suspect(_:)`` and changes what makes it hard; its
/// incident 1 is the bulletin that meets the hard case.
enum DatasetKind: String, CaseIterable {
  /// The generated suspects as they are; incident 1 is the seed bulletin (Pink Pearl Apple,
  /// large paw print, 09:41).
  case friendly
  /// The same suspects; incident 1 is for a fruit (Durian) nobody favours.
  case nobodyFavours = "nobody-favours"
  /// No suspect has small paws; incident 1 has a small paw print.
  case pawNobodyHas = "paw-nobody-has"
  /// Nineteen suspects in twenty sleep from about 22:00 to about 07:00; incident 1 is at 03:00.
  case mostAsleep = "most-asleep"
  /// 999 suspects in 1,000 have a stated alibi.
  case mostAlibis = "most-alibis"
  /// Every suspect has the same level, and one of three names, so the order is decided by
  /// species.
  case equalLevels = "equal-levels"
  /// All of the above at once: incident 1 is for Durian, with a small paw print, at 03:00.
  case allAtOnce = "all-at-once"

  /// The fruit added to every kind but the friendly one, favoured by nobody.
  static let unfavouredFruit = (name: "Durian", color: "olive")

  /// Incident 1 of the kind's dataset.
  var incident: NewIncident {
    var incident = SeedCase.incident(on: try! LocalDateTime(parsing: "2024-05-17T12:00"))
    if [.nobodyFavours, .allAtOnce].contains(self) { incident.fruit = Self.unfavouredFruit.name }
    if [.pawNobodyHas, .allAtOnce].contains(self) { incident.pawSize = .small }
    if [.mostAsleep, .allAtOnce].contains(self) {
      incident.occurredAt = try! LocalDateTime(parsing: "2024-05-17T03:00")
    }
    return incident
  }

  /// Suspect `n` (1-based) of this kind.
  func suspect(_ n: Int) -> GeneratedSuspect {
    var suspect = SuspectGenerator.suspect(n)
    guard self != .friendly, self != .nobodyFavours else { return suspect }
    var random = SplitMix64(seed: 0xBAD_CA5E ^ (UInt64(n) &* 0x9E37_79B9_7F4A_7C15))
    if [.pawNobodyHas, .allAtOnce].contains(self), suspect.identity.pawSize == .small {
      suspect.identity.pawSize = Bool.random(using: &random) ? .medium : .large
    }
    if [.mostAsleep, .allAtOnce].contains(self), Int.random(in: 0..<20, using: &random) != 0 {
      suspect.sleepSchedule = (
        SuspectGenerator.clock(Int.random(in: 1290..<1380, using: &random)),
        SuspectGenerator.clock(Int.random(in: 390..<480, using: &random))
      )
    }
    if [.mostAlibis, .allAtOnce].contains(self), Int.random(in: 0..<1000, using: &random) != 0 {
      suspect.alibi = SuspectGenerator.alibis.randomElement(using: &random)!
    }
    if [.equalLevels, .allAtOnce].contains(self) {
      suspect.level = 0.5
      suspect.identity.name = ["Pip", "Biscuit", "Hazel"].randomElement(using: &random)!
    }
    return suspect
  }
}
