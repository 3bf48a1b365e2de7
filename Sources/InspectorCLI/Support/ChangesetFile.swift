import CaseStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading and writing changeset files for `changes export`, `show` and `apply`.
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

  /// Writes `text` to `path` (created with mode 0600, replaced if it exists).
  ///
  /// - Throws: ``CommandFailure`` with exit 73 when the file cannot be written.
  static func save(_ text: String, to path: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw CommandFailure(
        "cannot create \(path): \(String(cString: strerror(errno)))", exitCode: .cannotCreate)
    }
    defer { close(descriptor) }
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        write(descriptor, $0.baseAddress! + offset, bytes.count - offset)
      }
      guard written > 0 else {
        throw CommandFailure(
          "cannot write \(path): \(String(cString: strerror(errno)))", exitCode: .cannotCreate)
      }
      offset += written
    }
  }
}
