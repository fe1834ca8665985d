# Sourced by the scripts that build against an ns-3 source tarball (check-ns3-latest.sh,
# build-mpi.sh): ns3_source_tree NAME TARBALL WORK extracts TARBALL into WORK once per tarball
# (a stamp records which one), puts this repository in as contrib/ai-fabric (a symlink: the
# build sees the working tree) and prints the tree's path. On a missing tarball or one that is
# no ns-3 source tree it prints "NAME: ..." on stderr and exits 2.
ns3_source_tree() {
    local name="$1" tarball="$2" work="$3"
    local repo
    repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
    if [ ! -f "$tarball" ]; then
        echo "$name: no ns-3 source tarball at '$tarball'" \
            "(set NS3_LATEST_TARBALL to an ns-3.<minor>-src.tar.xz)" >&2
        exit 2
    fi
    mkdir -p "$work"
    local stamp="$work/extracted.stamp" id src
    id="$(stat -c '%n %s %Y' "$tarball")"
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$id" ]; then
        rm -rf "${work:?}"/ns-3*
        tar xJf "$tarball" -C "$work"
        echo "$id" >"$stamp"
    fi
    src="$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'ns-3*' | head -n 1)"
    if [ -z "$src" ] || [ ! -f "$src/VERSION" ]; then
        echo "$name: '$tarball' did not unpack to an ns-3 source tree in $work" >&2
        exit 2
    fi
    ln -sfn "$repo" "$src/contrib/ai-fabric"
    echo "$src"
}
