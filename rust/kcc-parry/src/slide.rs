//! Godot's `CharacterBody3D::move_and_slide`, step by step, in grounded mode and in floating
//! mode (where every contact is a wall), so that the core meets the same floor, wall and
//! ceiling behaviour headlessly as in the engine.

use std::f32::consts::FRAC_PI_2;

use glam::Vec3;
use kcc::MotionMode;
use kcc::floor::slide;
use kcc::surface::FLOOR_ANGLE_TOLERANCE;

use crate::body::ParryBody;
use crate::world::{CMP_EPSILON, MotionParameters, MotionResult};

/// Contacts a slide iteration asks for (two walls, four contacts, plus the floor).
const SLIDE_COLLISIONS: usize = 6;
/// Contacts a floating slide iteration asks for (Godot's default motion parameters).
const FLOATING_COLLISIONS: usize = 1;
/// Contacts a floor snap asks for.
const SNAP_COLLISIONS: usize = 4;

/// Which kinds of contact a classification may write into the body's state.
#[derive(Clone, Copy)]
struct Apply {
    floor: bool,
    wall: bool,
    ceiling: bool,
}

const APPLY_ALL: Apply = Apply {
    floor: true,
    wall: true,
    ceiling: true,
};
const APPLY_FLOOR: Apply = Apply {
    floor: true,
    wall: false,
    ceiling: false,
};
const APPLY_NONE: Apply = Apply {
    floor: false,
    wall: false,
    ceiling: false,
};

/// Kinds of contact found in one motion result.
#[derive(Clone, Copy, Default)]
struct Found {
    floor: bool,
    wall: bool,
    ceiling: bool,
}

fn angle(a: Vec3, b: Vec3) -> f32 {
    a.dot(b).clamp(-1.0, 1.0).acos()
}

fn is_zero_approx(v: Vec3) -> bool {
    v.abs().max_element() < CMP_EPSILON
}

