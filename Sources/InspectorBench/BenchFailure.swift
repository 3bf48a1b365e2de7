/// A check that failed: the benchmark's figures would mean nothing, so it stops (exit 1).
struct BenchFailure: Error, CustomStringConvertible {
  var description: String
}
