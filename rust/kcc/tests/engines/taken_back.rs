//! A slide whose travel toward a riser the engine took back: Godot's slide of a grounded body
//! puts the body back where a motion that met a wall within 20 safe margins began (no creeping
//! up walls). A sprinting capsule's slide followed the tread (its first collision the floor),
//! then met the next step's nosing a little short of the walk's end, and kept only the first
//! part (0.47 of the walk at 165 Hz), while the climb's probe passed over the nosing. The slide
//! is made again, short of the riser by the safe margin, and the next tick climbs. A motion
//! that met the floor and the riser at once may name the floor as its collision's contact:
//! the riser is then the slide's wall (`get_wall_normal()`).

use glam::Vec3;
use kcc::{Controller, ControllerSettings, KinematicBody, MotionTest};

use super::{free_motion, level_floor_test, static_contact};

/// Godot's safe margin, m.
const MARGIN: f32 = 0.001;

/// Level floor at y = 0 and a riser's face at z = `riser` (the body's origin is its front, m).
/// A slide that comes within the margin of the face reports two collisions: the floor after
/// 40 % of its motion, then the face, whose travel it takes back. A slide that does not is made
/// whole. Every motion test but those down to the floor is free, as the probe that passed
/// over the nosing.
struct TakenBack {
    position: Vec3,
    riser: f32,
    /// The engine says the collisions of its slide after the first.
    says_all: bool,
    /// The collision that met the riser names the floor under the body as its contact (a
    /// normal 1.7 degrees from up, leaning toward the riser), as a motion that met both at
    /// once may; the riser is then only the slide's wall normal.
    floor_named: bool,
    /// The engine says its slide's wall normal.
    says_wall: bool,
    collisions: Vec<MotionTest>,
    on_wall: bool,
    slides: usize,
}

impl TakenBack {
    fn new(riser: f32, says_all: bool) -> Self {
        Self {
            position: Vec3::ZERO,
            riser,
            says_all,
            floor_named: false,
            says_wall: true,
            collisions: Vec::new(),
            on_wall: false,
            slides: 0,
        }
    }
}

impl KinematicBody for TakenBack {
    stored_position!();
    fn test_move(&mut self, from: Vec3, motion: Vec3) -> MotionTest {
        if motion.y < -1e-6 && motion.z.abs() < 1e-6 {
            level_floor_test(from, motion, 0.0, false)
        } else {
            free_motion(motion)
        }
    }
    fn move_and_slide(&mut self, velocity: Vec3, dt: f32) -> Vec3 {
        self.slides += 1;
        let motion = Vec3::new(velocity.x, 0.0, velocity.z) * dt;
        let stop = self.riser + MARGIN;
        self.collisions.clear();
        self.on_wall = self.position.z + motion.z < stop;
        if !self.on_wall {
            self.position += motion;
            return velocity;
        }
        let floor = motion * 0.4;
        let to_riser = Vec3::new(0.0, 0.0, stop - (self.position.z + floor.z));
        let floor_point = self.position + floor;
        self.collisions.push(MotionTest {
            travel: floor,
            remainder: motion - floor,
            contact: Some(static_contact(Vec3::Y, floor_point)),
        });
        let (normal, point) = if self.floor_named {
            (Vec3::new(0.0, 0.9995, 0.03).normalize(), floor_point)
        } else {
            (Vec3::Z, floor_point + to_riser)
        };
        self.collisions.push(MotionTest {
            travel: to_riser,
            remainder: motion - floor - to_riser,
            contact: Some(static_contact(normal, point)),
        });
        // The travel toward the riser is taken back; the slide along it has nothing left.
        self.position += floor;
        Vec3::ZERO
    }
    fn slide_collision(&self, index: usize) -> Option<MotionTest> {
        if index > 0 && !self.says_all {
            return None;
        }
        self.collisions.get(index).copied()
    }
    fn is_on_floor(&self) -> bool {
        true
    }
    fn is_on_wall(&self) -> bool {
        self.on_wall
    }
    fn wall_normal(&self) -> Vec3 {
        if self.says_wall && self.on_wall {
            Vec3::Z
        } else {
            Vec3::ZERO
        }
    }
    fn floor_normal(&self) -> Vec3 {
        Vec3::Y
    }
    fn apply_floor_snap(&mut self) {}
    upright_body!(0.3);
}

/// One move at 5.9 m/s along -Z at 165 Hz toward a riser `short` (m) short of the walk's end:
/// where the body ends, and how many slides it took.
fn walk_toward_a_riser(short: f32, says_all: bool) -> (Vec3, usize) {
    let dt = 1.0 / 165.0;
    walk_with(TakenBack::new(-(5.9 * dt - short) - MARGIN, says_all))
}

/// One move of `body` at 5.9 m/s along -Z at 165 Hz: where it ends, and how many slides it
/// took.
fn walk_with(mut body: TakenBack) -> (Vec3, usize) {
    let dt = 1.0 / 165.0;
    let controller = Controller::new(ControllerSettings::default()).unwrap();
    controller.move_and_step(&mut body, Vec3::new(0.0, 0.0, -5.9), dt);
    (body.position, body.slides)
}

#[test]
fn a_slide_taken_back_short_of_a_riser_is_made_again_short_of_it() {
    let dt = 1.0 / 165.0;
    let walk = 5.9 * dt;
    let riser = -(walk - 0.0003);
    let (at, slides) = walk_toward_a_riser(0.0003, true);
    assert_eq!(slides, 2);
    // Short of the riser by the margin kept and the margin the slide made again keeps (and
    // 0.2 mm): more than nine tenths of the walk, where the engine's slide left 0.4 of it.
    let gap = at.z - riser;
    assert!(gap > MARGIN && gap < 3.0 * MARGIN, "{gap}");
    assert!(-at.z > 0.9 * walk, "{at}");
}

#[test]
fn an_engine_that_does_not_say_its_wall_normal_has_the_collisions_contact_stand_for_it() {
    let dt = 1.0 / 165.0;
    let walk = 5.9 * dt;
    let body = TakenBack {
        says_wall: false,
        ..TakenBack::new(-(walk - 0.0003) - MARGIN, true)
    };
    let (at, slides) = walk_with(body);
    assert_eq!(slides, 2);
    assert!(-at.z > 0.9 * walk, "{at}");
}

#[test]
fn an_engine_that_does_not_say_its_later_collisions_keeps_the_shorter_slide() {
    let walk = 5.9 / 165.0;
    let (at, slides) = walk_toward_a_riser(0.0003, false);
    assert_eq!(slides, 1);
    assert!((-at.z - 0.4 * walk).abs() < 1e-5, "{at}");
}

#[test]
fn a_riser_met_with_the_floor_is_the_slides_wall() {
    let dt = 1.0 / 165.0;
    let walk = 5.9 * dt;
    let riser = -(walk - 0.0003);
    let named = |says_wall| TakenBack {
        floor_named: true,
        says_wall,
        ..TakenBack::new(riser - MARGIN, true)
    };
    // The slide is made again short of the wall the engine names.
    let (at, slides) = walk_with(named(true));
    assert_eq!(slides, 2);
    let gap = at.z - riser;
    assert!(gap > MARGIN && gap < 3.0 * MARGIN, "{gap}");
    assert!(-at.z > 0.9 * walk, "{at}");
    // Short of the floor's contact, which hardly faces the walk, nothing would be kept: the
    // engine's shorter slide stands.
    let (at, slides) = walk_with(named(false));
    assert_eq!(slides, 1);
    assert!((-at.z - 0.4 * walk).abs() < 1e-5, "{at}");
}
