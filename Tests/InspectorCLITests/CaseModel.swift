import CaseStore
import Foundation

/// A small in-memory model of the case file, written from README "The documented schema" alone: it
/// never calls CaseStore's code (no parsing, look-up, validation or ranking code of the product;
/// only the seed case's data, which `SeedCaseTests` pins to README), so a rule both get wrong in
/// the same way is the only thing it cannot catch.
///
/// ``apply(_:newID:today:)`` predicts a command's exit status (0, 64 or 65) and, on success,
/// changes the model as the command should change the case file. A refused command changes
/// nothing. Ids are the one thing the model learns from the product: the README does not say how
/// they are assigned, so the id a successful `add` reports is taken (and checked to be new).
struct CaseModel {
  // MARK: - Properties

  /// A suspect: identity and interview (README "The documented schema").
  struct Suspect: Equatable {
    var id: Int64
    var name: String
    var species: String
    var paw: String
    var emoji: String?
    /// Fruit names as stored, most favoured first.
    var favorites: [String]
    var alibi = ""
    var sleep: Schedule?
    var level = 0.0
  }

  /// A sleep schedule as `HH:MM` texts.
  struct Schedule: Equatable {
    var sleep: String
    var wake: String
  }

  /// A fruit.
  struct Fruit: Equatable {
    var id: Int64
    var name: String
    var color: String
  }

  /// A nibble incident.
  struct Incident: Equatable {
    var id: Int64
    var fruit: String
    var fruitID: Int64
    /// `YYYY-MM-DDTHH:MM`.
    var occurredAt: String
    var paw: String?
    var latitude: Double?
    var longitude: Double?
    var notes: String
  }

  /// What a command should print on success, besides changing the model.
  enum Output: Equatable {
    case suspect(Suspect)
    case fruit(Fruit)
    case incident(Incident)
  }

  /// The predicted result of one command.
  struct Prediction: Error, Equatable {
    /// 0, 64 (usage) or 65 (bad data).
    var status: Int32
    /// The object printed with `--json` when the status is 0.
    var output: Output?
    /// Why the model refuses, for failure reports.
    var reason: String?

    static func usage(_ reason: String) -> Prediction {
      Prediction(status: 64, output: nil, reason: reason)
    }

    static func refused(_ reason: String) -> Prediction {
      Prediction(status: 65, output: nil, reason: reason)
    }
  }

  /// One row of the ranking (README "The ranking").
  struct RankRow: Equatable {
    var rank: Int
    var suspect: Suspect
    /// Clue name to verdict, only the clues checked; `nil` without an incident.
    var clues: [String: Bool]?
  }

  /// Suspects in id order.
  private(set) var suspects: [Suspect] = []
  /// Fruits in id order.
  private(set) var fruits: [Fruit] = []
  /// Incidents in id order.
  private(set) var incidents: [Incident] = []

  static let pawSizes = ["small", "medium", "large"]
  static let defaultSchedule = Schedule(sleep: "22:30", wake: "06:30")

  // MARK: - The seed case

  /// The seed case of README "The documented schema", with the ids, the bulletin's date and its notes the
  /// product chose (the spec leaves those open), so that everything else can be compared.
  ///
  /// The fruits and suspects are the data of `SeedCase`, not a second copy of them: the literal
  /// values README lists are asserted once, by CaseStoreTests' `SeedCaseTests`, and the model
  /// starts from what those tests pin down.
  ///
  /// - Parameters:
  ///   - suspectIDs: Species to id, from the product's `list`.
  ///   - fruitIDs: Fruit name to id, from the product's `fruit list`.
  ///   - incident: The id, `occurred_at` and notes of the product's only bulletin.
  static func seeded(
    suspectIDs: [String: Int64], fruitIDs: [String: Int64],
    incident: (id: Int64, occurredAt: String, notes: String)
  ) -> CaseModel {
    var model = CaseModel()
    model.fruits = SeedCase.fruits.map { fruit in
      Fruit(id: fruitIDs[fruit.name] ?? -1, name: fruit.name, color: fruit.color)
    }
    model.suspects = SeedCase.suspects.map { suspect in
      Suspect(
        id: suspectIDs[suspect.species] ?? -1, name: suspect.name, species: suspect.species,
        paw: suspect.pawSize.rawValue, emoji: suspect.emoji, favorites: suspect.favoriteFruits)
    }
    model.incidents = [
      Incident(
        id: incident.id, fruit: "Pink Pearl Apple", fruitID: fruitIDs["Pink Pearl Apple"] ?? -1,
        occurredAt: incident.occurredAt,
        paw: "large", latitude: 37.334371, longitude: -122.009558, notes: incident.notes)
    ]
    model.fruits.sort { $0.id < $1.id }
    model.suspects.sort { $0.id < $1.id }
    return model
  }

