# RustCharacterBody3D tasks; `just --list` shows them. Get just with `pip install rust-just`
# (seconds) or `cargo install just` (minutes).

set shell := ["bash", "-euo", "pipefail", "-c"]

# The main job: the public course with our controller, Rapier's and Jolt's, side by side; plots in out/plots/.
demo:
    scripts/kcc-sim.sh demo

# Run scenario files, e.g. `just sim scenarios/ramp_30.toml --controller all --plot out/plots`.
sim *ARGS='scenarios/*.toml --tick-rate 30,60,144,240':
    scripts/kcc-sim.sh run {{ARGS}}

# Chromium and the pinned Godot 4.6 web template for the Godot world (idempotent).
godot-web:
    scripts/godot-web/setup.sh

# The course in a real Godot 4.6 + Jolt, headless, e.g. `just sim-godot scenarios/ramp_30.toml --shape-margin 0`.
sim-godot *ARGS='scenarios/*.toml --tick-rate 30,60,144,240': godot-web
    scripts/kcc-sim.sh run {{ARGS}} --world godot

# The parry and Godot worlds side by side, and every parry query replayed in Godot.
compare *ARGS='scenarios/*.toml --tick-rate 60': godot-web
    scripts/kcc-sim.sh compare {{ARGS}}

# Cost per tick of ours, Rapier's and Jolt's controller on the course, 1000 characters, criterion benches.
bench:
    scripts/kcc-sim.sh bench
    cargo bench -p kcc-sim --features bench

# A capsule walks up and down 10 stairs; prints every tick.
walk:
    cargo run --release -p kcc-parry --example walk_stairs

# Build every crate (debug).
build:
    cargo build --workspace

# Every test (the README's test command); the Godot world's tests need the set-up.
test: godot-web
    cargo test --workspace

# Formatting and lints, as CI checks them.
lint:
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets -- -D warnings
    RUSTDOCFLAGS="-D warnings" cargo doc -p kcc --no-deps

# Debug and release builds of the Godot extension for this machine, into addons/rust_character_body/bin/.
addon:
    scripts/godot/addon.sh

# Debug and release builds for Windows x86_64 (mingw-w64, Debian's rustc-web), checked, into bin/.
addon-windows:
    scripts/windows/addon.sh

# The core's and the parry world's tests as Windows programs under Wine.
test-windows:
    scripts/windows/test.sh

# The zip a game developer unzips into a project (Linux and Windows libraries), checked, in out/package/.
package:
    scripts/package/package.sh

# Static checks of the sample project's GDScript (gdparse and gdlint from gdtoolkit).
check-godot:
    scripts/godot/static-checks.sh

# Headless Godot tests: needs GODOT=/path/to/godot (4.4 or later); says so when it is unset.
test-godot:
    scripts/godot/test-godot.sh

# Property tests with many more cases than CI runs (random stairs, ramps, boxes, inputs, rates),
# from a random seed (printed; `PROPTEST_RNG_SEED=N just soak` repeats a run).
soak cases="2000":
    seed="${PROPTEST_RNG_SEED:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}"; echo "soak: PROPTEST_RNG_SEED=$seed"; PROPTEST_RNG_SEED="$seed" PROPTEST_CASES={{cases}} cargo test --release -p kcc-parry --test course properties::

# Fuzz every target for `seconds` each (cargo-fuzz on the stable toolchain via RUSTC_BOOTSTRAP).
fuzz seconds="60":
    cargo fuzz --version >/dev/null 2>&1 || cargo install cargo-fuzz
    cd fuzz && for target in $(cargo fuzz list); do mkdir -p "corpus/$target"; seeds=""; [ -d "seeds/$target" ] && seeds="seeds/$target"; [ "$target" = scenario ] && seeds="$seeds ../scenarios"; RUSTC_BOOTSTRAP=1 cargo fuzz run "$target" "corpus/$target" $seeds -- -max_total_time={{seconds}}; done

# Everything CI runs.
ci:
    bash .ci/run

# The web demo: the core built for wasm, the sample course in Godot's web template; served on 127.0.0.1:8060.
web-demo: godot-web
    scripts/web-demo/build-wasm.sh
    scripts/kcc-sim.sh web-demo --serve

# The web demo's headless check: keys walk the main staircase in Chromium (rendering on), and a scripted walk replayed in the page matches kcc-sim --world godot within 1 cm; screenshots and traces in out/web-demo-check/.
web-demo-check: godot-web
    scripts/web-demo/check.sh
