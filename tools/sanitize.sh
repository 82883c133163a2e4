#!/usr/bin/env bash
# The testthat suite under AddressSanitizer + UndefinedBehaviorSanitizer, in one command:
#   bash tools/sanitize.sh [filter]      (filter: a testthat file filter, e.g. "bad-input")
# Builds gufunc from a copy of this checkout (tracked and untracked files, as they are
# now) with ASan and UBSan into a temporary library, runs the tests in R with gcc's
# libasan preloaded, and prints the number of sanitizer reports as the last line.
# Exits 1 if there is any report, 2 if the build or the test run failed without one.
# The checkout is not modified: everything happens in a temporary directory.
set -u
export MAKEFLAGS="${MAKEFLAGS:--j2}"
top=$(cd "$(dirname "$0")/.." && pwd)
filter=${1:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/gufunc-sanitize.XXXXXX")
# Kept when something was found, for the logs; removed otherwise.
keep=0
trap '[ "$keep" = 1 ] && echo "logs kept in $work/logs" || rm -rf "$work"' EXIT
mkdir -p "$work/pkg" "$work/lib" "$work/logs"

# R itself is not built with ASan, so the runtime must be loaded before anything else.
libasan=$(gcc -print-file-name=libasan.so)
if [ ! -e "$libasan" ]; then
  echo "gcc's libasan.so not found (gcc -print-file-name=libasan.so gave '$libasan')"
  exit 2
fi

# A copy of the sources without build products (objects of a normal build must not be
# linked into the instrumented library).
(cd "$top" && git ls-files -z --cached --others --exclude-standard |
  tar --null -T - -cf -) | tar -C "$work/pkg" -xf -
find "$work/pkg/src" \( -name '*.o' -o -name '*.so' -o -name '*.dll' \) -delete

# The flags go in a user Makevars, which R CMD INSTALL reads after its own; the
# package's src/Makevars is used unchanged (it selects C++17, hence CXX17FLAGS).
san="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
cat > "$work/Makevars" <<EOF
CFLAGS = -g -O1 $san
CXXFLAGS = -g -O1 $san
CXX11FLAGS = -g -O1 $san
CXX14FLAGS = -g -O1 $san
CXX17FLAGS = -g -O1 $san
LDFLAGS = $san
EOF
echo "building gufunc with ASan + UBSan into $work/lib"
if ! R_MAKEVARS_USER="$work/Makevars" R CMD INSTALL --no-test-load --no-docs --no-multiarch \
  --library="$work/lib" "$work/pkg" > "$work/logs/install.log" 2>&1; then
  tail -40 "$work/logs/install.log"
  echo "the sanitizer build failed"
  keep=1
  exit 2
fi

# Options R needs under a preloaded ASan:
# - detect_leaks=0: R frees little at exit by design (the heap, the global environment),
#   so LeakSanitizer would report all of it.
# - allocator_may_return_null=1: R (and the tests) ask for vectors too large to allocate
#   and expect malloc to return NULL ("cannot allocate vector"), not ASan to abort.
# - log_path: every process (the test R session and the child Rscript processes some
#   tests start) writes its ASan reports to a file of its own, counted below.
# No other option was needed (R 4.2, gcc 12): neither detect_odr_violation=0 nor
# alloc_dealloc_mismatch=0 (R's allocations are not instrumented but match).
# UBSan ignores log_path in a build that also has ASan: its reports go to the stderr of
# the process, the test log for the test session. Each stops its process
# (-fno-sanitize-recover=undefined), so one in a child process fails that test.
export ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1:log_path=$work/logs/asan"
export UBSAN_OPTIONS="print_stacktrace=1"
echo "running the tests${filter:+ matching \"$filter\"} under the sanitizers"
(cd "$work/pkg/tests" && NOT_CRAN=true R_LIBS="$work/lib${R_LIBS:+:$R_LIBS}" \
  LD_PRELOAD="$libasan" Rscript -e '
    library(testthat)
    filter <- commandArgs(TRUE)[1]
    res <- as.data.frame(test_dir("testthat", package = "gufunc", load_package = "installed",
                                  filter = if (nzchar(filter)) filter, reporter = "summary",
                                  stop_on_failure = FALSE))
    cat(sprintf("TESTS: %d passed, %d failed, %d skipped\n", sum(res$passed),
                sum(res$failed) + sum(res$error), sum(res$skipped)))
  ' "$filter" > "$work/logs/tests.log" 2>&1)
test_rc=$?
tail -25 "$work/logs/tests.log"

reports=0
for f in "$work"/logs/asan.* "$work/logs/tests.log"; do
  [ -e "$f" ] || continue
  n=$(grep -cE 'ERROR: AddressSanitizer|runtime error:' "$f")
  [ "$n" -gt 0 ] || continue
  reports=$((reports + n))
  echo "---- $(basename "$f")"
  grep -B2 -A30 -E 'ERROR: AddressSanitizer|runtime error:' "$f" | head -80
done
echo "$reports sanitizer reports"
if [ "$reports" -gt 0 ]; then keep=1; exit 1; fi
if [ "$test_rc" -ne 0 ] || ! grep -q '^TESTS:' "$work/logs/tests.log"; then
  echo "the test run did not finish (exit status $test_rc)"
  keep=1
  exit 2
fi
if ! grep -qE '^TESTS: [0-9]+ passed, 0 failed' "$work/logs/tests.log"; then
  echo "tests failed under the sanitizers (a report in a child process shows only so)"
  keep=1
  exit 2
fi
exit 0
