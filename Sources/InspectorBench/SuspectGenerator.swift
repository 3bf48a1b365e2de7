import CaseStore

/// One generated suspect: identity and interview.
struct GeneratedSuspect {
  var identity: NewSuspect
  /// `nil`: no alibi row; some alibis are whitespace only (no alibi for the ranking).
  var alibi: String?
  /// `(sleep, wake)` as `HH:MM`, or `nil`: no schedule row.
  var sleepSchedule: (sleep: String, wake: String)?
  /// `nil`: no suspicion_levels row (level 0).
  var level: Double?
}

/// Realistic, deterministic suspects: suspect `n` (1-based) is the same in every run, whatever
/// else is generated, so datasets can be built in any order and cached.
///
/// Names come from a pool (a few with accents, so the Unicode key folding is exercised), species
/// are unique (`Species n`), paws uniform, three distinct favourites among the 19 seed fruits,
/// about half with an alibi (one in ten of those only whitespace), half with a sleep schedule
/// (most asleep at night, some by day), four in five with a suspicion level in [0, 1] in steps
/// of 0.01 (so the ranking's tie-breaks by name and species matter).
enum SuspectGenerator {
  /// Bumped whenever the generated data change, so cached datasets are rebuilt.
  static let dataVersion = 2

  static let names = [
    "Fabrizio", "Soloman", "Ding", "Catie", "Miko", "Ricardo", "Cornelius", "Maria", "Haku",
    "R\u{E9}nard", "Zo\u{EB}", "Chlo\u{E9}", "Bj\u{F6}rn", "S\u{F8}ren", "In\u{E8}s", "Jos\u{E9}",
    "Ana\u{EF}s", "Mateo", "Olivia", "Liam", "Noor", "Aiko", "Pablo", "Greta", "Hugo", "Ines",
    "Kofi", "Lena", "Milo", "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Sami", "Tomasz",
    "Uma", "Vera", "Wim", "Yusuf", "Pip", "Biscuit", "Pumpkin", "Hazel", "Juniper", "Acorn",
  ]
  static let emoji: [String?] = [
    "\u{1F41F}", "\u{1F40C}", "\u{1F54A}\u{FE0F}", "\u{1F426}\u{200D}\u{2B1B}", "\u{1F408}",
    "\u{1F430}", "\u{1F986}", "\u{1F439}", "\u{1F994}", "\u{1F99D}", "\u{1F98A}", "\u{1F43B}",
    "\u{1F43F}\u{FE0F}", "\u{1F989}", nil,
  ]
  static let alibis = [
    "Swimming laps all night", "At the library until closing time",
    "Visiting my aunt\nacross the river", "Asleep in the burrow, ask my sister",
    "Guarding the compost heap", "Choir practice, then straight home",
  ]
  static let blankAlibis = ["   ", "\t\n", "\u{3000}", " \u{A0} "]

  /// Suspect `n` (1-based).
  static func suspect(_ n: Int) -> GeneratedSuspect {
    var random = SplitMix64(seed: 0x5EED_F00D ^ (UInt64(n) &* 0x9E37_79B9_7F4A_7C15))
    var fruits = SeedCase.fruits.map(\.name)
    var favorites: [String] = []
    for _ in 0..<3 {
      favorites.append(fruits.remove(at: Int.random(in: 0..<fruits.count, using: &random)))
    }
    let identity = NewSuspect(
      name: names.randomElement(using: &random)!, species: "Species \(n)",
      pawSize: PawSize.allCases.randomElement(using: &random)!,
      emoji: emoji.randomElement(using: &random)!, favoriteFruits: favorites)
    var alibi: String?
    if Bool.random(using: &random) {
      alibi =
        Int.random(in: 0..<10, using: &random) == 0
        ? blankAlibis.randomElement(using: &random)! : alibis.randomElement(using: &random)!
    }
    var schedule: (String, String)?
    if Bool.random(using: &random) {
      let byDay = Int.random(in: 0..<10, using: &random) < 3
      let sleep =
        byDay
        ? Int.random(in: 360..<600, using: &random)
        : Int.random(in: 1260..<1500, using: &random) % 1440
      let wake =
        byDay
        ? Int.random(in: 840..<1080, using: &random) : Int.random(in: 300..<540, using: &random)
      schedule = (clock(sleep), clock(wake))
    }
    let level: Double? =
      Int.random(in: 0..<5, using: &random) == 0
      ? nil : Double(Int.random(in: 0...100, using: &random)) / 100
    return GeneratedSuspect(
      identity: identity, alibi: alibi, sleepSchedule: schedule, level: level)
  }

  /// Minutes after midnight as `HH:MM`.
  static func clock(_ minutes: Int) -> String {
    let (hour, minute) = (minutes / 60, minutes % 60)
    return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
  }
}
