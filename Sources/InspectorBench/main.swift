// The benchmark of README "Performance": `swift run -c release inspector-bench`; see
// scripts/bench.sh. Never part of the unit tests.
import Foundation
import SQLiteKit

let usage = """
  USAGE: inspector-bench [--suspects N] [--json] [--repetitions R]
                         [--workload insert|update|delete|load|import|list|rank|show]...
         inspector-bench --dataset N [--kind KIND | --history]
         inspector-bench --csv N [--from M]
         inspector-bench --rank-sql
         inspector-bench --kinds

  Runs each workload on our code and on a hand-written SQLite C API baseline, interleaved,
  R times (default 5), and prints the medians and the ratio ours / baseline.

    insert  N suspects (default 100,000) with 3 favourites each       target <= 1.25
    import  N suspects (default 100,000) from CSV, against the insert baseline   reported
    list    read all N suspects (default 100,000) with favourites      target <= 1.25
    rank    top 20 for an incident over N suspects (default 1,000,000) target <= 0.10
    show    one suspect's record among N (default 1,000,000)           reported; no full scan

  What the case history costs, with its triggers against the same file without them: on
  insert's own line, and as workloads of their own (time ratio target <= 1.5, moonshot 1.2;
  at most 70 bytes a recorded change, the file's growth after VACUUM):

    update  level and alibi of each of N stored suspects (default 100,000)
    delete  remove each of N stored suspects, with the cascade (default 100,000)
    load    N suspects (default 1,000,000) with favourites, alibis, schedules and levels
            through plain SQL (C API, one transaction): time and file size, target <= 2 each

  --suspects N overrides every workload's N. --json prints one object per line:
  {"workload", "n", "ours_s", "baseline_s", "ratio"}, and for the history's cost
  {"workload": "<workload>-history", "n", "with_history_s", "without_history_s", "ratio", ...}.
  --dataset N builds (or finds) the cached case file of N generated suspects and prints its
  path; --kind picks one of the family of datasets the ranking is measured on (--kinds lists
  them; default friendly), whose incident 1 is the kind's hard case; --history picks the one
  whose history holds every suspect's insert and later change sets (the last import's change
  set, note "bench: as-of point", is the point before them). --csv N prints suspects M+1...M+N
  (--from M, default 0) as `export --format csv` writes them. --rank-sql prints the rank
  baseline's plain query for incident 1 for the sqlite3 shell (scripts/bench-ranking.sh times
  it). Exit status: 0, 1 when a check fails (different top 20, a full scan, different
  records), 3 when a ratio misses its target.

  """

func standardError(_ text: String) {
  FileHandle.standardError.write((text + "\n").data(using: .utf8)!)
}

func fail(_ message: String, status: Int32 = 64) -> Never {
  standardError("inspector-bench: \(message)")
  exit(status)
}

/// What the command line asks for.
struct BenchOptions {
  var suspects: Int?
  var json = false
  var repetitions = 5
  var workloads: [String] = []
  var datasetOnly: Int?
  var kind = DatasetKind.friendly
  var history = false
  var csv: Int?
  var csvFrom = 0

  init(_ arguments: [String]) {
    var arguments = arguments[...]
    func number(after option: String) -> Int {
      guard let text = arguments.popFirst(), let number = Int(text), number > 0 else {
        fail("\(option) needs a positive whole number")
      }
      return number
    }
    while let argument = arguments.popFirst() {
      switch argument {
      case "--suspects": suspects = number(after: argument)
      case "--repetitions": repetitions = number(after: argument)
      case "--dataset": datasetOnly = number(after: argument)
      case "--history": history = true
      case "--csv": csv = number(after: argument)
      case "--from":
        guard let text = arguments.popFirst(), let number = Int(text), number >= 0 else {
          fail("--from needs a whole number")
        }
        csvFrom = number
      case "--json": json = true
      case "--kind":
        guard let name = arguments.popFirst(), let chosen = DatasetKind(rawValue: name) else {
          let kinds = DatasetKind.allCases.map(\.rawValue).joined(separator: ", ")
          fail("--kind needs one of: \(kinds)")
        }
        kind = chosen
      case "--kinds":
        print(DatasetKind.allCases.map(\.rawValue).joined(separator: "\n"))
        exit(0)
      case "--rank-sql":
        print(RankWorkload.shellSQL)
        exit(0)
      case "--workload":
        guard let name = arguments.popFirst(),
          Self.workloads.contains(name)
        else { fail("--workload needs one of: \(Self.workloads.joined(separator: ", "))") }
        workloads.append(name)
      case "-h", "--help":
        print(usage, terminator: "")
        exit(0)
      default: fail("unknown argument '\(argument)'\n\(usage)")
      }
    }
    if history && kind != .friendly { fail("--history and --kind exclude each other") }
    if workloads.isEmpty { workloads = Self.workloads }
  }

  /// Every workload, in the order they run by default.
  static let workloads = ["insert", "update", "delete", "load", "import", "list", "rank", "show"]
}