  // MARK: - Applying commands

  /// Predicts `operation`'s exit status and output, and applies it to the model on success.
  ///
  /// - Parameters:
  ///   - operation: The command.
  ///   - newID: The id the product reported for a new suspect, fruit or incident (ignored
  ///     otherwise, and when the product failed).
  ///   - today: The local date(s) `YYYY-MM-DD` while the command ran (two around midnight);
  ///     a bare `HH:MM` incident time means that time today.
  ///   - reportedTime: The `occurred_at` the product reported, to pick between two dates.
  mutating func apply(
    _ operation: ModelOperation, newID: Int64?, today: [String], reportedTime: String? = nil
  ) -> Prediction {
    switch operation {
    case .addSuspect(let name, let species, let paw, let emoji, let fruits):
      return addSuspect(
        name: name, species: species, paw: paw, emoji: emoji, fruits: fruits, id: newID)
    case .editSuspect(let reference, let name, let species, let paw, let emoji):
      return editSuspect(reference, name: name, species: species, paw: paw, emoji: emoji)
    case .removeSuspect(let reference):
      switch resolve(reference) {
      case .failure(let refusal): return refusal
      case .success(let index):
        let removed = suspects.remove(at: index)
        return Prediction(status: 0, output: .suspect(removed))
      }
    case .addFavorite(let reference, let fruit):
      let stored = self.fruit(named: fruit)
      return changeSuspect(reference) { suspect in
        guard let stored else { return .refused("unknown fruit") }
        if suspect.favorites.contains(stored.name) { return .refused("already a favourite") }
        suspect.favorites.append(stored.name)
        return nil
      }
    case .removeFavorite(let reference, let fruit):
      return changeFavorite(reference, fruit) { suspect, position in
        suspect.favorites.remove(at: position)
      }
    case .setAlibi(let reference, let text):
      return changeSuspect(reference) { suspect in
        suspect.alibi = text
        return nil
      }
    case .clearAlibi(let reference):
      return changeSuspect(reference) { suspect in
        suspect.alibi = ""
        return nil
      }
    case .setSleep(let reference, let sleep, let wake):
      guard let sleep, let wake else { return .usage("--sleep and --wake go together") }
      guard Self.isClockTime(sleep), Self.isClockTime(wake) else {
        return .refused("not an HH:MM time")
      }
      return changeSuspect(reference) { suspect in
        suspect.sleep = Schedule(sleep: sleep, wake: wake)
        return nil
      }
    case .defaultSleep(let reference):
      return changeSuspect(reference) { suspect in
        if suspect.sleep == nil { suspect.sleep = Self.defaultSchedule }
        return nil
      }
    case .clearSleep(let reference):
      return changeSuspect(reference) { suspect in
        suspect.sleep = nil
        return nil
      }
    case .setSuspicion(let reference, let text):
      guard let level = Self.level(text) else { return .refused("not a level in [0, 1]") }
      return changeSuspect(reference) { suspect in
        suspect.level = level
        return nil
      }
    case .addIncident(let fruit, let at, let paw, let latitude, let longitude, let notes):
      return addIncident(
        fruit: fruit, at: at, paw: paw, latitude: latitude, longitude: longitude, notes: notes,
        id: newID, today: today, reportedTime: reportedTime)
    case .addFruit(let name, let color):
      if Self.isBlank(name) { return .refused("blank fruit name") }
      guard let color = Self.color(color) else { return .refused("not a colour") }
      if self.fruit(named: name) != nil { return .refused("duplicate fruit") }
      let fruit = Fruit(id: newID ?? -1, name: name, color: color)
      fruits.append(fruit)
      fruits.sort { $0.id < $1.id }
      return Prediction(status: 0, output: .fruit(fruit))
    case .removeFruit(let name):
      guard let fruit = self.fruit(named: name) else { return .refused("unknown fruit") }
      if suspects.contains(where: { $0.favorites.contains(fruit.name) }) {
        return .refused("favoured by a suspect")
      }
      if incidents.contains(where: { $0.fruit == fruit.name }) {
        return .refused("nibbled in an incident")
      }
      fruits.removeAll { $0.id == fruit.id }
      return Prediction(status: 0, output: .fruit(fruit))
    case .editFruit(let reference, let name, let color):
      return editFruit(reference, name: name, color: color)
    case .editIncident(
      let reference, let fruit, let at, let paw, let noPaw, let latitude, let longitude,
      let noPlace, let notes):
      return editIncident(
        reference,
        IncidentChange(
          fruit: fruit, at: at, paw: paw, noPaw: noPaw, latitude: latitude, longitude: longitude,
          noPlace: noPlace, notes: notes), today: today, reportedTime: reportedTime)
    case .removeIncident(let reference):
      guard let id = Int64(reference), id >= 1 else { return .usage("incident id not 1 or more") }
      guard let index = incidents.firstIndex(where: { $0.id == id }) else {
        return .refused("unknown incident")
      }
      return Prediction(status: 0, output: .incident(incidents.remove(at: index)))
    case .moveFavorite(let reference, let fruit, let position):
      guard let position else { return .usage("missing --to") }
      guard let target = Int(position), target >= 1 else { return .usage("--to not 1 or more") }
      return changeFavorite(reference, fruit) { suspect, from in
        let name = suspect.favorites.remove(at: from)
        suspect.favorites.insert(name, at: min(target, suspect.favorites.count + 1) - 1)
      }
    }
  }

