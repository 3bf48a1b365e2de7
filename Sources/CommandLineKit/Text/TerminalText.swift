/// Text made safe to print on a terminal: what another program stored, or a user typed, must
/// not move the cursor, clear the screen, recolour or reorder what follows.
public enum TerminalText {
  /// `text` with every control character (C0 but tab and, when kept, line feed; DEL; C1) and
  /// every bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069) shown
  /// as U+FFFD "�".
  public static func safe(_ text: String, keepingLineBreaks: Bool = false) -> String {
    guard text.unicodeScalars.contains(where: { isUnsafe($0, keepingLineBreaks) }) else {
      return text
    }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      result.append(isUnsafe(scalar, keepingLineBreaks) ? "\u{FFFD}" : scalar)
    }
    return String(result)
  }

  /// `text` on one line and safe: CRLF, LF and CR shown as `\n` and `\r`, then ``safe(_:keepingLineBreaks:)``.
  public static func oneLine(_ text: String) -> String {
    safe(
      text.replacingAll("\r\n", with: "\\n").replacingAll("\n", with: "\\n")
        .replacingAll("\r", with: "\\r"))
  }

  private static func isUnsafe(_ scalar: Unicode.Scalar, _ keepingLineBreaks: Bool) -> Bool {
    switch scalar.value {
    case 0x09: false
    case 0x0A: !keepingLineBreaks
    case 0x00..<0x20, 0x7F...0x9F: true
    default: isBidiControl(scalar)
    }
  }

  /// A bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069), which
  /// would reorder the rest of the line on a terminal.
  public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
    (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
  }
}
