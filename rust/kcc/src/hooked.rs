//! A body with something between it and the controller: [`Hooked`] passes every call of the
//! port to the body, except those its [`BodyHooks`] take over. The controller checks its casts
//! this way (`crate::cast_check`); the simulator records queries and tests imitate other
//! engines with it, each writing only the calls it changes.

use glam::Vec3;

use crate::body::{KinematicBody, MotionTest, Touched};

/// The calls a [`Hooked`] body may answer differently; each one's default is the body's own.
pub trait BodyHooks<B: KinematicBody + ?Sized> {
    /// [`KinematicBody::test_move`] of `body`.
    fn test_move(&mut self, body: &mut B, from: Vec3, motion: Vec3) -> MotionTest {
        body.test_move(from, motion)
    }

    /// [`KinematicBody::move_and_slide`] of `body`: the velocity after the slide, m/s.
    fn move_and_slide(&mut self, body: &mut B, velocity: Vec3, dt: f32) -> Vec3 {
        body.move_and_slide(velocity, dt)
    }

    /// [`KinematicBody::slide_collision`] `index` of `body`.
    fn slide_collision(&self, body: &B, index: usize) -> Option<MotionTest> {
        body.slide_collision(index)
    }

    /// [`KinematicBody::apply_floor_snap`] of `body`.
    fn apply_floor_snap(&mut self, body: &mut B) {
        body.apply_floor_snap();
    }

    /// [`KinematicBody::set_shape_height`] of `body`, m.
    fn set_shape_height(&mut self, body: &mut B, height: f32) {
        body.set_shape_height(height);
    }
}

/// `body` answered through `hooks`.
pub struct Hooked<'a, B: KinematicBody + ?Sized, H> {
    /// The body every other call goes to.
    pub body: &'a mut B,
    /// What changes its answers.
    pub hooks: H,
}

impl<'a, B: KinematicBody + ?Sized, H: BodyHooks<B>> Hooked<'a, B, H> {
    /// `body` answered through `hooks`.
    pub fn new(body: &'a mut B, hooks: H) -> Self {
        Self { body, hooks }
    }
}

impl<B: KinematicBody + ?Sized, H: BodyHooks<B>> KinematicBody for Hooked<'_, B, H> {
    fn position(&self) -> Vec3 {
        self.body.position()
    }
    fn set_position(&mut self, position: Vec3) {
        self.body.set_position(position);
    }
    fn test_move(&mut self, from: Vec3, motion: Vec3) -> MotionTest {
        self.hooks.test_move(self.body, from, motion)
    }
    fn move_and_slide(&mut self, velocity: Vec3, dt: f32) -> Vec3 {
        self.hooks.move_and_slide(self.body, velocity, dt)
    }
    fn slide_collision(&self, index: usize) -> Option<MotionTest> {
        self.hooks.slide_collision(self.body, index)
    }
    fn slide_collision_count(&self) -> usize {
        self.body.slide_collision_count()
    }
    fn touched_body(&self, index: usize) -> Option<Touched> {
        self.body.touched_body(index)
    }
    fn touched_character(&self, index: usize) -> bool {
        self.body.touched_character(index)
    }
    fn push_body(&mut self, index: usize, impulse: Vec3) {
        self.body.push_body(index, impulse);
    }
    fn floor_body(&mut self) -> Option<Touched> {
        self.body.floor_body()
    }
    fn press_floor_body(&mut self, impulse: Vec3, point: Vec3) {
        self.body.press_floor_body(impulse, point);
    }
    fn is_on_floor(&self) -> bool {
        self.body.is_on_floor()
    }
    fn is_on_wall(&self) -> bool {
        self.body.is_on_wall()
    }
    fn wall_normal(&self) -> Vec3 {
        self.body.wall_normal()
    }
    fn floor_normal(&self) -> Vec3 {
        self.body.floor_normal()
    }
    fn apply_floor_snap(&mut self) {
        self.hooks.apply_floor_snap(self.body);
    }
    fn up_direction(&self) -> Vec3 {
        self.body.up_direction()
    }
    fn floor_max_angle(&self) -> f32 {
        self.body.floor_max_angle()
    }
    fn safe_margin(&self) -> f32 {
        self.body.safe_margin()
    }
    fn shape_height(&self) -> f32 {
        self.body.shape_height()
    }
    fn shape_radius(&self) -> f32 {
        self.body.shape_radius()
    }
    fn set_shape_height(&mut self, height: f32) {
        self.hooks.set_shape_height(self.body, height);
    }
}
