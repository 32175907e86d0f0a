//! The Godot world in the simulator: a scenario built in a real Godot 4.6 + Jolt (headless
//! Chromium, see `kcc_godot`) and our controller moving its `CharacterBody3D` through the port.
//!
//! The scene is the scenario's: every solid as a `StaticBody3D` (boxes as `BoxShape3D`, convex
//! hulls (ramps, spiral steps) as `ConvexPolygonShape3D`, meshes as `ConcavePolygonShape3D`),
//! the character as a `CharacterBody3D` with the scenario's shape and body settings, its
//! origin at the bottom of the shape, and Godot's physics tick at the run's rate. Static boxes
//! and hulls get the scenario's shape margin (Godot's default 0.04 m unless the file or
//! `--shape-margin` says otherwise; Jolt rounds their edges by it, and so does the parry world);
//! the character's shape has margin 0.001 m, as in the sample project. Rapier's controller never
//! runs here: it stays in the parry world.

use std::path::{Path, PathBuf};
use std::time::Duration;

use glam::{Quat, Vec3};
use kcc_godot::{
    BodyDesc, Engine, GodotBody, GodotSession, Observation, PhysicsEngine, PlatformDesc,
    RigidBodyDesc, SceneDesc, ShapeDesc, SolidDesc, Timeouts, browser,
};
use kcc_parry::{BodySettings, CharacterShape, Primitive};

use crate::run::{Command, ControllerKind, Driver, GodotTick, Moved, Mover};
use crate::scenario::{OtherCharacter, Scenario};

/// `Shape3D.margin` of the character's own shape in the Godot world, m (the sample project's;
/// the parry world rounds the character's shape by the same margin).
pub use kcc_parry::CHARACTER_SHAPE_MARGIN;

/// How to start the Godot world.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct GodotOptions {
    /// How long to wait for Godot to start and for each answer; the defaults of
    /// [`Timeouts`] when `None`.
    pub timeout: Option<Duration>,
    /// The physics engine that answers (Jolt unless asked otherwise).
    pub physics: PhysicsEngine,
}

/// A running Godot world for a whole `kcc-sim` command (one browser for every scenario).
pub struct GodotWorld {
    session: GodotSession,
    physics: PhysicsEngine,
}

