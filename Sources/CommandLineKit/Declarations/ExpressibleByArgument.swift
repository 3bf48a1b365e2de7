/// A type that a command-line value converts to, as swift-argument-parser's protocol of the
/// same name: ``Option``, ``Argument`` and the command's values are declared with such types.
///
/// Enumerations with `String` raw values that are `CaseIterable` get everything for free: the
/// parser accepts only their raw values (in any letter case) and lists them in help and errors.
public protocol ExpressibleByArgument: Sendable {
  /// Converts one value as given on the command line.
  ///
  /// - Parameter argument: The text, such as "20" or "large".
  /// - Returns: `nil` when the text is not a valid value; the parser then reports
  ///   `The value 'x' is invalid for '--opt <v>'` with ``invalidValueReason`` appended.
  init?(argument: String)

  /// The only values accepted, in the order help and errors list them; empty accepts any
  /// text and leaves the judgement to ``init(argument:)``.
  static var allValueStrings: [String] { get }

  /// What a valid value looks like, appended to the invalid-value message after ": "
  /// ("expected a whole number, 1 or more"); `nil` for none.
  static var invalidValueReason: String? { get }

  /// Why `argument` in particular is not a valid value, appended to the invalid-value message;
  /// by default ``invalidValueReason``. Whole numbers override it to say that a number is too
  /// large instead of that it is not a number.
  ///
  /// - Parameter argument: The rejected text.
  /// - Returns: The reason, or `nil` for none.
  static func invalidValueReason(for argument: String) -> String?

  /// What shell completion offers for a value of this type besides ``allValueStrings``
  /// (`.file` for file paths); `.none` by default.
  static var completion: CompletionKind { get }
}

extension ExpressibleByArgument {
  public static var allValueStrings: [String] { [] }
  public static var invalidValueReason: String? { nil }
  public static func invalidValueReason(for argument: String) -> String? { invalidValueReason }
  public static var completion: CompletionKind { .none }
}

extension ExpressibleByArgument where Self: CaseIterable & RawRepresentable, RawValue == String {
  public init?(argument: String) { self.init(rawValue: argument) }
  public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension String: ExpressibleByArgument {
  public init?(argument: String) { self = argument }
}
