#!/usr/bin/env bash
# Does the module still compile against the newest ns-3 release? The cheapest check that
# catches an API break: configure an ns-3.48 source tree with ai-fabric in contrib/ (CMake
# configure only: it generates the ns3/*.h headers and the compile commands) and compile every
# module source (model, helper, examples, tests, benchmark) with -fsyntax-only against those
# headers, with ns-3's own flags (-Wall -Wpedantic -Werror, as a release build of ns-3 has).
# Nothing of ns-3 itself is built (a full in-tree build takes ~20 min on 2 cores; this check
# about five minutes, 685 s before the precompiled headers). The C++ library and ns-3's core
# and network headers are precompiled once per flag set (parsing them was about half of each
# source's time); a source that misses one of their includes is caught by the build against
# Debian's ns-3, which has no precompiled headers. Deprecation warnings (ns-3 keeps them
# non-fatal) are listed at the end:
# they are next release's removals, to route through model/engine/ai-fabric-compat.h.
#
#   tools/ci/check-ns3-latest.sh [WORK_DIR]
#
# WORK_DIR (default build/ns3-latest) receives the extracted tree; it is reused while the
# tarball is unchanged. Environment: NS3_LATEST_TARBALL (default
# ../shared/ns-3/ns-3.48-src.tar.xz beside the repository), JOBS (default nproc). Needs
# cmake >= 3.25, g++ >= 11, python3, xz and GoogleTest (Debian bookworm: cmake g++ python3
# xz-utils libgtest-dev; tools/ai-fabric.sh installs them). Exit status: 0 every source
# compiles, 1 some do not (their errors are printed), 2 no usable tarball.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tarball="${NS3_LATEST_TARBALL:-$here/../shared/ns-3/ns-3.48-src.tar.xz}"
work="${1:-$here/build/ns3-latest}"
jobs="${JOBS:-$(nproc)}"

start=$(date +%s)
mkdir -p "$work"
work="$(cd "$work" && pwd)"
. "$here/tools/ci/ns3-source-tree.sh"
src="$(ns3_source_tree check-ns3-latest "$tarball" "$work")"
version="$(cat "$src/VERSION")"

# Configure only: ai-fabric and what it depends on, with examples and tests, without
# precompiled headers (the compile commands must not refer to a header that is never built).
bld="$src/cmake-cache"
if ! cmake -S "$src" -B "$bld" -DCMAKE_BUILD_TYPE=release -DNS3_ENABLED_MODULES=ai-fabric \
    -DNS3_EXAMPLES=ON -DNS3_TESTS=ON -DNS3_PRECOMPILE_HEADERS=OFF -DNS3_WARNINGS=ON \
    -DNS3_WARNINGS_AS_ERRORS=ON -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
    >"$work/configure.log" 2>&1; then
    cat "$work/configure.log" >&2
    echo "check-ns3-latest: configuring ns-3 $version with ai-fabric failed" >&2
    exit 1
fi
configured=$(date +%s)

# Every translation unit of the module as -fsyntax-only: one script per source in
# $work/syntax/, run in parallel; a failing one leaves a .failed marker beside its log.
syntax="$work/syntax"
rm -rf "$syntax"
mkdir -p "$syntax"
python3 - "$bld/compile_commands.json" "$src/contrib/ai-fabric/" "$syntax" <<'PY'
import collections, json, shlex, sys

db, prefix, out = sys.argv[1], sys.argv[2], sys.argv[3]
entries = [e for e in json.load(open(db)) if e["file"].startswith(prefix)]


def flags(entry):
    """The compile command without its output, dependency file, -c and source."""
    keep, skip = [], False
    for a in shlex.split(entry["command"]):
        if skip:
            skip = False
        elif a in ("-o", "-MF", "-MT"):
            skip = True
        elif a not in ("-c", "-MD", "-MMD", entry["file"]):
            keep.append(a)
    return keep


# One precompiled header per flag set shared by enough sources to pay for it (building one
# takes about as long as checking five sources): the C++ library and ns-3's core and network
# modules, parsed once instead of once per source.
groups = collections.Counter(shlex.join(flags(e)) for e in entries)
pch = {}
for key, count in sorted(groups.items()):
    if count < 8:
        continue
    g = f"{out}/pch{len(pch):02d}"
    pch[key] = g
    with open(f"{g}.h", "w") as f:
        f.write("#include <bits/stdc++.h>\n")
        f.write('#include "ns3/core-module.h"\n#include "ns3/network-module.h"\n')
    with open(f"{g}.pch", "w") as f:
        f.write(f"{key} -x c++-header {g}.h -o {g}.h.gch.tmp && mv {g}.h.gch.tmp {g}.h.gch\n")
n = 0
for entry in sorted(entries, key=lambda e: e["file"]):
    keep = flags(entry)
    g = pch.get(shlex.join(keep))
    if g:
        keep += ["-include", f"{g}.h", "-Winvalid-pch"]
    keep += ["-fsyntax-only", entry["file"]]
    n += 1
    with open(f"{out}/{n:03d}.sh", "w") as f:
        f.write(f"# {entry['file'][len(prefix):]}\n")
        f.write(f"cd {shlex.quote(entry['directory'])}\n{shlex.join(keep)}\n")
if n == 0:
    sys.exit("check-ns3-latest: no ai-fabric sources in " + db)
PY
n=$(find "$syntax" -name '*.sh' | wc -l)
kinds="$(head -qn 1 "$syntax"/*.sh | sed 's|^# \([a-z]*\)/.*|\1|' | sort | uniq -c |
    awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2}')"
# The precompiled headers first (a source whose header failed to precompile reads it as text).
find "$syntax" -name '*.pch' | sort | xargs -r -P "$jobs" -n 1 \
    sh -c 'bash "$0" >"${0%.pch}.log" 2>&1 || touch "${0%.pch}.failed"'
find "$syntax" -name '*.sh' | sort | xargs -P "$jobs" -n 1 \
    sh -c 'bash "$0" >"${0%.sh}.log" 2>&1 || touch "${0%.sh}.failed"'
end=$(date +%s)

failed=0
for f in "$syntax"/*.failed; do
    [ -e "$f" ] || continue
    failed=$((failed + 1))
    if [ -e "${f%.failed}.sh" ]; then
        head -n 1 "${f%.failed}.sh" | sed 's/^# /---- /' >&2
    else
        echo "---- precompiled header ${f%.failed}.h" >&2
    fi
    cat "${f%.failed}.log" >&2
done
deprecated="$(cat "$syntax"/*.log | grep -F 'Wdeprecated-declarations' | sort -u || true)"
if [ -n "$deprecated" ]; then
    echo "check-ns3-latest: deprecated ns-3 API in use (removed in a later release):" >&2
    echo "$deprecated" >&2
fi
echo "check-ns3-latest: ns-3 $version: $((n - failed)) of $n ai-fabric sources compile" \
    "($kinds) in $((end - start)) s (configure $((configured - start)) s)"
if [ "$failed" -ne 0 ]; then
    echo "check-ns3-latest: $failed sources fail against ns-3 $version (errors above)" >&2
    exit 1
fi