  /// The options of `incident edit`, as typed.
  struct IncidentChange {
    var fruit: String? = nil
    var at: String? = nil
    var paw: String? = nil
    var noPaw: Bool
    var latitude: String? = nil
    var longitude: String? = nil
    var noPlace: Bool
    var notes: String? = nil
  }

  // MARK: - Ranking

  /// The whole ranking (`rank --all`), without or with an incident's clues.
  func ranking(incidentID: Int64? = nil) -> [RankRow] {
    let incident = incidentID.flatMap { id in incidents.first { $0.id == id } }
    let scored = suspects.map { suspect -> (Suspect, [String: Bool]?, Int) in
      guard let incident else { return (suspect, nil, 0) }
      var clues: [String: Bool] = [:]
      if let paw = incident.paw { clues["paw_size"] = suspect.paw == paw }
      clues["favorite_fruit"] = suspect.favorites.contains(incident.fruit)
      clues["no_alibi"] = suspect.alibi.unicodeScalars.allSatisfy(\.properties.isWhitespace)
      let clock = String(incident.occurredAt.suffix(5))
      clues["awake"] = !(suspect.sleep.map { Self.isAsleep(at: clock, $0) } ?? false)
      return (suspect, clues, clues.values.filter { $0 }.count)
    }
    let ordered = scored.sorted { left, right in
      if left.2 != right.2 { return left.2 > right.2 }
      if left.0.level != right.0.level { return left.0.level > right.0.level }
      let (leftName, rightName) = (Self.sortKey(left.0.name), Self.sortKey(right.0.name))
      if leftName != rightName { return leftName.lexicographicallyPrecedes(rightName) }
      let (leftSpecies, rightSpecies) = (
        Self.scalars(left.0.species.lowercased()), Self.scalars(right.0.species.lowercased())
      )
      if leftSpecies != rightSpecies { return leftSpecies.lexicographicallyPrecedes(rightSpecies) }
      return left.0.id < right.0.id
    }
    return ordered.enumerated().map { offset, entry in
      RankRow(rank: offset + 1, suspect: entry.0, clues: entry.1)
    }
  }

