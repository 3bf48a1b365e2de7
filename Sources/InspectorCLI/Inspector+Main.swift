#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Inspector {
  /// Runs the process's command line, writes stdout and stderr, and exits with the status.
  public static func main() -> Never {
    // A closed pipe (`inspector list | head -1`) ends output quietly instead of killing us.
    signal(SIGPIPE, SIG_IGN)
    let outcome = run(
      arguments: Array(CommandLine.arguments.dropFirst()), environment: processEnvironment(),
      stdoutIsTerminal: isatty(1) == 1,
      writeToStandardError: { text in write(text, to: 2) }, output: OutputSink(descriptor: 1),
      terminalColumns: terminalColumns())
    write(outcome.standardError, to: 2)
    exit(outcome.status)
  }

  /// The width of the terminal on stdout in columns (`TIOCGWINSZ`), or `nil` when stdout is
  /// not a terminal or does not say.
  static func terminalColumns() -> Int? {
    var size = winsize()
    guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
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

  /// Writes all of `text` to a file descriptor at once; a failure is ignored (stderr has
  /// nowhere left to report it).
  static func write(_ text: String, to descriptor: Int32) {
    let sink = OutputSink(descriptor: descriptor)
    try? sink.write(text)
    try? sink.flush()
  }
}
