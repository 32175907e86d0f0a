//! The port's calls as imports of the module: the page answers each one with the body's
//! `CharacterBody3D` (a GDScript twin of `rust/godot/src/body.rs`). Every import takes the
//! body id the character was created with. Answers that are vectors are written into the
//! mailbox ([`crate::mailbox`]) at the slots listed here before the import returns; flags and
//! single numbers are its return value.

use glam::Vec3;
use kcc::{Contact, KinematicBody, MotionTest, Touched};

use crate::mailbox;

/// Where `host_test_move` leaves its answer (3 slots each, `DEPTH` one); its return value is 1
/// when the motion hit something.
pub mod test_move {
    /// Travel, m.
    pub const TRAVEL: usize = 0;
    /// Remainder, m.
    pub const REMAINDER: usize = 3;
    /// Contact normal (when it hit).
    pub const NORMAL: usize = 6;
    /// Contact point, m (when it hit).
    pub const POINT: usize = 9;
    /// Contact depth, m (when it hit).
    pub const DEPTH: usize = 12;
}

/// Where `host_touched_body` leaves its answer (vectors 3 slots, `ID` and `MASS` one); its return
/// value is 1 when the collision is a body to push. The page's id is the low 24 bits of the
/// body's RID id (exact in an `f32`; Godot's RIDs number bodies in those bits).
pub mod touched {
    /// The body's id.
    pub const ID: usize = 0;
    /// Contact normal.
    pub const NORMAL: usize = 1;
    /// Contact point, m.
    pub const POINT: usize = 4;
    /// The body's mass, kg.
    pub const MASS: usize = 7;
    /// Its linear velocity now, m/s.
    pub const VELOCITY: usize = 8;
}

/// Slot where `host_position`, `host_floor_normal`, `host_up_direction` and
/// `host_move_and_slide` leave their vector (3 slots).
pub const VECTOR: usize = 0;

// The imports. On wasm they come from the page, in the import module `kcc_host`; in the native
// tests the test module defines them.
#[cfg_attr(target_arch = "wasm32", link(wasm_import_module = "kcc_host"))]
unsafe extern "C" {
    /// The body's origin, m: a vector at [`VECTOR`].
    fn host_position(body: u32);
    /// Teleports the body's origin, m.
    fn host_set_position(body: u32, x: f32, y: f32, z: f32);
    /// Godot's `test_move` from a point by a motion with the body's safe margin: 1 on a hit;
    /// the answer at [`test_move`].
    #[allow(clippy::too_many_arguments)]
    fn host_test_move(body: u32, fx: f32, fy: f32, fz: f32, mx: f32, my: f32, mz: f32) -> i32;
    /// `move_and_slide` by a velocity (m/s) over `dt` (s): the velocity after at [`VECTOR`].
    fn host_move_and_slide(body: u32, vx: f32, vy: f32, vz: f32, dt: f32);
    /// Collision `index` of the last slide, as `host_test_move` answers: 1 and the answer at
    /// [`test_move`], or 0 when there is none to say.
    fn host_slide_collision(body: u32, index: u32) -> i32;
    /// How many collisions the last slide had.
    fn host_slide_collision_count(body: u32) -> i32;
    /// Collision `index` of the last slide as a body to push (a `RigidBody3D`, not frozen): 1
    /// and the answer at [`touched`], or 0.
    fn host_touched_body(body: u32, index: u32) -> i32;
    /// Gives the body of the last slide's collision `index` an impulse, N s.
    fn host_push_body(body: u32, index: u32, x: f32, y: f32, z: f32);
    /// The body the character stands on, by one motion test straight down (a `RigidBody3D`,
    /// not frozen): 1 and the answer at [`touched`], or 0.
    fn host_floor_body(body: u32) -> i32;
    /// Gives the body the last `host_floor_body` found an impulse (N s) at a point (m).
    #[allow(clippy::too_many_arguments)]
    fn host_press_floor_body(body: u32, ix: f32, iy: f32, iz: f32, px: f32, py: f32, pz: f32);
    /// 1 when the body is on floor.
    fn host_is_on_floor(body: u32) -> i32;
    /// 1 when the body is on a wall.
    fn host_is_on_wall(body: u32) -> i32;
    /// The wall's normal: a vector at [`VECTOR`].
    fn host_wall_normal(body: u32);
    /// The floor's normal: a vector at [`VECTOR`].
    fn host_floor_normal(body: u32);
    /// Godot's `apply_floor_snap`.
    fn host_apply_floor_snap(body: u32);
    /// The body's up direction: a vector at [`VECTOR`].
    fn host_up_direction(body: u32);
    /// Steepest floor, rad.
    fn host_floor_max_angle(body: u32) -> f32;
    /// Safe margin of motion tests, m.
    fn host_safe_margin(body: u32) -> f32;
    /// Height of the body's collision shape, m (0 when it cannot be resized).
    fn host_shape_height(body: u32) -> f32;
    /// How far the body's collision shape reaches across up from its axis, m (0: unknown).
    fn host_shape_radius(body: u32) -> f32;
    /// Resizes the body's collision shape to a height, m, keeping its bottom in place.
    fn host_set_shape_height(body: u32, height: f32);
}