  /// README "The ranking": asleep when the clock time lies in [sleep, wake), wrapping past
  /// midnight when sleep is later than wake (so equal times are never asleep). `HH:MM` texts
  /// order like the times they name.
  static func isAsleep(at clock: String, _ schedule: Schedule) -> Bool {
    if schedule.sleep < schedule.wake { return schedule.sleep <= clock && clock < schedule.wake }
    if schedule.sleep > schedule.wake { return clock >= schedule.sleep || clock < schedule.wake }
    return false
  }

  /// The label of README "The documented schema"'s bands.
  static func label(_ level: Double) -> String {
    switch level {
    case 0..<0.2: "Unlikely"
    case 0.2..<0.5: "Fishy"
    case 0.5..<0.9: "Very suspicious"
    case 0.9...1: "Extremely suspicious!"
    default: "Suspiciously Unsuspicious"
    }
  }

  // MARK: - Look-ups (README "A short tour")

  /// The suspect an `<animal>` argument means: species, then name (both ignoring case,
  /// Unicode-aware), then numeric id; several names is ambiguous.
  func resolve(_ reference: String) -> Result<Int, Prediction> {
    if reference.hasPrefix("id:") {
      guard let id = Int64(reference.dropFirst(3)),
        let index = suspects.firstIndex(where: { $0.id == id })
      else { return .failure(.refused("unknown suspect")) }
      return .success(index)
    }
    // Every way a word can match (species, name, id) counts; more than one suspect is ambiguous.
    let key = Self.caseKey(reference)
    let id = Int64(reference)
    let matches = suspects.indices.filter { index in
      Self.caseKey(suspects[index].species) == key || Self.caseKey(suspects[index].name) == key
        || (id != nil && suspects[index].id == id)
    }
    if matches.count == 1 { return .success(matches[0]) }
    if matches.count > 1 { return .failure(.refused("ambiguous suspect")) }
    return .failure(.refused("unknown suspect"))
  }

  /// The fruit a `<fruit>` argument means (its name, ignoring case).
  func fruit(named name: String) -> Fruit? {
    let key = Self.caseKey(name)
    return fruits.first { Self.caseKey($0.name) == key }
  }

  // MARK: - Private helpers

  /// Changes the favourite `fruit` of `reference` with `change`, given its position in the
  /// list; refuses an unknown fruit or one that is not a favourite first.
  private mutating func changeFavorite(
    _ reference: String, _ fruit: String, _ change: (inout Suspect, Int) -> Void
  ) -> Prediction {
    let stored = self.fruit(named: fruit)
    return changeSuspect(reference) { suspect in
      guard let stored else { return .refused("unknown fruit") }
      guard let position = suspect.favorites.firstIndex(of: stored.name) else {
        return .refused("not a favourite")
      }
      change(&suspect, position)
      return nil
    }
  }

  private mutating func changeSuspect(
    _ reference: String, _ change: (inout Suspect) -> Prediction?
  ) -> Prediction {
    switch resolve(reference) {
    case .failure(let refusal): return refusal
    case .success(let index):
      var suspect = suspects[index]
      if let refusal = change(&suspect) { return refusal }
      suspects[index] = suspect
      return Prediction(status: 0, output: .suspect(suspect))
    }
  }

