#!/usr/bin/env bash
# The public course on the Godot world at 30, 60, 144 and 240 Hz, as CI runs it: on Jolt with
# Godot's default shape margins and with box and hull margins 0, and on Godot Physics (whose
# boxes keep sharp edges whatever their margin) with Godot's margins. Six `kcc-sim run --world
# godot` processes at once (each setting split into 240 Hz and 30+60+144 Hz, about the same
# number of ticks), each with its own Chromium. A run spends most of its time waiting for round
# trips to the browser, so they share two cores well (the four Jolt runs took 13.5 minutes in a
# clean-clone CI run, where two runs one after the other took about 20).
# Prints each run's output in order, then exits 1 if a run failed: on Jolt a failed check of
# ours; on Godot Physics a run that fails and is not in scenarios/godot-physics-known-failures.txt,
# or a listed run that passes (`--known-failures`).
# Needs scripts/godot-web/setup.sh first; extra arguments go to every run.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
logs=target/godot-course
mkdir -p "$logs"
names=()
pids=()
for setting in jolt-margin-default jolt-margin-0 godot-physics; do
  for rates in 240 30,60,144; do
    setting_args=()
    case "$setting" in
      jolt-margin-0) setting_args=(--shape-margin 0) ;;
      godot-physics)
        setting_args=(--physics godot --known-failures scenarios/godot-physics-known-failures.txt)
        ;;
    esac
    name="$setting-$rates"
    scripts/kcc-sim.sh run scenarios/*.toml --world godot --tick-rate "$rates" \
      "${setting_args[@]}" "$@" >"$logs/$name.log" 2>&1 &
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
