#!/usr/bin/env bash
# Run-time options of the sanitizer and fuzzing stage (sourced by tools/ai-fabric.sh; source it
# by hand to run build-asan's tests or harnesses the same way).
#
# ASan: leak detection on (LeakSanitizer reports every block still unreachable at exit, which
# the ns-3 Ptr reference cycles turn into); stop at the first error. UBSan: any undefined
# behaviour stops the test (the build also has -fno-sanitize-recover=undefined) with a stack
# trace. No suppression is needed: Debian's ns-3 libraries are not instrumented, so ASan sees
# their allocations only through the interposed malloc/new and reports their leaks like ours
# (there are none in the suite's runs), and no ODR or alloc/dealloc mismatch report arises.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# Function names and lines in reports (llvm-14 ships the symbolizer).
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ] && command -v llvm-symbolizer-14 >/dev/null; then
    ASAN_SYMBOLIZER_PATH="$(command -v llvm-symbolizer-14)"
    export ASAN_SYMBOLIZER_PATH
fi