/// Writes a line of results to stdout at once (also when stdout is a pipe).
func emit(_ line: String) {
  FileHandle.standardOutput.write((line + "\n").data(using: .utf8)!)
}

let options = BenchOptions(Array(CommandLine.arguments.dropFirst()))
let (json, repetitions, workloads, suspectsOverride) = (
  options.json, options.repetitions, options.workloads, options.suspects
)
let datasetOnly = options.datasetOnly
let log: (String) -> Void = { standardError("inspector-bench: \($0)") }

if let count = options.csv {
  let suspects = (options.csvFrom + 1...options.csvFrom + count).map {
    SuspectGenerator.suspect($0)
  }
  FileHandle.standardOutput.write(ImportWorkload.csvText(suspects).data(using: .utf8)!)
  exit(0)
}

if let count = datasetOnly {
  do {
    print(
      options.history
        ? try Dataset.historyPath(suspects: count, log: log)
        : try Dataset.path(suspects: count, kind: options.kind, log: log))
    exit(0)
  } catch {
    fail("\(error)", status: 1)
  }
}

if !json {
  emit(
    "SQLite \(Connection.sqliteVersion), \(ProcessInfo.processInfo.activeProcessorCount) cores, "
      + "\(repetitions) repetitions, medians")
  emit(
    "workload".padding(toLength: 9, withPad: " ", startingAt: 0)
      + "suspects".leftPadded(10) + "ours (s)".leftPadded(12) + "baseline (s)".leftPadded(14)
      + "ratio".leftPadded(9) + "  target")
}

var missed = false
do {
  for workload in workloads {
    // The history's own workloads: with its triggers against without, no C API baseline.
    if ["update", "delete", "load"].contains(workload) {
      let count = suspectsOverride ?? (workload == "load" ? 1_000_000 : 100_000)
      let row =
        workload.padding(toLength: 9, withPad: " ", startingAt: 0) + "\(count)".leftPadded(10)
        + "  "
      if workload == "load" {
        let cost = try LoadWorkload.run(suspects: count, repetitions: repetitions, log: log)
        missed = missed || !cost.meetsTarget
        emit(json ? cost.json : row + cost.line)
      } else {
        let cost = try (workload == "update" ? ChangeWorkload.update : ChangeWorkload.delete)(
          count, repetitions, log)
        missed = missed || !cost.meetsTarget
        emit(json ? cost.json : row + cost.line)
      }
      continue
    }
    let measurement: Measurement
    switch workload {
    case "insert":
      measurement = try InsertWorkload.run(
        suspects: suspectsOverride ?? 100_000, repetitions: repetitions, log: log)
    case "import":
      measurement = try ImportWorkload.run(
        suspects: suspectsOverride ?? 100_000, repetitions: repetitions, log: log)
    case "list":
      let count = suspectsOverride ?? 100_000
      measurement = try ListWorkload.run(
        path: try Dataset.path(suspects: count, log: log), suspects: count,
        repetitions: repetitions, log: log)
    case "rank":
      let count = suspectsOverride ?? 1_000_000
      measurement = try RankWorkload.run(
        path: try Dataset.path(suspects: count, log: log), suspects: count,
        repetitions: repetitions, log: log)
    default:
      let count = suspectsOverride ?? 1_000_000
      measurement = try ShowWorkload.run(
        path: try Dataset.path(suspects: count, log: log), suspects: count,
        repetitions: repetitions, log: log)
    }
    missed = missed || !measurement.meetsTarget || !(measurement.historyCost?.meetsTarget ?? true)
    log(
      "\(workload): wall ours \(measurement.ours.map { formatted($0.wall, digits: 4) }), baseline "
        + "\(measurement.baseline.map { formatted($0.wall, digits: 4) }); CPU ours "
        + "\(measurement.ours.map { formatted($0.cpu, digits: 4) }), baseline "
        + "\(measurement.baseline.map { formatted($0.cpu, digits: 4) }); CPU-time ratio "
        + formatted(measurement.cpuRatio, digits: 3))
    if json {
      emit(measurement.json)
      if let cost = measurement.historyCost { emit(cost.json) }
    } else {
      let target = measurement.target.map {
        "<= \(formatted($0, digits: 2))" + (measurement.meetsTarget ? "  ok" : "  MISSED")
      }
      emit(
        measurement.workload.padding(toLength: 9, withPad: " ", startingAt: 0)
          + "\(measurement.suspects)".leftPadded(10)
          + formatted(measurement.oursMedian, digits: 6).leftPadded(12)
          + formatted(measurement.baselineMedian, digits: 6).leftPadded(14)
          + formatted(measurement.ratio, digits: 3).leftPadded(9)
          + "  " + (target ?? "(reported)"))
      if let cost = measurement.historyCost { emit("  " + cost.line) }
    }
  }
} catch {
  fail("\(error)", status: 1)
}
exit(missed ? 3 : 0)

extension String {
  func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