  private mutating func addSuspect(
    name: String, species: String, paw: String?, emoji: String?, fruits: [String], id: Int64?
  ) -> Prediction {
    guard let paw else { return .usage("missing --paw") }
    guard let paw = Self.pawSize(paw) else { return .usage("not a paw size") }
    if Self.isBlank(name) { return .refused("blank name") }
    if Self.isBlank(species) { return .refused("blank species") }
    if suspects.contains(where: { Self.caseKey($0.species) == Self.caseKey(species) }) {
      return .refused("duplicate species")
    }
    var favorites: [String] = []
    for name in fruits {
      guard let fruit = fruit(named: name) else { return .refused("unknown fruit") }
      if favorites.contains(fruit.name) { return .refused("fruit listed twice") }
      favorites.append(fruit.name)
    }
    let suspect = Suspect(
      id: id ?? -1, name: name, species: species, paw: paw,
      emoji: emoji?.isEmpty == false ? emoji : nil, favorites: favorites)
    suspects.append(suspect)
    suspects.sort { $0.id < $1.id }
    return Prediction(status: 0, output: .suspect(suspect))
  }

  private mutating func editSuspect(
    _ reference: String, name: String?, species: String?, paw: String?, emoji: String?
  ) -> Prediction {
    if name == nil && species == nil && paw == nil && emoji == nil {
      return .usage("nothing to change")
    }
    var newPaw: String?
    if let paw {
      guard let valid = Self.pawSize(paw) else { return .usage("not a paw size") }
      newPaw = valid
    }
    if let name, Self.isBlank(name) { return .refused("blank name") }
    if let species, Self.isBlank(species) { return .refused("blank species") }
    let others = suspects
    return changeSuspect(reference) { suspect in
      if let species,
        others.contains(where: {
          $0.id != suspect.id && Self.caseKey($0.species) == Self.caseKey(species)
        })
      {
        return .refused("duplicate species")
      }
      suspect.name = name ?? suspect.name
      suspect.species = species ?? suspect.species
      suspect.paw = newPaw ?? suspect.paw
      if let emoji { suspect.emoji = emoji.isEmpty ? nil : emoji }
      return nil
    }
  }

  private mutating func addIncident(
    fruit: String, at: String, paw: String?, latitude: String?, longitude: String?,
    notes: String?, id: Int64?, today: [String], reportedTime: String?
  ) -> Prediction {
    var clue: String?
    if let paw {
      guard let valid = Self.pawSize(paw) else { return .usage("not a paw size") }
      clue = valid
    }
    if (latitude == nil) != (longitude == nil) { return .usage("--lat and --lon go together") }
    guard let occurredAt = Self.occurrence(at, today: today, reportedTime: reportedTime) else {
      return .refused("not a time")
    }
    var location: (Double, Double)?
    if let latitude, let longitude {
      guard let valid = Self.location(latitude, longitude) else {
        return .refused("coordinates out of range")
      }
      location = valid
    }
    guard let stored = self.fruit(named: fruit) else { return .refused("unknown fruit") }
    let incident = Incident(
      id: id ?? -1, fruit: stored.name, fruitID: stored.id, occurredAt: occurredAt, paw: clue,
      latitude: location?.0, longitude: location?.1, notes: notes ?? "")
    incidents.append(incident)
    incidents.sort { $0.id < $1.id }
    return Prediction(status: 0, output: .incident(incident))
  }

  private mutating func editFruit(_ reference: String, name: String?, color: String?)
    -> Prediction
  {
    if name == nil && color == nil { return .usage("nothing to change") }
    if let name, Self.isBlank(name) { return .refused("blank fruit name") }
    var newColor: String?
    if let color {
      guard let valid = Self.color(color) else { return .refused("not a colour") }
      newColor = valid
    }
    guard var fruit = self.fruit(named: reference) else { return .refused("unknown fruit") }
    if let name,
      fruits.contains(where: { $0.id != fruit.id && Self.caseKey($0.name) == Self.caseKey(name) })
    {
      return .refused("duplicate fruit")
    }
    let oldName = fruit.name
    fruit.name = name ?? fruit.name
    fruit.color = newColor ?? fruit.color
    fruits = fruits.map { $0.id == fruit.id ? fruit : $0 }
    // Favourites and incidents name the fruit by its id: they follow a rename.
    for index in suspects.indices {
      suspects[index].favorites = suspects[index].favorites.map { $0 == oldName ? fruit.name : $0 }
    }
    for index in incidents.indices where incidents[index].fruitID == fruit.id {
      incidents[index].fruit = fruit.name
    }
    return Prediction(status: 0, output: .fruit(fruit))
  }

