/// One typed declaration of a command, an ``Option``, a ``Flag`` or an ``Argument``: the part
/// of the ``CommandSpec`` it adds, and how its value is read from ``ParsedArguments``.
///
/// Commands hold their declarations as stored properties; ``InspectorCommand`` finds them in
/// declaration order, so the declaration, the parsing and the help cannot disagree.
protocol CommandDeclaration: Sendable {
  /// The option this declares, or `nil` for a positional argument.
  var optionSpec: OptionSpec? { get }
  /// The positional argument this declares, or `nil` for an option or flag.
  var argumentSpec: ArgumentSpec? { get }
  /// Converts the declaration's value.
  ///
  /// - Parameter parsed: The parsed command line.
  /// - Returns: The typed value, as ``DecodedValues`` stores it.
  /// - Throws: ``RejectedValue`` when a given value does not convert.
  func decode(_ parsed: ParsedArguments) throws(RejectedValue) -> any Sendable
}

extension CommandDeclaration {
  /// The key ``CommandContext`` files the value under: `--name` for options, `<name>` for
  /// arguments, so that an option and an argument of one name stay apart.
  var key: String {
    if let option = optionSpec { return "--" + option.name }
    return "<\(argumentSpec?.name ?? "")>"
  }

  /// How errors name the declaration: `--limit <n>` or `<dest>`.
  var label: String {
    if let option = optionSpec { return option.synopsis }
    return "<\(argumentSpec?.name ?? "")>"
  }
}
