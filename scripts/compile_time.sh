#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Times the compilation of one source file of a configured build tree, without ccache, as the
# build compiles it (the command ninja would run): prints CPU seconds (user + sys), wall seconds
# and peak memory. CPU time is the fair measure on a shared machine.
#   bash scripts/compile_time.sh build unit_tests/compile_time/user_file.cpp [target]
set -euo pipefail
build="$1"
source_file="$(realpath "$2")"
target="${3:-}"
cmd="$(cd "$build" && ninja -t commands $target | grep -F -- "-c $source_file" | head -1)"
if [ -z "$cmd" ]; then
  echo "compile_time.sh: no command compiles $source_file in $build" >&2
  exit 1
fi
cmd="${cmd#ccache }"
cmd="$(sed -E 's# -o [^ ]+# -o /dev/null#; s# -MD -MT [^ ]+ -MF [^ ]+##' <<<"$cmd")"
log="$(mktemp)"
(cd "$build" && /usr/bin/time -f '%U %S %e %M' -o "$log" bash -c "$cmd")
read -r user sys wall rss <"$log"
rm -f "$log"
awk -v u="$user" -v s="$sys" -v w="$wall" -v m="$rss" -v f="$2" \
  'BEGIN { printf "%s: %.1f s CPU (user+sys), %.1f s wall, %.0f MB peak\n", f, u + s, w, m / 1024 }'
