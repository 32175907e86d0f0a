//! Velocity from input: the normalized ADSR model for horizontal speed, gravity and jumping for
//! vertical speed.
//!
//! Turning rule: the velocity is split into the part along the wish direction and the rest. The
//! part along the wish direction follows the attack curve toward the target speed; the rest
//! (sideways and backwards motion) follows the release curve toward zero. So reversing costs
//! speed the way releasing the stick does, a 90 degree turn blends one curve into the other, and
//! small camera turns keep almost all speed. Turning never makes the character faster than it
//! was or than the target speed.

use glam::Vec3;

use crate::curve::approach;
use crate::floor::horizontal;
use crate::settings::{GravitySettings, SpeedCurve};
use crate::surface::{STEEPEST_FOLLOWED_COSINE, is_walkable, usable_normal};

/// Input shorter than this counts as no input (stick dead zone), fraction of full input.
pub const INPUT_DEAD_ZONE: f32 = 1e-4;

/// New horizontal velocity (m/s) after `dt` (s) of input `wish` on `curve`.
///
/// `velocity` and `wish` must be horizontal. `wish` gives the direction and how far the stick is
/// pushed: its length (clamped to 1) scales the target speed, so a half-pushed stick walks at
/// half of `max_speed`.
pub fn horizontal_velocity(velocity: Vec3, wish: Vec3, curve: &SpeedCurve, dt: f32) -> Vec3 {
    let max = curve.max_speed;
    let attack_step = dt / curve.attack_time;
    let release_step = dt / curve.release_time;
    let input = wish.length().min(1.0);

    if input <= INPUT_DEAD_ZONE {
        return release_vector(velocity, max, release_step);
    }

    let direction = wish / wish.length();
    let along = velocity.dot(direction);
    let (forward, rest) = if along > 0.0 {
        (along, velocity - direction * along)
    } else {
        (0.0, velocity)
    };

    let forward_new = max * approach(forward / max, input, attack_step, release_step);
    let result = direction * forward_new + release_vector(rest, max, release_step);

    // Turning blends two curves; their sum must not exceed the speed the character had or
    // is heading for.
    let limit = velocity.length().max(input * max);
    result.clamp_length_max(limit)
}

/// `v` shortened along the release curve toward zero, keeping its direction.
fn release_vector(v: Vec3, max_speed: f32, release_step: f32) -> Vec3 {
    let speed = v.length();
    if speed <= 0.0 {
        return Vec3::ZERO;
    }
    let normalized = approach(speed / max_speed, 0.0, 0.0, release_step);
    v * (normalized * max_speed / speed)
}

/// New vertical speed (m/s, positive up) after `dt` (s), and whether a jump started.
///
/// A jump starts when `jump` says one may start now (a press on the floor, or within the grace
/// times of [`crate::jump`]) and the jump velocity is above zero; it replaces the vertical
/// speed. Otherwise gravity pulls, down to the terminal speed.
pub fn vertical_speed(speed: f32, jump: bool, settings: &GravitySettings, dt: f32) -> (f32, bool) {
    if jump && settings.jump_velocity > 0.0 {
        return (settings.jump_velocity, true);
    }
    let falling = speed - settings.gravity * dt;
    (falling.max(-settings.terminal_speed), false)
}

/// The vertical speed (m/s, positive up) that keeps the horizontal velocity `run` (m/s) on a
/// floor with `normal`: `v_up = -(n_h · run) / n_up`, so the motion follows the floor and its
/// horizontal part stays `run`. 0 when the floor is not walkable for `max_angle` (rad), the
/// normal is degenerate, or the floor is flat within the engine's rounding
/// (a grade under 1 in 1000).
pub fn along_floor(run: Vec3, normal: Vec3, up: Vec3, max_angle: f32) -> f32 {
    let Some(normal) = usable_normal(normal).filter(|n| is_walkable(*n, up, max_angle)) else {
        return 0.0;
    };
    let rise = normal.dot(up);
    if rise <= STEEPEST_FOLLOWED_COSINE {
        return 0.0;
    }
    let run = horizontal(run, up);
    let speed = -horizontal(normal, up).dot(run) / rise;
    if speed.abs() <= LEAST_FOLLOWED_GRADE * run.length() {
        0.0
    } else {
        speed
    }
}

