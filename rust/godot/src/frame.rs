//! One move a physics frame: the node's own move, a script's, and the warnings when there are
//! two or none.
//!
//! A script that extends `RustCharacterBody3D` and has its own `_physics_process` replaces the
//! node's (Godot calls a script's virtual instead of the extension's), so the built-in movement
//! stops unless the script calls `move_with_input(delta)`. A script or state machine that calls
//! `tick()` while the node's own physics process also moves the body moves it twice a frame.
//! [`MoveLedger`] counts the moves of each physics frame and names both problems; the node asks
//! it after every move and once a frame from its physics notification, which Godot sends after
//! `_physics_process` (the script's or the node's) has run.

use crate::problems::Problem;

/// The moves of the current physics frame.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MoveLedger {
    /// The physics frame of the moves counted (`Engine.get_physics_frames()`); `None` before
    /// the first move.
    frame: Option<u64>,
    /// The method of the frame's first move.
    first: Option<&'static str>,
}

impl MoveLedger {
    /// Records a move by `method` (`physics_process`, `move_with_input`, `tick`,
    /// `move_and_step`) in physics frame `frame`; the problem to warn about when the frame
    /// already had one.
    pub fn moved(&mut self, frame: u64, method: &'static str) -> Option<Problem> {
        if self.frame == Some(frame)
            && let Some(first) = self.first
        {
            return Some(Problem::MovedTwice {
                first,
                second: method,
            });
        }
        self.frame = Some(frame);
        self.first = Some(method);
        None
    }

    /// At the node's physics notification of frame `frame` (after its `_physics_process`): the
    /// problem to warn about when built-in input is on (`builtin_input`) and nothing moved the
    /// body this frame, which means a script's `_physics_process` replaced the node's.
    pub fn frame_ended(&self, frame: u64, builtin_input: bool) -> Option<Problem> {
        (builtin_input && self.frame != Some(frame)).then_some(Problem::NoMoveThisFrame)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::WarnedOnce;

    /// What a test double of the node does in one physics frame: Godot calls the script's
    /// `_physics_process` when the script has one (`script_moves`: it calls
    /// `move_with_input`), the node's own otherwise; `extra` is one more `tick()` from
    /// elsewhere. Returns the warnings printed.
    fn frame(
        ledger: &mut MoveLedger,
        warned: &mut WarnedOnce,
        frame: u64,
        script: Option<bool>,
        extra: bool,
    ) -> Vec<String> {
        let mut problems = Vec::new();
        match script {
            None => problems.extend(ledger.moved(frame, "physics_process")),
            Some(true) => problems.extend(ledger.moved(frame, "move_with_input")),
            Some(false) => {}
        }
        if extra {
            problems.extend(ledger.moved(frame, "tick"));
        }
        problems.extend(ledger.frame_ended(frame, true));
        problems
            .into_iter()
            .filter_map(|problem| warned.first_time(problem))
            .collect()
    }

    #[test]
    fn a_script_that_calls_move_with_input_moves_the_body_once_a_frame_without_a_warning() {
        let (mut ledger, mut warned) = (MoveLedger::default(), WarnedOnce::default());
        for n in 1..=120 {
            assert_eq!(
                frame(&mut ledger, &mut warned, n, Some(true), false),
                Vec::<String>::new()
            );
        }
        let (mut ledger, mut warned) = (MoveLedger::default(), WarnedOnce::default());
        for n in 1..=120 {
            assert!(frame(&mut ledger, &mut warned, n, None, false).is_empty());
        }
    }

    #[test]
    fn a_second_move_in_a_frame_is_warned_about_once_naming_both_methods() {
        let (mut ledger, mut warned) = (MoveLedger::default(), WarnedOnce::default());
        let first = frame(&mut ledger, &mut warned, 1, None, true);
        assert_eq!(first.len(), 1, "{first:?}");
        assert!(
            first[0].contains("physics_process") && first[0].contains("tick"),
            "{first:?}"
        );
        for n in 2..=60 {
            assert!(frame(&mut ledger, &mut warned, n, None, true).is_empty());
        }
        // One move a frame again: nothing more to say.
        for n in 61..=90 {
            assert!(frame(&mut ledger, &mut warned, n, None, false).is_empty());
        }
    }

    #[test]
    fn a_script_that_replaces_the_physics_process_without_moving_is_warned_about_once() {
        let (mut ledger, mut warned) = (MoveLedger::default(), WarnedOnce::default());
        let first = frame(&mut ledger, &mut warned, 1, Some(false), false);
        assert_eq!(first.len(), 1, "{first:?}");
        assert!(first[0].contains("move_with_input"), "{first:?}");
        for n in 2..=60 {
            assert!(frame(&mut ledger, &mut warned, n, Some(false), false).is_empty());
        }
    }

    #[test]
    fn without_built_in_input_a_frame_without_a_move_is_fine() {
        let ledger = MoveLedger::default();
        assert_eq!(ledger.frame_ended(7, false), None);
        assert_eq!(ledger.frame_ended(7, true), Some(Problem::NoMoveThisFrame));
    }

    #[test]
    fn moves_in_different_frames_are_one_each() {
        let mut ledger = MoveLedger::default();
        assert_eq!(ledger.moved(10, "tick"), None);
        assert_eq!(ledger.moved(11, "tick"), None);
        assert_eq!(ledger.frame_ended(11, true), None);
        assert_eq!(ledger.frame_ended(12, true), Some(Problem::NoMoveThisFrame));
        assert_eq!(
            ledger.moved(11, "move_and_step"),
            Some(Problem::MovedTwice {
                first: "tick",
                second: "move_and_step"
            })
        );
    }
}
