#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file-system step of a backup or restore failed (creating, syncing or renaming a file).
public struct FileOperationError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file or directory concerned.
  public let path: String
  /// What was being done, e.g. `create`.
  public let operation: String
  /// `errno` after the failing call.
  public let code: Int32

  /// Creates an error for `operation` on `path`, failing with `errno` value `code`.
  public init(path: String, operation: String, code: Int32) {
    self.path = path
    self.operation = operation
    self.code = code
  }

  /// `cannot create /x/y: No such file or directory`.
  public var description: String {
    "cannot \(operation) \(path): \(String(cString: strerror(code)))"
  }
}
