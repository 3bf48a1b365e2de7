/// A flag of a command, as swift-argument-parser's `@Flag`: `true` when given.
///
/// ```swift
/// let all = Flag("all", help: "Show every suspect.")
/// ```
struct Flag: CommandDeclaration {
  /// The untyped declaration the parser works with.
  let spec: OptionSpec

  /// Declares a flag.
  ///
  /// - Parameters:
  ///   - name: Long name without dashes.
  ///   - short: Optional one-letter alias.
  ///   - help: One line of help.
  init(_ name: String, short: Character? = nil, help: String) {
    spec = .flag(name, short: short, help: help)
  }

  var optionSpec: OptionSpec? { spec }
  var argumentSpec: ArgumentSpec? { nil }

  func decode(_ parsed: ParsedArguments) throws(RejectedValue) -> any Sendable {
    parsed.flag(spec.name)
  }
}
