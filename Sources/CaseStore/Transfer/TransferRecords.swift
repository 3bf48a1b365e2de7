/// The records of one import: what a JSON case document or a CSV file holds, checked field by
/// field, each with where it came from (docs/export-format.md).
///
/// Optional members are `nil` when the record leaves the field out: an import then keeps what
/// a suspect already has, and a new suspect gets the default (no emoji, no favourites, no
/// alibi, no sleep schedule, suspicion level 0).
public struct CaseDocument: Sendable {
  /// The fruits, in the order given.
  public var fruits: [ImportedFruit] = []
  /// The suspects, in the order given.
  public var suspects: [ImportedSuspect] = []
  /// The incidents, in the order given.
  public var incidents: [ImportedIncident] = []

  /// An empty document.
  public init() {}
}

/// A fruit to import, matched with a stored fruit by name (ignoring case).
public struct ImportedFruit: Sendable {
  /// Where the record is: `line 3` (CSV) or `$.fruits[2]` (JSON).
  public var record: String
  /// The name, trimmed.
  public var name: String
  /// The colour, normalized (``Fruit/normalizedColor(_:)``).
  public var color: String
}

/// A suspect to import, matched with a stored suspect by species (ignoring case).
public struct ImportedSuspect: Sendable {
  /// Where the record is: `line 3` (CSV) or `$.suspects[2]` (JSON).
  public var record: String
  /// The name, trimmed.
  public var name: String
  /// The species, trimmed.
  public var species: String
  /// The paw size.
  public var pawSize: PawSize
  /// The emoji (`.some(nil)`: none), or `nil` when the record leaves it out.
  public var emoji: String??
  /// The favourite fruits in order, or `nil` when left out.
  public var favoriteFruits: [String]?
  /// The alibi (empty: none), or `nil` when left out.
  public var alibi: String?
  /// The sleep schedule (`.some(nil)`: none), or `nil` when left out.
  public var sleepSchedule: SleepSchedule??
  /// The suspicion level, or `nil` when left out.
  public var suspicionLevel: SuspicionLevel?
}

/// An incident to import. Incidents have no natural key: one equal in every field to a stored
/// incident is that incident; any other is new.
public struct ImportedIncident: Sendable {
  /// Where the record is: `$.incidents[0]` (JSON only).
  public var record: String
  /// The nibbled fruit's name.
  public var fruit: String
  /// When it happened.
  public var occurredAt: LocalDateTime
  /// The paw clue, or `nil`.
  public var pawSize: PawSize?
  /// Where, or `nil`.
  public var location: Location?
  /// The notes.
  public var notes: String
}

/// What an import did, or (dry run) would do, to each kind of record.
public struct ImportReport: Equatable, Sendable {
  /// How many records of one kind were added, updated, found unchanged, or skipped.
  public struct Counts: Equatable, Sendable {
    /// New records stored.
    public var added = 0
    /// Records that matched a stored one and changed it (`--on-conflict update`).
    public var updated = 0
    /// Records equal to the stored one they matched: nothing to do, never a conflict.
    public var unchanged = 0
    /// Records that matched a stored one and differ from it, left alone (`--on-conflict skip`).
    public var skipped = 0
  }

  /// `true` when nothing was stored.
  public var dryRun: Bool
  /// The fruits.
  public var fruits = Counts()
  /// The suspects.
  public var suspects = Counts()
  /// The incidents.
  public var incidents = Counts()
}

/// What an import does with a record that matches a stored one and differs from it.
public enum ConflictPolicy: String, CaseIterable, Sendable {
  /// Refuse the whole import (exit 65), naming the record.
  case fail
  /// Keep the stored record.
  case skip
  /// Change the stored record to the imported one (fields the record leaves out stay).
  case update
}
