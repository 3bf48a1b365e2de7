import Testing

@testable import InspectorCLI

extension CLITestCase {
  /// Runs `arguments`, expects the error contract of ``expectFailure(_:status:messageContains:sourceLocation:)``
  /// with this status, and expects the suspects and fruits to be exactly as they were before.
  func expectRefusal(
    _ arguments: [String], status: Int32, messageContains fragment: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let before = snapshot()
    expectFailure(
      run(arguments), status: status, messageContains: fragment, sourceLocation: sourceLocation)
    #expect(
      snapshot() == before, "\(arguments) changed the case file", sourceLocation: sourceLocation)
  }
}
