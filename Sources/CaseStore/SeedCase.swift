/// The seed case (docs/command-line.md "init"): 19 fruits, 10 suspects with their favourite fruits
/// and every interview at its defaults, and one bulletin (`inspector init --seed`, `inspector
/// demo`).
public enum SeedCase {
  /// The fruits, in the order they are stored: (name, colour).
  public static let fruits: [(name: String, color: String)] = [
    ("Golden Gem Apple", "yellow"), ("Flavor King Plum", "purple"), ("Mariposa Plum", "red"),
    ("Tompkins King Apple", "yellow"), ("Green Gage Plum", "green"),
    ("Lapins Sweet Cherry", "purple"), ("Hauer Pippin Apple", "red"),
    ("Belle De Boskoop Apple", "red"), ("Elstar Apple", "yellow"),
    ("Golden Delicious Apple", "yellow"), ("Creeping Snowberry", "white"),
    ("Channel Island Oak Acorn", "brown"), ("Elephant Heart Plum", "red"),
    ("Golden Nectar Plum", "yellow"), ("Pink Pearl Apple", "pink"), ("Christmas Berry", "red"),
    ("Kaki Fuyu Persimmon", "orange"), ("Big Berry Manzanita", "red"),
    ("Strawberry Tree", "red"),
  ]

  /// The suspects, in the order they are stored (ids 1-10 in a new database).
  public static let suspects: [NewSuspect] = [
    NewSuspect(
      name: "Fabrizio", species: "Fish", pawSize: .small, emoji: "\u{1F41F}",
      favoriteFruits: ["Strawberry Tree", "Big Berry Manzanita", "Elstar Apple"]),
    NewSuspect(
      name: "Soloman", species: "Snail", pawSize: .small, emoji: "\u{1F40C}",
      favoriteFruits: ["Elstar Apple", "Flavor King Plum"]),
    NewSuspect(
      name: "Ding", species: "Dove", pawSize: .small, emoji: "\u{1F54A}\u{FE0F}",
      favoriteFruits: ["Channel Island Oak Acorn", "Pink Pearl Apple", "Lapins Sweet Cherry"]),
    NewSuspect(
      name: "Catie", species: "Crow", pawSize: .small, emoji: "\u{1F426}\u{200D}\u{2B1B}",
      favoriteFruits: ["Pink Pearl Apple", "Golden Nectar Plum", "Hauer Pippin Apple"]),
    NewSuspect(
      name: "Miko", species: "Cat", pawSize: .small, emoji: "\u{1F408}",
      favoriteFruits: ["Belle De Boskoop Apple", "Tompkins King Apple", "Lapins Sweet Cherry"]),
    NewSuspect(
      name: "Ricardo", species: "Rabbit", pawSize: .small, emoji: "\u{1F430}",
      favoriteFruits: ["Mariposa Plum", "Elephant Heart Plum"]),
    NewSuspect(
      name: "Cornelius", species: "Duck", pawSize: .medium, emoji: "\u{1F986}",
      favoriteFruits: ["Green Gage Plum", "Golden Nectar Plum"]),
    NewSuspect(
      name: "Maria", species: "Mouse", pawSize: .small, emoji: "\u{1F439}",
      favoriteFruits: ["Strawberry Tree", "Elephant Heart Plum"]),
    NewSuspect(
      name: "Haku", species: "Hedgehog", pawSize: .small, emoji: "\u{1F994}",
      favoriteFruits: ["Christmas Berry", "Creeping Snowberry", "Golden Gem Apple"]),
    NewSuspect(
      name: "R\u{E9}nard", species: "Raccoon", pawSize: .medium, emoji: "\u{1F99D}",
      favoriteFruits: [
        "Belle De Boskoop Apple", "Big Berry Manzanita", "Christmas Berry", "Kaki Fuyu Persimmon",
      ]),
  ]

  /// The seed bulletin: a Pink Pearl Apple nibbled at 09:41 on `day`, paw clue `large`, at
  /// 37.334371, -122.009558, with notes.
  ///
  /// - Parameter day: The date of seeding (its time is ignored).
  public static func incident(on day: LocalDateTime) -> NewIncident {
    NewIncident(
      fruit: "Pink Pearl Apple",
      occurredAt: LocalDateTime(
        year: day.year, month: day.month, day: day.day, time: ClockTime(hour: 9, minute: 41)!)!,
      pawSize: .large, location: Location(latitude: 37.334371, longitude: -122.009558),
      notes: "The nibbler left only a few seeds behind.")
  }

  /// Loads the seed case in one transaction: fruits, suspects and the seed bulletin.
  ///
  /// - Parameters:
  ///   - database: A case file with no suspects (fruits of the seed that already exist are
  ///     kept, not duplicated).
  ///   - day: The day of seeding, for the bulletin's date; today by default.
  /// - Throws: ``CaseError/alreadySeeded(suspects:)`` when suspects exist (nothing changes), or
  ///   `SQLiteError`.
  public static func load(into database: CaseDatabase, on day: LocalDateTime = .now()) throws {
    try database.write {
      let existing = try database.suspects.count()
      guard existing == 0 else { throw CaseError.alreadySeeded(suspects: existing) }
      for fruit in fruits where (try? database.fruits.find(fruit.name)) == nil {
        try database.fruits.add(name: fruit.name, color: fruit.color)
      }
      for suspect in suspects {
        try database.suspects.add(suspect)
      }
      try database.incidents.add(incident(on: day))
    }
  }
}
