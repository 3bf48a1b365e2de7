import CaseStore
import Foundation

/// Draws the next operation of a model-based run from the model's current state, so that most
/// operations name real suspects and fruits, and about a quarter carry one deliberate fault
/// (unknown suspect or fruit, duplicate species in another letter case or Unicode spelling,
/// blank name, bad paw, bad time, level or coordinate, favourite already there or absent,
/// fruit still in use, a missing or lone option).
///
/// The pools are small on purpose: shared names make ambiguous look-ups, shared clock times
/// hit the sleep schedule's boundaries (a wake time equal to an incident's time), and a few
/// suspect names equal other suspects' species.
enum ModelOperationGenerator {
  // MARK: - Pools

  static let names = [
    "Felix", "Nutty", "Olga", "Bruno", "Zo\u{EB}", "Zoe", "ZO\u{CB}", "Zoe\u{308}", "Ding",
    "R\u{E9}nard", "Fish", "\u{C9}lodie", "Maria", "O'Brien", "Robert'); DROP TABLE animals;--",
    "\u{1F98A} Fox", "\u{41C}\u{438}\u{448}\u{430}", "3", "12",
  ]
  static let species = [
    "Fox", "Squirrel", "Owl", "Badger", "\u{C9}cureuil", "\u{401}\u{436}", "Wasp", "Bear", "Mole",
    "Otter", "Beaver", "Magpie", "Weasel", "Hare", "Stoat", "Vole",
  ]
  static let emoji = [
    "\u{1F98A}", "\u{1F43F}\u{FE0F}", "\u{1F989}", "\u{1F43B}\u{200D}\u{2744}\u{FE0F}", "",
  ]
  static let blanks = ["", " ", "\t", "  \n "]
  static let badPaws = ["huge", "tiny", "", "paw", "smal"]
  static let unknownSuspects = ["Ghost", "Nobody", "0", "-1", "999999", "Fishy"]
  static let unknownFruits = ["Durian", "Mango", "Plum", "Apple"]
  static let newFruits = [
    "Quince", "Medlar", "Pawpaw", "P\u{EA}che de Vigne", "Kiwi", "Mirabelle", "\u{DC}meboshi Plum",
    "Cloudberry", "Sloe", "Rowan Berry",
  ]
  static let colors = [
    "red", "green", "purple", "#A1B2C3", "#ffcc00", "light green", "golden-yellow",
  ]
  static let badColors = ["#12345G", "#1234", "rgb(1,2,3)", "", "42", "r3d", "Red!"]
  static let alibis = [
    "I was at the pond all night.", "Asleep in the hollow oak.\nAsk the owl.",
    "'; DELETE FROM alibis; --", "\"Quoted\" and 'single'", "\u{1F319} moonlit nap", "  ", "\t\n",
    "\u{3000}", "\u{2003}", "", "Sleeping \u{2014} honest!", "\u{A0}",
  ]
  static let clockTimes = [
    "22:30", "06:30", "09:41", "00:00", "23:59", "12:00", "09:40", "13:15", "21:00", "07:05",
  ]
  static let badClockTimes = ["24:00", "12:60", "7.30", "noon", "", "9:5", "123:00", "12:00:00"]
  static let levels = [
    "0", "1", "0.5", ".5", "0.25", "0.9", "0.2", "0.19999", "0.899", "0.1", "1.0", "0.0", "-0",
  ]
  static let badLevels = [
    "1.5", "-0.1", "NaN", "nan", "inf", "Infinity", "0,5", "1e309", "half", "", "2", "0x1p-1",
    "1e-1", "5e-1",
  ]
  static let badDateTimes = [
    "2026-02-30T10:00", "2025-02-29T08:00", "2026-13-01T00:00", "2026-1-5T10:00", "25:00",
    "12:60", "yesterday", "2026-06-01 10:00", "2026-06-01T24:00", "1900-02-29T09:41",
  ]
  static let badLatitudes = ["91", "-90.5", "abc", "1,5", "nan", "90.000001"]
  static let badLongitudes = ["181", "-180.0001", "east", "--5", "180.5"]
  static let unknownIncidents = ["999", "0", "-1", "x", "1.0", ""]
  static let positions = ["1", "2", "3", "4", "9", "+2"]
  static let badPositions = ["0", "-1", "x", "", "1.5", "99999999999999999999"]
  static let notes = [
    "", "Bite marks, small.", "Two bites;\nthen gone.", "'quoted' \"notes\"",
    "\u{1F351} half eaten",
  ]

