import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Lets a long command (a backup) stop cleanly on Ctrl-C or `kill`: while ``during(_:)`` runs,
/// SIGINT and SIGTERM only set a flag, which the command checks between steps with
/// ``check()``, so it can remove what it had started before exiting 130.
enum Interruption {
  /// Set by the signal handler (an atomic store is safe in a signal handler).
  static let requested = Atomic<Bool>(false)

  /// Runs `body` with SIGINT and SIGTERM caught, then restores the previous handlers.
  static func during<T>(_ body: () throws -> T) rethrows -> T {
    requested.store(false, ordering: .relaxed)
    let previousInterrupt = signal(SIGINT) { _ in
      Interruption.requested.store(true, ordering: .relaxed)
    }
    let previousTerminate = signal(SIGTERM) { _ in
      Interruption.requested.store(true, ordering: .relaxed)
    }
    // A parent may have started us with these signals blocked; the handlers need them.
    var signals = sigset_t()
    var previousMask = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGINT)
    sigaddset(&signals, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &signals, &previousMask)
    defer {
      pthread_sigmask(SIG_SETMASK, &previousMask, nil)
      signal(SIGINT, previousInterrupt)
      signal(SIGTERM, previousTerminate)
    }
    return try body()
  }

  /// Throws ``CommandFailure`` (exit 130) when a signal arrived.
  ///
  /// - Parameter what: What was stopped, for the message (e.g. `the backup`).
  static func check(_ what: String) throws {
    if requested.load(ordering: .relaxed) {
      throw CommandFailure(
        "interrupted; \(what) was stopped and nothing was left half-written",
        exitCode: .interrupted)
    }
  }
}
