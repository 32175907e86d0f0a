//! The recoveries of a body's last motion queries, remembered by where they started.
//!
//! A motion query first pushes the body out of what lies within the safe margin of its start
//! ([`World::test_motion`](crate::world::World::test_motion)), and that push depends only on
//! the world, the body's shape, the start, the margin and the solid the query leaves out. A
//! tick's queries often start where an earlier one did (the look down before the slide, the
//! slide, its floor snap, the probe after it), so a body remembers its last few recoveries and
//! a query from the same place takes the remembered one: the same answer, to the last bit, for
//! a fraction of the work. The body forgets them whenever its world or its shape changes.

use crate::world::{MotionParameters, Recovery};

/// How many recoveries a body remembers: the starts one tick's queries come back to.
const REMEMBERED: usize = 8;

/// The last [`REMEMBERED`] recoveries, by where they started.
#[derive(Debug, Clone, Default)]
pub(crate) struct Recoveries {
    remembered: [Option<(Start, Recovery)>; REMEMBERED],
    /// The slot the next new recovery goes to (the oldest).
    next: usize,
}

/// What a recovery depends on besides the world and the shape, bit for bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Start {
    from: [u32; 3],
    margin: u32,
    exclude: Option<usize>,
}

impl Start {
    fn of(params: &MotionParameters) -> Self {
        Self {
            from: params.from.to_array().map(f32::to_bits),
            margin: params.margin.to_bits(),
            exclude: params.exclude,
        }
    }
}

impl Recoveries {
    /// The recovery of a query of `params`: the remembered one when a query started there,
    /// otherwise what `recover` finds, remembered in place of the oldest.
    pub(crate) fn recall_or(
        &mut self,
        params: &MotionParameters,
        recover: impl FnOnce() -> Recovery,
    ) -> Recovery {
        let start = Start::of(params);
        let known = self.remembered.iter().flatten();
        if let Some(&(_, recovery)) = known.into_iter().find(|(s, _)| *s == start) {
            return recovery;
        }
        let recovery = recover();
        self.remembered[self.next] = Some((start, recovery));
        self.next = (self.next + 1) % REMEMBERED;
        recovery
    }

    /// Forgets every recovery: the world or the shape changed.
    pub(crate) fn forget(&mut self) {
        *self = Self::default();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use glam::Vec3;
    use kcc::KinematicBody;

    use crate::body::ParryBody;
    use crate::geometry::aabb_box;
    use crate::platform::PlatformMotion;
    use crate::settings::BodySettings;
    use crate::shape::CharacterShape;
    use crate::world::{MotionParameters, MotionResult, World};

    /// A motion query of `motion` (m) from `from` (m) as a body's `test_move` asks it.
    fn query(body: &ParryBody, from: Vec3, motion: Vec3) -> MotionParameters {
        MotionParameters {
            from,
            motion,
            margin: body.safe_margin(),
            max_collisions: 1,
            recovery_as_collision: false,
            exclude: None,
        }
    }

    /// The body's answer to the query and the world's own, computed afresh.
    fn both(body: &mut ParryBody, from: Vec3, motion: Vec3) -> (MotionResult, MotionResult) {
        let params = query(body, from, motion);
        let fresh = body.world.test_motion(&body.shape, &params);
        (body.motion(&params), fresh)
    }

    fn capsule(world: World, height: f32) -> ParryBody {
        let settings = BodySettings {
            shape: CharacterShape::Capsule {
                radius: 0.3,
                height,
            },
            ..BodySettings::default()
        };
        ParryBody::new(Arc::new(world), settings, Vec3::ZERO).unwrap()
    }

    #[test]
    fn a_query_from_a_remembered_start_answers_as_a_fresh_one() {
        // Half a millimetre into a floor: every query from there starts by pushing out of it.
        let mut world = World::new();
        world.add(aabb_box(Vec3::new(0.0, -0.5, 0.0), Vec3::new(10.0, 1.0, 10.0)).unwrap());
        let mut body = capsule(world, 1.8);
        let from = Vec3::new(0.0, -0.0005, 0.0);
        for motion in [
            Vec3::X * 0.1,
            Vec3::NEG_Y * 0.1,
            Vec3::X * 0.1,
            Vec3::Z * 0.3,
        ] {
            let (remembered, fresh) = both(&mut body, from, motion);
            assert_eq!(remembered, fresh, "{motion}");
            assert!(
                remembered.travel.y > 0.0,
                "pushed out of the floor: {remembered:?}"
            );
        }
    }

    #[test]
    fn a_shorter_shape_forgets_the_recovery_of_the_taller_one() {
        // The tall capsule's head is half a millimetre into a ceiling; the crouched one is clear.
        let mut world = World::new();
        world.add(aabb_box(Vec3::new(0.0, 2.2995, 0.0), Vec3::new(10.0, 1.0, 10.0)).unwrap());
        let mut body = capsule(world, 1.8);
        let (tall, _) = both(&mut body, Vec3::ZERO, Vec3::X * 0.1);
        assert!(
            tall.travel.y < 0.0,
            "pushed down out of the ceiling: {tall:?}"
        );
        body.set_shape_height(1.0);
        let (crouched, fresh) = both(&mut body, Vec3::ZERO, Vec3::X * 0.1);
        assert_eq!(crouched, fresh);
        assert_eq!(crouched.travel, Vec3::X * 0.1);
    }

    #[test]
    fn a_moved_platform_forgets_the_recovery_from_where_it_was() {
        // A lift that starts half a millimetre over the feet and goes down 1 m/s.
        let mut world = World::new();
        let lift = PlatformMotion {
            velocity: Vec3::NEG_Y,
            angular_velocity: 0.0,
            pivot: Vec3::ZERO,
            reverse_every: None,
        };
        let slab = aabb_box(Vec3::new(0.0, -0.4995, 0.0), Vec3::new(4.0, 1.0, 4.0)).unwrap();
        world.add_platform(slab, lift);
        let mut body = capsule(world, 1.8);
        let (before, _) = both(&mut body, Vec3::ZERO, Vec3::X * 0.1);
        assert!(
            before.travel.y > 0.0,
            "pushed up out of the lift: {before:?}"
        );
        body.set_time(0.1);
        let (after, fresh) = both(&mut body, Vec3::ZERO, Vec3::X * 0.1);
        assert_eq!(after, fresh);
        assert_eq!(after.travel, Vec3::X * 0.1);
    }
}
