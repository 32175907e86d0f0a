//! The port: `kcc::KinematicBody` answered by a Godot `CharacterBody3D`.
//!
//! A translation table: each trait method is one or two engine calls. Positions are the node's
//! global position (its origin), as `kcc::KinematicBody` documents for Godot.
//!
//! # Why every call goes through `base()` / `base_mut()`
//! The port borrows the Rust object (`&mut T`) and reaches the engine node through the object's
//! own base guards, one guard per engine call. The other way, a `Gd<CharacterBody3D>` taken from
//! `to_gd()`, would also reach the node, but gdext keeps the Rust object bound (`&mut self` of
//! the running `physics_process` or `#[func]`) while the engine runs the call. If the engine
//! then calls back into this object (a notification, a signal handler, a script method that
//! calls one of our `#[func]`s), gdext would find it already bound and panic. A `base_mut()`
//! guard marks the bound instance as re-entrant for the length of the call, which is exactly
//! what a call that may come back needs. The cost is one `Gd` clone per engine call, small next
//! to a physics query. Guards never outlive the statement that takes them.

use godot::classes::physics_server_3d::BodyState;
use godot::classes::{
    BoxShape3D, CapsuleShape3D, CharacterBody3D, CollisionShape3D, CylinderShape3D, Engine,
    KinematicCollision3D, PhysicsServer3D, RigidBody3D, Shape3D, SphereShape3D,
};
use godot::obj::{Gd, GodotClass, NewGd, Singleton, WithBaseField};
use godot::prelude::Vector3;

use kcc::{Contact, KinematicBody, MotionTest, Touched};

use crate::convert::{to_glam, to_godot};
use crate::shape::{BodyShape, resize};

/// A Rust class whose base is `CharacterBody3D`, seen as a `kcc::KinematicBody`.
pub struct GodotBody<'a, T>
where
    T: WithBaseField + GodotClass<Base = CharacterBody3D>,
{
    owner: &'a mut T,
    /// A moving platform was under the body when the last slide began: it carried the body
    /// before the slide's own motion, so the slide's first collision is not said.
    carried: bool,
    /// The result object of this port's motion tests, made by the first (see
    /// [`Self::result_object`]).
    result: Option<Gd<KinematicCollision3D>>,
    /// The rigid body the last `floor_body` found under the body, for `press_floor_body`.
    floor: Option<Gd<RigidBody3D>>,
}

impl<'a, T> GodotBody<'a, T>
where
    T: WithBaseField + GodotClass<Base = CharacterBody3D>,
{
    /// The port over `owner`'s node, its motion tests writing into `result` (kept from an
    /// earlier port of the same node, see [`Self::into_result`]) when there is one. Borrowing
    /// `owner` for the port's lifetime keeps other code from touching the object's fields in
    /// the middle of a tick.
    pub fn with_result(owner: &'a mut T, result: Option<Gd<KinematicCollision3D>>) -> Self {
        Self {
            owner,
            carried: false,
            result,
            floor: None,
        }
    }

    /// The result object of this port's motion tests, if one was made or handed in: the next
    /// port of the node can write into it (no allocation per tick).
    pub fn into_result(self) -> Option<Gd<KinematicCollision3D>> {
        self.result
    }

    /// The object a motion test writes its result into: one for all the tests of this port
    /// (and of the ports after it that are handed it), made by the first. The engine writes every field a test reads (travel and
    /// remainder always, the contact on a hit, which is read only after a hit), so nothing of
    /// an earlier test leaks into a later one.
    fn result_object(&mut self) -> Gd<KinematicCollision3D> {
        if let Some(result) = &self.result {
            return result.clone();
        }
        let result = KinematicCollision3D::new_gd();
        self.result = Some(result.clone());
        result
    }

    /// The body's first `CollisionShape3D` child: the shape crouching resizes.
    fn collision_shape(&self) -> Option<Gd<CollisionShape3D>> {
        let children = self.owner.base().get_children();
        children
            .iter_shared()
            .find_map(|child| child.try_cast::<CollisionShape3D>().ok())
    }

    /// The last slide's collision `index`; `None` when it had fewer (asked for a collision it
    /// does not have, the engine prints an error: count first).
    fn collision_at(&self, index: usize) -> Option<Gd<KinematicCollision3D>> {
        let index = i32::try_from(index).ok()?;
        if index >= self.owner.base().get_slide_collision_count() {
            return None;
        }
        self.owner.base().get_slide_collision(index)
    }

    /// The delta Godot's `move_and_slide` will use for this call, s: the physics delta inside a
    /// physics frame, the process delta outside (the same rule as the engine's).
    fn engine_delta(&self) -> f64 {
        if Engine::singleton().is_in_physics_frame() {
            self.owner.base().get_physics_process_delta_time()
        } else {
            self.owner.base().get_process_delta_time()
        }
    }
}

