#!/usr/bin/env bash
# The public course on the Godot world at 30, 60, 144 and 240 Hz, with Godot's default shape
# margins and with box and hull margins 0, as CI runs it: four `kcc-sim run --world godot`
# processes at once (each margin setting split into 240 Hz and 30+60+144 Hz, about the same
# number of ticks), each with its own Chromium. A run spends most of its time waiting for round
# trips to the browser, so four of them share two cores well: 13.5 minutes for the lot in a
# clean-clone CI run, where the two runs one after the other took about 20.
# Prints each run's output in order, then exits 1 if any run failed (a failed check of ours).
# Needs scripts/godot-web/setup.sh first; extra arguments go to every run.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
logs=target/godot-course
mkdir -p "$logs"
names=()
pids=()
for margin in default 0; do
  for rates in 240 30,60,144; do
    margin_args=()
    [ "$margin" = 0 ] && margin_args=(--shape-margin 0)
    name="margin-$margin-$rates"
    scripts/kcc-sim.sh run scenarios/*.toml --world godot --tick-rate "$rates" \
      "${margin_args[@]}" "$@" >"$logs/$name.log" 2>&1 &
    names+=("$name")
    pids+=("$!")
  done
done
failed=0
for i in "${!pids[@]}"; do
  status=0
  wait "${pids[$i]}" || status=$?
  printf '\n-- %s (exit %s)\n' "${names[$i]}" "$status"
  cat "$logs/${names[$i]}.log"
  [ "$status" -eq 0 ] || failed=1
done
exit "$failed"
