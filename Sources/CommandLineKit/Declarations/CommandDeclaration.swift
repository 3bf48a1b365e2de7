/// One typed declaration of a command, an ``Option``, a ``Flag`` or an ``Argument``: the part
/// of the ``CommandSpec`` it adds, and a check that its value converts.
///
/// A command lists its declarations explicitly, in the order help shows them; its spec is
/// built from that list, ``ParsedValues`` checks every value in that order before the command
/// runs, and the value is read typed with `values[declaration]`: the declaration's own type
/// fixes the value's type, so nothing is looked up by name and cast back.
public protocol CommandDeclaration: Sendable {
  /// The option this declares, or `nil` for a positional argument.
  var optionSpec: OptionSpec? { get }
  /// The positional argument this declares, or `nil` for an option or flag.
  var argumentSpec: ArgumentSpec? { get }
  /// Converts the declaration's value from a parsed command line and drops it: the check
  /// ``ParsedValues`` makes of every declaration before the command runs.
  ///
  /// - Parameter parsed: The parsed command line.
  /// - Throws: ``RejectedValue`` when a given value does not convert.
  func check(_ parsed: ParsedArguments) throws(RejectedValue)
}

extension CommandDeclaration {
  /// How errors name the declaration: `--limit <n>` or `<dest>`.
  public var label: String {
    if let option = optionSpec { return option.synopsis }
    return "<\(argumentSpec?.name ?? "")>"
  }
}
