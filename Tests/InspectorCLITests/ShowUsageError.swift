import CommandLineKit

/// What `inspector show` without its argument writes to stderr, to the letter: the error line,
/// the command's usage and where to read more. Both the in-process and the built-binary tests
/// expect exactly this text.
let showUsageError = """
  inspector: error: Missing expected argument '<animal>'
  Usage: inspector show <animal> [--as-of <time>] [--db <path>] [--format <format>] [--json] \
  [--no-color] [--color-output <when>] [--busy-timeout <ms>] [--as <name>] [--note <text>]
  See 'inspector show --help'.

  """
