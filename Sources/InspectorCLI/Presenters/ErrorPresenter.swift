/// Turns a ``CommandFailure`` into its JSON error (docs/exit-codes.md "Errors as JSON"):
/// `{"error": {"kind": K, "message": M, "hint": H, "candidates": [...], ...}}`, `hint` only when
/// there is one, `candidates` only for an ambiguous name, then any members the caller adds (the
/// desk's `field`, `current`, `yours`). One compact line: the CLI's stderr with `--format json`
/// or `ndjson`, and the body of the desk's error responses.
enum ErrorPresenter {
  /// The JSON error as one line, with a newline.
  ///
  /// - Parameters:
  ///   - failure: The failure; its message and hint are written as they are (escaped as JSON).
  ///   - members: More members of the `error` object, in order, after the others.
  static func jsonLine(_ failure: CommandFailure, members: [(String, JSONValue)] = []) -> String {
    var output = UTF8Buffer()
    var document = JSONObjectWriter(pretty: false, indent: 0, to: &output)
    document.member("error", to: &output)
    var error = JSONObjectWriter(pretty: false, indent: 1, to: &output)
    error.member("kind", failure.kind.rawValue, to: &output)
    error.member("message", failure.message, to: &output)
    if let hint = failure.hint { error.member("hint", hint, to: &output) }
    if !failure.candidates.isEmpty {
      error.member("candidates", strings: failure.candidates, to: &output)
    }
    for (key, value) in members {
      error.member(key, to: &output)
      value.write(to: &output, pretty: false, indent: 2)
    }
    error.finish(to: &output)
    document.finish(to: &output)
    output.append(byte: UInt8(ascii: "\n"))
    return output.text
  }
}