  // MARK: - Public API

  /// The next operation for a case file in `model`'s state.
  static func next(for model: CaseModel, using rng: inout SplitMix64) -> ModelOperation {
    let choice = rng.weighted(menu.map { ($0.weight, $0) })
    if choice.needsSuspect && model.suspects.isEmpty { return addSuspect(model, &rng) }
    return choice.draw(model, &rng)
  }

  /// Draws one kind of operation.
  typealias Draw = @Sendable (CaseModel, inout SplitMix64) -> ModelOperation

  /// The commands with their weights (parts of the total), and whether they need a suspect
  /// to name (an `animal add` is drawn instead while there is none).
  static let menu: [(weight: Int, needsSuspect: Bool, draw: Draw)] = [
    (12, false, addSuspect),
    (8, true, editSuspect),
    (6, true, { .removeSuspect(reference: reference($0, &$1, faultPercent: 15)) }),
    (10, true, addFavorite),
    (8, true, removeFavorite),
    (7, true, { .setAlibi(reference: reference($0, &$1), text: $1.pick(alibis)) }),
    (3, true, { .clearAlibi(reference: reference($0, &$1)) }),
    (6, true, setSleep),
    (3, true, { .defaultSleep(reference: reference($0, &$1)) }),
    (2, true, { .clearSleep(reference: reference($0, &$1)) }),
    (10, true, setSuspicion),
    (8, false, addIncident),
    (5, false, addFruit),
    (5, false, removeFruit),
    (4, false, editFruit),
    (6, false, editIncident),
    (2, false, removeIncident),
    (6, true, moveFavorite),
  ]

  // MARK: - Private helpers

  private static func addSuspect(_ model: CaseModel, _ rng: inout SplitMix64) -> ModelOperation {
    let taken = Set(model.suspects.map { CaseModel.caseKey($0.species) })
    let free = species.filter { !taken.contains(CaseModel.caseKey($0)) }
    var newSpecies = free.isEmpty ? "Gecko \(rng.below(100_000))" : rng.pick(free)
    var name =
      rng.chance(20) && !model.suspects.isEmpty
      ? rng.pick(model.suspects).name : rng.pick(names)
    var paw: String? = respelled(rng.pick(CaseModel.pawSizes), &rng)
    var fruits: [String] = []
    for _ in 0..<(model.fruits.isEmpty ? 0 : rng.below(4)) {
      let fruit = rng.pick(model.fruits).name
      fruits.append(respelled(fruit, &rng))
    }
    fruits = uniqueFruits(fruits)
    switch rng.below(12) {
    case 0 where !model.suspects.isEmpty:
      newSpecies = respelled(rng.pick(model.suspects).species, &rng, alwaysChange: true)
    case 1: name = rng.pick(blanks)
    case 2: newSpecies = rng.pick(blanks)
    case 3: fruits.append(rng.pick(unknownFruits))
    case 4: paw = rng.pick(badPaws)
    case 5: paw = nil
    case 6 where !fruits.isEmpty: fruits.append(respelled(fruits[0], &rng))
    default: break
    }
    return .addSuspect(
      name: name, species: newSpecies, paw: paw, emoji: rng.chance(70) ? rng.pick(emoji) : nil,
      fruits: fruits)
  }

  private static func editSuspect(_ model: CaseModel, _ rng: inout SplitMix64) -> ModelOperation {
    let target = rng.pick(model.suspects)
    var name: String? = rng.chance(40) ? rng.pick(names) : nil
    var species: String?
    let taken = Set(model.suspects.map { CaseModel.caseKey($0.species) })
    let free = self.species.filter { !taken.contains(CaseModel.caseKey($0)) }
    if rng.chance(30) && !free.isEmpty { species = rng.pick(free) }
    var paw: String? = rng.chance(40) ? respelled(rng.pick(CaseModel.pawSizes), &rng) : nil
    var emoji: String? = rng.chance(30) ? rng.pick(self.emoji) : nil
    if name == nil && species == nil && paw == nil && emoji == nil { name = rng.pick(names) }
    var reference = self.reference(to: target, &rng)
    switch rng.below(14) {
    case 0: (name, species, paw, emoji) = (nil, nil, nil, nil)
    case 1: paw = rng.pick(badPaws)
    case 2: name = rng.pick(blanks)
    case 3: species = rng.pick(blanks)
    case 4: species = respelled(rng.pick(model.suspects).species, &rng, alwaysChange: true)
    case 5: species = respelled(target.species, &rng, alwaysChange: true)
    case 6: reference = rng.pick(unknownSuspects)
    default: break
    }
    return .editSuspect(
      reference: reference, name: name, species: species, paw: paw, emoji: emoji)
  }

