import CommandLineKit

/// One leaf command of `inspector`: its configuration, its typed declarations (``Option``,
/// ``Flag``, ``Argument`` stored properties, listed in ``declarations``), a `validate` for
/// rules between options, and a `run` that calls the case store and returns what to print on
/// stdout.
///
/// Every declared value is converted before `validate` (a bad one is a usage error, exit 64); the
/// output is returned, not printed, so that an error leaves stdout empty (docs/output-formats.md).
protocol InspectorCommand: Sendable {
  /// Creates the command with its declarations.
  init()
  /// The command's name and help text; its `name` is the last word of its path.
  static var configuration: CommandConfiguration { get }
  /// Whether the command works on a case file, so that a missing database path is an error
  /// before it runs; `false` for commands that print something about the tool itself
  /// (`completions`, `manual`), which then also work under `env -i`.
  static var usesDatabase: Bool { get }
  /// The command's declarations, each stored property once, in the order help lists them
  /// (the command-tree test checks the list against the stored properties).
  var declarations: [any CommandDeclaration] { get }
  /// Checks rules between options and arguments that no single declaration can state, such as
  /// `--limit` against `--all`.
  ///
  /// - Throws: ``UsageError`` (exit 64) for a combination the command refuses.
  func validate(_ context: CommandContext) throws(UsageError)
  /// Runs the command.
  ///
  /// A listing (rows read from the case page by page) streams them to `context.output` and
  /// returns `""`; every other command returns its record or report (docs/design.md "Output in
  /// `InspectorCLI`").
  ///
  /// - Returns: The text for stdout, ending in a newline (or empty).
  /// - Throws: ``UsageError``, ``CommandFailure``, or a case-store error.
  func run(_ context: CommandContext) throws -> String
}

extension InspectorCommand {
  func validate(_ context: CommandContext) throws(UsageError) {}

  static var usesDatabase: Bool { true }

  /// The command's spec, built from ``configuration`` and its declarations.
  static var spec: CommandSpec {
    let declarations = Self().declarations
    return CommandSpec(
      name: configuration.name, abstract: configuration.abstract,
      discussion: configuration.discussion,
      arguments: declarations.compactMap(\.argumentSpec),
      options: declarations.compactMap(\.optionSpec))
  }
}
