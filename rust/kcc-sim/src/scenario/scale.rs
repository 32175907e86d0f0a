//! A scenario magnified: every length, speed and acceleration of a scenario multiplied by one
//! factor, every time and angle kept, so that the scaled run is the original run seen through a
//! magnifying glass. A controller that does not depend on the character's absolute size passes
//! the scaled file as it passes the original.
//!
//! What is scaled: the solids, platforms and rigid bodies (their velocities too; a rigid body's
//! mass, and the character's, as the volume, and its push strength as mass x acceleration), the
//! start (and the other characters' starts), the character's
//! shape, speeds (ground, air, crouch), gravity, terminal speed and jump velocity, its lengths
//! (max step height, minimum step depth, minimum step forward, step forward test, crouch height
//! and crouch step height, floor snap length), and the lengths of the `[expect]` table
//! (positions, radii, heights, the largest step of a tick, the risers and how far a step may
//! be from one), and the safe margin when the scenario shrinks (below). Kept: times
//! (durations, attack and release, coyote time, the jump buffer), rates (tick rate, ground
//! follow speed, camera decay), angles, shares and counts, and the engines' own precision (the
//! shapes' margin, the largest overlap allowed; the safe margin when the scenario grows). A
//! scaled file may give the level another shape margin (`scaled.shape_margin`), as a game
//! sets it for a small character.
//!
//! The safe margin: Godot's docs ask for a lower one at very low scale, and a game with a small
//! character sets it so. The body's recovery out of the margin moves it up to the margin in one
//! tick (after a step down, off the riser behind it); with Godot's 1 mm that is 11 % of a 0.6 m
//! character's walk at 240 Hz. So a shrunk scenario shrinks the margin with it; a grown one
//! keeps Godot's default (a 6 m character with a 6 mm margin fails on the cylinder's spiral at
//! 240 Hz, and no game would raise it).

use super::{Expectations, RawCharacter, RawScenario, RawSolid};
use crate::checks::RISER_TOLERANCE;
use kcc::ControllerSettings;
use kcc_parry::BodySettings;

impl RawScenario {
    /// This scenario with every length, speed and acceleration multiplied by `by`.
    pub(super) fn scaled(mut self, by: f32) -> Self {
        let k = by;
        self.start.position = times(self.start.position, k);
        self.start.velocity = self.start.velocity.map(|v| times(v, k));
        self.character.scale(k);
        for solid in &mut self.solid {
            solid.scale(k);
        }
        for platform in &mut self.platform {
            platform.cuboid.center = times(platform.cuboid.center, k);
            platform.cuboid.size = times(platform.cuboid.size, k);
            platform.velocity = platform.velocity.map(|v| times(v, k));
        }
        for body in &mut self.rigid_body {
            if let Some(cuboid) = &mut body.cuboid {
                cuboid.center = times(cuboid.center, k);
                cuboid.size = times(cuboid.size, k);
            }
            if let Some(ball) = &mut body.ball {
                ball.center = times(ball.center, k);
                ball.radius *= k;
            }
            body.velocity = body.velocity.map(|v| times(v, k));
            // Of the same stuff: the mass grows as the volume.
            body.mass *= k * k * k;
        }
        for other in &mut self.other_character {
            other.position = times(other.position, k);
        }
        self.expect.scale(k);
        self
    }
}