/// A floor whose grade along the walk (rise over run) is no more than this is flat, its tilt
/// the engine's rounding: a floor that gentle (0.06 degrees) is built flat in any level. Jolt's
/// normal of two 60 degree slopes a capsule rests between, averaged by Godot into a floor,
/// leans by 4.5e-5 along the valley (`wedge_v_60` at 75 Hz): followed uphill, the move rose by
/// 0.2 mm/s, which turns Godot's floor snap off (it never snaps a body moving up), and the
/// capsule, raised onto its flat base a millimetre above the slopes, floated off the floor for
/// the rest of its walk. (Until then the bound was 1e-4 m/s of vertical speed, whatever the
/// walking speed.)
const LEAST_FOLLOWED_GRADE: f32 = 1e-3;

#[cfg(test)]
mod tests {
    use super::*;

    const CURVE: SpeedCurve = SpeedCurve {
        max_speed: 4.0,
        attack_time: 0.25,
        release_time: 0.5,
    };

    /// Ticks needed to get from `start` to the end condition, at `rate` Hz.
    fn ticks_until(rate: f32, start: Vec3, wish: Vec3, done: impl Fn(Vec3) -> bool) -> u32 {
        let dt = 1.0 / rate;
        let mut v = start;
        for tick in 1..10_000 {
            v = horizontal_velocity(v, wish, &CURVE, dt);
            if done(v) {
                return tick;
            }
        }
        panic!("never reached");
    }

    #[test]
    fn attack_takes_attack_time_within_one_tick() {
        for rate in [30.0, 60.0, 144.0, 240.0] {
            let ticks = ticks_until(rate, Vec3::ZERO, Vec3::X, |v| v.x >= CURVE.max_speed);
            let time = ticks as f32 / rate;
            assert!(
                (time - CURVE.attack_time).abs() <= 1.0 / rate + 1e-6,
                "{rate} Hz: {time} s"
            );
        }
    }

    #[test]
    fn release_takes_release_time_within_one_tick() {
        for rate in [30.0, 60.0, 144.0, 240.0] {
            let start = Vec3::X * CURVE.max_speed;
            let ticks = ticks_until(rate, start, Vec3::ZERO, |v| v == Vec3::ZERO);
            let time = ticks as f32 / rate;
            assert!(
                (time - CURVE.release_time).abs() <= 1.0 / rate + 1e-6,
                "{rate} Hz: {time} s"
            );
        }
    }

    #[test]
    fn attack_follows_the_curve_midway() {
        // Half the attack time in: 1 - (1 - 0.5)^2 = 0.75 of top speed.
        let dt = 1.0 / 240.0;
        let mut v = Vec3::ZERO;
        for _ in 0..30 {
            v = horizontal_velocity(v, Vec3::X, &CURVE, dt);
        }
        assert!((v.x / CURVE.max_speed - 0.75).abs() < 0.01, "{v}");
    }

    #[test]
    fn analog_input_lowers_target_speed() {
        let mut v = Vec3::ZERO;
        for _ in 0..120 {
            v = horizontal_velocity(v, Vec3::new(0.0, 0.0, -0.5), &CURVE, 1.0 / 60.0);
        }
        assert!((v.length() - 2.0).abs() < 1e-4, "{v}");
        assert!(v.z < 0.0);
        // Pushing the stick further speeds up again, easing back from full to half slows down.
        let half = v;
        for _ in 0..60 {
            v = horizontal_velocity(v, Vec3::new(0.0, 0.0, -1.0), &CURVE, 1.0 / 60.0);
        }
        assert!((v.length() - 4.0).abs() < 1e-4);
        let next = horizontal_velocity(v, Vec3::new(0.0, 0.0, -0.5), &CURVE, 1.0 / 60.0);
        assert!(next.length() < v.length() && next.length() > half.length());
    }

    #[test]
    fn reversing_costs_speed() {
        let dt = 1.0 / 60.0;
        let mut v = Vec3::X * 4.0;
        let mut slowest = f32::MAX;
        let mut ticks = 0;
        while v.x > -3.99 {
            v = horizontal_velocity(v, -Vec3::X, &CURVE, dt);
            slowest = slowest.min(v.length());
            ticks += 1;
            assert!(ticks < 1000);
        }
        assert!(slowest < 1.0, "reversal kept {slowest} m/s");
        assert!(v.length() <= 4.0 + 1e-4);
    }

