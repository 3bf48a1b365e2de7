/// A flag of a command, as swift-argument-parser's `@Flag`: `true` when given.
///
/// ```swift
/// let all = Flag("all", help: "Show every suspect.")
/// ```
public struct Flag: CommandDeclaration {
  /// The untyped declaration the parser works with.
  public let spec: OptionSpec

  /// Declares a flag.
  ///
  /// - Parameters:
  ///   - name: Long name without dashes.
  ///   - short: Optional one-letter alias.
  ///   - help: One line of help.
  public init(_ name: String, short: Character? = nil, help: String) {
    spec = .flag(name, short: short, help: help)
  }

  /// The option this declares, or `nil` for an argument.
  public var optionSpec: OptionSpec? { spec }
  /// The argument this declares, or `nil` for an option or flag.
  public var argumentSpec: ArgumentSpec? { nil }

  /// Whether the flag was given, under either of its names.
  ///
  /// - Parameter parsed: The parsed command line.
  /// - Returns: `true` when given at least once.
  public func value(in parsed: ParsedArguments) -> Bool {
    parsed.flag(spec.name)
  }

  /// Converts the value and drops it (``CommandDeclaration/check(_:)``).
  public func check(_ parsed: ParsedArguments) throws(RejectedValue) {}
}
