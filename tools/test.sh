#!/usr/bin/env bash
# The whole test suite: builds the package tarball, runs R CMD check --as-cran on it
# (which runs every testthat test, NOT_CRAN=true so none is skipped as "on CRAN"),
# and prints the testthat counts as the last line: "N passed, N failed, N skipped".
# Exits non-zero on any check ERROR or WARNING, or any failed test.
# Needs only R: it checks the committed sources as they are (no roxygen2; regenerate
# the documentation with tools/document.R) and writes only to check/ (git-ignored).
set -u
# Compile with both cores unless the caller chose otherwise.
export MAKEFLAGS="${MAKEFLAGS:--j2}"
cd "$(dirname "$0")/.."
top=$PWD
out=$top/check
rm -rf "$out" && mkdir -p "$out"

Rscript tools/install-deps.R test || { echo "0 passed, 1 failed, 0 skipped"; exit 1; }

(cd "$out" && R CMD build "$top" > build.log 2>&1) || {
  cat "$out/build.log"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
tarball=$(ls "$out"/gufunc_*.tar.gz)

# --as-cran turns a missing qpdf into a WARNING whenever the tarball has inst/doc,
# although qpdf only ever looks at PDFs there (tools:::.check_packages: with qpdf it
# runs check_doc_size(), which compacts inst/doc/*.pdf; without it, the warning;
# _R_CHECK_DOC_SIZES_=false gives the same warning). The vignettes are HTML and the
# manual is not built, so the package ships no PDF: then R_QPDF may name a stand-in
# that is never run. Should a PDF ever appear, the stand-in is not used.
if [ -z "$(command -v "${R_QPDF:-qpdf}")" ]; then
  if tar -tzf "$tarball" | grep -qi '\.pdf$'; then
    echo "note: the tarball has PDF files and qpdf is missing: check will warn"
  else
    export R_QPDF=true
  fi
fi

# Offline-safe: checks that need a network service are off (remote CRAN queries, the
# remote clock). test-docs-current.R finds the sources and the developer's libraries
# (roxygen2, if installed) through the GUFUNC_* variables.
GUFUNC_DEV_LIBS=$(Rscript -e 'cat(.libPaths(), sep = .Platform$path.sep)')
(cd "$out" && NOT_CRAN=true _R_CHECK_CRAN_INCOMING_REMOTE_=false _R_CHECK_SYSTEM_CLOCK_=FALSE \
  GUFUNC_SOURCE_DIR="$top" GUFUNC_DEV_LIBS="$GUFUNC_DEV_LIBS" R CMD check --as-cran --no-manual "$tarball" > check.log 2>&1)
check_rc=$?
cat "$out/check.log"

rout=$(ls "$out"/gufunc.Rcheck/tests/testthat.Rout* 2>/dev/null | head -1)
summary=""
[ -n "$rout" ] && summary=$(grep -E '\[ FAIL [0-9]+ \| WARN [0-9]+ \| SKIP [0-9]+ \| PASS [0-9]+ \]' "$rout" | tail -1)
if [ -n "$rout" ] && [ -f "$out/gufunc.Rcheck/tests/testthat.Rout.fail" ]; then
  tail -60 "$out/gufunc.Rcheck/tests/testthat.Rout.fail"
fi
failed=$(echo "$summary" | sed -nE 's/.*FAIL ([0-9]+).*/\1/p')
passed=$(echo "$summary" | sed -nE 's/.*PASS ([0-9]+).*/\1/p')
skipped=$(echo "$summary" | sed -nE 's/.*SKIP ([0-9]+).*/\1/p')
[ -n "$failed" ] || failed=1
[ -n "$passed" ] || passed=0

status=$(grep -E '^Status:' "$out/check.log" | tail -1)
echo "R CMD check: ${status:-no status (check did not finish)}"
rc=0
if [ "$check_rc" -ne 0 ] || echo "$status" | grep -qE 'ERROR|WARNING' || [ -z "$status" ]; then rc=1; fi
[ "$failed" -eq 0 ] || rc=1
echo "$passed passed, $failed failed, ${skipped:-0} skipped"
exit $rc
