//! The scenario parser fed arbitrary text (seeded with the public course in `scenarios/`): it
//! must answer with a scenario or an error that names file, table and key, never panic; and a
//! scenario it accepts keeps every promise of its validation (`scenarios/README.md`).

#![no_main]

use std::path::Path;

use kcc::Controller;
use kcc_sim::scenario::{MAX_DURATION, MAX_TICK_RATE, MAX_TICKS, Scenario};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Scenario::parse(Path::new("fuzz/input.toml"), text) {
        Ok(scenario) => {
            assert!(
                !scenario.name.trim().is_empty(),
                "a blank name was accepted"
            );
            let rate = scenario.tick_rate;
            assert!(rate > 0.0 && rate <= MAX_TICK_RATE, "tick_rate {rate}");
            let duration = scenario.duration;
            assert!(
                duration > 0.0 && duration <= MAX_DURATION,
                "duration {duration}"
            );
            assert!(
                duration * rate <= MAX_TICKS as f64,
                "{duration} s at {rate} Hz"
            );
            assert!(
                scenario.shape_margin >= 0.0,
                "shape_margin {}",
                scenario.shape_margin
            );
            assert!(
                scenario.start.position.is_finite() && scenario.start.velocity.is_finite(),
                "start {:?}",
                scenario.start
            );
            for segment in &scenario.input {
                assert!(
                    segment.duration > 0.0,
                    "input duration {}",
                    segment.duration
                );
                // Across the ground as long as the stick (at most 1), up by `rise` (-1 to 1).
                let wish = segment.wish;
                let across = (wish.x * wish.x + wish.z * wish.z).sqrt();
                assert!(
                    wish.is_finite() && across <= 1.0 + 1e-3 && wish.y.abs() <= 1.0,
                    "wish {wish}"
                );
            }
            // The settings are the controller's to refuse, and it accepted them.
            if let Err(error) = Controller::new(scenario.character.controller) {
                panic!("accepted settings the controller refuses: {error}");
            }
        }
        Err(error) => {
            assert!(error.to_string().contains("fuzz/input.toml"), "{error}");
        }
    }
});