/// Factor that makes Godot's `move_and_slide` (which always moves by velocity x the engine's
/// delta) move by velocity x `dt`: `dt / engine_delta`. `None` when nothing should move (`dt`
/// zero, negative or not finite). 1 when the engine's delta is unusable (zero in the first
/// frame, say), so the engine's own delta is used as it is.
///
/// ```
/// use rust_character_body::body::slide_scale;
///
/// // A 2.5 ms sub-step inside a 1/60 s physics frame: velocity is scaled to 0.15 on the way in.
/// let scale = slide_scale(0.0025, 1.0 / 60.0).unwrap();
/// assert!((scale - 0.15).abs() < 1e-5);
/// assert_eq!(slide_scale(0.0, 1.0 / 60.0), None);
/// ```
pub fn slide_scale(dt: f32, engine_delta: f64) -> Option<f32> {
    if !dt.is_finite() || dt <= 0.0 {
        return None;
    }
    if !engine_delta.is_finite() || engine_delta <= 0.0 {
        return Some(1.0);
    }
    let scale = (f64::from(dt) / engine_delta) as f32;
    (scale.is_finite() && scale > 0.0).then_some(scale)
}

impl<T> KinematicBody for GodotBody<'_, T>
where
    T: WithBaseField + GodotClass<Base = CharacterBody3D>,
{
    fn position(&self) -> glam::Vec3 {
        to_glam(self.owner.base().get_global_position())
    }

    fn set_position(&mut self, position: glam::Vec3) {
        self.owner
            .base_mut()
            .set_global_position(to_godot(position));
    }

    fn test_move(&mut self, from: glam::Vec3, motion: glam::Vec3) -> MotionTest {
        // The body's own rotation and scale, moved to `from`.
        let mut start = self.owner.base().get_global_transform();
        start.origin = to_godot(from);
        // Godot's default margin for test_move is 0.001, not the node's safe_margin: pass it.
        let margin = self.owner.base().get_safe_margin();
        let collision = self.result_object();
        let hit = self
            .owner
            .base_mut()
            .test_move_ex(start, to_godot(motion))
            .collision(&collision)
            .safe_margin(margin)
            .done();
        // Contact getters print an engine error when there is no contact: ask only after a hit.
        let contact = hit.then(|| Contact {
            normal: to_glam(collision.get_normal()),
            point: to_glam(collision.get_position()),
            depth: collision.get_depth(),
            movable: movable(&collision),
        });
        MotionTest {
            travel: to_glam(collision.get_travel()),
            remainder: to_glam(collision.get_remainder()),
            contact,
        }
    }

    fn move_and_slide(&mut self, velocity: glam::Vec3, dt: f32) -> glam::Vec3 {
        let Some(scale) = slide_scale(dt, self.engine_delta()) else {
            return velocity;
        };
        self.carried = !self.owner.base().get_platform_velocity().is_zero_approx();
        self.owner
            .base_mut()
            .set_velocity(to_godot(velocity * scale));
        self.owner.base_mut().move_and_slide();
        to_glam(self.owner.base().get_velocity()) / scale
    }

    fn slide_collision(&self, index: usize) -> Option<MotionTest> {
        // Carried by a platform before or after the slide: the first motion did not start
        // where the body stood.
        if self.carried || !self.owner.base().get_platform_velocity().is_zero_approx() {
            return None;
        }
        let collision = self.collision_at(index)?;
        Some(MotionTest {
            travel: to_glam(collision.get_travel()),
            remainder: to_glam(collision.get_remainder()),
            contact: Some(Contact {
                normal: to_glam(collision.get_normal()),
                point: to_glam(collision.get_position()),
                depth: collision.get_depth(),
                movable: movable(&collision),
            }),
        })
    }

    fn slide_collision_count(&self) -> usize {
        usize::try_from(self.owner.base().get_slide_collision_count()).unwrap_or(0)
    }

    fn touched_body(&self, index: usize) -> Option<Touched> {
        let collision = self.collision_at(index)?;
        let rigid = collision.get_collider()?.try_cast::<RigidBody3D>().ok()?;
        if rigid.is_freeze_enabled() {
            return None;
        }
        Some(touched_of(&collision, &rigid))
    }

    fn touched_character(&self, index: usize) -> bool {
        self.collision_at(index)
            .and_then(|collision| collision.get_collider())
            .is_some_and(|collider| collider.try_cast::<CharacterBody3D>().is_ok())
    }

    fn push_body(&mut self, index: usize, impulse: glam::Vec3) {
        let Some(collision) = self.collision_at(index) else {
            return;
        };
        let Some(Ok(mut rigid)) = collision
            .get_collider()
            .map(|c| c.try_cast::<RigidBody3D>())
        else {
            return;
        };
        if rigid.is_freeze_enabled() {
            return;
        }
        rigid.apply_central_impulse(to_godot(impulse));
    }

    fn floor_body(&mut self) -> Option<Touched> {
        self.floor = None;
        let margin = self.owner.base().get_safe_margin();
        let start = self.owner.base().get_global_transform();
        let down = -self.owner.base().get_up_direction() * (2.0 * margin);
        let collision = self.result_object();
        let hit = self
            .owner
            .base_mut()
            .test_move_ex(start, down)
            .collision(&collision)
            .safe_margin(margin)
            .done();
        if !hit {
            return None;
        }
        let rigid = collision.get_collider()?.try_cast::<RigidBody3D>().ok()?;
        if rigid.is_freeze_enabled() {
            return None;
        }
        let found = touched_of(&collision, &rigid);
        self.floor = Some(rigid);
        Some(found)
    }

    fn press_floor_body(&mut self, impulse: glam::Vec3, point: glam::Vec3) {
        let Some(mut rigid) = self.floor.clone() else {
            return;
        };
        if !Gd::is_instance_valid(&rigid) {
            return;
        }
        let offset = to_godot(point) - rigid.get_global_position();
        rigid
            .apply_impulse_ex(to_godot(impulse))
            .position(offset)
            .done();
    }

    fn is_on_floor(&self) -> bool {
        self.owner.base().is_on_floor()
    }

    fn is_on_wall(&self) -> bool {
        self.owner.base().is_on_wall()
    }

    fn wall_normal(&self) -> glam::Vec3 {
        to_glam(self.owner.base().get_wall_normal())
    }

    fn floor_normal(&self) -> glam::Vec3 {
        to_glam(self.owner.base().get_floor_normal())
    }

    fn apply_floor_snap(&mut self) {
        self.owner.base_mut().apply_floor_snap();
    }

    fn up_direction(&self) -> glam::Vec3 {
        to_glam(self.owner.base().get_up_direction())
    }

    fn floor_max_angle(&self) -> f32 {
        self.owner.base().get_floor_max_angle()
    }

    fn safe_margin(&self) -> f32 {
        self.owner.base().get_safe_margin()
    }

    fn shape_height(&self) -> f32 {
        self.collision_shape()
            .and_then(|holder| holder.get_shape())
            .and_then(|shape| body_shape(&shape).height())
            .unwrap_or(0.0)
    }

    fn shape_radius(&self) -> f32 {
        self.collision_shape()
            .and_then(|holder| holder.get_shape())
            .map_or(0.0, |shape| body_shape(&shape).radius())
    }

    fn set_shape_height(&mut self, height: f32) {
        let Some(mut holder) = self.collision_shape() else {
            return;
        };
        let Some(shape) = holder.get_shape() else {
            return;
        };
        let Some(change) = resize(body_shape(&shape), height) else {
            return;
        };
        // A copy of its own: the resource may be shared with other bodies of the scene.
        let resized = shape.duplicate_resource();
        write_shape(&resized, change.shape);
        holder.set_shape(&resized);
        // Keep the shape's bottom where it was.
        let mut position = holder.get_position();
        position.y += change.lift;
        holder.set_position(position);
    }
}

