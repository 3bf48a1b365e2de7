import CaseStore
import CommandLineKit

/// A command that reads the case: the runner opens the case file read-only, once, and runs the
/// command inside one read unit of work (``CaseDatabase/read(_:)``: one snapshot); the command
/// opens nothing itself (docs/design.md "The unit of work").
///
/// A listing streams its records to ``CommandContext/output`` inside the unit and returns `""`.
protocol ReadingCommand: InspectorCommand {
  /// Runs the command inside the read unit of work.
  ///
  /// - Parameters:
  ///   - context: The command's typed values, global options and output.
  ///   - db: The unit's read handle, valid during this call only.
  /// - Returns: The text for stdout, ending in a newline (or empty).
  /// - Throws: ``UsageError``, ``CommandFailure``, or a case-store error.
  func run(_ context: CommandContext, _ db: CaseReader) throws -> String
}

extension ReadingCommand {
  /// The runner: opens the case file read-only and runs ``run(_:_:)`` in one read unit of work.
  func run(_ context: CommandContext) throws -> String {
    try context.caseFile.read { try run(context, $0) }
  }
}

/// A command that changes the case: the runner opens the case file for writing, once, and runs
/// the command inside one write unit of work (``CaseDatabase/write(_:_:)``) attributed to
/// `--as` and `--note`: one transaction and one change set of the history, however many
/// operations the command calls; nothing is stored when it throws. The command opens nothing
/// itself (docs/design.md "The unit of work").
protocol WritingCommand: InspectorCommand {
  /// Runs the command inside the write unit of work.
  ///
  /// - Parameters:
  ///   - context: The command's typed values, global options and output.
  ///   - db: The unit's write handle, valid during this call only.
  /// - Returns: The text for stdout, ending in a newline (or empty).
  /// - Throws: ``UsageError``, ``CommandFailure``, or a case-store error; the unit rolls back.
  func run(_ context: CommandContext, _ db: CaseWriter) throws -> String
}

extension WritingCommand {
  /// The runner: opens the case file for writing and runs ``run(_:_:)`` in one write unit of
  /// work.
  func run(_ context: CommandContext) throws -> String {
    try context.caseFile.write { try run(context, $0) }
  }
}

/// A writing command whose changes come from a file (`import`, `changes apply`): the runner
/// opens the case file, then reads and checks the file (``input(_:)``), and only then begins
/// the write unit of work, so that the write lock is not held while a large file is parsed.
protocol ImportingCommand: InspectorCommand {
  /// What the command reads from outside the case file.
  associatedtype Input
  /// Reads and checks the input, before the unit of work begins.
  ///
  /// - Throws: ``UsageError``, ``CommandFailure``, or a case-store error for a bad input.
  func input(_ context: CommandContext) throws -> Input
  /// Runs the command inside the write unit of work.
  ///
  /// - Parameters:
  ///   - context: The command's typed values, global options and output.
  ///   - db: The unit's write handle, valid during this call only.
  ///   - input: What ``input(_:)`` read.
  /// - Returns: The text for stdout, ending in a newline (or empty).
  /// - Throws: ``UsageError``, ``CommandFailure``, or a case-store error; the unit rolls back.
  func run(_ context: CommandContext, _ db: CaseWriter, _ input: Input) throws -> String
}

extension ImportingCommand {
  /// The runner: opens the case file for writing, reads the input, and runs ``run(_:_:_:)`` in
  /// one write unit of work.
  func run(_ context: CommandContext) throws -> String {
    try context.caseFile.write(reading: { try input(context) }) { try run(context, $0, $1) }
  }
}

extension CaseTransaction where Kind == Writing {
  /// Resolves the `<animal>` argument, applies `change` to that suspect's id, and reads the
  /// suspect back, inside this unit of work.
  ///
  /// - Parameters:
  ///   - animal: The `<animal>` argument's value.
  ///   - change: The repository calls to make, given the suspect's id.
  /// - Returns: The suspect as stored after the change.
  /// - Throws: What resolving (``CaseError/unknownSuspect(_:)``,
  ///   ``CaseError/ambiguousSuspect(_:candidates:)``) or `change` throws.
  func changeSuspect(_ animal: String, _ change: (Int64) throws -> Void) throws -> Suspect {
    let id = try suspects.resolve(animal)
    try change(id)
    guard let suspect = try suspects.suspect(id: id) else {
      throw CaseError.unknownSuspect(animal)
    }
    return suspect
  }
}