  private mutating func editIncident(
    _ reference: String, _ change: IncidentChange, today: [String], reportedTime: String?
  ) -> Prediction {
    guard let id = Int64(reference), id >= 1 else { return .usage("incident id not 1 or more") }
    var clue: String?
    if let paw = change.paw {
      guard let valid = Self.pawSize(paw) else { return .usage("not a paw size") }
      clue = valid
    }
    if clue != nil && change.noPaw { return .usage("--paw with --no-paw") }
    if (change.latitude == nil) != (change.longitude == nil) {
      return .usage("--lat and --lon go together")
    }
    if change.latitude != nil && change.noPlace { return .usage("--lat with --no-place") }
    if change.fruit == nil && change.at == nil && clue == nil && !change.noPaw
      && change.latitude == nil && !change.noPlace && change.notes == nil
    {
      return .usage("nothing to change")
    }
    var occurredAt: String?
    if let at = change.at {
      guard let valid = Self.occurrence(at, today: today, reportedTime: reportedTime) else {
        return .refused("not a time")
      }
      occurredAt = valid
    }
    var location: (Double, Double)?
    if let latitude = change.latitude, let longitude = change.longitude {
      guard let valid = Self.location(latitude, longitude) else {
        return .refused("coordinates out of range")
      }
      location = valid
    }
    guard let index = incidents.firstIndex(where: { $0.id == id }) else {
      return .refused("unknown incident")
    }
    var incident = incidents[index]
    if let name = change.fruit {
      guard let stored = self.fruit(named: name) else { return .refused("unknown fruit") }
      (incident.fruit, incident.fruitID) = (stored.name, stored.id)
    }
    incident.occurredAt = occurredAt ?? incident.occurredAt
    if change.noPaw { incident.paw = nil }
    if let clue { incident.paw = clue }
    if change.noPlace { (incident.latitude, incident.longitude) = (nil, nil) }
    if let location { (incident.latitude, incident.longitude) = location }
    incident.notes = change.notes ?? incident.notes
    incidents[index] = incident
    return Prediction(status: 0, output: .incident(incident))
  }

  /// Case-insensitive comparison key; Swift's `==` on strings already treats NFC and NFD
  /// spellings as equal (canonical equivalence).
  static func caseKey(_ text: String) -> String {
    text.lowercased()
  }

  /// The name order of README "The ranking": ignoring case and accents (combining marks removed
  /// after canonical decomposition), compared by Unicode scalar value.
  static func sortKey(_ text: String) -> [UInt32] {
    let stripped = text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars.filter {
      $0.properties.generalCategory != .nonspacingMark
    }
    return scalars(String(String.UnicodeScalarView(stripped)))
  }

  static func scalars(_ text: String) -> [UInt32] {
    text.precomposedStringWithCanonicalMapping.unicodeScalars.map(\.value)
  }

  /// Empty or only whitespace.
  static func isBlank(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy(\.properties.isWhitespace)
  }

  /// `small`, `medium` or `large` in any letter case (the parser's enumerated values), as
  /// stored.
  static func pawSize(_ text: String) -> String? {
    pawSizes.first { $0 == text.lowercased() }
  }

  /// The stored time for an incident's `--at`: a clock time on the one of `today`'s days the
  /// product reported (`reportedTime`), else the first; a full date-time as given; nil when it
  /// is neither.
  static func occurrence(_ at: String, today: [String], reportedTime: String?) -> String? {
    if isClockTime(at) {
      let candidates = today.map { "\($0)T\(at)" }
      return candidates.first { $0 == reportedTime } ?? candidates[0]
    }
    return isDateTime(at) ? at : nil
  }