impl ParryBody {
    /// `move_and_slide` with `velocity` (m/s) over `dt` (s) in the body's motion mode; returns
    /// the new velocity.
    pub(crate) fn slide(&mut self, velocity: Vec3, dt: f32) -> Vec3 {
        let settings = self.settings;
        let up = settings.up_direction.normalize();
        let margin = settings.safe_margin;
        let recovery_tolerance = margin + CMP_EPSILON;
        let was_on_floor = self.state.on_floor;
        let mut velocity = velocity;
        let mut motion = velocity * dt;
        let motion_slide_up = slide(motion, up);
        let prev_floor_normal = self.state.floor_normal;
        let start = self.position;

        // The platform the body stands on carries it first, by its velocity where the body is
        // now, with the platform left out of that motion. A wall it only leans on does not
        // (Godot's default `platform_wall_layers` is none): a pushed crate does not pull the
        // body along.
        let mut platform_velocity = self.state.platform_velocity;
        if self.state.on_floor || self.state.on_wall {
            platform_velocity = match self.state.platform {
                Some(platform) if self.state.on_floor => {
                    self.world.velocity_at(platform, self.position)
                }
                _ => Vec3::ZERO,
            };
        }
        // A platform under the body before the slide (or where it ends) may carry it before
        // the slide's own motion: its collisions are then not said (as the addon's port).
        let carried =
            !is_zero_approx(self.state.platform_velocity) || !is_zero_approx(platform_velocity);
        self.state.collisions_said = !carried;
        self.state.slide_collisions = 0;
        self.hits.clear();
        self.tests.clear();
        self.state.slide_hit_wall = false;
        self.state.on_floor = false;
        self.state.on_wall = false;
        self.state.on_ceiling = false;
        if !platform_velocity.abs_diff_eq(Vec3::ZERO, CMP_EPSILON) {
            let carried = self.motion(&MotionParameters {
                from: self.position,
                motion: platform_velocity * dt,
                margin,
                max_collisions: 1,
                recovery_as_collision: true,
                exclude: self.state.platform,
            });
            if (self.position + carried.travel).is_finite() {
                self.position += carried.travel;
            }
            if carried.collided() {
                self.state.slide_collisions += 1;
                self.hits.push(carried.collisions[0]);
                self.tests.push(carried.motion_test(&self.world));
                let found = self.classify(&carried, APPLY_ALL);
                self.state.slide_hit_wall |= found.wall;
            }
        }
        self.state.platform = None;
        self.state.platform_velocity = Vec3::ZERO;
        self.state.floor_normal = Vec3::ZERO;
        self.state.wall_normal = Vec3::ZERO;
        self.state.ceiling_normal = Vec3::ZERO;

        if settings.motion_mode == MotionMode::Floating {
            self.slide_floating(motion, velocity);
            return self.slide_end(velocity, platform_velocity, start, dt);
        }

        // No sliding on the first attempt keeps floor motion stable when stopping on slopes.
        let mut sliding_enabled = !settings.floor_stop_on_slope;
        let mut can_apply_constant_speed = sliding_enabled;
        let mut first_slide = true;
        let vel_dir_facing_up = velocity.dot(up) > 0.0;
        let mut total_travel = Vec3::ZERO;

        for _ in 0..settings.max_slides {
            let from = self.position;
            let mut result =
                self.move_and_collide(from, motion, !sliding_enabled, SLIDE_COLLISIONS);
            let mut collided = result.collided();

            if collided {
                let previous = self.state;
                let found = self.classify(&result, APPLY_ALL);
                self.state.slide_collisions += 1;
                self.hits.push(result.collisions[0]);
                self.tests.push(result.motion_test(&self.world));
                self.state.slide_hit_wall |= found.wall;

                if self.state.on_floor
                    && settings.floor_stop_on_slope
                    && (velocity.normalize_or_zero() + up).length() < 0.01
                {
                    if result.travel.length() <= recovery_tolerance {
                        self.position -= result.travel;
                    }
                    velocity = Vec3::ZERO;
                    break;
                }

                if is_zero_approx(result.remainder) {
                    break;
                }

                let mut apply_default_sliding = true;
                let wall_normal = self.state.wall_normal;

                if found.wall && motion_slide_up.dot(wall_normal) <= 0.0 {
                    if settings.floor_block_on_wall {
                        let horizontal_motion = slide(motion, up);
                        let horizontal_normal = slide(wall_normal, up).normalize_or_zero();
                        let motion_angle =
                            angle(-horizontal_normal, horizontal_motion.normalize_or_zero()).abs();

                        // Do not climb walls; only lateral motion along them is kept.
                        if motion_angle < FRAC_PI_2 {
                            apply_default_sliding = false;
                            if was_on_floor && !vel_dir_facing_up {
                                let travel_total = result.travel.length();
                                let cancel_dist_max = (margin * 20.0).min(0.1);
                                if travel_total <= recovery_tolerance {
                                    self.position -= result.travel;
                                    result.travel = Vec3::ZERO;
                                } else if travel_total < cancel_dist_max {
                                    self.position -= slide(result.travel, up);
                                    motion = slide(motion, up);
                                    result.travel = Vec3::ZERO;
                                } else {
                                    // Too far to cancel safely: keep it, go on with the rest.
                                    result.travel = slide(result.travel, up);
                                    motion = result.remainder;
                                }
                                self.snap_on_floor(true, false);
                            } else {
                                motion = result.remainder;
                            }

                            let forward = slide(wall_normal, up).normalize_or_zero();
                            motion = slide(motion, forward);

                            if vel_dir_facing_up {
                                let slide_motion = slide(velocity, result.collisions[0].normal);
                                velocity = up * up.dot(velocity) + slide(slide_motion, up);
                            } else {
                                velocity = slide(velocity, forward);
                            }

                            if was_on_floor && !vel_dir_facing_up && motion.dot(up) > 0.0 {
                                // Slide along the corner between the wall and the floor.
                                let floor_side = prev_floor_normal.cross(wall_normal);
                                if floor_side != Vec3::ZERO {
                                    motion = floor_side * motion.dot(floor_side);
                                }
                            }

                            let mut stop_all_motion = previous.on_wall && !vel_dir_facing_up;
                            if !self.state.on_floor && motion.dot(up) < 0.0 {
                                let slide_motion = slide(motion, wall_normal);
                                if slide_motion.dot(up) < 0.0 {
                                    stop_all_motion = false;
                                    motion = slide_motion;
                                }
                            }
                            if stop_all_motion {
                                motion = Vec3::ZERO;
                                velocity = Vec3::ZERO;
                            }
                        }
                    }

                    if was_on_floor && settings.wall_min_slide_angle > 0.0 && found.wall {
                        let horizontal_normal = slide(wall_normal, up).normalize_or_zero();
                        let motion_angle =
                            angle(-horizontal_normal, motion_slide_up.normalize_or_zero()).abs();
                        if motion_angle < settings.wall_min_slide_angle {
                            motion = up * motion.dot(up);
                            velocity = up * velocity.dot(up);
                            apply_default_sliding = false;
                        }
                    }
                }

                if apply_default_sliding {
                    if (sliding_enabled || !self.state.on_floor)
                        && (!self.state.on_ceiling
                            || settings.slide_on_ceiling
                            || !vel_dir_facing_up)
                    {
                        let normal = result.collisions[0].normal;
                        let mut slide_motion = slide(result.remainder, normal);
                        if found.floor && !found.wall && !is_zero_approx(motion_slide_up) {
                            // Slide along the line where the motion's vertical plane meets the
                            // floor, so the direction does not bend on slopes.
                            let length = slide_motion.length();
                            slide_motion = up
                                .cross(result.remainder)
                                .cross(self.state.floor_normal)
                                .normalize_or_zero()
                                * length;
                        }
                        motion = if slide_motion.dot(velocity) > 0.0 {
                            slide_motion
                        } else {
                            Vec3::ZERO
                        };
                        if settings.slide_on_ceiling && found.ceiling {
                            velocity = if vel_dir_facing_up {
                                slide(velocity, normal)
                            } else {
                                up * up.dot(velocity)
                            };
                        }
                    } else {
                        motion = result.remainder;
                        if found.ceiling && !settings.slide_on_ceiling && vel_dir_facing_up {
                            velocity = slide(velocity, up);
                            motion = slide(motion, up);
                        }
                    }
                }

                total_travel += result.travel;

                if was_on_floor
                    && settings.floor_constant_speed
                    && can_apply_constant_speed
                    && self.state.on_floor
                    && !is_zero_approx(motion)
                {
                    let travel_slide_up = slide(total_travel, up);
                    motion = motion.normalize_or_zero()
                        * (motion_slide_up.length() - travel_slide_up.length()).max(0.0);
                }
            } else if settings.floor_constant_speed
                && first_slide
                && self.on_floor_if_snapped(was_on_floor, vel_dir_facing_up)
            {
                // Walking down a slope leaves the floor for a moment: keep the speed along it.
                can_apply_constant_speed = false;
                sliding_enabled = true;
                self.position -= result.travel;
                let along_floor = up
                    .cross(motion)
                    .cross(prev_floor_normal)
                    .normalize_or_zero();
                motion = along_floor * motion_slide_up.length();
                collided = true;
            }

            if !collided || is_zero_approx(motion) {
                break;
            }
            can_apply_constant_speed = !can_apply_constant_speed && !sliding_enabled;
            sliding_enabled = true;
            first_slide = false;
        }

        self.snap_on_floor(was_on_floor, vel_dir_facing_up);
        if !is_zero_approx(self.state.platform_velocity) {
            self.state.collisions_said = false;
        }

        // Standing on floor resets the accumulated fall.
        if self.state.on_floor && !vel_dir_facing_up {
            velocity = slide(velocity, up);
        }
        self.slide_end(velocity, platform_velocity, start, dt)
    }

