import CaseStore

extension CommandContext {
  /// The file an option or argument writes, checked against the one output-file rule
  /// (docs/operations.md "Files the tool writes"): every command that writes a file asks here,
  /// so the case file (``databasePath``) and its `-wal`, `-shm` and `-journal` are always
  /// protected, with any other database the command uses.
  ///
  /// - Parameters:
  ///   - path: The destination as given (followed through symbolic links).
  ///   - what: What is written, for messages: `a backup`, `a changeset`.
  ///   - others: Other databases in use, such as `changes export --base`, with how messages
  ///     name them.
  /// - Returns: The checked file, to be written with `OutputFile.replace(_:)` or
  ///   `OutputFile.write(_:)` (a temporary file beside it, synced, renamed).
  /// - Throws: `OutputFileError` (exit 73) when the destination is refused; nothing is
  ///   touched.
  func outputFile(
    _ path: String, writing what: String, alsoProtecting others: [(path: String, role: String)] = []
  ) throws -> CaseFile.OutputFile {
    try CaseFile.OutputFile(
      path: path, writing: what,
      protecting: [.init(path: databasePath, role: "the database")]
        + others.map { .init(path: $0.path, role: $0.role) })
  }
}
