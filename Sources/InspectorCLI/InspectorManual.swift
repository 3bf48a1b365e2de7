import CommandLineKit

/// The manual page of `inspector` (``ManualPage`` from the command tree): `inspector manual`
/// prints it and `scripts/install.sh` installs it as `share/man/man1/inspector.1`. What only
/// inspector knows lives here: its exit statuses (``ExitCode/allCases`` and
/// ``ExitCode/meaning``), the environment it reads, its default database file.
enum InspectorManual {
  /// The page of ``CommandTree/root``.
  static var page: ManualPage {
    ManualPage(
      root: CommandTree.root, version: Inspector.version, manual: "Fruit Inspectors",
      description: [
        "The case file is one SQLite database, usable from the stock sqlite3 shell too. The"
          + " global options may stand before or after the command. Every command and group"
          + " answers -h and --help, and inspector help COMMAND [SUBCOMMAND] prints the same"
          + " help. Errors go to standard error as one line starting with \"inspector: error:\","
          + " sometimes followed by a hint line; standard output then stays empty. With"
          + " --format json, --json or --format ndjson, the error is instead one JSON line,"
          + " {\"error\":{\"kind\":...,\"message\":...}}, with the same exit status."
      ],
      exitStatuses: ExitCode.allCases.map { ManualPage.Entry(String($0.rawValue), $0.meaning) },
      environment: environment.map { ManualPage.Entry($0.name, $0.meaning) },
      files: [
        ManualPage.Entry(
          "$XDG_DATA_HOME/fruit-inspectors/cases.sqlite",
          "The default database; ~/.local/share/fruit-inspectors/cases.sqlite when XDG_DATA_HOME"
            + " is not set or not an absolute path. Only init, demo and restore create it (mode"
            + " 0600); every other command on a missing file exits 66.")
      ],
      seeAlso: [("sqlite3", "1")], versionHelp: "Show the version and SQLite's.")
  }

  /// The environment variables `inspector` reads, with what each does, in the order the page
  /// lists them.
  static let environment: [(name: String, meaning: String)] = [
    ("INSPECTOR_DB", "The database file when --db is not given (an empty value counts as unset)."),
    (
      "INSPECTOR_BUSY_TIMEOUT_MS",
      "How long a write waits for another writer's lock, in milliseconds, when --busy-timeout"
        + " is not given (default 5000); a value that is not a whole number, 0 or more, is a"
        + " usage error."
    ),
    (
      "XDG_DATA_HOME",
      "When an absolute path, the default database is"
        + " $XDG_DATA_HOME/fruit-inspectors/cases.sqlite; a relative one is ignored, as the XDG"
        + " Base Directory spec says."
    ),
    (
      "HOME",
      "Without XDG_DATA_HOME, the default database is"
        + " $HOME/.local/share/fruit-inspectors/cases.sqlite when HOME is an absolute path;"
        + " with neither an absolute path, give --db."
    ),
    ("NO_COLOR", "When set and not empty, tables are never coloured (as with --no-color)."),
    ("TERM", "When it is dumb, tables are not coloured (unless --color-output always)."),
    (
      "CLICOLOR_FORCE",
      "When set and not 0, tables are coloured even into a pipe (as with --color-output always)."
    ),
    (
      "INSPECTOR_ACTOR",
      "Who makes the changes, recorded in the case history, when --as is not given (else the"
        + " login name)."
    ),
  ]
}