  private static func addFavorite(_ model: CaseModel, _ rng: inout SplitMix64) -> ModelOperation {
    let target = rng.pick(model.suspects)
    let absent = model.fruits.filter { !target.favorites.contains($0.name) }
    var fruit = absent.isEmpty ? rng.pick(unknownFruits) : rng.pick(absent).name
    var reference = self.reference(to: target, &rng)
    switch rng.below(20) {
    case 0, 1, 2:
      if !target.favorites.isEmpty { fruit = rng.pick(target.favorites) }
    case 3, 4: fruit = rng.pick(unknownFruits)
    case 5: reference = rng.pick(unknownSuspects)
    default: break
    }
    return .addFavorite(reference: reference, fruit: respelled(fruit, &rng))
  }

  /// A fruit for removing or moving one of `target`'s favourites: one of them, or, when it has
  /// none or with `otherwisePercent` % chance, a stored fruit that is not one (an unknown fruit
  /// when every stored fruit is).
  private static func favoriteFruit(
    of target: CaseModel.Suspect, in model: CaseModel, otherwisePercent: Int,
    _ rng: inout SplitMix64
  ) -> String {
    let absent = model.fruits.filter { !target.favorites.contains($0.name) }
    return target.favorites.isEmpty || rng.chance(otherwisePercent)
      ? (absent.isEmpty ? rng.pick(unknownFruits) : rng.pick(absent).name)
      : rng.pick(target.favorites)
  }

  private static func removeFavorite(_ model: CaseModel, _ rng: inout SplitMix64)
    -> ModelOperation
  {
    let target = rng.pick(model.suspects)
    var fruit = favoriteFruit(of: target, in: model, otherwisePercent: 20, &rng)
    var reference = self.reference(to: target, &rng)
    switch rng.below(20) {
    case 0, 1: fruit = rng.pick(unknownFruits)
    case 2: reference = rng.pick(unknownSuspects)
    default: break
    }
    return .removeFavorite(reference: reference, fruit: respelled(fruit, &rng))
  }

  private static func setSleep(_ model: CaseModel, _ rng: inout SplitMix64) -> ModelOperation {
    var sleep: String? = rng.pick(clockTimes)
    var wake: String? = rng.chance(10) ? sleep : rng.pick(clockTimes)
    var reference = self.reference(model, &rng, faultPercent: 0)
    switch rng.below(14) {
    case 0: sleep = rng.pick(badClockTimes)
    case 1: wake = rng.pick(badClockTimes)
    case 2: sleep = nil
    case 3: wake = nil
    case 4: reference = rng.pick(unknownSuspects)
    default: break
    }
    return .setSleep(reference: reference, sleep: sleep, wake: wake)
  }

  private static func setSuspicion(_ model: CaseModel, _ rng: inout SplitMix64) -> ModelOperation {
    var level: String
    switch rng.below(10) {
    case 0, 1, 2: level = rng.pick(badLevels)
    case 3, 4, 5: level = rng.pick(levels)
    default:
      let thousandths = String(rng.int(in: 0...999))
      level = "0.\(String(repeating: "0", count: 3 - thousandths.count))\(thousandths)"
    }
    return .setSuspicion(reference: reference(model, &rng), level: level)
  }

