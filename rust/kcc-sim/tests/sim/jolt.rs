//! Jolt's `CharacterVirtual` as a peer: with the feature `jolt` it runs the whole public course
//! at every rate, and its settings are mapped (it climbs stairs, stands on flat ground, stops
//! at a riser too high for its step, rides moving platforms, crouches); without it, asking for it says so
//! in one line.

#[cfg(feature = "jolt")]
mod with_jolt {
    use kcc_sim::demo::DEMO_RATES;
    use kcc_sim::report::Outcome;
    use kcc_sim::run::{self, ControllerKind};

    use crate::course::public_course;

    #[test]
    fn jolt_runs_the_whole_public_course_at_every_rate() {
        let mut passed = 0;
        let mut runs = 0;
        for scenario in public_course() {
            for rate in DEMO_RATES {
                let run = run::run(&scenario, ControllerKind::Jolt, rate)
                    .unwrap_or_else(|e| panic!("{}: {e}", scenario.name));
                assert_eq!(run.ticks.len() as u64, scenario.ticks(rate));
                assert!(
                    run.ticks.iter().all(|t| t.position.is_finite()),
                    "{} at {rate} Hz",
                    scenario.name
                );
                passed += usize::from(Outcome::new(&scenario, run).passed());
                runs += 1;
            }
        }
        // Reported, not required: the course is tuned to our controller's speed bounds.
        eprintln!("jolt passes {passed} of {runs} runs");
    }

    /// The outcome of Jolt's run of the public scenario `name` at `rate` Hz.
    fn jolt(name: &str, rate: f64) -> Outcome {
        let scenario = public_course()
            .into_iter()
            .find(|s| s.name == name)
            .unwrap();
        let run = run::run(&scenario, ControllerKind::Jolt, rate).unwrap();
        Outcome::new(&scenario, run)
    }

    /// True when the check `name` of `outcome` passed.
    fn passed(outcome: &Outcome, name: &str) -> bool {
        let check = outcome.checks.iter().find(|c| c.name == name);
        check.unwrap_or_else(|| panic!("no check {name}")).passed
    }

    #[test]
    fn jolt_climbs_jolts_own_stairs_with_our_step_height() {
        for rate in [30.0, 60.0] {
            let outcome = jolt("jolt_stairs", rate);
            // The top of 10 steps of 0.3 m, 2 cm under it for Jolt's padding.
            assert!(
                outcome.metrics.highest >= 2.98,
                "{rate} Hz: {}",
                outcome.metrics.highest
            );
            assert!(passed(&outcome, "reach"), "{rate} Hz");
        }
    }

    #[test]
    fn jolt_stands_on_flat_ground_and_slides_along_a_wall() {
        for rate in DEMO_RATES {
            assert!(
                jolt("flat_ground", rate).passed(),
                "flat_ground at {rate} Hz"
            );
            assert!(jolt("wall_slide", rate).passed(), "wall_slide at {rate} Hz");
        }
    }

    /// Crouching swaps Jolt's shape for the crouch's (as its sample's `SetShape`), walks at the
    /// crouch's speed under a low bar, and stands up only once the standing shape fits: each
    /// file checks where the body ends, its speed, that it never overlaps the bar and whether
    /// it is crouched at the end.
    #[test]
    fn jolt_crouches_under_a_bar_and_stands_up_only_where_it_fits() {
        for rate in DEMO_RATES {
            for name in [
                "crouch_under_bar",
                "crouch_stays_under_bar",
                "crouch_stand_after_bar",
            ] {
                let outcome = jolt(name, rate);
                assert!(
                    outcome.passed(),
                    "{name} at {rate} Hz: {:?}",
                    outcome.checks
                );
            }
        }
    }

    /// Platforms are kinematic bodies that Jolt moves, and the character rides them by its
    /// ground's velocity, as in Jolt's character sample: it stays on a platform carrying it
    /// along and on a turning disc (each file checks where the ride ends).
    #[test]
    fn jolt_rides_moving_platforms_by_its_grounds_velocity() {
        for rate in DEMO_RATES {
            for name in ["platform_ride", "rotating_disc"] {
                let outcome = jolt(name, rate);
                assert!(
                    outcome.passed(),
                    "{name} at {rate} Hz: {:?}",
                    outcome.checks
                );
            }
        }
    }

    /// Rigid bodies are Jolt's dynamic bodies in the character's world, and the character meets
    /// them as Jolt's own does (our push settings as its mass and strength): a light crate is
    /// pushed ahead, a heavy one (more friction than the strength) stays at 144 Hz, and the
    /// seesaw tips under the character's weight as far as the file asks (20 to 26 degrees).
    #[test]
    fn jolt_pushes_crates_and_tips_the_seesaw_with_its_own_mass_and_strength() {
        for rate in [30.0, 144.0] {
            let light = jolt("push_crate_light", rate);
            let moved =
                light.run.bodies.first().unwrap()[0].distance(light.run.bodies.last().unwrap()[0]);
            assert!(moved > 3.0, "{rate} Hz: the light crate moved {moved} m");
            let seesaw = jolt("seesaw", rate);
            assert!(passed(&seesaw, "body_end_turn_min"), "{rate} Hz");
            assert!(passed(&seesaw, "body_end_turn_max"), "{rate} Hz");
        }
        let heavy = jolt("push_crate_heavy", 144.0);
        assert!(passed(&heavy, "body_travel_max"), "{:?}", heavy.checks);
    }

    /// The other characters of a file are `CharacterVirtual`s of the same world, moved by their
    /// own input, and the characters collide with each other as Jolt's do
    /// (`CharacterVsCharacter`): in a 1.5 m corridor they stop face to face, in a 3 m one they
    /// pass (each file checks where both end, that neither overlaps the other for long and,
    /// blocked, that they stand still).
    #[test]
    fn jolts_characters_block_each_other_in_a_corridor_and_pass_in_a_wide_one() {
        for rate in [60.0, 144.0] {
            for name in ["characters_corridor_blocked", "characters_corridor_pass"] {
                let outcome = jolt(name, rate);
                assert!(
                    outcome.passed(),
                    "{name} at {rate} Hz: {:?}",
                    outcome.checks
                );
                // The other character is moved and reported every tick.
                assert!(outcome.run.others.iter().all(|o| o.len() == 1), "{name}");
            }
        }
    }
}

#[cfg(not(feature = "jolt"))]
#[test]
fn asking_for_jolt_without_the_feature_says_so_in_one_line() {
    let scenario =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/flat_ground.toml");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kcc-sim"))
        .args(["run", scenario.to_str().unwrap(), "--controller", "jolt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("--features jolt"), "{stderr}");
    assert!(out.stdout.is_empty());
}
