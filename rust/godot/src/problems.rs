//! Problems a `RustCharacterBody3D` meets while the game runs, each warned about once.
//!
//! A bad setting, a call outside the scene tree or a broken velocity never stops the game: the
//! node does something safe and prints one warning. The problems are plain values, compared
//! without formatting anything, and [`WarnedOnce`] words a problem only the first time it is
//! seen, so a problem that lasts (a bad setting is met every tick) costs no string per tick.

use std::fmt;

use glam::Vec3;
use kcc::{ConfigError, Sanitized};

/// Something the node works around, with what the warning needs to say.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// A method that runs physics queries (named without its parentheses) was called while the
    /// body is outside the scene tree; it did nothing.
    OutsideTree {
        /// The method's name.
        method: &'static str,
    },
    /// A building block (named) found the body's velocity NaN or infinite and used zero.
    VelocityNotFinite {
        /// The method's name.
        method: &'static str,
    },
    /// These input actions are not in the project's input map, so built-in input is ignored.
    MissingInputActions(Vec<String>),
    /// A tuning property cannot work; the core uses a safe value instead.
    BadSetting(ConfigError),
    /// A tick's wish direction, velocity or position was unusable and the core replaced it.
    ReplacedTickInput(Sanitized),
    /// The body moved twice in one physics frame (the two methods named), e.g. a script
    /// called `tick()` while built-in input also moved it.
    MovedTwice {
        /// The method of the frame's first move.
        first: &'static str,
        /// The method of the second.
        second: &'static str,
    },
    /// Built-in input is on, but nothing moved the body in a physics frame: a script's own
    /// `_physics_process` replaced the node's without calling `move_with_input(delta)`.
    NoMoveThisFrame,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::OutsideTree { method } => {
                write!(f, "{method}() needs the body inside the scene tree")
            }
            Self::VelocityNotFinite { method } => {
                write!(f, "{method}(): velocity is not finite, treated as zero")
            }
            Self::MissingInputActions(actions) => write!(
                f,
                "input actions {actions:?} are not in the project's input map (Project \
                 Settings > Input Map); built-in input is ignored until they are"
            ),
            Self::BadSetting(error) => write!(f, "{error}; using a safe value instead"),
            Self::MovedTwice { first, second } => write!(
                f,
                "the body moved twice in one physics frame, by {first}() and then {second}(); \
                 with use_builtin_input on the node moves itself (a script with its own \
                 _physics_process calls move_with_input(delta) once), off it moves only when \
                 code calls tick() or move_and_step()"
            ),
            Self::NoMoveThisFrame => write!(
                f,
                "use_builtin_input is on but nothing moved the body this physics frame: a \
                 script's _physics_process replaces the node's; call move_with_input(delta) \
                 from it, or turn use_builtin_input off and call tick(delta)"
            ),
            Self::ReplacedTickInput(sanitized) => {
                write!(
                    f,
                    "a tick got unusable input and replaced it ({sanitized:?})"
                )
            }
        }
    }
}

impl Problem {
    /// Whether `self` and `other` are the same problem to warn about: equal, or the same
    /// setting not finite in both (a NaN never equals itself, and would be warned every tick).
    fn same_as(&self, other: &Self) -> bool {
        match (self, other) {
            (
                Self::BadSetting(ConfigError::NotFinite { setting: a, .. }),
                Self::BadSetting(ConfigError::NotFinite { setting: b, .. }),
            ) => a == b,
            _ => self == other,
        }
    }
}

/// The problems already warned about, so that each is warned about once.
#[derive(Debug, Clone, Default)]
pub struct WarnedOnce {
    /// Every problem seen so far (a handful at most: each distinct problem once).
    seen: Vec<Problem>,
}

impl WarnedOnce {
    /// The warning to print for `problem`: its words the first time it is seen, `None` after
    /// (nothing is formatted then).
    pub fn first_time(&mut self, problem: Problem) -> Option<String> {
        if self.seen.iter().any(|seen| seen.same_as(&problem)) {
            return None;
        }
        let message = problem.to_string();
        self.seen.push(problem);
        Some(message)
    }
}

/// Whether a method that runs physics queries (`tick` or a building block: `move_and_step`,
/// `stair_step_up`, `stair_step_down`, `iterate_sweep`; named `method`) may run, and the
/// body's velocity it runs with (m/s): it may not outside the scene tree (`Err`, the problem
/// to warn about), where physics queries cannot run; a `velocity` that is not finite becomes
/// zero, with the problem to warn about.
pub fn velocity_to_run(
    method: &'static str,
    in_tree: bool,
    velocity: Vec3,
) -> Result<(Vec3, Option<Problem>), Problem> {
    if !in_tree {
        return Err(Problem::OutsideTree { method });
    }
    if velocity.is_finite() {
        Ok((velocity, None))
    } else {
        Ok((Vec3::ZERO, Some(Problem::VelocityNotFinite { method })))
    }
}

