//! `GodotBody`: the port `kcc::KinematicBody` answered by the oracle's `CharacterBody3D`.
//!
//! Each port method is the oracle's function of the same name in `godot_oracle/port.gd`, which
//! makes the same engine calls as `rust/godot/src/body.rs`. Round trips are kept low without
//! changing what Godot sees: the body's state comes back with every answer, so getters are
//! free, and `set_position` (whose effect is known) is sent with the next call, as is an
//! observation asked for with [`GodotBody::observe_later`].
//!
//! The port cannot fail, but a conversation can: the first error is kept
//! ([`GodotBody::take_error`]), every later call answers "nothing moves", and the caller stops
//! the run after the tick.

use glam::Vec3;
use kcc::{Contact, KinematicBody, MotionTest, Touched};

use crate::error::GodotError;
use crate::protocol::{
    BodyState, Op, OverlapResult, SceneDesc, SceneResult, SlideResult, TestMoveResult, TouchedDesc,
};
use crate::session::GodotSession;

/// Port calls a body made, by kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PortCalls {
    /// `test_move` calls.
    pub test_moves: u64,
    /// `move_and_slide` calls.
    pub slides: u64,
    /// `apply_floor_snap` calls.
    pub snaps: u64,
}

impl PortCalls {
    /// Calls that run physics queries in Godot (a slide runs one or more).
    pub fn total(&self) -> u64 {
        self.test_moves + self.slides + self.snaps
    }
}

/// The body's state at the end of a tick, as Godot reports it, and how deep it overlaps.
#[derive(Debug, Clone, PartialEq)]
pub struct Observation {
    /// Godot's getters after the tick.
    pub state: BodyState,
    /// Deepest overlap with the world as Jolt measures it, m.
    pub overlap: f32,
}

/// A `CharacterBody3D` in the Godot world, seen as a `kcc::KinematicBody`.
pub struct GodotBody<'a> {
    session: &'a mut GodotSession,
    state: BodyState,
    deferred: Vec<Op>,
    /// What the oracle's port said of the last slide's collisions, in order.
    collisions: Vec<MotionTest>,
    calls: PortCalls,
    error: Option<GodotError>,
    scene: SceneResult,
    observations: Vec<Observation>,
}

fn v(a: [f32; 3]) -> Vec3 {
    Vec3::from_array(a)
}

impl<'a> GodotBody<'a> {
    /// Builds `scene` in the session's Godot (replacing the last scene) and returns its body.
    pub fn new(session: &'a mut GodotSession, scene: SceneDesc) -> Result<Self, GodotError> {
        let reply = session.call(&[Op::Scene { scene }])?;
        let result: SceneResult = serde_json::from_value(reply.results[0].clone())
            .map_err(|e| GodotError::Protocol(format!("scene result: {e}")))?;
        let state = reply
            .state
            .ok_or_else(|| GodotError::Protocol("no body state after the scene".into()))?;
        Ok(Self {
            session,
            state,
            deferred: Vec::new(),
            collisions: Vec::new(),
            calls: PortCalls::default(),
            error: None,
            scene: result,
            observations: Vec::new(),
        })
    }

    /// Godot's physics tick once the scene's rate took effect.
    pub fn scene(&self) -> SceneResult {
        self.scene
    }

    /// Port calls so far.
    pub fn calls(&self) -> PortCalls {
        self.calls
    }

    /// Round trips of the session so far.
    pub fn round_trips(&self) -> u64 {
        self.session.round_trips()
    }

    /// Time Godot spent in the port's calls of the session so far, by its own clock, us.
    pub fn physics_usec(&self) -> u64 {
        self.session.physics_usec()
    }

    /// The body's state as of the last answer.
    pub fn state(&self) -> &BodyState {
        &self.state
    }

    /// The first error of the conversation, if any (taking it does not make the session
    /// usable again).
    pub fn take_error(&mut self) -> Option<GodotError> {
        self.error.take()
    }

    /// True when a call failed.
    pub fn failed(&self) -> bool {
        self.error.is_some()
    }

    /// Godot's state now (with anything deferred applied) and the overlap, in one round trip.
    pub fn observe(&mut self) -> Result<Observation, GodotError> {
        self.observe_later();
        self.flush()?;
        self.observations.pop().ok_or_else(|| self.failure())
    }

    /// Asks for Godot's state and the overlap as they are now, sent with the next call (no
    /// round trip of its own); collect them with [`take_observations`](Self::take_observations).
    pub fn observe_later(&mut self) {
        self.deferred.push(Op::Overlap);
    }

