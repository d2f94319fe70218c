#!/bin/sh
# Every output of one fatcheck binary on the corpora a refactoring must leave untouched: the
# fixtures, the driver oracle's images, the CUDA libraries, the broken-file corpus and the real
# files of other CUDA releases (.eras/lib, scripts/fetch-eras.sh) and the container images and
# packages (tests/images, fixtures/packages), in each output mode. Writes
# OUTDIR/<corpus>.<mode>.{out,err,rc}; compare two runs with `diff -r OUTDIR1 OUTDIR2`.
# Usage: scripts/same-outputs.sh FATCHECK OUTDIR [CORPUS...]
set -u
exe=$1 outdir=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$outdir"
corpora=${*:-fixtures oracle cuda broken eras images}
gpus="--gpu 9.0,7.0,12.0"
for corpus in $corpora; do
    case $corpus in
    fixtures) set -- "$root/fixtures" ;;
    oracle) set -- "$root/tests/oracle/images" ;;
    cuda) set -- /usr/local/cuda/lib64 ;;
    broken) set -- "$root/fuzz/broken" ;;
    images) set -- --packages "$root/tests/images" "$root/fixtures/packages" ;;
    eras) [ -d "$root/.eras/lib" ] || { echo "$corpus: $root/.eras/lib absent, skipped"; continue; }
          set -- "$root/.eras/lib" ;;
    *) echo "unknown corpus $corpus" >&2; exit 2 ;;
    esac
    while IFS='|' read -r mode args; do
        [ -n "$mode" ] || continue
        # shellcheck disable=SC2086 # ARGS are words
        eval "set -- $args \"\$@\""
        nice "$exe" "$@" >"$outdir/$corpus.$mode.out" 2>"$outdir/$corpus.$mode.err"
        echo $? >"$outdir/$corpus.$mode.rc"
        eval "shift $(eval "set -- $args"; echo $#)"
    done <<MODES
default|
embedded|--embedded
json|--json
list|-l
list-elf|--list-elf
list-ptx|--list-ptx
kernels|-k
gpu124|$gpus --driver 12.4
gpu130|$gpus --driver 13.0
gpu124-json|$gpus --driver 12.4 --json
gpu130-json-embedded|$gpus --driver 13.0 --json --embedded
gpu130-kernels|$gpus --driver 13.0 -k
gpu124-kernels-json|$gpus --driver 12.4 -k --json
arch-list|--arch-list '8.0;9.0+PTX'
arch-list-json|--arch-list '8.0;9.0+PTX' --json
strict|$gpus --driver 12.4 --strict
quiet|$gpus --driver 12.4 -q
quiet-strict-arch|$gpus --driver 13.0 -q --strict --arch-list '8.0;9.0+PTX'
github|$gpus --driver 12.4 --format github
github-strict|$gpus --driver 13.0 --strict --format github
junit|$gpus --driver 12.4 --format junit
junit-strict|$gpus --driver 13.0 --strict --format junit
markdown|$gpus --driver 12.4 --format markdown
markdown-strict|$gpus --driver 13.0 -q --strict --format markdown
MODES
    echo "$corpus: done"
done
