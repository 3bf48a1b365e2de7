/// A suspect (a row of `animals`): its identity and its interview (docs/schema.md "Tables").
///
/// Identity: name, species (unique, case-insensitive), paw size, emoji, favourite fruits in
/// order. Interview: alibi (empty means none), sleep schedule (optional), suspicion level.
public struct Suspect: Hashable, Sendable, Identifiable {
  /// The row id in `animals`, assigned by the database (positive).
  public let id: Int64
  /// The suspect's name, e.g. `Rénard`; stored exactly as given.
  public var name: String
  /// The species, e.g. `Raccoon`; identifies the suspect.
  public var species: String
  /// The paw size.
  public var pawSize: PawSize
  /// The emoji, such as `🦝`, or `nil` when the suspect has none.
  public var emoji: String?
  /// Names of the favourite fruits, most favoured first, for display: a favourite whose
  /// fruit row is gone shows `(missing fruit id N)` (see ``missingFavoriteFruits``).
  public var favoriteFruits: [String]
  /// The favourites whose `fruits` row is gone (another client deleted it with foreign keys
  /// off; `inspector check` reports them): index in ``favoriteFruits`` to the fruit id the
  /// favourite still names. Empty for a sound file. The placeholder at those indices is for
  /// display only, never data: JSON, CSV and `export` write `null` there.
  public var missingFavoriteFruits: [Int: Int64] = [:]
  /// The alibi statement; empty (or only whitespace) means no alibi. May span lines.
  public var alibi: String
  /// The sleep schedule, or `nil` when none was recorded.
  public var sleepSchedule: SleepSchedule?
  /// The suspicion level, 0 by default.
  public var suspicionLevel: SuspicionLevel

  /// Creates a suspect value (nothing is stored).
  public init(
    id: Int64, name: String, species: String, pawSize: PawSize, emoji: String?,
    favoriteFruits: [String] = [], alibi: String = "", sleepSchedule: SleepSchedule? = nil,
    suspicionLevel: SuspicionLevel = .zero
  ) {
    self.id = id
    self.name = name
    self.species = species
    self.pawSize = pawSize
    self.emoji = emoji
    self.favoriteFruits = favoriteFruits
    self.alibi = alibi
    self.sleepSchedule = sleepSchedule
    self.suspicionLevel = suspicionLevel
  }

  /// The favourites as data, most favoured first: the fruit's name, or `nil` where its fruit
  /// row is gone (``missingFavoriteFruits``).
  public var favoriteFruitNames: [String?] {
    guard !missingFavoriteFruits.isEmpty else { return favoriteFruits }
    return favoriteFruits.indices.map {
      missingFavoriteFruits[$0] == nil ? favoriteFruits[$0] : nil
    }
  }

  /// `true` when the alibi is empty or only whitespace (the `no_alibi` clue, docs/ranking.md
  /// "With an incident"), whitespace being the characters of ``alibiWhitespace``.
  public var hasNoAlibi: Bool {
    alibi.unicodeScalars.allSatisfy { Suspect.alibiWhitespace.unicodeScalars.contains($0) }
  }

  /// What counts as whitespace in an alibi: every character with Unicode's `White_Space`
  /// property (tab, line feed, vertical tab, form feed, carriage return, space, next line,
  /// no-break space, ogham space mark, the en quad to hair space range, line and paragraph
  /// separators, narrow no-break space, medium mathematical space, ideographic space). The
  /// ranking's SQL trims exactly these (bound as `trim(statement, ?)`).
  public static let alibiWhitespace =
    "\t\n\u{0B}\u{0C}\r \u{85}\u{A0}\u{1680}\u{2000}\u{2001}\u{2002}\u{2003}\u{2004}\u{2005}"
    + "\u{2006}\u{2007}\u{2008}\u{2009}\u{200A}\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}"
}

/// A new suspect's identity, before it has an id.
public struct NewSuspect: Sendable {
  /// The name; must not be blank.
  public var name: String
  /// The species; must not be blank and must differ (ignoring case) from every other species.
  public var species: String
  /// The paw size.
  public var pawSize: PawSize
  /// The emoji, or `nil`.
  public var emoji: String?
  /// Favourite fruit names, in order; each must name a stored fruit.
  public var favoriteFruits: [String]

  /// Creates a new suspect's identity.
  public init(
    name: String, species: String, pawSize: PawSize, emoji: String? = nil,
    favoriteFruits: [String] = []
  ) {
    self.name = name
    self.species = species
    self.pawSize = pawSize
    self.emoji = emoji
    self.favoriteFruits = favoriteFruits
  }
}

/// Changes to a suspect's identity; `nil` fields stay as they are.
public struct SuspectEdit: Sendable {
  /// A new name, or `nil`.
  public var name: String?
  /// A new species, or `nil`.
  public var species: String?
  /// A new paw size, or `nil`.
  public var pawSize: PawSize?
  /// A new emoji (`.some(nil)` removes it), or `nil` to keep it.
  public var emoji: String??

  /// Creates an edit.
  public init(
    name: String? = nil, species: String? = nil, pawSize: PawSize? = nil, emoji: String?? = nil
  ) {
    self.name = name
    self.species = species
    self.pawSize = pawSize
    self.emoji = emoji
  }

  /// `true` when the edit changes nothing.
  public var isEmpty: Bool { name == nil && species == nil && pawSize == nil && emoji == nil }
}
