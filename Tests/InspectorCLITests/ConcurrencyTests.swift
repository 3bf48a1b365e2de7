import Foundation
import SQLiteKit
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Several `inspector` processes writing at once, and a lock held past the busy timeout
/// (README "Guarantees": WAL, `busy_timeout`, write transactions begun `IMMEDIATE`; section 4:
/// exit 75 when the database stays busy).
@Suite(.tags(.slow, .concurrency, .processes), .skippedInFastSet) struct ConcurrencyTests {
  /// Writers running side by side; each worker runs its commands one after another.
  static let workers = 8
  static let commandsPerWorker = 6

  @Test func concurrentWritersAllSucceedAndEveryWriteIsKept() throws {
    let sandbox = try ProcessSandbox()
    // Each worker alternates ad-hoc SQL inserting a fruit (named by a bound parameter) and
    // `animal add` of a new species: both kinds of write transaction, all at once.
    var pending: [[[String]]] = (0..<Self.workers).map { worker in
      (0..<Self.commandsPerWorker).map { step in
        step.isMultiple(of: 2)
          ? [
            "sql", "--write", "INSERT INTO fruits (name, color) VALUES (:name, 'red')",
            "--param", "name=Parallel fruit \(worker)-\(step)",
          ]
          : [
            "animal", "add", "--name", "Twin \(worker)-\(step)", "--species",
            "Species \(worker)-\(step)", "--paw", "small",
          ]
      }
    }
    // A small scheduler: every worker always has one process running until its list is done,
    // so eight writers overlap the whole time (threads would be capped at the two cores).
    var running: [(worker: Int, command: [String], process: Process)?] = Array(
      repeating: nil, count: Self.workers)
    var failures: [String] = []
    var finished = 0
    let deadline = ContinuousClock.now + .seconds(120)
    while finished < Self.workers * Self.commandsPerWorker && ContinuousClock.now < deadline {
      for worker in 0..<Self.workers {
        if let current = running[worker] {
          guard !current.process.isRunning else { continue }
          current.process.waitUntilExit()
          if current.process.terminationReason != .exit || current.process.terminationStatus != 0 {
            failures.append(
              "\(current.command.prefix(4)): \(current.process.terminationReason) "
                + "\(current.process.terminationStatus)")
          }
          finished += 1
          running[worker] = nil
        }
        if !pending[worker].isEmpty {
          let command = pending[worker].removeFirst()
          running[worker] = (worker, command, try sandbox.start(command))
        }
      }
      usleep(1_000)
    }
    #expect(finished == Self.workers * Self.commandsPerWorker, "timed out")
    #expect(failures == [])
    let fruitWrites = Self.workers * ((Self.commandsPerWorker + 1) / 2)
    let animalWrites = Self.workers * (Self.commandsPerWorker / 2)
    let fruits = try jsonArray(try sandbox.run("fruit", "list", "--json").standardOutput)
    #expect(fruits.count == 19 + fruitWrites)
    let suspects = try jsonArray(try sandbox.run("list", "--json").standardOutput)
    #expect(suspects.count == 10 + animalWrites)
    // Every single write is there, under its own name.
    let fruitNames = Set(fruits.compactMap { $0["name"] as? String })
    let species = Set(suspects.compactMap { $0["species"] as? String })
    for worker in 0..<Self.workers {
      for step in 0..<Self.commandsPerWorker {
        if step.isMultiple(of: 2) {
          #expect(fruitNames.contains("Parallel fruit \(worker)-\(step)"))
        } else {
          #expect(species.contains("Species \(worker)-\(step)"))
        }
      }
    }
    expectSuccess(try sandbox.run("check"), "check")
  }

  @Test func aLockHeldPastTheTimeoutExits75AndChangesNothing() throws {
    let sandbox = try ProcessSandbox()
    expectSuccess(try sandbox.run("suspect", "crow", "0.25"), "suspect crow 0.25")
    let holder = try sandbox.connection()
    try holder.execute("BEGIN IMMEDIATE")
    let attempts: [(arguments: [String], environment: [String: String])] = [
      (["--busy-timeout", "200", "suspect", "crow", "0.5"], [:]),
      (["suspect", "crow", "0.5", "--busy-timeout=200"], [:]),
      (["suspect", "crow", "0.5"], ["INSPECTOR_BUSY_TIMEOUT_MS": "200"]),
      (["suspect", "crow", "0.5", "--busy-timeout", "0"], [:]),
      (["fruit", "add", "Locked Quince", "--color", "yellow", "--busy-timeout", "200"], [:]),
      (["sql", "--write", "DELETE FROM alibis", "--busy-timeout", "200"], [:]),
    ]
    for attempt in attempts {
      let run = try sandbox.run(attempt.arguments, environment: attempt.environment)
      let label = "\(attempt.arguments) \(attempt.environment)"
      expectRefusal(run, [75], label)
      #expect(run.standardError.hasPrefix("inspector: error: the database is busy"), "\(label)")
      #expect(lines(run.standardError).count == 2, "\(label): one error line and the hint")
    }
    // Readers are not blocked by the writer (WAL).
    let whileLocked = try sandbox.run("show", "crow", "--json")
    expectSuccess(whileLocked, "show crow while locked")
    #expect(number(try jsonObject(whileLocked.standardOutput)["suspicion_level"]) == 0.25)
    try holder.execute("ROLLBACK")
    let after = try jsonObject(try sandbox.run("show", "crow", "--json").standardOutput)
    #expect(number(after["suspicion_level"]) == 0.25)
    let fruits = try jsonArray(try sandbox.run("fruit", "list", "--json").standardOutput)
    #expect(fruits.count == 19)
    #expect(!fruits.contains { $0["name"] as? String == "Locked Quince" })
  }

  @Test func aWriterWaitsForALockReleasedWithinTheTimeout() throws {
    let sandbox = try ProcessSandbox()
    let holder = try sandbox.connection()
    try holder.execute("BEGIN IMMEDIATE")
    try holder.execute("UPDATE animals SET name = 'Catie' WHERE species = 'Crow'")
    let writer = try sandbox.start(["suspect", "crow", "0.75"])  // default timeout: 5000 ms
    usleep(400_000)
    #expect(writer.isRunning, "the writer should be waiting for the lock")
    try holder.execute("COMMIT")
    writer.waitUntilExit()
    #expect(writer.terminationReason == .exit)
    #expect(writer.terminationStatus == 0)
    let crow = try jsonObject(try sandbox.run("show", "crow", "--json").standardOutput)
    #expect(number(crow["suspicion_level"]) == 0.75)
  }
}