/// The problem to warn about when a tick's core replaced some of its input (`sanitized`, from
/// the tick's report): a wish direction, velocity or position that was unusable. An unusable
/// delta is not one (a paused game's zero delta is normal; a long one is clamped).
pub fn replaced_tick_input(sanitized: Sanitized) -> Option<Problem> {
    (sanitized.wish_direction || sanitized.velocity || sanitized.position)
        .then_some(Problem::ReplacedTickInput(sanitized))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_is_warned_about_once() {
        let mut warned = WarnedOnce::default();
        let outside = Problem::OutsideTree { method: "tick" };
        let first = warned.first_time(outside.clone());
        assert_eq!(
            first.as_deref(),
            Some("tick() needs the body inside the scene tree")
        );
        assert_eq!(warned.first_time(outside.clone()), None);
        assert_eq!(warned.first_time(outside), None);
    }

    #[test]
    fn a_setting_that_stays_nan_is_warned_about_once() {
        let mut warned = WarnedOnce::default();
        let nan = |setting| {
            Problem::BadSetting(ConfigError::NotFinite {
                setting,
                value: f32::NAN,
            })
        };
        assert!(
            warned
                .first_time(nan("movement.ground.max_speed"))
                .is_some()
        );
        for _ in 0..3 {
            assert_eq!(warned.first_time(nan("movement.ground.max_speed")), None);
        }
        assert!(warned.first_time(nan("gravity.gravity")).is_some());
    }

    #[test]
    fn different_problems_are_warned_about_each() {
        let mut warned = WarnedOnce::default();
        let problems = [
            Problem::OutsideTree { method: "tick" },
            Problem::OutsideTree {
                method: "move_and_step",
            },
            Problem::VelocityNotFinite {
                method: "move_and_step",
            },
            Problem::BadSetting(ConfigError::NoSweepIterations),
            Problem::BadSetting(ConfigError::NegativeGravity { value: -1.0 }),
            Problem::BadSetting(ConfigError::NegativeGravity { value: -2.0 }),
            Problem::MissingInputActions(vec!["jump".into()]),
            Problem::MissingInputActions(vec!["jump".into(), "move_left".into()]),
        ];
        for problem in &problems {
            assert!(warned.first_time(problem.clone()).is_some(), "{problem:?}");
        }
        for problem in &problems {
            assert_eq!(warned.first_time(problem.clone()), None, "{problem:?}");
        }
    }

    #[test]
    fn warnings_name_what_to_fix() {
        let mut warned = WarnedOnce::default();
        let mut words = |problem| warned.first_time(problem).unwrap();
        let velocity = words(Problem::VelocityNotFinite {
            method: "stair_step_up",
        });
        assert_eq!(
            velocity,
            "stair_step_up(): velocity is not finite, treated as zero"
        );
        let actions = words(Problem::MissingInputActions(vec![
            "move_left".into(),
            "jump".into(),
        ]));
        assert!(
            actions.starts_with("input actions [\"move_left\", \"jump\"] are not in"),
            "{actions}"
        );
        assert!(actions.contains("Input Map"), "{actions}");
        let setting = words(Problem::BadSetting(ConfigError::NoSweepIterations));
        assert_eq!(
            setting,
            "stairs.sweep_iterations must be at least 1, got 0; using a safe value instead"
        );
        let sanitized = Sanitized {
            velocity: true,
            ..Sanitized::default()
        };
        let tick = words(Problem::ReplacedTickInput(sanitized));
        assert!(tick.contains("velocity: true"), "{tick}");
    }

    #[test]
    fn queries_need_the_tree_and_a_finite_velocity() {
        let walk = Vec3::new(0.0, -1.0, -4.0);
        assert_eq!(
            velocity_to_run("move_and_step", true, walk),
            Ok((walk, None))
        );
        assert_eq!(
            velocity_to_run("stair_step_down", false, walk),
            Err(Problem::OutsideTree {
                method: "stair_step_down"
            })
        );
        for broken in [Vec3::new(f32::NAN, 0.0, 0.0), Vec3::splat(f32::INFINITY)] {
            assert_eq!(
                velocity_to_run("stair_step_up", true, broken),
                Ok((
                    Vec3::ZERO,
                    Some(Problem::VelocityNotFinite {
                        method: "stair_step_up"
                    })
                ))
            );
        }
        // Outside the tree the velocity does not matter: nothing runs.
        let outside = velocity_to_run("iterate_sweep", false, Vec3::splat(f32::NAN));
        assert!(matches!(outside, Err(Problem::OutsideTree { .. })));
    }

    #[test]
    fn only_a_replaced_wish_velocity_or_position_is_a_problem() {
        assert_eq!(replaced_tick_input(Sanitized::default()), None);
        let paused = Sanitized {
            delta: true,
            ..Sanitized::default()
        };
        assert_eq!(replaced_tick_input(paused), None);
        let long = Sanitized {
            delta_clamped: true,
            ..Sanitized::default()
        };
        assert_eq!(replaced_tick_input(long), None);
        for sanitized in [
            Sanitized {
                wish_direction: true,
                ..Sanitized::default()
            },
            Sanitized {
                velocity: true,
                ..Sanitized::default()
            },
            Sanitized {
                position: true,
                delta: true,
                ..Sanitized::default()
            },
        ] {
            assert_eq!(
                replaced_tick_input(sanitized),
                Some(Problem::ReplacedTickInput(sanitized))
            );
        }
    }
}