/// The repository's root: the current folder when it holds the set-up script (a clone's
/// root), otherwise the repository this binary was built from.
pub fn repo_root() -> PathBuf {
    let here = PathBuf::from(".");
    if here.join("scripts/godot-web").is_dir() {
        return here;
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

impl GodotWorld {
    /// Finds Chromium and the web template and starts Godot. The error says what is missing
    /// and how to get it.
    pub fn start(options: GodotOptions) -> Result<Self, String> {
        let chromium = browser::find().map_err(|e| e.to_string())?;
        let engine = Engine::locate(&repo_root()).map_err(|e| e.to_string())?;
        let timeouts = match options.timeout {
            Some(t) => Timeouts {
                startup: t,
                call: t,
            },
            None => Timeouts::default(),
        };
        let session = GodotSession::start(&engine, &chromium, timeouts, options.physics)
            .map_err(|e| e.to_string())?;
        Ok(Self {
            session,
            physics: options.physics,
        })
    }

    /// The physics engine that answers (the one asked for: [`GodotSession::start`] checks it).
    pub fn physics(&self) -> PhysicsEngine {
        self.physics
    }

    /// One line about the engine: version and physics engine.
    pub fn describe(&self) -> String {
        let hello = self.session.hello();
        format!(
            "Godot world: Godot {} with {}, headless in Chromium",
            hello.version, hello.physics_engine
        )
    }

    /// The session, for queries of its own (the comparison's replays).
    pub fn session(&mut self) -> &mut GodotSession {
        &mut self.session
    }
}

/// `scenario`'s scene at `rate` Hz: each solid with its own margin, the platforms where they
/// are at time 0.
pub fn scene(scenario: &Scenario, rate: f64) -> SceneDesc {
    let world = &scenario.world;
    let platforms = world.platforms();
    let solids = world
        .solids()
        .iter()
        .enumerate()
        .filter(|(index, _)| platforms.iter().all(|p| p.index != *index))
        .filter(|(index, _)| world.movable_of(*index).is_none())
        .filter_map(|(_, solid)| match solid.primitive() {
            Primitive::Cuboid {
                center,
                size,
                rotation,
            } => Some(SolidDesc::Box {
                center: center.to_array(),
                size: size.to_array(),
                rotation: rotation.to_array(),
                margin: Some(solid.margin()),
            }),
            Primitive::Hull { points } => Some(SolidDesc::Hull {
                points: points.iter().map(|p| p.to_array()).collect(),
                margin: Some(solid.margin()),
            }),
            Primitive::Ball { center, radius } => Some(SolidDesc::Sphere {
                center: center.to_array(),
                radius: *radius,
            }),
            Primitive::Mesh { vertices, indices } => Some(SolidDesc::mesh(vertices, indices)),
            // Other characters are CharacterBody3D nodes of their own (`SceneDesc::others`).
            Primitive::Character { .. } => None,
        })
        .collect();
    let platforms = platforms
        .iter()
        .filter_map(|platform| match platform.rest.primitive() {
            Primitive::Cuboid {
                center,
                size,
                rotation,
            } => Some(PlatformDesc {
                center: center.to_array(),
                size: size.to_array(),
                rotation: rotation.to_array(),
                margin: platform.rest.margin(),
                velocity: platform.motion.velocity.to_array(),
                angular_velocity: platform.motion.angular_velocity,
                pivot: platform.motion.pivot.to_array(),
                reverse_every: platform.motion.reverse_every,
            }),
            // Scenarios build platforms from boxes only.
            _ => None,
        })
        .collect();
    let rigid_bodies = world
        .movables()
        .iter()
        .filter_map(|movable| {
            let (size, rotation, radius) = match movable.rest.primitive() {
                Primitive::Cuboid { size, rotation, .. } => (*size, *rotation, None),
                Primitive::Ball { radius, .. } => {
                    (Vec3::splat(2.0 * radius), Quat::IDENTITY, Some(*radius))
                }
                // Scenarios build rigid bodies from boxes and balls only.
                _ => return None,
            };
            Some(RigidBodyDesc {
                center: movable.center.to_array(),
                size: size.to_array(),
                radius,
                rotation: rotation.to_array(),
                margin: movable.rest.margin(),
                mass: movable.mass,
                velocity: movable.velocity.to_array(),
            })
        })
        .collect();
    SceneDesc {
        tick_rate: rate,
        solids,
        platforms,
        rigid_bodies,
        body: body(&scenario.character.body),
        start: scenario.start.position.to_array(),
        others: scenario
            .others
            .iter()
            .map(|other| other.start.to_array())
            .collect(),
    }
}

/// The `CharacterBody3D` for a body's settings.
fn body(settings: &BodySettings) -> BodyDesc {
    // The collider: the shape less its float at the bottom (as the parry world's).
    let lift = settings.float_height;
    let collider = settings.shape.with_height(settings.shape.height() - lift);
    let shape = match collider {
        CharacterShape::Capsule { radius, height } => ShapeDesc::Capsule { radius, height },
        CharacterShape::Cylinder { radius, height } => ShapeDesc::Cylinder { radius, height },
        CharacterShape::Box { size } => ShapeDesc::Box {
            size: size.to_array(),
        },
    };
    BodyDesc {
        floating: settings.motion_mode == kcc::MotionMode::Floating,
        shape,
        shape_margin: CHARACTER_SHAPE_MARGIN,
        safe_margin: settings.safe_margin,
        floor_max_angle: settings.floor_max_angle,
        max_slides: settings.max_slides,
        floor_snap_length: settings.floor_snap_length,
        wall_min_slide_angle: settings.wall_min_slide_angle,
        floor_stop_on_slope: settings.floor_stop_on_slope,
        floor_block_on_wall: settings.floor_block_on_wall,
        floor_constant_speed: settings.floor_constant_speed,
        slide_on_ceiling: settings.slide_on_ceiling,
        up_direction: settings.up_direction.to_array(),
        float_height: lift,
    }
}

/// Jolt's overlap (m) and Godot's own state of the body in an observation.
fn observation(observed: &Observation) -> (f32, GodotTick) {
    let state = &observed.state;
    let up = Vec3::from_array(state.up_direction);
    // Godot's own rule (`_set_collision_direction`): neither floor nor ceiling is wall.
    let is_wall = |normal: &[f32; 3]| {
        let angle = Vec3::from_array(*normal).dot(up).clamp(-1.0, 1.0).acos();
        let limit = state.floor_max_angle + kcc::surface::FLOOR_ANGLE_TOLERANCE;
        angle > limit && angle < std::f32::consts::PI - limit
    };
    let tick = GodotTick {
        on_floor: state.on_floor,
        on_wall: state.on_wall,
        real_velocity: Vec3::from_array(state.real_velocity),
        slide_collisions: state.slide_normals.len() as u32,
        slide_hit_wall: state.slide_normals.iter().any(is_wall),
    };
    (observed.overlap, tick)
}

/// Our controller, or a script without this addon ([`crate::plain`]), moving the
/// `CharacterBody3D` of a Godot world.
pub struct GodotMover<'a> {
    driver: Driver,
    body: GodotBody<'a>,
    /// The scenario's other characters: the same controller moving each, and its input.
    others: Vec<(Driver, OtherCharacter)>,
    failure: Option<String>,
    /// The scene has moving platforms, rigid bodies or other characters: every tick begins
    /// with a physics step.
    steps: bool,
    /// Ticks run so far.
    ticks: u64,
    /// Length of a tick, s.
    dt: f64,
}

impl<'a> GodotMover<'a> {
    /// Builds `scenario` in `world` at `rate` Hz and puts the character at its start, moved by
    /// controller `kind` (ours, or Godot's plain body: see [`Driver::new`]).
    pub fn new(
        scenario: &Scenario,
        rate: f64,
        world: &'a mut GodotWorld,
        kind: ControllerKind,
    ) -> Result<Self, String> {
        let scene = scene(scenario, rate);
        let body = GodotBody::new(&mut world.session, scene)
            .map_err(|e| format!("{}: building the scene in Godot: {e}", scenario.name))?;
        let others = scenario
            .others
            .iter()
            .map(|other| (Driver::other(scenario, kind, other), other.clone()))
            .collect();
        Ok(Self {
            driver: Driver::new(scenario, kind),
            body,
            others,
            failure: None,
            // A game runs a physics frame a tick: it moves platforms and rigid bodies, and
            // hands the characters' places to the physics server.
            steps: !scenario.world.platforms().is_empty()
                || !scenario.world.movables().is_empty()
                || !scenario.others.is_empty(),
            ticks: 0,
            dt: 1.0 / rate,
        })
    }

    /// Makes the body's shape `height` tall (m), keeping its bottom, for the replays after.
    pub fn set_shape_height(&mut self, height: f32) {
        kcc::KinematicBody::set_shape_height(&mut self.body, height);
    }

    /// `test_move` of each `[from, motion]` in this Godot scene (the body does not move).
    pub fn replay(&mut self, moves: &[[Vec3; 2]]) -> Result<Vec<kcc::MotionTest>, String> {
        self.body.replay(moves).map_err(|e| e.to_string())
    }
}

impl Mover for GodotMover<'_> {
    fn position(&self) -> Vec3 {
        kcc::KinematicBody::position(&self.body)
    }

    fn tick(&mut self, command: &Command, dt: f32) -> Moved {
        if self.steps {
            // The platforms and rigid bodies move between ticks, in Godot's physics step.
            self.body.advance(self.ticks as f64 * f64::from(dt));
        }
        self.ticks += 1;
        self.dt = f64::from(dt);
        let moved = self.driver.tick(&mut self.body, command, dt);
        if self.others.is_empty() {
            // Godot's state and overlap after the tick travel with the next tick's first call
            // (after the other characters' ticks when there are some).
            self.body.observe_later();
        }
        if let Some(e) = self.body.take_error() {
            self.failure = Some(e.to_string());
        }
        moved
    }

    fn stepped(&mut self) -> Option<f32> {
        self.driver.stepped()
    }

    fn penetration(&mut self) -> f32 {
        // Known once the observation arrives: see `late_observations`.
        0.0
    }

    fn queries(&self) -> Option<u64> {
        Some(self.body.calls().total())
    }

    fn late_observations(&mut self) -> Result<Option<Vec<(f32, GodotTick)>>, String> {
        if self.steps {
            // The last tick's observation, after the step that ends it, as for every other.
            self.body.advance(self.ticks as f64 * self.dt);
        }
        self.body.flush().map_err(|e| e.to_string())?;
        let observations = self.body.take_observations();
        Ok(Some(observations.iter().map(observation).collect()))
    }

    fn round_trips(&self) -> Option<u64> {
        Some(self.body.round_trips())
    }

    /// As of the tick's last call into Godot: before the physics step that follows the tick
    /// (a tick later than the parry world's).
    fn movables(&self) -> Vec<Vec3> {
        self.body.rigid_bodies()
    }

    fn movable_turns(&self) -> Vec<f32> {
        self.body.rigid_turns()
    }

    fn godot_physics_us(&self) -> Option<u64> {
        Some(self.body.physics_usec())
    }

    fn move_others(&mut self, time: f64, dt: f32) -> Vec<Vec3> {
        if self.others.is_empty() {
            return Vec::new();
        }
        let mut places = Vec::with_capacity(self.others.len());
        for (index, (driver, other)) in self.others.iter_mut().enumerate() {
            if let Err(e) = self.body.select(index + 1) {
                self.failure = Some(e.to_string());
                return places;
            }
            let command = Command::of(other.input_at(time));
            driver.tick(&mut self.body, &command, dt);
            places.push(kcc::KinematicBody::position(&self.body));
        }
        // Back to the character, whose state the next tick reads, and its observation.
        if let Err(e) = self.body.select(0) {
            self.failure = Some(e.to_string());
        }
        self.body.observe_later();
        if let Some(e) = self.body.take_error() {
            self.failure = Some(e.to_string());
        }
        places
    }

    fn failure(&mut self) -> Option<String> {
        self.failure.take()
    }
}