  private static func addIncident(_ model: CaseModel, _ rng: inout SplitMix64) -> ModelOperation {
    var fruit = model.fruits.isEmpty ? rng.pick(unknownFruits) : rng.pick(model.fruits).name
    var at: String
    if rng.chance(20) {
      at = rng.pick(clockTimes)
    } else {
      let year = rng.int(in: 2023...2027)
      let month = rng.int(in: 1...12)
      let leap = year % 4 == 0
      let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
      let day = rng.chance(30) ? days : rng.int(in: 1...days)
      at = "\(year)-\(twoDigits(month))-\(twoDigits(day))T\(rng.pick(clockTimes))"
    }
    var paw: String? = rng.chance(60) ? respelled(rng.pick(CaseModel.pawSizes), &rng) : nil
    var latitude: String?
    var longitude: String?
    if rng.chance(60) {
      latitude = coordinate(limit: 90, &rng)
      longitude = coordinate(limit: 180, &rng)
    }
    var notes: String? = rng.chance(70) ? rng.pick(self.notes) : nil
    switch rng.below(16) {
    case 0, 1: fruit = rng.pick(unknownFruits)
    case 2, 3: at = rng.pick(badDateTimes)
    case 4: paw = rng.pick(badPaws)
    case 5: (latitude, longitude) = (coordinate(limit: 90, &rng), nil)
    case 6: (latitude, longitude) = (nil, coordinate(limit: 180, &rng))
    case 7: (latitude, longitude) = (rng.pick(badLatitudes), coordinate(limit: 180, &rng))
    case 8: (latitude, longitude) = (coordinate(limit: 90, &rng), rng.pick(badLongitudes))
    case 9: notes = "Line one\nline two \u{1F43E}"
    default: break
    }
    return .addIncident(
      fruit: respelled(fruit, &rng), at: at, paw: paw, latitude: latitude, longitude: longitude,
      notes: notes)
  }

  private static func addFruit(_ model: CaseModel, _ rng: inout SplitMix64) -> ModelOperation {
    let taken = Set(model.fruits.map { CaseModel.caseKey($0.name) })
    let free = newFruits.filter { !taken.contains(CaseModel.caseKey($0)) }
    var name = free.isEmpty ? "Berry \(rng.below(100_000))" : rng.pick(free)
    var color = rng.pick(colors)
    switch rng.below(10) {
    case 0 where !model.fruits.isEmpty:
      name = respelled(rng.pick(model.fruits).name, &rng, alwaysChange: true)
    case 1: name = rng.pick(blanks)
    case 2: color = rng.pick(badColors)
    default: break
    }
    return .addFruit(name: name, color: color)
  }

  private static func removeFruit(_ model: CaseModel, _ rng: inout SplitMix64) -> ModelOperation {
    let favored = Set(model.suspects.flatMap(\.favorites))
    let nibbled = Set(model.incidents.map(\.fruit))
    let free = model.fruits.filter { !favored.contains($0.name) && !nibbled.contains($0.name) }
    let name: String
    switch rng.below(10) {
    case 0, 1, 2:
      name = model.fruits.isEmpty ? rng.pick(unknownFruits) : rng.pick(model.fruits).name
    case 3: name = rng.pick(unknownFruits)
    default: name = free.isEmpty ? rng.pick(unknownFruits) : rng.pick(free).name
    }
    return .removeFruit(name: respelled(name, &rng))
  }

  private static func editFruit(_ model: CaseModel, _ rng: inout SplitMix64) -> ModelOperation {
    var reference = model.fruits.isEmpty ? rng.pick(unknownFruits) : rng.pick(model.fruits).name
    let taken = Set(model.fruits.map { CaseModel.caseKey($0.name) })
    let free = newFruits.filter { !taken.contains(CaseModel.caseKey($0)) }
    var name: String? =
      rng.chance(60) ? (free.isEmpty ? "Berry \(rng.below(100_000))" : rng.pick(free)) : nil
    var color: String? = name == nil || rng.chance(40) ? rng.pick(colors) : nil
    switch rng.below(12) {
    case 0, 6: (name, color) = (nil, nil)
    case 1 where !model.fruits.isEmpty:
      name = respelled(rng.pick(model.fruits).name, &rng, alwaysChange: true)
    case 2: name = respelled(reference, &rng, alwaysChange: true)
    case 3: name = rng.pick(blanks)
    case 4: color = rng.pick(badColors)
    case 5: reference = rng.pick(unknownFruits)
    default: break
    }
    return .editFruit(reference: respelled(reference, &rng), name: name, color: color)
  }

