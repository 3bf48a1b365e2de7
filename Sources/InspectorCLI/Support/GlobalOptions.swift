/// The global options of `inspector` (README "A short tour"), accepted before or after the
/// command; ``CommandContext`` reads them.
struct GlobalOptions: Sendable {
  /// `--db <path>`.
  let db = Option<FilePath?>(
    "db", valueName: "path",
    help: "The database file (default: $INSPECTOR_DB, else"
      + " $XDG_DATA_HOME/fruit-inspectors/cases.sqlite).")
  /// `--format <format>`.
  let format = Option<OutputFormat?>("format", valueName: "format", help: "Output format.")
  /// `--json`.
  let json = Flag("json", help: "Short for --format json.")
  /// `--no-color`.
  let noColor = Flag(
    "no-color",
    help: "Never colour the output (also off when NO_COLOR is set or TERM is dumb).")
  /// `--color-output auto|always|never` (`--color` is a fruit's colour, as in `fruit add`).
  let color = Option<ColorChoice?>(
    "color-output", valueName: "when",
    help: "When to colour the output: auto (on a terminal; the default), always (for pagers"
      + " such as less -R; also CLICOLOR_FORCE=1), never.")
  /// `--busy-timeout <ms>`.
  let busyTimeout = Option<Milliseconds?>(
    "busy-timeout", valueName: "ms",
    help: "How long a write waits for another writer's lock (default 5000, also"
      + " $INSPECTOR_BUSY_TIMEOUT_MS).")

  /// `--as <name>`: who makes the changes (docs/history.md).
  let actor = Option<String?>(
    "as", valueName: "name",
    help: "Who makes the changes, for the history (default: $INSPECTOR_ACTOR, else the login"
      + " name).")
  /// `--note <text>`: why the changes are made (docs/history.md).
  let note = Option<String?>(
    "note", valueName: "text", help: "Why the changes are made, for the history.")

  /// The option specs, in the order help lists them.
  var specs: [OptionSpec] {
    [
      db.spec, format.spec, json.spec, noColor.spec, color.spec, busyTimeout.spec, actor.spec,
      note.spec,
    ]
  }
}
