/// A typed valued option of a command, as swift-argument-parser's `@Option`:
///
/// ```swift
/// let name = Option<String>("name", help: "The suspect's name.")        // required
/// let limit = Option<PositiveCount?>("limit", valueName: "n", help: "…") // optional
/// let fruits = Option<[String]>("fruit", help: "…")                     // repeatable
/// ```
///
/// Required, optional or repeatable follows from the type; the accepted values and the
/// reason in errors from the value type's ``ExpressibleByArgument`` conformance. Read the
/// value with ``ParsedValues``' `values[option]`, typed by `Value`.
public struct Option<Value: Sendable>: CommandDeclaration {
  /// The untyped declaration the parser works with.
  public let spec: OptionSpec
  private let convert: @Sendable ([String]) throws(RejectedValue) -> Value

  /// The option this declares, or `nil` for an argument.
  public var optionSpec: OptionSpec? { spec }
  /// The argument this declares, or `nil` for an option or flag.
  public var argumentSpec: ArgumentSpec? { nil }

  /// The option's value in a parsed command line, converted to `Value`.
  ///
  /// - Parameter parsed: The parsed command line.
  /// - Returns: The value: `nil` (optional) or empty (repeatable) when the option is absent.
  /// - Throws: ``RejectedValue`` when a given value does not convert.
  public func value(in parsed: ParsedArguments) throws(RejectedValue) -> Value {
    try convert(parsed.options(spec.name))
  }

  /// Converts the value and drops it (``CommandDeclaration/check(_:)``).
  public func check(_ parsed: ParsedArguments) throws(RejectedValue) {
    _ = try value(in: parsed)
  }
}

extension Option where Value: ExpressibleByArgument {
  /// Declares a required option: leaving it out is `Missing expected argument '--name <name>'`.
  ///
  /// - Parameters:
  ///   - name: Long name without dashes.
  ///   - short: Optional one-letter alias.
  ///   - valueName: Placeholder in usage and help; defaults to `name`.
  ///   - help: One line of help.
  public init(_ name: String, short: Character? = nil, valueName: String? = nil, help: String) {
    spec = .option(
      name, short: short, valueName: valueName, help: help, isRequired: true,
      allowedValues: Value.allValueStrings, completion: Value.completion)
    convert = { values throws(RejectedValue) in try RejectedValue.convert(values.last ?? "") }
  }
}

extension Option {
  /// Declares an optional option, `nil` when left out; given twice, the last wins.
  ///
  /// - Parameters:
  ///   - name: Long name without dashes.
  ///   - short: Optional one-letter alias.
  ///   - valueName: Placeholder in usage and help; defaults to `name`.
  ///   - help: One line of help.
  public init<Wrapped: ExpressibleByArgument>(
    _ name: String, short: Character? = nil, valueName: String? = nil, help: String
  ) where Value == Wrapped? {
    spec = .option(
      name, short: short, valueName: valueName, help: help,
      allowedValues: Wrapped.allValueStrings, completion: Wrapped.completion)
    convert = { values throws(RejectedValue) in
      guard let text = values.last else { return nil }
      let value: Wrapped = try RejectedValue.convert(text)
      return value
    }
  }

  /// Declares a repeatable option: every value, in command-line order; empty when left out.
  ///
  /// - Parameters:
  ///   - name: Long name without dashes.
  ///   - short: Optional one-letter alias.
  ///   - valueName: Placeholder in usage and help; defaults to `name`.
  ///   - help: One line of help.
  public init<Element: ExpressibleByArgument>(
    _ name: String, short: Character? = nil, valueName: String? = nil, help: String
  ) where Value == [Element] {
    spec = .repeatingOption(
      name, short: short, valueName: valueName, help: help,
      allowedValues: Element.allValueStrings, completion: Element.completion)
    convert = { values throws(RejectedValue) in
      var elements: [Element] = []
      for text in values { elements.append(try RejectedValue.convert(text)) }
      return elements
    }
  }
}
