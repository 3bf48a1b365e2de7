import Foundation

/// One step of the model-based test: an `inspector` command that changes the case file, with
/// its values exactly as typed (valid or not).
///
/// Every value is carried as text, so the model parses it by the README's rules on its own and the
/// product parses the same text through the command line. Options are passed as `--opt=value`
/// and positionals after `--`, so a value such as `-1` or `--x` is never taken for an option.
enum ModelOperation: Equatable, Sendable {
  /// `animal add`; a `nil` paw leaves out the required `--paw`.
  case addSuspect(name: String, species: String, paw: String?, emoji: String?, fruits: [String])
  /// `animal edit`; `nil` fields are not given.
  case editSuspect(
    reference: String, name: String?, species: String?, paw: String?, emoji: String?)
  /// `animal remove`.
  case removeSuspect(reference: String)
  /// `favorite add`.
  case addFavorite(reference: String, fruit: String)
  /// `favorite remove`.
  case removeFavorite(reference: String, fruit: String)
  /// `alibi <animal> TEXT`.
  case setAlibi(reference: String, text: String)
  /// `alibi <animal> --clear`.
  case clearAlibi(reference: String)
  /// `sleep <animal> --sleep S --wake W`; a `nil` side is left out.
  case setSleep(reference: String, sleep: String?, wake: String?)
  /// `sleep <animal>`: the default schedule when none exists.
  case defaultSleep(reference: String)
  /// `sleep <animal> --clear`.
  case clearSleep(reference: String)
  /// `suspect <animal> LEVEL`.
  case setSuspicion(reference: String, level: String)
  /// `incident add`; `nil` options are left out.
  case addIncident(
    fruit: String, at: String, paw: String?, latitude: String?, longitude: String?,
    notes: String?)
  /// `fruit add <name> --color C`.
  case addFruit(name: String, color: String)
  /// `fruit remove <fruit>`.
  case removeFruit(name: String)
  /// `fruit edit <fruit>`; `nil` options are left out.
  case editFruit(reference: String, name: String?, color: String?)
  /// `incident edit ID`; `nil` options and `false` flags are left out.
  case editIncident(
    reference: String, fruit: String?, at: String?, paw: String?, noPaw: Bool,
    latitude: String?, longitude: String?, noPlace: Bool, notes: String?)
  /// `incident remove ID`.
  case removeIncident(reference: String)
  /// `favorite move <animal> <fruit> --to N`; a `nil` position leaves out the required `--to`.
  case moveFavorite(reference: String, fruit: String, to: String?)

  // MARK: - Public API

  /// The kind of command, e.g. `favorite add` or `sleep default`.
  var kind: String {
    switch self {
    case .addSuspect: "animal add"
    case .editSuspect: "animal edit"
    case .removeSuspect: "animal remove"
    case .addFavorite: "favorite add"
    case .removeFavorite: "favorite remove"
    case .setAlibi: "alibi set"
    case .clearAlibi: "alibi clear"
    case .setSleep: "sleep set"
    case .defaultSleep: "sleep default"
    case .clearSleep: "sleep clear"
    case .setSuspicion: "suspect"
    case .addIncident: "incident add"
    case .addFruit: "fruit add"
    case .removeFruit: "fruit remove"
    case .editFruit: "fruit edit"
    case .editIncident: "incident edit"
    case .removeIncident: "incident remove"
    case .moveFavorite: "favorite move"
    }
  }

