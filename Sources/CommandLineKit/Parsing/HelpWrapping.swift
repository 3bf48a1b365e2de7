/// Wraps help text to a width in terminal columns (the help of docs/command-line.md): words are
/// never split, a word longer than the width stays whole on its own line, and lines that start
/// with a space (examples in a discussion) are left as they are.
public enum HelpWrapping {
  /// The width help uses when stdout is not a terminal, and the fallback for a terminal whose
  /// width is unknown.
  public static let defaultWidth = 80
  /// The narrowest width honoured; a narrower terminal still gets 40 columns.
  public static let minimumWidth = 40

  /// `text` (one paragraph) as lines of at most `width` columns.
  public static func lines(_ text: String, width: Int) -> [String] {
    lines(words: text.split(separator: " ").map(String.init), width: width)
  }

  /// `words` joined by single spaces into lines of at most `width` columns.
  static func lines(words: [String], width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    var lineWidth = 0
    for word in words {
      let wordWidth = displayWidth(of: word)
      if line.isEmpty {
        (line, lineWidth) = (word, wordWidth)
      } else if lineWidth + 1 + wordWidth <= width {
        line += " " + word
        lineWidth += 1 + wordWidth
      } else {
        lines.append(line)
        (line, lineWidth) = (word, wordWidth)
      }
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
  }

  /// `text` re-wrapped to `width`: consecutive lines form one paragraph (joined, then wrapped),
  /// continuation lines indented by `indent` spaces; blank lines and lines that start with a
  /// space (examples) are kept as they are.
  public static func paragraphs(_ text: String, width: Int, indent: Int = 0) -> String {
    var output: [String] = []
    var paragraph: [String] = []
    func flush() {
      guard !paragraph.isEmpty else { return }
      output.append(
        lines(paragraph.joined(separator: " "), width: width).joined(
          separator: "\n" + String(repeating: " ", count: indent)))
      paragraph = []
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.isEmpty || line.hasPrefix(" ") {
        flush()
        output.append(String(line))
      } else {
        paragraph.append(String(line))
      }
    }
    flush()
    return output.joined(separator: "\n")
  }

  /// A usage synopsis split only between top-level items (never inside `[...]` or `<...>`), so
  /// `[--param <name=value> ...]` stays on one line.
  static func usageItems(_ usage: String) -> [String] {
    var items: [String] = []
    var current = ""
    var depth = 0
    for character in usage {
      if character == "[" || character == "<" { depth += 1 }
      if character == "]" || character == ">" { depth = max(0, depth - 1) }
      if character == " " && depth == 0 {
        if !current.isEmpty { items.append(current) }
        current = ""
      } else {
        current.append(character)
      }
    }
    if !current.isEmpty { items.append(current) }
    return items
  }
}