  /// `--lat` and `--lon` as degrees, or nil when either is not a number in range.
  static func location(_ latitude: String, _ longitude: String) -> (Double, Double)? {
    guard let lat = degrees(latitude, limit: 90), let lon = degrees(longitude, limit: 180) else {
      return nil
    }
    return (lat, lon)
  }

  /// `HH:MM` on a 24-hour clock.
  static func isClockTime(_ text: String) -> Bool {
    let digits = Array(text.utf8)
    guard digits.count == 5, digits[2] == UInt8(ascii: ":") else { return false }
    guard let hour = number(digits[0..<2]), let minute = number(digits[3..<5]) else {
      return false
    }
    return hour < 24 && minute < 60
  }

  /// `YYYY-MM-DDTHH:MM` naming a real calendar date and a clock time.
  static func isDateTime(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count == 16, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: "T"),
      let year = number(bytes[0..<4]), let month = number(bytes[5..<7]),
      let day = number(bytes[8..<10]), year >= 1, (1...12).contains(month)
    else { return false }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    return (1...days).contains(day) && isClockTime(String(decoding: bytes[11...], as: UTF8.self))
  }

  private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
    guard bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
      return nil
    }
    return bytes.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
  }

  /// A suspicion level: a plain decimal number (`0.5`, `.5`, `1`; dot only, no exponent) in
  /// [0, 1]. `-0` is the level 0.
  static func level(_ text: String) -> Double? {
    guard isDecimal(text, exponent: false), let value = Double(text), value.isFinite,
      (0...1).contains(value)
    else { return nil }
    return value == 0 ? 0 : value
  }

  /// Degrees: a plain decimal number within ±`limit`.
  static func degrees(_ text: String, limit: Double) -> Double? {
    guard isDecimal(text, exponent: false), let value = Double(text), abs(value) <= limit
    else { return nil }
    return value
  }

  /// `[+-]?(digits[.digits*] | .digits)` with an optional exponent, ASCII only.
  private static func isDecimal(_ text: String, exponent: Bool) -> Bool {
    var rest = Substring(text)
    if rest.hasPrefix("-") || rest.hasPrefix("+") { rest = rest.dropFirst() }
    let isDigit: (Character) -> Bool = { $0.isASCII && $0.isNumber }
    let whole = rest.prefix(while: isDigit)
    rest = rest.dropFirst(whole.count)
    var fraction = Substring()
    if rest.hasPrefix(".") {
      rest = rest.dropFirst()
      fraction = rest.prefix(while: isDigit)
      rest = rest.dropFirst(fraction.count)
    }
    guard !whole.isEmpty || !fraction.isEmpty else { return false }
    if exponent, let first = rest.first, first == "e" || first == "E" {
      rest = rest.dropFirst()
      if rest.hasPrefix("-") || rest.hasPrefix("+") { rest = rest.dropFirst() }
      let digits = rest.prefix(while: isDigit)
      guard !digits.isEmpty else { return false }
      rest = rest.dropFirst(digits.count)
    }
    return rest.isEmpty
  }

  /// A colour as stored: `#RRGGBB` as typed, or a colour name (lowercase letters, spaces and
  /// hyphens, starting with a letter, at most 40 characters).
  static func color(_ text: String) -> String? {
    let bytes = Array(text.utf8)
    let isHex: (UInt8) -> Bool = { Character(UnicodeScalar($0)).isHexDigit }
    if bytes.count == 7, bytes[0] == UInt8(ascii: "#"), bytes.dropFirst().allSatisfy(isHex) {
      return text
    }
    let isLetter: (UInt8) -> Bool = { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
    guard (1...40).contains(bytes.count), isLetter(bytes[0]),
      bytes.allSatisfy({ isLetter($0) || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "-") })
    else { return nil }
    return text
  }
}
