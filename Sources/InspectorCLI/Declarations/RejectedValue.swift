/// A value on the command line that its declared type does not accept; ``CommandContext`` turns
/// it into the ``UsageError`` `The value 'x' is invalid for '--opt <v>': reason` (exit 64).
struct RejectedValue: Error, Sendable, Equatable {
  /// The value as given.
  var value: String
  /// The type's ``ExpressibleByArgument/invalidValueReason(for:)``.
  var reason: String?

  /// Converts `text` to `Value`.
  ///
  /// - Throws: ``RejectedValue`` when ``ExpressibleByArgument/init(argument:)`` returns `nil`.
  static func convert<Value: ExpressibleByArgument>(_ text: String) throws(RejectedValue) -> Value {
    guard let value = Value(argument: text) else {
      throw RejectedValue(value: text, reason: Value.invalidValueReason(for: text))
    }
    return value
  }
}
