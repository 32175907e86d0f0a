//! The messages between our process and the oracle (JSON over the loopback connection).
//!
//! The oracle calls us: each message on the page's WebSocket carries its [`Reply`] to the last
//! command and gets the next [`Command`] back (the first call carries a [`Hello`] instead). A command is a list
//! of [`Op`]s run in order; the reply has one result per op and the body's [`BodyState`] after
//! the last one, so reading the body's state never costs a round trip. Vectors are `[x, y, z]`
//! arrays in m, m/s or unit length; Godot writes floats with full precision.

use glam::Vec3;
use serde::{Deserialize, Serialize};

/// The character's collision shape in Godot: a `CollisionShape3D` child placed so that the
/// body's origin is the bottom of the shape.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ShapeDesc {
    /// `CapsuleShape3D`: radius and total height, m.
    Capsule {
        /// Radius, m.
        radius: f32,
        /// Total height, m.
        height: f32,
    },
    /// `CylinderShape3D`: radius and height, m.
    Cylinder {
        /// Radius, m.
        radius: f32,
        /// Height, m.
        height: f32,
    },
    /// `BoxShape3D`: full size, m.
    Box {
        /// Full size along X, Y, Z, m.
        size: [f32; 3],
    },
}

impl ShapeDesc {
    /// Total height, m.
    pub fn height(&self) -> f32 {
        match *self {
            Self::Capsule { height, .. } | Self::Cylinder { height, .. } => height,
            Self::Box { size } => size[1],
        }
    }
}

/// The `CharacterBody3D` and its settings (Godot's property names; angles in rad).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BodyDesc {
    /// `motion_mode` is floating (every contact a wall) rather than grounded.
    pub floating: bool,
    /// Collision shape.
    pub shape: ShapeDesc,
    /// `Shape3D.margin` of the character's shape, m (Jolt ignores it on capsules and rounds
    /// cylinders and boxes by it).
    pub shape_margin: f32,
    /// `safe_margin`, m.
    pub safe_margin: f32,
    /// `floor_max_angle`, rad.
    pub floor_max_angle: f32,
    /// `max_slides`.
    pub max_slides: u32,
    /// `floor_snap_length`, m.
    pub floor_snap_length: f32,
    /// `wall_min_slide_angle`, rad.
    pub wall_min_slide_angle: f32,
    /// `floor_stop_on_slope`.
    pub floor_stop_on_slope: bool,
    /// `floor_block_on_wall`.
    pub floor_block_on_wall: bool,
    /// `floor_constant_speed`.
    pub floor_constant_speed: bool,
    /// `slide_on_ceiling`.
    pub slide_on_ceiling: bool,
    /// `up_direction`.
    pub up_direction: [f32; 3],
    /// How far the shape's bottom floats above the body's origin, m (0: the origin is the
    /// bottom of the shape).
    pub float_height: f32,
}

/// A static solid, as a `StaticBody3D` with one `CollisionShape3D`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SolidDesc {
    /// `BoxShape3D` of full `size` (m) at `center` (m) rotated by the quaternion `rotation`
    /// (x, y, z, w).
    Box {
        /// Centre, m.
        center: [f32; 3],
        /// Full size, m.
        size: [f32; 3],
        /// Rotation quaternion (x, y, z, w).
        rotation: [f32; 4],
        /// `Shape3D.margin`, m; Godot's default (0.04) when absent.
        #[serde(skip_serializing_if = "Option::is_none")]
        margin: Option<f32>,
    },
    /// `ConvexPolygonShape3D` with these points (m).
    Hull {
        /// Points, m.
        points: Vec<[f32; 3]>,
        /// `Shape3D.margin`, m; Godot's default (0.04) when absent.
        #[serde(skip_serializing_if = "Option::is_none")]
        margin: Option<f32>,
    },
    /// `SphereShape3D` of `radius` (m) at `center` (m).
    Sphere {
        /// Centre, m.
        center: [f32; 3],
        /// Radius, m.
        radius: f32,
    },
    /// `ConcavePolygonShape3D` (one-sided, as Godot's default): a triangle soup, 3 vertices a
    /// triangle, in Godot's winding (front faces clockwise). Build it with
    /// [`SolidDesc::mesh`] from counter-clockwise triangles.
    Mesh {
        /// Vertices, m, three per triangle.
        faces: Vec<[f32; 3]>,
    },
}