    /// Lets the physics step that ends at `time` (s) run in a scene with moving platforms or
    /// rigid bodies: it moves the platforms to where they are at `time` (see [`Op::Advance`])
    /// and the rigid bodies where the pushes of the last tick send them. Sent with the next
    /// call, after the last tick's deferred calls and before the observation of its end, so
    /// that observation sees the world where that step put it, as a game's next frame does.
    pub fn advance(&mut self, time: f64) {
        // After every call of the last tick (the step moves the bodies it pushed), before the
        // observation of its end.
        let at = self
            .deferred
            .iter()
            .position(|op| *op == Op::Overlap)
            .unwrap_or(self.deferred.len());
        self.deferred.insert(at, Op::Advance { time });
    }

    /// Sends the port's calls from now on to character `character` of the scene (0: its body;
    /// 1 and up: its other characters), in one round trip that brings back that character's
    /// state (after anything deferred, which still went to the one selected before).
    pub fn select(&mut self, character: usize) -> Result<(), GodotError> {
        self.send(Op::Select { character })
            .ok_or_else(|| self.failure())?;
        self.collisions.clear();
        Ok(())
    }

    /// Centre of every rigid body of the scene as of the last answer, m.
    pub fn rigid_bodies(&self) -> Vec<Vec3> {
        self.state.bodies.iter().copied().map(v).collect()
    }

    /// How far every rigid body of the scene has turned since it began, as of the last
    /// answer, rad.
    pub fn rigid_turns(&self) -> Vec<f32> {
        self.state.turns.clone()
    }

    /// Sends what is deferred, if anything (one round trip).
    pub fn flush(&mut self) -> Result<(), GodotError> {
        if let Some(op) = self.deferred.pop() {
            self.send(op).ok_or_else(|| self.failure())?;
        }
        Ok(())
    }

    /// The observations that came back so far, in the order they were asked for.
    pub fn take_observations(&mut self) -> Vec<Observation> {
        std::mem::take(&mut self.observations)
    }

    /// `test_move` from each `[from, motion]` (m), answered in batches: for replaying another
    /// world's queries. The body does not move.
    pub fn replay(&mut self, moves: &[[Vec3; 2]]) -> Result<Vec<MotionTest>, GodotError> {
        let mut tests = Vec::with_capacity(moves.len());
        for batch in moves.chunks(256) {
            let op = Op::Replay {
                moves: batch
                    .iter()
                    .map(|[a, b]| [a.to_array(), b.to_array()])
                    .collect(),
            };
            let result = self.send(op).ok_or_else(|| self.failure())?;
            let found: Vec<TestMoveResult> = serde_json::from_value(result)
                .map_err(|e| GodotError::Protocol(format!("replay result: {e}")))?;
            tests.extend(found.into_iter().map(motion_test));
        }
        Ok(tests)
    }

    /// The error to hand out after a failed call.
    fn failure(&self) -> GodotError {
        GodotError::Oracle {
            message: match &self.error {
                Some(e) => e.to_string(),
                None => "a call failed".to_string(),
            },
            log: Vec::new(),
        }
    }

    /// Sends what was deferred, then `op`; returns `op`'s result, or `None` after an error.
    /// Observations among the ops are kept.
    fn send(&mut self, op: Op) -> Option<serde_json::Value> {
        if self.error.is_some() {
            return None;
        }
        self.deferred.push(op);
        let ops = std::mem::take(&mut self.deferred);
        let reply = match self.session.call(&ops) {
            Ok(reply) => reply,
            Err(e) => {
                self.error = Some(e);
                return None;
            }
        };
        if let Some(state) = reply.state {
            self.state = state;
        }
        for (op, result) in ops.iter().zip(&reply.results) {
            if *op != Op::Overlap {
                continue;
            }
            match serde_json::from_value::<OverlapResult>(result.clone()) {
                Ok(found) => self.observations.push(Observation {
                    state: found.state,
                    overlap: found.depth,
                }),
                Err(e) => {
                    self.error = Some(GodotError::Protocol(format!("overlap result: {e}")));
                    return None;
                }
            }
        }
        reply.results.into_iter().last()
    }
}

fn motion_test(found: TestMoveResult) -> MotionTest {
    let contact = match (found.hit, found.normal, found.point, found.depth) {
        (true, Some(normal), Some(point), Some(depth)) => Some(Contact {
            normal: v(normal),
            point: v(point),
            depth,
            movable: found.movable,
        }),
        _ => None,
    };
    MotionTest {
        travel: v(found.travel),
        remainder: v(found.remainder),
        contact,
    }
}

/// A rigid body as the oracle described it.
fn touched(found: TouchedDesc) -> Touched {
    Touched {
        id: found.id,
        normal: v(found.normal),
        point: v(found.point),
        mass: found.mass,
        velocity: v(found.velocity),
    }
}

