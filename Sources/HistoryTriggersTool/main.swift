// Writes the history triggers' migration from CaseStore's description of the recorded tables
// (docs/history.md "Recorded tables"). Run by scripts/history-triggers.sh.
// Usage: history-triggers migrations/NNNN_history_triggers.sql
// The file's NNNN is the migration's version; the file is replaced whole (written beside it,
// then renamed), so an interrupted run leaves the old file.
import CaseStore
import Foundation

let arguments = CommandLine.arguments.dropFirst()
let name = arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? ""
let suffix = "_\(HistoryTriggers.migrationName).sql"
guard arguments.count == 1, name.hasSuffix(suffix), name.count == 4 + suffix.count,
  let version = Int(name.prefix(4)), version > 0
else {
  FileHandle.standardError.write(
    Data("usage: history-triggers migrations/NNNN\(suffix)\n".utf8))
  exit(64)
}
do {
  try Data(HistoryTriggers.migration(version: version).utf8)
    .write(to: URL(fileURLWithPath: arguments[arguments.startIndex]), options: .atomic)
} catch {
  FileHandle.standardError.write(Data("history-triggers: \(error.localizedDescription)\n".utf8))
  exit(74)
}