impl SolidDesc {
    /// A mesh from vertices (m) and index triples whose front faces are counter-clockwise (as
    /// in parry, Jolt and Wavefront OBJ). Godot's front faces are clockwise (its Jolt module
    /// swaps two vertices of every triangle), so each triangle is written reversed.
    pub fn mesh(vertices: &[Vec3], indices: &[[u32; 3]]) -> Self {
        let faces = indices
            .iter()
            .flat_map(|[a, b, c]| [*c, *b, *a])
            .map(|i| vertices[i as usize].to_array())
            .collect();
        Self::Mesh { faces }
    }
}

/// A moving platform: an `AnimatableBody3D` (synced to physics) with one `BoxShape3D`, moved
/// every physics tick along its motion: it turns about the vertical axis through `pivot` at
/// `angular_velocity` and moves at `velocity`, both turning back every `reverse_every`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PlatformDesc {
    /// Centre of the box at time 0, m.
    pub center: [f32; 3],
    /// Full size, m.
    pub size: [f32; 3],
    /// Rotation quaternion at time 0 (x, y, z, w).
    pub rotation: [f32; 4],
    /// `Shape3D.margin`, m.
    pub margin: f32,
    /// Linear velocity, m/s.
    pub velocity: [f32; 3],
    /// Turn rate about +Y through `pivot`, rad/s.
    pub angular_velocity: f32,
    /// The point turned about at time 0, m.
    pub pivot: [f32; 3],
    /// The motion turns back every this long, s; `None`: never.
    pub reverse_every: Option<f32>,
}

/// A body the engine simulates: a `RigidBody3D` with one `BoxShape3D` (Godot's default
/// physics material and damping), which the character can push.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RigidBodyDesc {
    /// Centre of the box (or ball) at the start, m.
    pub center: [f32; 3],
    /// Full size of the box, m (a ball's bounds).
    pub size: [f32; 3],
    /// A ball of this radius (m, a `SphereShape3D`) instead of a box, when set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub radius: Option<f32>,
    /// Rotation quaternion at the start (x, y, z, w).
    pub rotation: [f32; 4],
    /// `Shape3D.margin`, m.
    pub margin: f32,
    /// Mass, kg.
    pub mass: f32,
    /// Linear velocity at the start, m/s.
    pub velocity: [f32; 3],
}

/// A scenario's scene: the world, the body, where it starts and the physics tick rate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SceneDesc {
    /// Physics ticks per second, Hz (rounded to a whole number by Godot).
    pub tick_rate: f64,
    /// Static solids.
    pub solids: Vec<SolidDesc>,
    /// Moving platforms (none, and no rigid body: the oracle never waits for a physics step).
    pub platforms: Vec<PlatformDesc>,
    /// Rigid bodies, in order.
    pub rigid_bodies: Vec<RigidBodyDesc>,
    /// The character.
    pub body: BodyDesc,
    /// The body's origin (bottom of its shape) at the start, m.
    pub start: [f32; 3],
    /// Other characters: `CharacterBody3D`s like the character's (`body`), their origins at
    /// these places at the start, m; [`Op::Select`] sends the port's calls to one of them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub others: Vec<[f32; 3]>,
}

/// One operation of a command.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    /// Replace the world with `scene`'s, at its tick rate. Result: [`SceneResult`].
    Scene {
        /// The scene.
        scene: SceneDesc,
    },
    /// Sends the port's calls that follow to character `character` (0: the scene's `body`;
    /// 1 and up: its `others`, in order), until the next `Select`; the reply's state is that
    /// character's. No result.
    Select {
        /// Which character.
        character: usize,
    },
    /// `set_global_position`. No result.
    SetPosition {
        /// New origin, m.
        position: [f32; 3],
    },
    /// The port's `test_move`. Result: [`TestMoveResult`].
    TestMove {
        /// Start of the shape's origin, m.
        from: [f32; 3],
        /// Motion, m.
        motion: [f32; 3],
    },
    /// The port's `move_and_slide`. Result: [`SlideResult`].
    MoveAndSlide {
        /// Velocity, m/s.
        velocity: [f32; 3],
        /// Time step, s.
        dt: f32,
    },
    /// The port's `apply_floor_snap`. No result.
    ApplyFloorSnap,
    /// The port's `push_body`: an impulse to the rigid body of the last slide's collision
    /// `index`. No result.
    PushBody {
        /// Which collision of the last slide.
        index: usize,
        /// The impulse through its centre of mass, N s.
        impulse: [f32; 3],
    },
    /// The port's `floor_body`: one motion test straight down by twice the safe margin, and
    /// the rigid body it met. Result: a [`TouchedDesc`], or null when it met none.
    FloorBody,
    /// The port's `press_floor_body`: an impulse to the rigid body the last
    /// [`Op::FloorBody`] found, at a point. No result.
    PressFloorBody {
        /// The impulse, N s.
        impulse: [f32; 3],
        /// Where, world space, m.
        point: [f32; 3],
    },
    /// The port's `set_shape_height`: resizes the body's shape (crouching). No result.
    SetShapeHeight {
        /// New height of the shape, m.
        height: f32,
    },
    /// How deep the body's shape overlaps the world where it stands, as Jolt measures it
    /// (`collide_shape` with margin 0), and the body's state then. Result: [`OverlapResult`].
    Overlap,
    /// Many `test_move`s from given places, answered in one go. Result: a list of
    /// [`TestMoveResult`].
    Replay {
        /// `[from, motion]` pairs, m.
        moves: Vec<[[f32; 3]; 2]>,
    },
    /// Lets one physics step run (it moves the platforms to where the last `Advance` aimed
    /// them: their places at `time`), then aims every platform at its place one tick after
    /// `time`. Sent before the tick that begins at `time` (s), so the tick's queries see the
    /// platforms at `time`. No result.
    Advance {
        /// Time the tick begins at, s.
        time: f64,
    },
}