    #[test]
    fn turning_never_gains_speed() {
        let dt = 1.0 / 60.0;
        for degrees in [10.0f32, 45.0, 90.0, 135.0] {
            let wish = Vec3::new(degrees.to_radians().cos(), 0.0, degrees.to_radians().sin());
            let mut v = Vec3::X * 4.0;
            for _ in 0..60 {
                v = horizontal_velocity(v, wish, &CURVE, dt);
                assert!(v.length() <= 4.0 + 1e-4, "{degrees}: {v}");
            }
            assert!(
                (v - wish * 4.0).length() < 1e-3,
                "{degrees}: ends along wish, {v}"
            );
        }
    }

    #[test]
    fn small_turns_keep_speed() {
        let wish = Vec3::new(5f32.to_radians().cos(), 0.0, 5f32.to_radians().sin());
        let v = horizontal_velocity(Vec3::X * 4.0, wish, &CURVE, 1.0 / 60.0);
        assert!(v.length() > 3.95, "{v}");
    }

    #[test]
    fn along_floor_keeps_horizontal_speed_on_slopes() {
        let max = 50f32.to_radians();
        for degrees in [15.0f32, 30.0, 44.0] {
            let angle = degrees.to_radians();
            // A ramp rising toward -Z: its normal tilts toward +Z.
            let normal = Vec3::new(0.0, angle.cos(), angle.sin());
            let up_hill = along_floor(Vec3::new(0.0, 0.0, -4.0), normal, Vec3::Y, max);
            assert!(
                (up_hill - 4.0 * angle.tan()).abs() < 1e-5,
                "{degrees}: {up_hill}"
            );
            let down_hill = along_floor(Vec3::new(0.0, 0.0, 4.0), normal, Vec3::Y, max);
            assert!((down_hill + 4.0 * angle.tan()).abs() < 1e-5);
            let across = along_floor(Vec3::new(4.0, 0.0, 0.0), normal, Vec3::Y, max);
            assert!(across.abs() < 1e-6);
        }
        // A floor tilted by rounding (Jolt's averaged normal in a V of two slopes) is flat at
        // any walking speed; a one degree ramp is followed.
        let rounding = Vec3::new(-4.5e-5, 1.0, 0.0).normalize();
        assert_eq!(
            along_floor(Vec3::new(5.0, 0.0, 0.0), rounding, Vec3::Y, max),
            0.0
        );
        assert_eq!(
            along_floor(Vec3::new(0.5, 0.0, 0.0), rounding, Vec3::Y, max),
            0.0
        );
        let one_degree = Vec3::new(-1f32.to_radians().sin(), 1f32.to_radians().cos(), 0.0);
        let up_hill = along_floor(Vec3::new(0.5, 0.0, 0.0), one_degree, Vec3::Y, max);
        assert!(
            (up_hill - 0.5 * 1f32.to_radians().tan()).abs() < 1e-6,
            "{up_hill}"
        );
        // Not floor, or degenerate: no vertical speed.
        let steep = Vec3::new(0.0, 0.5, 0.866);
        assert_eq!(along_floor(Vec3::Z, steep, Vec3::Y, max), 0.0);
        assert_eq!(along_floor(Vec3::Z, Vec3::ZERO, Vec3::Y, max), 0.0);
        assert_eq!(along_floor(Vec3::Z, Vec3::NAN, Vec3::Y, max), 0.0);
    }

    #[test]
    fn gravity_jump_and_terminal_speed() {
        let settings = GravitySettings {
            gravity: 10.0,
            terminal_speed: 20.0,
            jump_velocity: 5.0,
        };
        assert_eq!(vertical_speed(0.0, true, &settings, 0.1), (5.0, true));
        assert_eq!(vertical_speed(0.0, false, &settings, 0.1), (-1.0, false));
        assert_eq!(vertical_speed(-19.5, false, &settings, 0.1), (-20.0, false));
        let grounded = GravitySettings {
            jump_velocity: 0.0,
            ..settings
        };
        assert_eq!(vertical_speed(0.0, true, &grounded, 0.1), (-1.0, false));
    }
}