impl KinematicBody for GodotBody<'_> {
    fn position(&self) -> Vec3 {
        v(self.state.position)
    }

    fn set_position(&mut self, position: Vec3) {
        if !position.is_finite() {
            return;
        }
        // Godot stores exactly the f32 sent, so the cached position stays true.
        self.state.position = position.to_array();
        self.deferred.push(Op::SetPosition {
            position: position.to_array(),
        });
    }

    fn test_move(&mut self, from: Vec3, motion: Vec3) -> MotionTest {
        self.calls.test_moves += 1;
        let still = MotionTest {
            travel: Vec3::ZERO,
            remainder: Vec3::ZERO,
            contact: None,
        };
        if !from.is_finite() || !motion.is_finite() {
            return still;
        }
        let op = Op::TestMove {
            from: from.to_array(),
            motion: motion.to_array(),
        };
        let Some(result) = self.send(op) else {
            return still;
        };
        match serde_json::from_value::<TestMoveResult>(result) {
            Ok(found) => motion_test(found),
            Err(e) => {
                self.error = Some(GodotError::Protocol(format!("test_move result: {e}")));
                still
            }
        }
    }

    fn move_and_slide(&mut self, velocity: Vec3, dt: f32) -> Vec3 {
        self.calls.slides += 1;
        self.collisions.clear();
        if !velocity.is_finite() || !dt.is_finite() || dt <= 0.0 {
            return Vec3::ZERO;
        }
        let op = Op::MoveAndSlide {
            velocity: velocity.to_array(),
            dt,
        };
        let Some(result) = self.send(op) else {
            return Vec3::ZERO;
        };
        match serde_json::from_value::<SlideResult>(result) {
            Ok(slid) => {
                self.collisions = slid.collisions.into_iter().map(motion_test).collect();
                v(slid.velocity)
            }
            Err(e) => {
                self.error = Some(GodotError::Protocol(format!("slide result: {e}")));
                Vec3::ZERO
            }
        }
    }

    fn slide_collision(&self, index: usize) -> Option<MotionTest> {
        self.collisions.get(index).copied()
    }

    fn slide_collision_count(&self) -> usize {
        self.state.slide_normals.len()
    }

    fn touched_body(&self, index: usize) -> Option<Touched> {
        let found = (*self.state.touched.get(index)?)?;
        Some(touched(found))
    }

    fn touched_character(&self, index: usize) -> bool {
        self.state.characters.get(index).copied().unwrap_or(false)
    }

    fn push_body(&mut self, index: usize, impulse: Vec3) {
        if impulse.is_finite() {
            self.deferred.push(Op::PushBody {
                index,
                impulse: impulse.to_array(),
            });
        }
    }

    fn floor_body(&mut self) -> Option<Touched> {
        self.calls.test_moves += 1;
        let result = self.send(Op::FloorBody)?;
        match serde_json::from_value::<Option<TouchedDesc>>(result) {
            Ok(found) => found.map(touched),
            Err(e) => {
                self.error = Some(GodotError::Protocol(format!("floor_body result: {e}")));
                None
            }
        }
    }

    fn press_floor_body(&mut self, impulse: Vec3, point: Vec3) {
        if impulse.is_finite() && point.is_finite() {
            self.deferred.push(Op::PressFloorBody {
                impulse: impulse.to_array(),
                point: point.to_array(),
            });
        }
    }

    fn is_on_floor(&self) -> bool {
        self.state.on_floor
    }

    fn is_on_wall(&self) -> bool {
        self.state.on_wall
    }

    fn wall_normal(&self) -> Vec3 {
        v(self.state.wall_normal)
    }

    fn floor_normal(&self) -> Vec3 {
        v(self.state.floor_normal)
    }

    fn apply_floor_snap(&mut self) {
        self.calls.snaps += 1;
        // The snap changes the position and floor state the next getters read: ask now.
        self.send(Op::ApplyFloorSnap);
    }

    fn up_direction(&self) -> Vec3 {
        v(self.state.up_direction)
    }

    fn floor_max_angle(&self) -> f32 {
        self.state.floor_max_angle
    }

    fn safe_margin(&self) -> f32 {
        self.state.safe_margin
    }

    fn shape_height(&self) -> f32 {
        self.state.shape_height
    }

    fn shape_radius(&self) -> f32 {
        self.state.shape_radius
    }

    fn set_shape_height(&mut self, height: f32) {
        if !height.is_finite() {
            return;
        }
        // Godot may keep the shape taller than asked: send now, so the state tells.
        self.send(Op::SetShapeHeight { height });
    }
}