/// What the oracle is asked to do next.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Command<'a> {
    /// Operations, run in order.
    pub ops: &'a [Op],
}

/// The oracle's first call: what engine it runs on.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Hello {
    /// `Engine.get_version_info().string`.
    pub version: String,
    /// Major version.
    pub major: u32,
    /// Minor version.
    pub minor: u32,
    /// `physics/3d/physics_engine`.
    pub physics_engine: String,
    /// True when Jolt is compiled in and selected.
    pub jolt: bool,
}

/// The first message: `{"hello": ...}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct HelloMessage {
    /// The engine.
    pub hello: Hello,
}

/// The body's state after a command (Godot's getters).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
pub struct BodyState {
    /// `get_global_position()`, m.
    pub position: [f32; 3],
    /// `get_velocity()`, m/s.
    pub velocity: [f32; 3],
    /// `is_on_floor()`.
    pub on_floor: bool,
    /// `get_floor_normal()`.
    pub floor_normal: [f32; 3],
    /// `is_on_wall()`.
    pub on_wall: bool,
    /// `get_wall_normal()`.
    pub wall_normal: [f32; 3],
    /// `is_on_ceiling()`.
    pub on_ceiling: bool,
    /// `get_real_velocity()`, m/s.
    pub real_velocity: [f32; 3],
    /// `get_position_delta()`, m.
    pub position_delta: [f32; 3],
    /// Normals of `get_slide_collision(i)` for every slide collision of the last slide.
    pub slide_normals: Vec<[f32; 3]>,
    /// The port's `touched_body(i)` for every slide collision of the last slide (`None` where
    /// it touched no rigid body).
    #[serde(default)]
    pub touched: Vec<Option<TouchedDesc>>,
    /// The port's `touched_character(i)` for every slide collision of the last slide.
    #[serde(default)]
    pub characters: Vec<bool>,
    /// Centre of every rigid body, in the scene's order, m.
    #[serde(default)]
    pub bodies: Vec<[f32; 3]>,
    /// How far every rigid body has turned since the scene began, in the scene's order, rad.
    #[serde(default)]
    pub turns: Vec<f32>,
    /// `get_up_direction()`.
    pub up_direction: [f32; 3],
    /// `get_floor_max_angle()`, rad.
    pub floor_max_angle: f32,
    /// `get_safe_margin()`, m.
    pub safe_margin: f32,
    /// Height of the body's collision shape (the port's `shape_height`), m.
    pub shape_height: f32,
    /// How far the body's collision shape reaches across up (the port's `shape_radius`), m.
    pub shape_radius: f32,
}

/// A rigid body a slide touched, as the oracle's port reports it.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub struct TouchedDesc {
    /// Its RID's id.
    pub id: u64,
    /// Contact normal, toward the character.
    pub normal: [f32; 3],
    /// Contact point, m.
    pub point: [f32; 3],
    /// Mass, kg.
    pub mass: f32,
    /// Linear velocity now, m/s.
    pub velocity: [f32; 3],
}

/// The oracle's answer to a command.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Reply {
    /// One result per op (`null` for ops without one).
    #[serde(default)]
    pub results: Vec<serde_json::Value>,
    /// The body's state after the last op (absent before the first scene).
    pub state: Option<BodyState>,
    /// Set when the oracle refused the command.
    pub error: Option<String>,
    /// Time Godot spent in the command's calls of the port (moves, tests, snaps, placements),
    /// by Godot's own clock, us: what those calls cost a game, without the oracle's packing.
    #[serde(default)]
    pub physics_usec: u64,
}

