//! The scenario parser fed arbitrary text (seeded with the public course in `scenarios/`): it
//! must answer with a scenario or an error that names file, table and key, never panic.

#![no_main]

use std::path::Path;

use kcc_sim::scenario::Scenario;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Scenario::parse(Path::new("fuzz/input.toml"), text) {
        Ok(scenario) => {
            assert!(!scenario.name.is_empty() || text.contains("name"));
        }
        Err(error) => {
            assert!(error.to_string().contains("fuzz/input.toml"), "{error}");
        }
    }
});
