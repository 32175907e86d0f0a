//! What a body's last motion queries answered, remembered for the queries that ask again.
//!
//! A motion query first pushes the body out of what lies within the safe margin of its start
//! ([`World::test_motion`](crate::world::World::test_motion)), and that push depends only on
//! the world, the body's shape, the start, the margin and the solid the query leaves out; the
//! whole answer depends on those and the motion, how many contacts it reports and whether a
//! recovery alone counts as a collision. A tick's queries often start where an earlier one did
//! (the look down before the slide, the slide, its floor snap, the probe after it), and some
//! ask again exactly what an earlier one asked (a probe for a riser before the slide and the
//! climb's). So a body remembers its last few answers and recoveries, and a query that asks
//! again takes the remembered answer, or starts from the remembered recovery: the same answer,
//! to the last bit, for a fraction of the work. The body forgets them whenever its world or its
//! shape changes.

use std::array;

use crate::world::{MotionParameters, MotionResult, Recovery};

/// How many answers and how many recoveries a body remembers: the queries one tick comes back
/// to (8 took the fewest instructions over the course of 2, 4, 8 and 16).
const REMEMBERED: usize = 8;

/// The last [`REMEMBERED`] answers by their query, and recoveries by their start.
#[derive(Debug, Clone, Default)]
pub(crate) struct Recall {
    answers: Ring<Query, MotionResult>,
    recoveries: Ring<Start, Recovery>,
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

/// What a whole answer depends on besides the world and the shape, bit for bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Query {
    start: Start,
    motion: [u32; 3],
    max_collisions: usize,
    recovery_as_collision: bool,
}

impl Query {
    fn of(params: &MotionParameters) -> Self {
        Self {
            start: Start::of(params),
            motion: params.motion.to_array().map(f32::to_bits),
            max_collisions: params.max_collisions,
            recovery_as_collision: params.recovery_as_collision,
        }
    }
}

impl Recall {
    /// The answer to a query of `params`: the remembered one when the same query was asked,
    /// otherwise what `answer` finds from the recovery (the remembered one when a query
    /// started there, otherwise what `recover` finds); what is found is remembered in place
    /// of the oldest.
    pub(crate) fn answer_or(
        &mut self,
        params: &MotionParameters,
        recover: impl FnOnce() -> Recovery,
        answer: impl FnOnce(Recovery) -> MotionResult,
    ) -> MotionResult {
        let recoveries = &mut self.recoveries;
        self.answers.recall_or(Query::of(params), || {
            answer(recoveries.recall_or(Start::of(params), recover))
        })
    }

    /// Forgets every answer and recovery: the world or the shape changed.
    pub(crate) fn forget(&mut self) {
        *self = Self::default();
    }
}

/// The last [`REMEMBERED`] values found, by their key.
#[derive(Debug, Clone)]
struct Ring<K, V> {
    remembered: [Option<(K, V)>; REMEMBERED],
    /// The slot the next new value goes to (the oldest).
    next: usize,
}

impl<K, V> Default for Ring<K, V> {
    fn default() -> Self {
        Self {
            remembered: array::from_fn(|_| None),
            next: 0,
        }
    }
}

impl<K: PartialEq, V: Clone> Ring<K, V> {
    /// The value remembered for `key`, or what `find` finds, remembered in place of the oldest.
    fn recall_or(&mut self, key: K, find: impl FnOnce() -> V) -> V {
        let known = self.remembered.iter().flatten();
        if let Some((_, value)) = known.into_iter().find(|(k, _)| *k == key) {
            return value.clone();
        }
        let value = find();
        self.remembered[self.next] = Some((key, value.clone()));
        self.next = (self.next + 1) % REMEMBERED;
        value
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
