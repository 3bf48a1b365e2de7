import SQLiteKit

extension AdHocQuery {
  /// One named parameter value, parsed from `NAME=VALUE` as ``AdHocQuery/parameter(_:)`` does.
  public struct Parameter: Sendable, Equatable {
    /// The name without its `:`, `@` or `$` prefix.
    public let name: String
    /// The value to bind.
    let value: SQLiteValue

    /// Parses `NAME=VALUE`.
    ///
    /// - Parameter assignment: Such as `species=Crow` or `:id=3`.
    /// - Returns: `nil` when there is no `=` or the name is empty.
    public init?(assignment: String) {
      guard let (name, value) = AdHocQuery.parameter(assignment) else { return nil }
      self.name = name
      self.value = value
    }
  }

  /// Creates a query binding `parameters`; of two parameters with one name, the later wins.
  ///
  /// - Parameters:
  ///   - sql: The SQL script.
  ///   - parameters: The named values, in command-line order.
  public init(sql: String, parameters: [Parameter]) {
    var values: [String: SQLiteValue] = [:]
    for parameter in parameters { values[parameter.name] = parameter.value }
    self.init(sql: sql, parameters: values)
  }
}
