/// The declaration of one positional argument of a command, such as `<animal>`.
///
/// Positionals are matched in declaration order. Only the last one may repeat
/// (it takes every remaining value); optional ones should follow required ones.
public struct ArgumentSpec: Sendable, Equatable {
  // MARK: - Properties

  /// The name shown between angle brackets (`<animal>`); also the key for
  /// ``ParsedArguments/argument(_:)``.
  public var name: String
  /// One line of help text shown in `ARGUMENTS:`.
  public var help: String
  /// Whether the argument may be left out (`[<text>]` in usage).
  public var isOptional: Bool
  /// Whether the argument takes all remaining positionals (`<values> ...`).
  public var isRepeating: Bool
  /// The only values accepted; empty accepts any value.
  public var allowedValues: [String]
  /// What shell completion offers for the value besides ``allowedValues``.
  public var completion: CompletionKind

  // MARK: - Init

  /// Creates a positional argument declaration.
  ///
  /// - Parameters:
  ///   - name: The name shown as `<name>`.
  ///   - help: One line of help.
  ///   - isOptional: Whether it may be left out; a repeating argument that is
  ///     not optional needs at least one value.
  ///   - isRepeating: Whether it takes every remaining positional.
  ///   - allowedValues: Accepted values, or empty for any.
  ///   - completion: What shell completion offers for the value (file paths or nothing).
  public init(
    _ name: String, help: String, isOptional: Bool = false, isRepeating: Bool = false,
    allowedValues: [String] = [], completion: CompletionKind = .none
  ) {
    self.name = name
    self.help = help
    self.isOptional = isOptional
    self.isRepeating = isRepeating
    self.allowedValues = allowedValues
    self.completion = completion
  }

  // MARK: - Public API

  /// The argument as written in usage: `<animal>`, `[<text>]`, `<values> ...`
  /// or `[<values> ...]`.
  public var synopsis: String {
    var text = "<\(name)>"
    if isRepeating { text += " ..." }
    return isOptional ? "[\(text)]" : text
  }
}
