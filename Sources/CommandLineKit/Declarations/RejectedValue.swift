/// A value on the command line that its declared type does not accept; ``ParsedValues`` turns
/// it into the ``UsageError`` `The value 'x' is invalid for '--opt <v>': reason` (exit 64).
public struct RejectedValue: Error, Sendable, Equatable {
  /// The value as given.
  public var value: String
  /// The type's ``ExpressibleByArgument/invalidValueReason(for:)``.
  public var reason: String?

  /// Creates a rejection.
  ///
  /// - Parameters:
  ///   - value: The value as given.
  ///   - reason: Why it is refused, or `nil`.
  public init(value: String, reason: String?) {
    self.value = value
    self.reason = reason
  }

  /// Converts `text` to `Value`.
  ///
  /// - Throws: ``RejectedValue`` when ``ExpressibleByArgument/init(argument:)`` returns `nil`.
  public static func convert<Value: ExpressibleByArgument>(_ text: String) throws(RejectedValue)
    -> Value
  {
    guard let value = Value(argument: text) else {
      throw RejectedValue(value: text, reason: Value.invalidValueReason(for: text))
    }
    return value
  }
}
