#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Who makes a run's changes, for the history (docs/history.md): `--as`, else
/// `$INSPECTOR_ACTOR` when not empty, else the login name, looked up only when a write needs
/// it.
struct ActorName: Sendable {
  /// `--as`, else `$INSPECTOR_ACTOR` (when not empty), else `nil`.
  let chosen: String?
  /// The process environment, for `$LOGNAME` and `$USER`.
  let environment: [String: String]

  /// Takes `--as` or `$INSPECTOR_ACTOR`.
  ///
  /// - Parameters:
  ///   - option: `--as`'s value, if given.
  ///   - environment: The process environment.
  init(option: String?, environment: [String: String]) {
    if let option {
      chosen = option
    } else if let actor = environment["INSPECTOR_ACTOR"], !actor.isEmpty {
      chosen = actor
    } else {
      chosen = nil
    }
    self.environment = environment
  }

  /// The name: the chosen one, else the user database's name for the effective user id, else
  /// `$LOGNAME` or `$USER`, else `uid N`.
  var name: String {
    if let chosen { return chosen }
    if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name {
      let text = String(cString: name)
      if !text.isEmpty { return text }
    }
    for variable in ["LOGNAME", "USER"] {
      if let name = environment[variable], !name.isEmpty { return name }
    }
    return "uid \(geteuid())"
  }
}
