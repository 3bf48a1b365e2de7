import CommandLineKit

/// `--color-output` accepts `auto`, `always` and `never`.
extension ColorChoice: ExpressibleByArgument {}