  private static func editIncident(_ model: CaseModel, _ rng: inout SplitMix64)
    -> ModelOperation
  {
    let base = addIncident(model, &rng)
    guard
      case .addIncident(let fruit, let at, let paw, let latitude, let longitude, let notes) = base
    else { return base }
    var reference =
      model.incidents.isEmpty || rng.chance(8)
      ? rng.pick(unknownIncidents) : "\(rng.pick(model.incidents).id)"
    var change = CaseModel.IncidentChange(
      fruit: rng.chance(40) ? fruit : nil, at: rng.chance(40) ? at : nil,
      paw: rng.chance(30) ? paw : nil, noPaw: rng.chance(10), latitude: nil, longitude: nil,
      noPlace: rng.chance(10), notes: rng.chance(30) ? notes : nil)
    if rng.chance(30) { (change.latitude, change.longitude) = (latitude, longitude) }
    switch rng.below(16) {
    case 0: change = CaseModel.IncidentChange(noPaw: false, noPlace: false)
    case 1: (change.paw, change.noPaw) = (respelled(rng.pick(CaseModel.pawSizes), &rng), true)
    case 2: (change.latitude, change.longitude, change.noPlace) = ("1", "2", true)
    case 3: (change.latitude, change.longitude) = ("45", nil)
    case 4: reference = rng.pick(unknownIncidents)
    default: break
    }
    return .editIncident(
      reference: reference, fruit: change.fruit, at: change.at, paw: change.paw,
      noPaw: change.noPaw, latitude: change.latitude, longitude: change.longitude,
      noPlace: change.noPlace, notes: change.notes)
  }

  private static func removeIncident(_ model: CaseModel, _ rng: inout SplitMix64)
    -> ModelOperation
  {
    if model.incidents.isEmpty || rng.chance(20) {
      return .removeIncident(reference: rng.pick(unknownIncidents))
    }
    return .removeIncident(reference: "\(rng.pick(model.incidents).id)")
  }

  private static func moveFavorite(_ model: CaseModel, _ rng: inout SplitMix64) -> ModelOperation {
    let target = rng.pick(model.suspects)
    var fruit = favoriteFruit(of: target, in: model, otherwisePercent: 10, &rng)
    var reference = self.reference(to: target, &rng)
    var position: String? = rng.pick(positions)
    switch rng.below(16) {
    case 0, 1: position = rng.pick(badPositions)
    case 2: position = nil
    case 3: fruit = rng.pick(unknownFruits)
    case 4: reference = rng.pick(unknownSuspects)
    default: break
    }
    return .moveFavorite(reference: reference, fruit: respelled(fruit, &rng), to: position)
  }

  /// An `<animal>` argument: mostly a real suspect, sometimes an unknown one.
  private static func reference(
    _ model: CaseModel, _ rng: inout SplitMix64, faultPercent: Int = 8
  ) -> String {
    if model.suspects.isEmpty || rng.chance(faultPercent) { return rng.pick(unknownSuspects) }
    return reference(to: rng.pick(model.suspects), &rng)
  }

  /// The suspect's species or name in some letter case, or its id.
  private static func reference(to suspect: CaseModel.Suspect, _ rng: inout SplitMix64)
    -> String
  {
    switch rng.below(10) {
    case 0, 1, 2, 3, 4: respelled(suspect.species, &rng)
    case 5, 6, 7: respelled(suspect.name, &rng)
    default: "\(suspect.id)"
    }
  }

  /// `text` as typed, in lower or upper case, or (for text with accents) in NFD; with
  /// `alwaysChange`, never exactly as given.
  private static func respelled(
    _ text: String, _ rng: inout SplitMix64, alwaysChange: Bool = false
  ) -> String {
    let spellings = [
      text, text.lowercased(), text.uppercased(), text.decomposedStringWithCanonicalMapping,
    ].filter { !alwaysChange || Array($0.unicodeScalars) != Array(text.unicodeScalars) }
    return spellings.isEmpty ? text : rng.pick(spellings)
  }

  private static func uniqueFruits(_ fruits: [String]) -> [String] {
    var seen = Set<String>()
    return fruits.filter { seen.insert(CaseModel.caseKey($0)).inserted }
  }

  /// A coordinate within ±`limit` with six decimals, sometimes exactly on the limit.
  private static func coordinate(limit: Int, _ rng: inout SplitMix64) -> String {
    if rng.chance(5) { return rng.chance(50) ? "\(limit)" : "-\(limit)" }
    let whole = rng.int(in: 0...(limit - 1))
    let micro = rng.int(in: 0...999_999)
    let fraction = String(micro)
    let sign = rng.chance(50) ? "-" : ""
    return "\(sign)\(whole).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
  }

  private static func twoDigits(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
  }
}
