import CaseStore
import Foundation

/// `import`: n suspects (with favourites, alibis, schedules and levels) from CSV as
/// `export --format csv` writes it, through `CaseTransfer.parse` and
/// ``CaseDatabase/importCase(_:onConflict:dryRun:)`` (what `inspector import FILE` runs), against
/// the insert baseline: hand-written C API inserts of the same suspects
/// (``RawSuspectWriter``). Reported, without a target: an import also parses the text, checks
/// every record and looks for conflicts, which the baseline never does.
enum ImportWorkload {
  static func run(suspects count: Int, repetitions: Int, log: (String) -> Void) throws
    -> Measurement
  {
    let generated = (1...count).map { SuspectGenerator.suspect($0) }
    let csv = Array(csvText(generated).utf8)
    log("import: \(csv.count) bytes of CSV for \(count) suspects")
    let files = try ScratchCaseFiles(workload: "import")
    defer { files.removeAll() }
    var checked = false
    let times = try interleaved(
      repetitions: repetitions,
      ours: {
        let path = try files.fresh()
        defer { files.remove(path) }
        let database = try CaseDatabase(path: path, access: .readWrite)
        var report: ImportReport?
        let timing = try time {
          report = try database.importCase(
            CaseTransfer.parse(csv), onConflict: .fail, dryRun: false)
        }
        if !checked {
          guard report?.suspects.added == count,
            try database.suspects.find("Species \(count)").favoriteFruits
              == generated[count - 1].identity.favoriteFruits
          else { throw BenchFailure(description: "import: the suspects were not all stored") }
          checked = true
        }
        return timing
      },
      baseline: {
        try files.rawInsertTiming { writer in for suspect in generated { writer.write(suspect) } }
      })
    return Measurement(
      workload: "import", suspects: count, ours: times.ours, baseline: times.baseline,
      target: nil)
  }

  /// The suspects as `export --format csv` writes them (docs/export-format.md).
  static func csvText(_ suspects: [GeneratedSuspect]) -> String {
    func field(_ text: String) -> String {
      text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
        ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
    var text = CaseTransfer.suspectColumns.joined(separator: ",") + "\n"
    for suspect in suspects {
      let favorites =
        "[" + suspect.identity.favoriteFruits.map { "\"\($0)\"" }.joined(separator: ",") + "]"
      let fields = [
        suspect.identity.name, suspect.identity.species, suspect.identity.pawSize.rawValue,
        suspect.identity.emoji ?? "", favorites, suspect.alibi ?? "",
        suspect.sleepSchedule?.sleep ?? "", suspect.sleepSchedule?.wake ?? "",
        suspect.level.map { "\($0)" } ?? "",
      ]
      text += fields.map(field).joined(separator: ",") + "\n"
    }
    return text
  }
}
