import SQLiteKit

extension CaseFile {
  /// A file a command writes (a backup, a changeset), checked against the one rule for output
  /// files (docs/operations.md "Files the tool writes"); named here so that callers of the case
  /// store need not import SQLiteKit.
  public typealias OutputFile = SQLiteKit.OutputFile
}
