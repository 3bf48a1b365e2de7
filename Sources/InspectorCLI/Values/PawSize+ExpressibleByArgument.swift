import CaseStore
import CommandLineKit

/// `--paw` accepts the paw sizes' raw values (`small`, `medium`, `large`, in any letter case).
extension PawSize: ExpressibleByArgument {}