  /// The command line (without the program name), asking for JSON output.
  var arguments: [String] {
    switch self {
    case .addSuspect(let name, let species, let paw, let emoji, let fruits):
      return ["animal", "add", "--name=\(name)", "--species=\(species)"]
        + (paw.map { ["--paw=\($0)"] } ?? []) + (emoji.map { ["--emoji=\($0)"] } ?? [])
        + fruits.map { "--fruit=\($0)" } + ["--json"]
    case .editSuspect(let reference, let name, let species, let paw, let emoji):
      let options = [("name", name), ("species", species), ("paw", paw), ("emoji", emoji)]
        .compactMap { option, value in value.map { "--\(option)=\($0)" } }
      return ["animal", "edit"] + options + ["--json", "--", reference]
    case .removeSuspect(let reference):
      return ["animal", "remove", "--json", "--", reference]
    case .addFavorite(let reference, let fruit):
      return ["favorite", "add", "--json", "--", reference, fruit]
    case .removeFavorite(let reference, let fruit):
      return ["favorite", "remove", "--json", "--", reference, fruit]
    case .setAlibi(let reference, let text):
      return ["alibi", "--json", "--", reference, text]
    case .clearAlibi(let reference):
      return ["alibi", "--clear", "--json", "--", reference]
    case .setSleep(let reference, let sleep, let wake):
      return ["sleep"] + (sleep.map { ["--sleep=\($0)"] } ?? [])
        + (wake.map { ["--wake=\($0)"] } ?? []) + ["--json", "--", reference]
    case .defaultSleep(let reference):
      return ["sleep", "--json", "--", reference]
    case .clearSleep(let reference):
      return ["sleep", "--clear", "--json", "--", reference]
    case .setSuspicion(let reference, let level):
      return ["suspect", "--json", "--", reference, level]
    case .addIncident(let fruit, let at, let paw, let latitude, let longitude, let notes):
      let options = [
        ("fruit", fruit), ("at", at), ("paw", paw), ("lat", latitude), ("lon", longitude),
        ("notes", notes),
      ].compactMap { option, value in value.map { "--\(option)=\($0)" } }
      return ["incident", "add"] + options + ["--json"]
    case .addFruit(let name, let color):
      return ["fruit", "add", "--color=\(color)", "--json", "--", name]
    case .removeFruit(let name):
      return ["fruit", "remove", "--json", "--", name]
    case .editFruit(let reference, let name, let color):
      let options = [("name", name), ("color", color)]
        .compactMap { option, value in value.map { "--\(option)=\($0)" } }
      return ["fruit", "edit"] + options + ["--json", "--", reference]
    case .editIncident(
      let reference, let fruit, let at, let paw, let noPaw, let latitude, let longitude,
      let noPlace, let notes):
      let options = [
        ("fruit", fruit), ("at", at), ("paw", paw), ("lat", latitude), ("lon", longitude),
        ("notes", notes),
      ].compactMap { option, value in value.map { "--\(option)=\($0)" } }
      let flags = (noPaw ? ["--no-paw"] : []) + (noPlace ? ["--no-place"] : [])
      return ["incident", "edit"] + options + flags + ["--json", "--", reference]
    case .removeIncident(let reference):
      return ["incident", "remove", "--json", "--", reference]
    case .moveFavorite(let reference, let fruit, let position):
      return ["favorite", "move"] + (position.map { ["--to=\($0)"] } ?? [])
        + ["--json", "--", reference, fruit]
    }
  }

  /// The command as a shell line a person can paste: `inspector alibi --json -- Fish 'At home'`.
  var commandLine: String {
    (["inspector"] + arguments.map(Self.shellQuoted)).joined(separator: " ")
  }

  // MARK: - Private helpers

  /// A word quoted for a POSIX shell: bare when safe, `'...'` otherwise, and bash's `$'...'`
  /// when it holds control characters (so a line break stays visible).
  static func shellQuoted(_ word: String) -> String {
    let safe = word.unicodeScalars.allSatisfy {
      ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
        || "-_.,:/=@%+".unicodeScalars.contains($0)
    }
    if safe && !word.isEmpty { return word }
    let hasControl = word.unicodeScalars.contains {
      $0.properties.generalCategory == .control || $0.properties.isWhitespace && $0 != " "
    }
    guard hasControl else { return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    var text = "$'"
    for scalar in word.unicodeScalars {
      switch scalar {
      case "\n": text += "\\n"
      case "\t": text += "\\t"
      case "\r": text += "\\r"
      case "\\": text += "\\\\"
      case "'": text += "\\'"
      default:
        if scalar.properties.generalCategory == .control
          || (scalar.properties.isWhitespace && scalar != " ")
        {
          text += "\\u" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
        } else {
          text.unicodeScalars.append(scalar)
        }
      }
    }
    return text + "'"
  }
}

extension String {
  /// The string with leading zeros up to `width` characters.
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