    /// The end of every slide: the real velocity of the move from `start` over `dt` (s), and
    /// the `velocity` (m/s) returned, with the velocity of a platform just left (Godot's
    /// default `platform_on_leave`) added.
    fn slide_end(&mut self, velocity: Vec3, platform_velocity: Vec3, start: Vec3, dt: f32) -> Vec3 {
        self.state.real_velocity = (self.position - start) / dt;
        if !self.state.on_floor && !self.state.on_wall {
            velocity + platform_velocity
        } else {
            velocity
        }
    }

    /// Godot's floating slide iterations of `motion` (m) for a body with `velocity` (m/s):
    /// every contact is a wall; a wall met nearly head-on (within the wall min slide angle)
    /// stops the motion, the first slide along a wall keeps the motion's length, and no slide
    /// turns back against the velocity.
    fn slide_floating(&mut self, mut motion: Vec3, velocity: Vec3) {
        let settings = self.settings;
        let margin = settings.safe_margin;
        let mut first_slide = true;
        for _ in 0..settings.max_slides {
            let from = self.position;
            let result = self.move_and_collide(from, motion, false, FLOATING_COLLISIONS);
            if !result.collided() {
                break;
            }
            let found = self.classify(&result, APPLY_ALL);
            self.state.slide_collisions += 1;
            self.hits.push(result.collisions[0]);
            self.tests.push(result.motion_test(&self.world));
            self.state.slide_hit_wall |= found.wall;
            if is_zero_approx(result.remainder) {
                break;
            }
            let wall_normal = self.state.wall_normal;
            let head_on = angle(wall_normal, -velocity.normalize_or_zero());
            if settings.wall_min_slide_angle != 0.0
                && head_on < settings.wall_min_slide_angle + FLOOR_ANGLE_TOLERANCE
            {
                motion = Vec3::ZERO;
                if result.travel.length() < margin + CMP_EPSILON {
                    self.position -= result.travel;
                }
            } else if first_slide {
                let along = slide(result.remainder, wall_normal).normalize_or_zero();
                motion = along * (motion.length() - result.travel.length());
            } else {
                motion = slide(result.remainder, wall_normal);
            }
            if motion.dot(velocity) <= 0.0 || is_zero_approx(motion) {
                break;
            }
            first_slide = false;
        }
    }

