/// Which suspects a listing shows, in which order, and which slice of them (`inspector list`
/// with filters, docs/command-line.md "list").
///
/// Every condition must hold. A filter with nothing set lists every suspect in id order.
public struct SuspectFilter: Sendable, Equatable {
  /// Only suspects of this name (ignoring case and accents, as the name order compares names;
  /// the desk's `name=` filter).
  public var name: String?
  /// Only the suspect of this species (ignoring case and Unicode normalization).
  public var species: String?
  /// Only suspects with this paw size.
  public var pawSize: PawSize?
  /// Only suspects whose level is at least this.
  public var minLevel: SuspicionLevel?
  /// Only suspects whose level is at most this.
  public var maxLevel: SuspicionLevel?
  /// Only suspects who favour the fruit of this name (ignoring case).
  public var favorite: String?
  /// Only suspects without an alibi (empty or only whitespace, as the ranking's `no_alibi`).
  public var noAlibi = false
  /// Only suspects awake at this clock time (not asleep, as the ranking's `awake` clue: no
  /// schedule counts as awake).
  public var awakeAt: ClockTime?
  /// The order.
  public var sort: SuspectSort = .id
  /// The order reversed.
  public var reverse = false
  /// At most this many suspects, or `nil` for all.
  public var limit: Int?
  /// How many suspects to leave out first (0 or more).
  public var offset = 0

  /// A filter that lists every suspect in id order.
  public init() {}

  /// `true` when the filter lists every suspect in id order, as plain `list` does.
  public var isEverything: Bool { self == SuspectFilter() }
}

/// The orders a suspect listing can take.
public enum SuspectSort: String, CaseIterable, Sendable {
  /// Suspicion level descending, then name, then species, then id (the ranking's order).
  case level
  /// Name ignoring case and accents, then id.
  case name
  /// Species ignoring case.
  case species
  /// Id ascending (the order suspects were added).
  case id
  /// The suspect's first favourite fruit (the lowest position, then fruit id, as the listing
  /// shows them) by the fruit's name ignoring case (its stored `name_key`, then the fruit's id),
  /// then the suspect's id; suspects without favourites after all others, in id order.
  /// Reversed, the whole order is reversed (suspects without favourites first, in descending
  /// id order). A favourite whose fruit row is missing (stored by another client with foreign
  /// keys off) is passed over: a suspect with only such favourites counts as without
  /// favourites (docs/command-line.md "list").
  case fruits
}
