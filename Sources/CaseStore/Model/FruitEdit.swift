/// A change to a fruit's fields (`fruit edit`); fields left `nil` stay as they are.
public struct FruitEdit: Sendable, Equatable {
  /// A new name (unique ignoring case), or `nil`.
  public var name: String?
  /// A new colour (a colour name or `#RRGGBB`, see ``Fruit/normalizedColor(_:)``), or `nil`.
  public var color: String?

  /// Creates an edit.
  public init(name: String? = nil, color: String? = nil) {
    self.name = name
    self.color = color
  }

  /// `true` when the edit changes nothing.
  public var isEmpty: Bool { name == nil && color == nil }
}