/// A body of the page, seen as a `kcc::KinematicBody`: each method is one import.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostBody {
    /// The page's id of the body.
    pub id: u32,
}

// SAFETY (every `unsafe` block below): the imports take only numbers and write only into the
// mailbox, which the module owns for its whole life; the page answers synchronously.
impl KinematicBody for HostBody {
    fn position(&self) -> Vec3 {
        unsafe { host_position(self.id) };
        mailbox::vec3(VECTOR)
    }

    fn set_position(&mut self, p: Vec3) {
        unsafe { host_set_position(self.id, p.x, p.y, p.z) };
    }

    fn test_move(&mut self, from: Vec3, motion: Vec3) -> MotionTest {
        let (f, m) = (from, motion);
        let hit = unsafe { host_test_move(self.id, f.x, f.y, f.z, m.x, m.y, m.z) } != 0;
        read_motion_test(hit)
    }

    fn move_and_slide(&mut self, v: Vec3, dt: f32) -> Vec3 {
        unsafe { host_move_and_slide(self.id, v.x, v.y, v.z, dt) };
        mailbox::vec3(VECTOR)
    }

    fn slide_collision(&self, index: usize) -> Option<MotionTest> {
        let index = u32::try_from(index).ok()?;
        let said = unsafe { host_slide_collision(self.id, index) } != 0;
        said.then(|| read_motion_test(true))
    }

    fn slide_collision_count(&self) -> usize {
        let count = unsafe { host_slide_collision_count(self.id) };
        usize::try_from(count).unwrap_or(0)
    }

    fn touched_body(&self, index: usize) -> Option<Touched> {
        let index = u32::try_from(index).ok()?;
        let found = unsafe { host_touched_body(self.id, index) } != 0;
        found.then(read_touched)
    }

    fn floor_body(&mut self) -> Option<Touched> {
        let found = unsafe { host_floor_body(self.id) } != 0;
        found.then(read_touched)
    }

    fn press_floor_body(&mut self, impulse: Vec3, point: Vec3) {
        let (i, p) = (impulse, point);
        unsafe { host_press_floor_body(self.id, i.x, i.y, i.z, p.x, p.y, p.z) };
    }

    fn push_body(&mut self, index: usize, impulse: Vec3) {
        let Ok(index) = u32::try_from(index) else {
            return;
        };
        let i = impulse;
        unsafe { host_push_body(self.id, index, i.x, i.y, i.z) };
    }

    fn is_on_floor(&self) -> bool {
        unsafe { host_is_on_floor(self.id) != 0 }
    }

    fn is_on_wall(&self) -> bool {
        unsafe { host_is_on_wall(self.id) != 0 }
    }

    fn wall_normal(&self) -> Vec3 {
        unsafe { host_wall_normal(self.id) };
        mailbox::vec3(VECTOR)
    }

    fn floor_normal(&self) -> Vec3 {
        unsafe { host_floor_normal(self.id) };
        mailbox::vec3(VECTOR)
    }

    fn apply_floor_snap(&mut self) {
        unsafe { host_apply_floor_snap(self.id) };
    }

    fn up_direction(&self) -> Vec3 {
        unsafe { host_up_direction(self.id) };
        mailbox::vec3(VECTOR)
    }

    fn floor_max_angle(&self) -> f32 {
        unsafe { host_floor_max_angle(self.id) }
    }

    fn safe_margin(&self) -> f32 {
        unsafe { host_safe_margin(self.id) }
    }

    fn shape_height(&self) -> f32 {
        unsafe { host_shape_height(self.id) }
    }

    fn shape_radius(&self) -> f32 {
        unsafe { host_shape_radius(self.id) }
    }

    fn set_shape_height(&mut self, height: f32) {
        unsafe { host_set_shape_height(self.id, height) };
    }
}

/// A body as `host_touched_body` and `host_floor_body` leave it at [`touched`].
fn read_touched() -> Touched {
    Touched {
        id: mailbox::get(touched::ID) as u64,
        normal: mailbox::vec3(touched::NORMAL),
        point: mailbox::vec3(touched::POINT),
        mass: mailbox::get(touched::MASS),
        velocity: mailbox::vec3(touched::VELOCITY),
    }
}

/// The motion test the page left at [`test_move`]; `hit`: it said the motion hit something.
fn read_motion_test(hit: bool) -> MotionTest {
    let contact = hit.then(|| Contact {
        normal: mailbox::vec3(test_move::NORMAL),
        point: mailbox::vec3(test_move::POINT),
        depth: mailbox::get(test_move::DEPTH),
        // The page does not tell what it touched: the stair sweeps of the web demo's default
        // step detection (contacts) read the slide's collisions for that.
        movable: false,
    });
    MotionTest {
        travel: mailbox::vec3(test_move::TRAVEL),
        remainder: mailbox::vec3(test_move::REMAINDER),
        contact,
    }
}
