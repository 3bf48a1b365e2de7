// The benchmark executable (SPEC.md section 8); see scripts/bench.sh.
print("inspector-bench: not written yet")
