#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

#if canImport(Glibc)
  private let systemWrite = Glibc.write
#elseif canImport(Darwin)
  private let systemWrite = Darwin.write
#endif

extension Inspector {
  /// Runs the process's command line, writes stdout and stderr, and exits with the status.
  public static func main() -> Never {
    // A closed pipe (`inspector list | head -1`) ends output quietly instead of killing us.
    signal(SIGPIPE, SIG_IGN)
    let outcome = run(
      arguments: Array(CommandLine.arguments.dropFirst()), environment: processEnvironment(),
      stdoutIsTerminal: isatty(1) == 1,
      writeToStandardError: { text in write(text, to: 2) })
    // Output that cannot be written (a full disk, a closed descriptor) is an I/O error (74),
    // never a silent success; a reader that stopped reading (EPIPE) is not an error.
    let failure = write(outcome.standardOutput, to: 1)
    write(outcome.standardError, to: 2)
    if let failure, failure != EPIPE {
      write(
        "inspector: error: cannot write the output: \(String(cString: strerror(failure)))\n",
        to: 2)
      exit(outcome.status == 0 ? ExitCode.ioError.rawValue : outcome.status)
    }
    exit(outcome.status)
  }

  /// The environment of this process as a dictionary.
  static func processEnvironment() -> [String: String] {
    var environment: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
      let pair = String(cString: pointer)
      if let equals = pair.firstIndex(of: "=") {
        environment[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
      }
      entry += 1
    }
    return environment
  }

  /// Writes all of `text` to a file descriptor, retrying on interruption.
  ///
  /// - Returns: `nil` when everything was written, else the `errno` that stopped it.
  @discardableResult
  static func write(_ text: String, to descriptor: Int32) -> Int32? {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { buffer in
        systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += written
    }
    return nil
  }
}