    /// Godot's `move_and_collide` for a slide iteration, reporting up to `max_collisions`
    /// contacts: moves the body, optionally cancelling the sideways drift of the recovery.
    fn move_and_collide(
        &mut self,
        from: Vec3,
        motion: Vec3,
        cancel_sliding: bool,
        max_collisions: usize,
    ) -> MotionResult {
        let margin = self.settings.safe_margin;
        let mut result = self.motion(&MotionParameters {
            from,
            motion,
            margin,
            max_collisions,
            recovery_as_collision: true,
            exclude: None,
        });
        if cancel_sliding {
            let motion_length = motion.length();
            let mut precision = 0.001;
            let mut cancel = true;
            if result.collided() {
                precision += motion_length * (result.unsafe_fraction - result.safe_fraction);
                if result.collisions[0].depth > margin + precision {
                    cancel = false;
                }
            }
            if cancel {
                let motion_normal = if motion_length > CMP_EPSILON {
                    motion / motion_length
                } else {
                    Vec3::ZERO
                };
                let projected_length = result.travel.dot(motion_normal);
                let recovery = result.travel - motion_normal * projected_length;
                if recovery.length() < margin + precision {
                    result.travel = motion_normal * projected_length;
                    result.remainder = motion - result.travel;
                }
            }
        }
        // A travel that overflows f32 (out of a gigantic solid, say) is not applied.
        if !(from + result.travel).is_finite() {
            result.travel = Vec3::ZERO;
            result.remainder = Vec3::ZERO;
        }
        self.position = from + result.travel;
        result
    }

