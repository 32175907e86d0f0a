//! Motion tests that never end inside what they hit.
//!
//! Godot Physics casts a shape by bisection with a GJK distance test that can call a shape
//! clear of a flat face when it already overlaps it: a capsule tested 0.4 m down onto a box
//! floor 0.2 m below stops 6 mm inside it (Godot issue 66072, "inaccurate cast_motion"). The
//! controller places the body where its tests end, so such an answer would sink the character
//! into the floor for a tick. [`checked_casts`] wraps the body for a tick and backs each test's
//! travel off along its motion when the contact it reports lies deeper in the shape than the
//! engine's margin, and undoes a floor snap that sinks the body deeper than its margins (the
//! same cast). Answers of an engine that casts exactly (Jolt, the parry world) are never
//! changed.

use glam::Vec3;

use crate::body::{KinematicBody, MotionTest};
use crate::hooked::{BodyHooks, Hooked};

/// How deep (m), beyond the body's safe margin, a test may end inside the surface it reports
/// before its travel is backed off: a tenth of a millimetre, far below what a player sees and
/// far above the rounding of exact casts.
pub const OVERLAP_SLACK: f32 = 1e-4;

/// Only motions that meet the contact at least this head-on (the cosine between the motion and
/// the surface's normal, against it) are backed off: a grazing test would need a long way back
/// along its motion to undo a small overlap.
const HEAD_ON: f32 = 0.25;

/// How deep the body's shape, its bottom at `bottom` (m), reaches past the contact plane
/// through `point` with `normal` (pointing toward the body), m; negative when clear. The shape
/// is taken as the ball of `radius` (m) resting in its bottom, which a shape at least that wide
/// and twice that tall contains (a capsule's bottom cap, the ball inscribed in a cylinder or a
/// box), so the depth is never more than the real one.
pub fn depth_below(bottom: Vec3, up: Vec3, radius: f32, point: Vec3, normal: Vec3) -> f32 {
    let centre = bottom + up * radius;
    radius - (centre - point).dot(normal)
}

/// The ball in the bottom of a body's shape, for [`checked`]: its radius (m) and how far the
/// shape's bottom floats above the body's origin (m; a floating shape, see
/// `ControllerSettings::float_height`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ball {
    /// Radius, m.
    pub radius: f32,
    /// Height of the shape's bottom above the body's origin, m.
    pub lift: f32,
}

/// `test` of a motion by `motion` from `from`, its travel backed off along the motion until
/// the `ball` just touches its contact when it ended more than the `margin` (m) plus
/// [`OVERLAP_SLACK`] deep (see [`depth_below`]); unchanged otherwise, or when the motion does
/// not meet the contact head-on.
pub fn checked(
    test: MotionTest,
    from: Vec3,
    motion: Vec3,
    up: Vec3,
    ball: Ball,
    margin: f32,
) -> MotionTest {
    let (Some(contact), Some(along)) = (test.contact, motion.try_normalize()) else {
        return test;
    };
    let facing = -along.dot(contact.normal);
    if facing < HEAD_ON || ball.radius <= 0.0 {
        return test;
    }
    let bottom = from + test.travel + up * ball.lift;
    let depth = depth_below(bottom, up, ball.radius, contact.point, contact.normal);
    if depth <= margin.max(0.0) + OVERLAP_SLACK {
        return test;
    }
    let made = test.travel.dot(along).max(0.0);
    let back = (depth / facing).min(made);
    MotionTest {
        travel: test.travel - along * back,
        remainder: test.remainder + along * back,
        contact: test.contact,
    }
}

/// What [`CheckedCasts`] keeps of the body: its up, its margin and the ball in its shape.
pub struct CastCheck {
    up: Vec3,
    margin: f32,
    ball: Ball,
}

/// A body whose motion tests are [`checked`] with the ball in the bottom of its shape, and
/// whose floor snaps never sink it; every other call passes through.
pub type CheckedCasts<'a, B> = Hooked<'a, B, CastCheck>;

/// Wraps `body` (for a tick), its shape's bottom `lift` (m) above its origin.
pub fn checked_casts<B: KinematicBody + ?Sized>(body: &mut B, lift: f32) -> CheckedCasts<'_, B> {
    let hooks = CastCheck {
        up: body.up_direction(),
        margin: body.safe_margin(),
        ball: Ball {
            radius: radius_of(body),
            lift: lift.max(0.0),
        },
    };
    Hooked::new(body, hooks)
}

/// The radius of the ball in the bottom of `body`'s shape: the shape's, at most half its
/// height (m).
fn radius_of<B: KinematicBody + ?Sized>(body: &B) -> f32 {
    let ball = body.shape_radius().min(body.shape_height() * 0.5);
    if ball.is_finite() { ball } else { 0.0 }
}

