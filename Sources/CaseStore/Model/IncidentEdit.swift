/// A change to a recorded incident (`incident edit`); fields left `nil` stay as they are.
public struct IncidentEdit: Sendable, Equatable {
  /// The nibbled fruit's name (matched ignoring case), or `nil`.
  public var fruit: String?
  /// When it happened, or `nil`.
  public var occurredAt: LocalDateTime?
  /// A new paw-size clue (`.some(nil)` removes it), or `nil` to keep it.
  public var pawSize: PawSize??
  /// A new place (`.some(nil)` removes it), or `nil` to keep it.
  public var location: Location??
  /// New notes (empty clears them), or `nil`.
  public var notes: String?

  /// Creates an edit.
  public init(
    fruit: String? = nil, occurredAt: LocalDateTime? = nil, pawSize: PawSize?? = nil,
    location: Location?? = nil, notes: String? = nil
  ) {
    self.fruit = fruit
    self.occurredAt = occurredAt
    self.pawSize = pawSize
    self.location = location
    self.notes = notes
  }

  /// `true` when the edit changes nothing.
  public var isEmpty: Bool {
    fruit == nil && occurredAt == nil && pawSize == nil && location == nil && notes == nil
  }
}
