/// A parsed command line checked against a command's declarations, read typed:
///
/// ```swift
/// let species = Option<String?>("species", help: "Only this species.")
/// let values = try ParsedValues(parsed, declarations: [species], parser: parser)
/// let chosen: String? = try values[species]
/// ```
///
/// Creating it converts every declared value, in the order of the list, so that the first bad
/// one is the usage error `The value 'x' is invalid for '--opt <v>': reason` (exit 64) before
/// the command does anything. A read converts again with the declaration's own typed
/// conversion: the type of the declaration fixes the type of the value, nothing is looked up
/// by name and cast back, and a declaration the command did not list reads as absent (`nil`,
/// empty, `false`) or, when required, as the usage error `Missing expected argument`, never a
/// crash. Each command's list is checked against its stored declarations by the command-tree
/// test.
public struct ParsedValues: Sendable {
  /// The parsed command line.
  public let arguments: ParsedArguments
  /// The parser, for usage errors in the command's usage line.
  public let parser: ArgumentParser

  /// Checks that every declared value converts.
  ///
  /// - Parameters:
  ///   - arguments: The parsed command line.
  ///   - declarations: The declarations to check, in order (empty checks nothing).
  ///   - parser: The parser that parsed `arguments`.
  /// - Throws: ``UsageError`` (``UsageError/Kind/invalidValue``) for the first value its
  ///   declaration's type rejects.
  public init(
    _ arguments: ParsedArguments, declarations: [any CommandDeclaration], parser: ArgumentParser
  ) throws(UsageError) {
    self.arguments = arguments
    self.parser = parser
    for declaration in declarations {
      do {
        try declaration.check(arguments)
      } catch {
        throw usageError(error, declaration)
      }
    }
  }

  /// The converted value of an option.
  ///
  /// - Throws: ``UsageError`` when its value does not convert (only for an option the command
  ///   did not list, since listed ones were checked), or a required one is missing.
  public subscript<Value>(option: Option<Value>) -> Value {
    get throws(UsageError) {
      if option.spec.isRequired, arguments.options(option.spec.name).isEmpty {
        throw missing(option)
      }
      do {
        return try option.value(in: arguments)
      } catch {
        throw usageError(error, option)
      }
    }
  }

  /// Whether a flag was given.
  public subscript(flag: Flag) -> Bool { flag.value(in: arguments) }

  /// The converted value of a positional argument.
  ///
  /// - Throws: ``UsageError`` when its value does not convert (only for an argument the
  ///   command did not list), or a required one is missing.
  public subscript<Value>(argument: Argument<Value>) -> Value {
    get throws(UsageError) {
      let spec = argument.spec
      if !spec.isOptional, arguments.arguments(spec.name).isEmpty { throw missing(argument) }
      do {
        return try argument.value(in: arguments)
      } catch {
        throw usageError(error, argument)
      }
    }
  }

  /// A usage error of this command (exit 64), for rules between values that no single
  /// declaration states.
  ///
  /// - Parameter message: The problem, one sentence.
  /// - Returns: The error, with the command's usage line.
  public func usageError(_ message: String) -> UsageError {
    parser.usageError(message, commandPath: arguments.commandPath)
  }

  private func usageError(_ error: RejectedValue, _ declaration: some CommandDeclaration)
    -> UsageError
  {
    parser.invalidValue(
      error.value, label: declaration.label, commandPath: arguments.commandPath,
      reason: error.reason)
  }

  private func missing(_ declaration: some CommandDeclaration) -> UsageError {
    parser.usageError(
      "Missing expected argument '\(declaration.label)'", kind: .missingArgument,
      commandPath: arguments.commandPath)
  }
}
