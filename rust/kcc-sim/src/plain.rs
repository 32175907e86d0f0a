//! Godot's plain `CharacterBody3D`, what a game has without this addon: each tick sets the
//! velocity from our movement model (the same speed curves, gravity and jump as our
//! controller, so only the stair handling differs) and calls `move_and_slide()` once, with the
//! scenario's body settings (its floor snap length among them). No stair stepping, no crouch.
//! A floating body (swimming, flying) moves by the whole wish with no gravity.
//!
//! It moves the body of whichever world runs it through the port (`kcc::KinematicBody`): in
//! the Godot world that is a real Godot's `move_and_slide` on either physics engine, in the
//! parry world our imitation of it. As in Godot's script template, gravity pulls only off the
//! floor, and the velocity carried to the next tick is the one `move_and_slide` left. Its stair
//! steps are inferred from its motion as the peers' are ([`crate::peer`]).

use glam::Vec3;
use kcc::movement::horizontal_velocity;
use kcc::{ControllerSettings, JumpState, KinematicBody};

use crate::peer::{Observer, wish};
use crate::run::{Command, Moved};
use crate::scenario::Scenario;

/// Godot's plain body driven by a script, with what the script carries from tick to tick.
pub struct PlainDriver {
    settings: ControllerSettings,
    velocity: Vec3,
    /// `is_on_floor()` after the last tick.
    grounded: bool,
    jumps: JumpState,
    observer: Observer,
    /// The body's origin after the last tick, m.
    position: Vec3,
}

impl PlainDriver {
    /// The scenario's character at its start, with its start velocity.
    pub fn new(scenario: &Scenario) -> Self {
        Self {
            settings: scenario.character.controller,
            velocity: scenario.start.velocity,
            grounded: false,
            jumps: JumpState::default(),
            observer: Observer::new(scenario),
            position: scenario.start.position,
        }
    }

    /// Runs one tick of `dt` s of `command` on `body`: one `move_and_slide`.
    pub fn tick<B: KinematicBody + ?Sized>(
        &mut self,
        body: &mut B,
        command: &Command,
        dt: f32,
    ) -> Moved {
        if self.settings.floats() {
            return self.float(body, command, dt);
        }
        let asked = wish(
            &self.settings,
            command,
            self.velocity,
            self.grounded,
            &mut self.jumps,
            dt,
        );
        // Godot's template: gravity pulls only in the air; on the floor the vertical speed is
        // the slide's, unless a jump starts.
        let rise = if self.grounded && asked.rise < self.velocity.y {
            self.velocity.y
        } else {
            asked.rise
        };
        let before = body.position();
        self.velocity = body.move_and_slide(asked.run + Vec3::Y * rise, dt);
        self.position = body.position();
        let translation = self.position - before;
        self.observer.moved(translation, self.grounded);
        self.grounded = body.is_on_floor();
        self.jumps.end(self.grounded, dt);
        Moved {
            velocity: self.velocity,
            real_velocity: translation / dt,
            on_floor: self.grounded,
            stair_moved: false,
            crouched: false,
            substeps: 1,
        }
    }

    /// A floating body's tick (swimming, flying): no gravity, the whole wish (up too) through
    /// the floor's speed curves, one `move_and_slide`, as a script for such a body does.
    fn float<B: KinematicBody + ?Sized>(
        &mut self,
        body: &mut B,
        command: &Command,
        dt: f32,
    ) -> Moved {
        let curve = &self.settings.movement.ground;
        let asked =
            horizontal_velocity(self.velocity, command.wish.clamp_length_max(1.0), curve, dt);
        let before = body.position();
        self.velocity = body.move_and_slide(asked, dt);
        self.position = body.position();
        self.observer.moved(self.position - before, false);
        self.grounded = false;
        Moved {
            velocity: self.velocity,
            real_velocity: (self.position - before) / dt,
            on_floor: false,
            stair_moved: false,
            crouched: false,
            substeps: 1,
        }
    }

    /// Vertical travel of the last tick's stair step, as inferred from the motion (m).
    pub fn stepped(&mut self) -> Option<f32> {
        self.observer.stepped(self.position, self.grounded)
    }
}
