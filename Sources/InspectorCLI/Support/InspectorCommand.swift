/// One leaf command of `inspector`: its spec (name, abstract, arguments, options) and a `run`
/// that calls the case store and returns what to print on stdout.
///
/// each command is a small type; the output is returned,
/// not printed, so that an error leaves stdout empty (README "A short tour").
protocol InspectorCommand: Sendable {
  /// The command's spec; its `name` is the last word of its path.
  static var spec: CommandSpec { get }
  /// Runs the command.
  ///
  /// - Returns: The text for stdout, ending in a newline (or empty).
  /// - Throws: ``UsageError``, ``CommandFailure``, or a case-store error.
  static func run(_ context: CommandContext) throws -> String
}