impl<B: KinematicBody + ?Sized> BodyHooks<B> for CastCheck {
    fn test_move(&mut self, body: &mut B, from: Vec3, motion: Vec3) -> MotionTest {
        let test = body.test_move(from, motion);
        checked(test, from, motion, self.up, self.ball, self.margin)
    }

    fn apply_floor_snap(&mut self, body: &mut B) {
        // The controller snaps where its own checked casts put the body, for the engine's floor
        // state: a snap that sinks it deeper than its margins is the same inaccurate cast, and
        // the body goes back where it was (the floor state stays the snap's).
        let before = body.position();
        body.apply_floor_snap();
        let sunk = (before - body.position()).dot(self.up);
        if sunk > 2.0 * self.margin.max(0.0) + OVERLAP_SLACK {
            body.set_position(before);
        }
    }

    fn set_shape_height(&mut self, body: &mut B, height: f32) {
        body.set_shape_height(height);
        self.ball.radius = radius_of(body);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::Contact;

    const BALL: Ball = Ball {
        radius: 0.4,
        lift: 0.0,
    };
    const MARGIN: f32 = 0.001;

    /// A test 0.4 m down from y = 0.2 onto a floor at y = 0 that travelled `travel` m down.
    fn onto_floor(travel: f32) -> MotionTest {
        MotionTest {
            travel: Vec3::NEG_Y * travel,
            remainder: Vec3::NEG_Y * (0.4 - travel),
            contact: Some(Contact {
                normal: Vec3::Y,
                point: Vec3::new(0.3, 0.0, 0.0),
                depth: MARGIN,
                movable: false,
            }),
        }
    }

    fn check(test: MotionTest, motion: Vec3, ball: Ball) -> MotionTest {
        checked(
            test,
            Vec3::new(0.0, 0.2, 0.0),
            motion,
            Vec3::Y,
            ball,
            MARGIN,
        )
    }

    #[test]
    fn a_cast_that_ended_inside_the_floor_is_backed_off_to_touch_it() {
        // Godot Physics' answer of stairs_020 at 60 Hz: 6.25 mm too far.
        let fixed = check(onto_floor(0.20625), Vec3::NEG_Y * 0.4, BALL);
        assert!((fixed.travel.y + 0.2).abs() < 1e-6, "{:?}", fixed.travel);
        assert!(
            (fixed.remainder.y + 0.2).abs() < 1e-6,
            "{:?}",
            fixed.remainder
        );
        assert_eq!(fixed.contact, onto_floor(0.20625).contact);
    }

    #[test]
    fn an_exact_cast_is_kept() {
        for travel in [0.199, 0.2, 0.2 + MARGIN] {
            let test = onto_floor(travel);
            assert_eq!(check(test, Vec3::NEG_Y * 0.4, BALL), test, "{travel}");
        }
    }

    #[test]
    fn a_grazing_motion_is_never_backed_off() {
        // Nearly along the floor: 5 mm deep at the end, but undoing it would take 0.1 m back.
        let test = MotionTest {
            travel: Vec3::new(0.3, -0.205, 0.0),
            remainder: Vec3::new(0.1, 0.0, 0.0),
            ..onto_floor(0.0)
        };
        assert_eq!(check(test, Vec3::new(0.4, -0.02, 0.0), BALL), test);
    }

    #[test]
    fn a_floating_shape_is_measured_at_its_bottom() {
        // The origin ends 0.25 m below the floor's top, the shape's bottom 0.05 m above it.
        let lifted = Ball { lift: 0.3, ..BALL };
        let test = onto_floor(0.45);
        assert_eq!(check(test, Vec3::NEG_Y * 0.4, lifted), test);
        // Without the lift, the same answer is 0.25 m deep.
        assert!(
            (depth_below(
                Vec3::new(0.0, -0.25, 0.0),
                Vec3::Y,
                0.4,
                Vec3::ZERO,
                Vec3::Y
            ) - 0.25)
                .abs()
                < 1e-6
        );
    }

    #[test]
    fn the_depth_at_an_edge_is_the_balls() {
        // A ball resting on an edge at 45 degrees touches it: depth 0; 1 cm lower, 7 mm deep.
        let normal = Vec3::new(-1.0, 1.0, 0.0).normalize();
        let point = Vec3::ZERO;
        let centre = point + normal * 0.4;
        let bottom = centre - Vec3::Y * 0.4;
        assert!(depth_below(bottom, Vec3::Y, 0.4, point, normal).abs() < 1e-6);
        let lower = depth_below(bottom - Vec3::Y * 0.01, Vec3::Y, 0.4, point, normal);
        assert!((lower - 0.01 * normal.y).abs() < 1e-6, "{lower}");
    }
}