impl RawCharacter {
    /// Scales the character's lengths, speeds and accelerations by `k`; a key the file left
    /// out becomes the default scaled.
    fn scale(&mut self, k: f32) {
        let controller = ControllerSettings::default();
        let body = BodySettings::default();
        let movement = &controller.movement;
        let stairs = &controller.stairs;
        let gravity = &controller.gravity;
        let crouch = &controller.crouch;
        let scaled = |value: Option<f32>, default: f32| Some(value.unwrap_or(default) * k);
        if let Some(size) = self.size {
            self.size = Some(times(size, k));
        } else {
            self.radius = scaled(self.radius, body.shape.radius());
            self.height = scaled(self.height, body.shape.height());
        }
        self.max_speed = scaled(self.max_speed, movement.ground.max_speed);
        self.air_max_speed = scaled(self.air_max_speed, movement.air.max_speed);
        self.crouch_max_speed = scaled(self.crouch_max_speed, crouch.max_speed);
        self.max_step_height = scaled(self.max_step_height, stairs.max_step_height);
        self.min_step_depth = scaled(self.min_step_depth, stairs.min_step_depth);
        self.min_step_forward = scaled(self.min_step_forward, stairs.min_step_forward);
        self.step_forward_test = scaled(self.step_forward_test, stairs.step_forward_test);
        self.crouch_height = scaled(self.crouch_height, crouch.height);
        self.crouch_max_step_height = scaled(self.crouch_max_step_height, crouch.max_step_height);
        // The character's mass grows as its volume, and its strength as mass x acceleration.
        let push = &controller.push;
        self.mass = Some(self.mass.unwrap_or(push.mass) * k * k * k);
        self.push_strength = Some(self.push_strength.unwrap_or(push.strength) * k * k * k * k);
        self.floor_snap_length = scaled(self.floor_snap_length, body.floor_snap_length);
        self.gravity = scaled(self.gravity, gravity.gravity);
        self.terminal_speed = scaled(self.terminal_speed, gravity.terminal_speed);
        self.jump_velocity = scaled(self.jump_velocity, gravity.jump_velocity);
        // Shrunk with a smaller character only (see the module docs).
        if k < 1.0 {
            self.safe_margin = scaled(self.safe_margin, body.safe_margin);
        }
    }
}

impl RawSolid {
    /// Scales the solid's lengths by `k`.
    fn scale(&mut self, k: f32) {
        if let Some(b) = &mut self.cuboid {
            b.center = times(b.center, k);
            b.size = times(b.size, k);
        }
        if let Some(s) = &mut self.stairs {
            s.origin = times(s.origin, k);
            s.rise *= k;
            s.run *= k;
            s.width *= k;
        }
        if let Some(s) = &mut self.spiral {
            s.center = times(s.center, k);
            s.inner_radius *= k;
            s.outer_radius *= k;
            s.rise *= k;
        }
        if let Some(r) = &mut self.ramp {
            r.origin = times(r.origin, k);
            r.length *= k;
            r.width *= k;
        }
        if let Some(c) = &mut self.convex {
            for point in &mut c.points {
                *point = times(*point, k);
            }
        }
        if let Some(b) = &mut self.ball {
            b.center = times(b.center, k);
            b.radius *= k;
        }
        if let Some(m) = &mut self.mesh {
            m.offset = m.offset.map(|o| times(o, k));
            m.scale = Some(m.scale.unwrap_or(1.0) * k);
        }
    }
}

impl Expectations {
    /// Scales the expected lengths by `k`.
    fn scale(&mut self, k: f32) {
        if let Some(reach) = &mut self.reach {
            reach.position = times(reach.position, k);
            reach.radius *= k;
        }
        if let Some(near) = &mut self.end_near {
            near.position = times(near.position, k);
            near.radius *= k;
        }
        self.never_above = self.never_above.map(|h| h * k);
        self.rises_above = self.rises_above.map(|h| h * k);
        self.max_step_per_tick = self.max_step_per_tick.map(|h| h * k);
        self.body_travel_max = self.body_travel_max.map(|h| h * k);
        if let Some(near) = &mut self.body_end_near {
            near.position = times(near.position, k);
            near.radius *= k;
        }
        if let Some(near) = &mut self.other_end_near {
            near.position = times(near.position, k);
            near.radius *= k;
        }
        if let Some(rest) = &mut self.rest_after {
            rest.radius *= k;
        }
        if let Some(own) = &mut self.godot_physics {
            own.end_near_radius = own.end_near_radius.map(|r| r * k);
            own.body_end_near_radius = own.body_end_near_radius.map(|r| r * k);
        }

        if let Some(risers) = &mut self.steps_per_riser {
            risers.rise *= k;
            risers.tolerance = Some(risers.tolerance.unwrap_or(RISER_TOLERANCE) * k);
        }
    }
}

/// `v` times `k`.
fn times(v: [f32; 3], k: f32) -> [f32; 3] {
    v.map(|x| x * k)
}
