#!/usr/bin/env bash
# The public course on the Godot world at 30, 60, 144 and 240 Hz:
#
#   scripts/godot-web/course.sh              Jolt with Godot's default shape margins, and Godot
#                                            Physics (whose boxes keep sharp edges whatever their
#                                            margin): what CI runs
#   scripts/godot-web/course.sh --margin-0   Jolt with box and hull margins 0 besides (before
#                                            landing a change of the controller's behaviour)
#
# Two lanes of `kcc-sim run --world godot` processes, each with its own Chromium, side by side:
# one lane runs Jolt, the other Godot Physics (about as many ticks); with --margin-0 one lane
# runs Jolt with the default margins at the four rates, then Godot Physics at 240 Hz, the other
# Jolt with margins 0, then Godot Physics at 30, 60 and 144 Hz. Two, not more: the page spins
# on a core while it waits for each answer (docs/godot-world.md), so a third lane on two cores
# slows every lane (a set of 12 files at 144 Hz: 21 s as one process, 22 s as two, 33 s as
# three, 41 s as six). One lane of Jolt's four rates took 7.3 to 13 minutes here.
# Prints each run's output in order, then exits 1 if a run failed: on Jolt a failed check of
# ours; on Godot Physics a run that fails and is not in scenarios/godot-physics-known-failures.txt,
# or a listed run that passes (`--known-failures`).
# Needs scripts/godot-web/setup.sh first; other arguments go to every run.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
logs=target/godot-course
mkdir -p "$logs"

# Runs one setting at some rates into its log; the exit status is the run's.
run() {
  local setting=$1 rates=$2 setting_args=()
  shift 2
  case "$setting" in
    jolt-margin-0) setting_args=(--shape-margin 0) ;;
    godot-physics)
      setting_args=(--physics godot --known-failures scenarios/godot-physics-known-failures.txt)
      ;;
  esac
  scripts/kcc-sim.sh run scenarios/*.toml --world godot --tick-rate "$rates" \
    "${setting_args[@]}" "$@" >"$logs/$setting-$rates.log" 2>&1
  echo "$?" >"$logs/$setting-$rates.status"
}

all=30,60,144,240
margin_0=0
if [ "${1:-}" = --margin-0 ]; then
  margin_0=1
  shift
fi
rm -f "$logs"/*.log "$logs"/*.status
start=$SECONDS
if [ "$margin_0" = 1 ]; then
  names=(jolt-margin-default-$all godot-physics-240 jolt-margin-0-$all godot-physics-30,60,144)
  (run jolt-margin-default "$all" "$@"; run godot-physics 240 "$@") &
  lane_a=$!
  (run jolt-margin-0 "$all" "$@"; run godot-physics 30,60,144 "$@") &
  lane_b=$!
else
  names=(jolt-margin-default-$all godot-physics-$all)
  run jolt-margin-default "$all" "$@" &
  lane_a=$!
  run godot-physics "$all" "$@" &
  lane_b=$!
fi
wait "$lane_a" "$lane_b"
failed=0
for name in "${names[@]}"; do
  status=$(cat "$logs/$name.status" 2>/dev/null || echo "not run")
  printf '\n-- %s (exit %s)\n' "$name" "$status"
  cat "$logs/$name.log" 2>/dev/null
  [ "$status" = 0 ] || failed=1
done
printf '\nthe Godot course took %d min %02d s\n' $(((SECONDS - start) / 60)) $(((SECONDS - start) % 60))
exit "$failed"
