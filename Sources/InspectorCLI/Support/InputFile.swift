#if canImport(Glibc)
  import Glibc
  private let systemRead = Glibc.read
#elseif canImport(Darwin)
  import Darwin
  private let systemRead = Darwin.read
#endif

/// Reads a whole input file, or standard input for `-` (`inspector import FILE|-`).
enum InputFile {
  /// The bytes of `path`, or of standard input when `path` is `-`.
  ///
  /// - Throws: ``CommandFailure`` with exit 66 when the file is missing, unreadable or a
  ///   directory, and exit 74 when reading fails part-way.
  static func read(_ path: String) throws -> [UInt8] {
    let descriptor: Int32
    if path == "-" {
      descriptor = 0
    } else {
      descriptor = open(path, O_RDONLY)
      guard descriptor >= 0 else {
        throw CommandFailure(
          "cannot read \(path): \(String(cString: strerror(errno)))", exitCode: .noInput)
      }
    }
    defer { if descriptor != 0 { close(descriptor) } }
    var status = stat()
    if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
      throw CommandFailure("cannot read \(path): it is a directory", exitCode: .noInput)
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw CommandFailure(
          "cannot read \(path == "-" ? "standard input" : path): "
            + String(cString: strerror(errno)), exitCode: .ioError)
      }
      if count == 0 { return bytes }
      bytes += chunk[..<count]
    }
  }
}
