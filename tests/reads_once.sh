#!/usr/bin/env bash
# Each file an import reads is read from disk once: `rigview info MODEL` under strace, every
# successful open of a file in the model's folder counted (the model itself, glTF buffers, OBJ
# material libraries, MD5 animations...; the markers and machine side files, which are other
# files of rigview's own, are left out). Fails naming any file opened more than once.
# usage: reads_once.sh RIGVIEW MODEL...
set -euo pipefail
rigview=$1
shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
for model in "$@"; do
  dir=$(cd "$(dirname "$model")" && pwd)
  model="$dir/$(basename "$model")"
  # LeakSanitizer cannot run under ptrace: the sanitizer build's leak check is off here (the
  # rest of its suite runs it).
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -e trace=open,openat,openat2 -o "$log" "$rigview" info "$model" >/dev/null
  # "PID openat(AT_FDCWD, "/dir/file", flags) = 4": the successful opens of files in the folder.
  opens=$(grep -v ' = -1 ' "$log" | grep -o "\"$dir/[^\"]*\"" | tr -d '"' |
          grep -v -E '\.(markers|machine)\.json$' | sort | uniq -c || true)
  if [[ -z "$opens" ]]; then
    echo "FAIL $model: never opened (did strace see the worker?)"
    status=1
    continue
  fi
  while read -r count file; do
    if [[ $count -ne 1 ]]; then
      echo "FAIL $model: $file opened $count times"
      status=1
    else
      echo "ok   $file opened once"
    fi
  done <<< "$opens"
done
exit $status