/// A shape resource as plain sizes (see [`BodyShape`]).
pub fn body_shape(shape: &Gd<Shape3D>) -> BodyShape {
    if let Ok(capsule) = shape.clone().try_cast::<CapsuleShape3D>() {
        return BodyShape::Capsule {
            radius: capsule.get_radius(),
            height: capsule.get_height(),
        };
    }
    if let Ok(cylinder) = shape.clone().try_cast::<CylinderShape3D>() {
        return BodyShape::Cylinder {
            radius: cylinder.get_radius(),
            height: cylinder.get_height(),
        };
    }
    if let Ok(sphere) = shape.clone().try_cast::<SphereShape3D>() {
        return BodyShape::Sphere {
            radius: sphere.get_radius(),
        };
    }
    if let Ok(boxed) = shape.clone().try_cast::<BoxShape3D>() {
        return BodyShape::Box {
            size: boxed.get_size(),
        };
    }
    if shape.is_class("ConvexPolygonShape3D") {
        BodyShape::Convex
    } else {
        BodyShape::Other
    }
}

/// Gives `shape`, a resource of the kind `sizes` describes, the sizes of `sizes` (a capsule
/// keeps its radius). Other kinds are left alone.
fn write_shape(shape: &Gd<Shape3D>, sizes: BodyShape) {
    match sizes {
        BodyShape::Capsule { height, .. } => {
            if let Ok(mut capsule) = shape.clone().try_cast::<CapsuleShape3D>() {
                capsule.set_height(height);
            }
        }
        BodyShape::Cylinder { height, .. } => {
            if let Ok(mut cylinder) = shape.clone().try_cast::<CylinderShape3D>() {
                cylinder.set_height(height);
            }
        }
        BodyShape::Box { size } => {
            if let Ok(mut boxed) = shape.clone().try_cast::<BoxShape3D>() {
                boxed.set_size(size);
            }
        }
        BodyShape::Sphere { .. } | BodyShape::Convex | BodyShape::Other => {}
    }
}

