import CaseStore
import SQLiteKit
import Testing

/// The case store classifies storage-layer errors so that the CLI need not import SQLiteKit.
@Suite struct StorageFailureTests {
  @Test(
    arguments: [
      (ResultCode.busy, StorageFailure.Kind.busy), (.locked, .busy), (.corrupt, .corrupt),
      (.constraint, .rejected), (.readOnly, .readOnly), (.full, .ioError),
      (.notADatabase, .notADatabase), (.cannotOpen, .cannotOpen), (.misuse, .otherSQLite),
    ])
  func sqliteErrorsByResultCode(code: ResultCode, kind: StorageFailure.Kind) {
    let failure = StorageFailure(SQLiteError(extendedCode: code, message: "the text"))
    #expect(failure?.kind == kind)
    #expect(failure?.message == "the text")
  }

  @Test func migrationDriftIsItsOwnKind() {
    let error = MigrationError.drift(versions: [2])
    #expect(StorageFailure(error)?.kind == .migrationDrift)
    #expect(StorageFailure(error)?.message == error.description)
  }

  @Test func caseStoreErrorsAreNotStorageFailures() {
    #expect(StorageFailure(CaseError.unknownSuspect("x")) == nil)
  }
}
