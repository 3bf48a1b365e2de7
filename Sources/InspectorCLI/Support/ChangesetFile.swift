import CaseStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading changeset files for `changes show` and `apply` (`changes export --output` writes
/// through `CommandContext.outputFile(_:writing:alsoProtecting:)`).
enum ChangesetFile {
  /// Reads and decodes the changeset file at `path`.
  ///
  /// - Throws: `CaseFileError.missing` when there is no such file (exit 66),
  ///   `ChangesError.notAChangeset` when it is not one (exit 65).
  static func read(_ path: String) throws -> CaseChangeset {
    guard let handle = fopen(path, "rb") else { throw CaseFileError.missing(path) }
    defer { fclose(handle) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = fread(&chunk, 1, chunk.count, handle)
      if count <= 0 { break }
      bytes += chunk[0..<count]
    }
    return try CaseChangeset(fileBytes: bytes, path: path)
  }
}
