/// A typed positional argument of a command, as swift-argument-parser's `@Argument`:
///
/// ```swift
/// let animal = Argument<String>("animal", help: "The suspect.")  // required
/// let text = Argument<String?>("text", help: "The alibi.")       // optional
/// ```
///
/// Required, optional or repeating (`[Element]`, every remaining positional) follows from the
/// type. Read the value with ``ParsedValues``' `values[argument]`, typed by `Value`.
public struct Argument<Value: Sendable>: CommandDeclaration {
  /// The untyped declaration the parser works with.
  public let spec: ArgumentSpec
  private let convert: @Sendable ([String]) throws(RejectedValue) -> Value

  /// The option this declares, or `nil` for an argument.
  public var optionSpec: OptionSpec? { nil }
  /// The argument this declares, or `nil` for an option or flag.
  public var argumentSpec: ArgumentSpec? { spec }

  /// The argument's value in a parsed command line, converted to `Value`.
  ///
  /// - Parameter parsed: The parsed command line.
  /// - Returns: The value: `nil` (optional) or empty (repeating) when none was given.
  /// - Throws: ``RejectedValue`` when a given value does not convert.
  public func value(in parsed: ParsedArguments) throws(RejectedValue) -> Value {
    try convert(parsed.arguments(spec.name))
  }

  /// Converts the value and drops it (``CommandDeclaration/check(_:)``).
  public func check(_ parsed: ParsedArguments) throws(RejectedValue) {
    _ = try value(in: parsed)
  }
}

extension Argument where Value: ExpressibleByArgument {
  /// Declares a required argument: leaving it out is `Missing expected argument '<name>'`.
  ///
  /// - Parameters:
  ///   - name: The name shown as `<name>`.
  ///   - help: One line of help.
  public init(_ name: String, help: String) {
    spec = ArgumentSpec(
      name, help: help, allowedValues: Value.allValueStrings, completion: Value.completion)
    convert = { values throws(RejectedValue) in try RejectedValue.convert(values.first ?? "") }
  }
}

extension Argument {
  /// Declares an optional argument (`[<name>]` in usage), `nil` when left out.
  ///
  /// - Parameters:
  ///   - name: The name shown as `<name>`.
  ///   - help: One line of help.
  public init<Wrapped: ExpressibleByArgument>(_ name: String, help: String)
  where Value == Wrapped? {
    spec = ArgumentSpec(
      name, help: help, isOptional: true, allowedValues: Wrapped.allValueStrings,
      completion: Wrapped.completion)
    convert = { values throws(RejectedValue) in
      guard let text = values.first else { return nil }
      let value: Wrapped = try RejectedValue.convert(text)
      return value
    }
  }

  /// Declares a repeating argument (`<name> ...`) that takes every remaining positional and
  /// needs at least one; it must be the command's last argument.
  ///
  /// - Parameters:
  ///   - name: The name shown as `<name>`.
  ///   - help: One line of help.
  public init<Element: ExpressibleByArgument>(_ name: String, help: String)
  where Value == [Element] {
    spec = ArgumentSpec(
      name, help: help, isRepeating: true, allowedValues: Element.allValueStrings,
      completion: Element.completion)
    convert = { values throws(RejectedValue) in
      var elements: [Element] = []
      for text in values { elements.append(try RejectedValue.convert(text)) }
      return elements
    }
  }
}
