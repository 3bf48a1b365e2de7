import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A reader that stops reading (`inspector list | head -1`) ends a streamed listing quietly:
/// no error text and status 0 (docs/output-formats.md "Streaming").
@Suite("A closed pipe is a quiet end", .tags(.slow, .processes), .skippedInFastSet)
struct ClosedPipeTests {
  @Test(arguments: [["list", "--json"], ["rank", "--all"], ["sql", "SELECT * FROM alibis"]])
  func theListingStopsWhenTheReaderHasGone(_ arguments: [String]) throws {
    // About 1.5 MB of output: far more than a pipe holds, so inspector is still writing when
    // the reader goes.
    let sandbox = try HostileInputTests.largeCase()
    let process = try sandbox.makeProcess(arguments, environment: [:])
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let first = output.fileHandleForReading.readData(ofLength: 64)
    try output.fileHandleForReading.close()
    let clock = ContinuousClock()
    let start = clock.now
    while process.isRunning && clock.now - start < .seconds(30) { usleep(2_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    #expect(!first.isEmpty, "output began")
    #expect(process.terminationReason == .exit, "not killed by SIGPIPE or by the test")
    #expect(process.terminationStatus == 0)
    let errorText = String(
      decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(errorText == "")
  }
}