    /// Sorts the contacts of `result` into floor, wall and ceiling; writes what `apply` allows
    /// into the body's state. Two or more walls whose average normal is walkable count as floor
    /// (a wedge between steep slopes). A floating body meets walls only.
    fn classify(&mut self, result: &MotionResult, apply: Apply) -> Found {
        let up = self.settings.up_direction.normalize();
        let max_angle = self.settings.floor_max_angle + FLOOR_ANGLE_TOLERANCE;
        let mut found = Found::default();
        let mut wall_depth = -1.0f32;
        let mut floor_depth = -1.0f32;
        let was_on_wall = self.state.on_wall;
        let prev_wall_normal = self.state.wall_normal;
        let mut wall_count = 0;
        let mut combined_wall_normal = Vec3::ZERO;
        let mut last_wall_normal = Vec3::ZERO;

        let grounded = self.settings.motion_mode == MotionMode::Grounded;
        for collision in result.collisions.iter().rev() {
            if grounded && angle(collision.normal, up) <= max_angle {
                found.floor = true;
                if apply.floor && collision.depth > floor_depth {
                    self.state.on_floor = true;
                    self.state.floor_normal = collision.normal;
                    floor_depth = collision.depth;
                    self.state.platform = Some(collision.collider);
                    self.state.platform_velocity = collision.collider_velocity;
                }
                continue;
            }
            if grounded && angle(collision.normal, -up) <= max_angle {
                found.ceiling = true;
                if apply.ceiling {
                    self.state.ceiling_normal = collision.normal;
                    self.state.on_ceiling = true;
                }
                continue;
            }
            found.wall = true;
            if apply.wall && collision.depth > wall_depth {
                self.state.on_wall = true;
                wall_depth = collision.depth;
                self.state.wall_normal = collision.normal;
                self.state.platform = Some(collision.collider);
                self.state.platform_velocity = collision.collider_velocity;
            }
            if !collision.normal.abs_diff_eq(last_wall_normal, CMP_EPSILON) {
                last_wall_normal = collision.normal;
                combined_wall_normal += collision.normal;
                wall_count += 1;
            }
        }

        if grounded && found.wall && wall_count > 1 && !found.floor {
            let combined = combined_wall_normal.normalize_or_zero();
            if combined != Vec3::ZERO && angle(combined, up) <= max_angle {
                found.floor = true;
                found.wall = false;
                if apply.floor {
                    self.state.on_floor = true;
                    self.state.floor_normal = combined;
                }
                if apply.wall {
                    self.state.on_wall = was_on_wall;
                    self.state.wall_normal = prev_wall_normal;
                }
            }
        }
        found
    }

    /// Snaps after a slide when the body was on floor, is not moving up and lost the floor.
    fn snap_on_floor(&mut self, was_on_floor: bool, vel_dir_facing_up: bool) {
        if self.state.on_floor || !was_on_floor || vel_dir_facing_up {
            return;
        }
        self.floor_snap();
    }

    fn snap_test(&mut self) -> MotionResult {
        let up = self.settings.up_direction.normalize();
        let length = self
            .settings
            .floor_snap_length
            .max(self.settings.safe_margin);
        self.motion(&MotionParameters {
            from: self.position,
            motion: -up * length,
            margin: self.settings.safe_margin,
            max_collisions: SNAP_COLLISIONS,
            recovery_as_collision: true,
            exclude: None,
        })
    }

    /// Godot's `apply_floor_snap`: moves down onto floor within the snap length, only along up
    /// when stopping on slopes.
    pub(crate) fn floor_snap(&mut self) {
        if self.state.on_floor {
            return;
        }
        let mut result = self.snap_test();
        if !result.collided() {
            return;
        }
        let found = self.classify(&result, APPLY_FLOOR);
        if found.floor {
            let up = self.settings.up_direction.normalize();
            if self.settings.floor_stop_on_slope {
                result.travel = if result.travel.length() > self.settings.safe_margin {
                    up * up.dot(result.travel)
                } else {
                    Vec3::ZERO
                };
            }
            if (self.position + result.travel).is_finite() {
                self.position += result.travel;
            }
        }
    }

    /// Whether a floor snap would find floor, without moving or touching the state.
    fn on_floor_if_snapped(&mut self, was_on_floor: bool, vel_dir_facing_up: bool) -> bool {
        if self.state.on_floor || !was_on_floor || vel_dir_facing_up {
            return false;
        }
        let result = self.snap_test();
        result.collided() && self.classify(&result, APPLY_NONE).floor
    }
}