/// The body `rigid` that `collision` touched, as the port describes it: its id, the contact's
/// normal and point, its mass and its linear velocity now (with the impulses given since the
/// last physics step).
fn touched_of(collision: &Gd<KinematicCollision3D>, rigid: &Gd<RigidBody3D>) -> Touched {
    let rid = rigid.get_rid();
    Touched {
        id: rid.to_u64(),
        normal: to_glam(collision.get_normal()),
        point: to_glam(collision.get_position()),
        mass: rigid.get_mass(),
        velocity: to_glam(
            PhysicsServer3D::singleton()
                .body_get_state(rid, BodyState::LINEAR_VELOCITY)
                .try_to::<Vector3>()
                .unwrap_or_default(),
        ),
    }
}

/// True when what `collision` touched is a body the engine simulates (a `RigidBody3D` that is not frozen) or
/// another character (a `CharacterBody3D`): pushed or met as a wall, never climbed as a step
/// (`kcc::Contact::movable`).
fn movable(collision: &Gd<KinematicCollision3D>) -> bool {
    let Some(collider) = collision.get_collider() else {
        return false;
    };
    match collider.try_cast::<RigidBody3D>() {
        Ok(rigid) => !rigid.is_freeze_enabled(),
        Err(other) => other.try_cast::<CharacterBody3D>().is_ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slide_scale_matches_engine_delta() {
        assert_eq!(slide_scale(1.0 / 60.0, 1.0 / 60.0), Some(1.0));
        let half = slide_scale(1.0 / 120.0, 1.0 / 60.0).unwrap();
        assert!((half - 0.5).abs() < 1e-6);
        let sub = slide_scale(0.04, 0.12).unwrap();
        assert!((sub - 1.0 / 3.0).abs() < 1e-6);
    }

    #[test]
    fn slide_scale_refuses_unusable_deltas() {
        for dt in [0.0, -0.1, f32::NAN, f32::INFINITY] {
            assert_eq!(slide_scale(dt, 1.0 / 60.0), None, "{dt}");
        }
        for engine in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(slide_scale(1.0 / 60.0, engine), Some(1.0), "{engine}");
        }
        // A ratio that overflows f32 is refused, not passed on as infinity.
        assert_eq!(slide_scale(f32::MAX, 1e-300), None);
    }
}