/// Result of [`Op::Scene`].
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub struct SceneResult {
    /// `get_physics_process_delta_time()` once the tick rate took effect, s.
    pub physics_delta: f64,
    /// `Engine.physics_ticks_per_second`.
    pub ticks_per_second: u32,
}

/// Result of a `test_move`.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub struct TestMoveResult {
    /// True when the motion was blocked.
    pub hit: bool,
    /// `get_travel()`, m.
    pub travel: [f32; 3],
    /// `get_remainder()`, m.
    pub remainder: [f32; 3],
    /// `get_normal()` of the deepest contact (when it hit).
    pub normal: Option<[f32; 3]>,
    /// `get_position()` of the deepest contact (when it hit), m.
    pub point: Option<[f32; 3]>,
    /// `get_depth()` of the deepest contact (when it hit), m.
    pub depth: Option<f32>,
    /// `get_collider()` is a `RigidBody3D` that is not frozen, or a `CharacterBody3D` (when it
    /// hit): see `kcc::Contact::movable`.
    #[serde(default)]
    pub movable: bool,
}

/// Result of a `move_and_slide`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SlideResult {
    /// Velocity after sliding, m/s.
    pub velocity: [f32; 3],
    /// The port's `slide_collision` of each index right after the slide, in order, up to
    /// the first it did not say.
    #[serde(default)]
    pub collisions: Vec<TestMoveResult>,
}

/// Result of [`Op::Overlap`].
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct OverlapResult {
    /// Deepest overlap of the body's shape with the world, m (0 when clear or touching).
    pub depth: f32,
    /// Contacts found.
    pub contacts: u32,
    /// The body's state when it was measured.
    pub state: BodyState,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ops_are_tagged_objects() {
        let ops = [
            Op::SetPosition {
                position: [1.0, 2.0, 3.0],
            },
            Op::ApplyFloorSnap,
            Op::MoveAndSlide {
                velocity: [0.5, 0.0, 0.0],
                dt: 0.25,
            },
        ];
        let text = serde_json::to_string(&Command { ops: &ops }).unwrap();
        assert_eq!(
            text,
            r#"{"ops":[{"op":"set_position","position":[1.0,2.0,3.0]},{"op":"apply_floor_snap"},{"op":"move_and_slide","velocity":[0.5,0.0,0.0],"dt":0.25}]}"#
        );
    }

    #[test]
    fn meshes_are_sent_in_godots_winding() {
        let vertices = [Vec3::ZERO, Vec3::X, Vec3::Z];
        let SolidDesc::Mesh { faces } = SolidDesc::mesh(&vertices, &[[0, 1, 2]]) else {
            unreachable!()
        };
        // Counter-clockwise (0, 1, 2) seen from its front becomes (2, 1, 0).
        assert_eq!(
            faces,
            vec![[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
        );
    }

    #[test]
    fn default_margins_are_left_out() {
        let solid = SolidDesc::Box {
            center: [0.0; 3],
            size: [1.0; 3],
            rotation: [0.0, 0.0, 0.0, 1.0],
            margin: None,
        };
        let text = serde_json::to_string(&solid).unwrap();
        assert!(!text.contains("margin"), "{text}");
    }

    #[test]
    fn replies_parse_with_full_precision_floats() {
        let text = r#"{"results":[null,{"hit":true,"travel":[0.65625,0.00087,0],"remainder":[0.84375,0,0],"normal":[-0.858897,0.512149,0],"point":[1.001129,0.196097,0],"depth":0.0011684380006}],
            "state":{"position":[0.1,0.30000000000000004,0],"velocity":[0,0,0],"on_floor":true,"floor_normal":[0,1,0],"on_wall":false,"wall_normal":[0,0,0],"on_ceiling":false,"real_velocity":[0,0,0],"position_delta":[0,0,0],"slide_normals":[[0,1,0]],"up_direction":[0,1,0],"floor_max_angle":0.785398,"safe_margin":0.001,"shape_height":1.8,"shape_radius":0.4}}"#;
        let reply: Reply = serde_json::from_str(text).unwrap();
        let test: TestMoveResult = serde_json::from_value(reply.results[1].clone()).unwrap();
        assert!(test.hit);
        assert_eq!(test.depth, Some(0.001_168_438));
        let state = reply.state.unwrap();
        assert_eq!(state.position[1], 0.3);
        assert_eq!(state.slide_normals, vec![[0.0, 1.0, 0.0]]);
        assert_eq!(state.shape_height, 1.8);
        assert_eq!(state.shape_radius, 0.4);
    }
}
