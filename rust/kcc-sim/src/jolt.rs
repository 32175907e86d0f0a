//! Jolt's `CharacterVirtual` (its `ExtendedUpdate`: walk stairs and stick to floor) on the same
//! course, fed the same velocities by our movement model (`kcc::movement`) as Rapier's, so that
//! only the collision, stairs and slide handling differ. Built with the cargo feature `jolt`
//! (the crate `oxijolt`, which builds Jolt 5.6 from source with CMake 3.20 or newer).
//!
//! How our settings map onto Jolt's:
//! - the shape: the same capsule, cylinder or box, its bottom at the character's position
//!   (`shape_offset` half its height up); a cylinder's or box's convex radius is the Godot
//!   world's character margin ([`CHARACTER_SHAPE_MARGIN`]), a capsule has none;
//! - `max_slope_angle` = the body's floor max angle;
//! - `walk_stairs_step_up` = `max_step_height` up (zero, Jolt's "off", when step up is off);
//! - `stick_to_floor_step_down` = `max_step_height` down (zero when step down is off);
//! - `walk_stairs_min_step_forward` = `min_step_forward`; `walk_stairs_step_forward_test` =
//!   `step_forward_test`; `walk_stairs_cos_angle_forward_contact` keeps Jolt's 75 degrees;
//! - the supporting volume is Jolt's sample character's: contacts less than the shape's radius
//!   above its bottom can support it;
//! - gravity (pressing on what the character stands on) is our gravity setting;
//! - crouching swaps the shape for one of the crouch's height (keeping its bottom), as Jolt's
//!   character sample does with `SetShape`: standing up only when the standing shape overlaps
//!   nothing by more than [`STAND_UP_SLOP`]; the character is made anew with the other shape
//!   (oxijolt has no `SetShape`), and steps by the crouch's step height while crouched;
//! - everything else keeps Jolt's defaults, the 2 cm `character_padding` among them: the shape
//!   floats that far above the floor, as Rapier's keeps its own offset.
//!
//! The static solids are Jolt static bodies: boxes and hulls with the convex radius the parry
//! world gives them (the scenario's `shape_margin`, as Godot's Jolt does), meshes as triangle
//! meshes. Moving platforms are kinematic bodies that Jolt moves (`MoveKinematic`, then a
//! physics step, each tick to where the scenario's motion has them at the tick's end), and the
//! character rides them as Jolt's own character sample does: its velocity for the tick is the
//! ground's velocity (`GetGroundVelocity`, what it stands on at the contact) plus the velocity
//! our movement model asks for. Each scenario gets a world of its own; [`JoltWorld`] lets many
//! characters share one (they do not collide with each other, and its platforms stand still
//! where they start: one character's tick must not move them for the others).
//!
//! Rigid bodies (`[[rigid_body]]`) are Jolt's dynamic bodies in the character's own world, with
//! the parry world's Godot defaults (gravity 9.8 m/s², friction 1, no bounce, damping 0.1), and
//! the character meets them as Jolt's own does: its mass and strongest push are our push
//! settings' (`CharacterVirtual::mMass`, `mMaxStrength`), it presses its weight on what it
//! stands on, a kinematic inner body of its shape makes bodies rolling into it stop, and the
//! world takes a physics step after each tick.

use std::cell::RefCell;
use std::rc::Rc;

use glam::Vec3;
use kcc::PushSettings;
use kcc_parry::PlatformMotion;
use kcc_parry::{CharacterShape, Primitive, Solid, World};
use oxijolt::{
    BodyId, BodySettings, CharacterId, CharacterSettings, ExtendedUpdateSettings, GroundState,
    InnerBody, ObjectLayer, PhysicsWorld, QueryFilter, RVec3, Shape, WorldSettings,
};

use crate::godot::CHARACTER_SHAPE_MARGIN;
use crate::peer::{Engine, EngineMove, PeerMover};
use crate::scenario::Scenario;
use oxijolt::CollideShape;

/// How deep (m) the standing shape may overlap what is around a crouched character for it to
/// stand up: Jolt's sample allows 1.5 times its penetration slop (2 cm), a touch without
/// overlap is what we allow.
pub const STAND_UP_SLOP: f32 = 0.001;

/// A Jolt world holding a scenario's solids as static bodies, shared by the characters in it.
pub type JoltWorld = Rc<RefCell<PhysicsWorld>>;

/// A moving platform as a kinematic Jolt body: its body, its box's centre (m) and orientation
/// at time 0, and its motion.
struct PlatformBody {
    id: BodyId,
    center: Vec3,
    rotation: glam::Quat,
    motion: PlatformMotion,
}

/// A rigid body of the scenario as a dynamic Jolt body, and its rotation at the start.
struct MovableBody {
    id: BodyId,
    rotation: glam::Quat,
}

/// Godot's defaults for a `RigidBody3D` (see `crate::dynamics`): gravity (m/s²), friction (of
/// every body, as Godot's default physics material), linear and angular damping (1/s).
const GRAVITY: f32 = 9.8;
const FRICTION: f32 = 1.0;
const DAMPING: f32 = 0.1;

/// The bodies of a world that [`build`] made move: its platforms and rigid bodies.
#[derive(Default)]
struct Moving {
    platforms: Vec<PlatformBody>,
    movables: Vec<MovableBody>,
}

/// A Jolt world holding the solids of `world` as static bodies (its platforms and rigid bodies
/// too: they stand still), its broad phase optimised for queries. The error names the solid
/// Jolt refused.
pub fn world(world: &World) -> Result<JoltWorld, String> {
    build(world, false).map(|(physics, _)| physics)
}

/// [`world`], with the platforms (boxes) as kinematic bodies and the rigid bodies as dynamic
/// ones when `moving`, returned with them.
fn build(world: &World, moving: bool) -> Result<(JoltWorld, Moving), String> {
    // Characters query the world and only the platforms' and bodies' steps move anything: one
    // worker thread is enough.
    let settings = WorldSettings::default()
        .worker_threads(1)
        .gravity(Vec3::new(0.0, -GRAVITY, 0.0).into());
    let mut physics = PhysicsWorld::new(settings).map_err(|e| format!("Jolt world: {e}"))?;
    let mut platforms = Vec::new();
    let mut movables = Vec::new();
    for (index, solid) in world.solids().iter().enumerate() {
        let motion = world
            .platforms()
            .iter()
            .find(|p| p.index == index && moving)
            .map(|p| p.motion);
        let movable = world.movable_of(index).filter(|_| moving);
        let base = match (movable, motion) {
            (Some(movable), _) => dynamic(movable),
            (None, Some(_)) => BodySettings::new_kinematic(),
            (None, None) => BodySettings::new_static(),
        }
        .friction(FRICTION);
        let refused = |e: &dyn std::fmt::Display| format!("Jolt refused solid {index}: {e}");
        // The scenario's world holds no character: a peer's other characters are its own.
        let Some((shape, settings)) = jolt_body(solid, base).map_err(|e| refused(&e))? else {
            continue;
        };
        let id = physics
            .create_body(&shape, &settings)
            .map_err(|e| refused(&e))?;
        if let Some(movable) = movable {
            let rotation = match movable.rest.primitive() {
                Primitive::Cuboid { rotation, .. } => *rotation,
                _ => glam::Quat::IDENTITY,
            };
            movables.push(MovableBody { id, rotation });
        }
        if let (
            Some(motion),
            Primitive::Cuboid {
                center, rotation, ..
            },
        ) = (motion, solid.primitive())
        {
            platforms.push(PlatformBody {
                id,
                center: *center,
                rotation: *rotation,
                motion,
            });
        }
    }
    physics.optimize_broad_phase();
    let moving = Moving {
        platforms,
        movables,
    };
    Ok((Rc::new(RefCell::new(physics)), moving))
}

/// Jolt's shape for `solid` and the settings of its body, from `base` (its motion and
/// material) placed where the solid is; `None` for another character (a peer meets none).
fn jolt_body(solid: &Solid, base: BodySettings) -> Result<Option<(Shape, BodySettings)>, String> {
    let radius = solid.convex_radius();
    let shape_and_settings = match solid.primitive() {
        Primitive::Cuboid {
            center,
            size,
            rotation,
        } => {
            let shape = Shape::new_box_with_convex_radius((*size * 0.5).into(), radius);
            let settings = base
                .position(RVec3::from(*center))
                .rotation((*rotation).into());
            (shape, settings)
        }
        Primitive::Ball { center, radius } => (
            Shape::new_sphere(*radius),
            base.position(RVec3::from(*center)),
        ),
        Primitive::Hull { points } => {
            let points: Vec<_> = points.iter().map(|p| (*p).into()).collect();
            (
                Shape::new_convex_hull_with_convex_radius(&points, radius),
                base,
            )
        }
        Primitive::Mesh { vertices, indices } => {
            let vertices: Vec<_> = vertices.iter().map(|v| (*v).into()).collect();
            let shape = Shape::new_mesh(&vertices, indices).map(|(shape, _dropped)| shape);
            (shape, base)
        }
        Primitive::Character { .. } => return Ok(None),
    };
    let (shape, settings) = shape_and_settings;
    Ok(Some((shape.map_err(|e| e.to_string())?, settings)))
}

/// A dynamic body of `movable`'s mass and velocity, with Godot's defaults.
fn dynamic(movable: &kcc_parry::Movable) -> BodySettings {
    BodySettings::new_dynamic()
        .mass(movable.mass)
        .linear_velocity(movable.velocity.into())
        .restitution(0.0)
        .linear_damping(DAMPING)
        .angular_damping(DAMPING)
}

/// Jolt's `CharacterVirtual` moving the scenario's character.
pub type JoltMover = PeerMover<Jolt>;

/// A `CharacterVirtual` in a Jolt world of the scenario's solids, and its update settings.
pub struct Jolt {
    physics: JoltWorld,
    character: CharacterId,
    update: ExtendedUpdateSettings,
    gravity: Vec3,
    /// The platforms and rigid bodies this character's ticks move (none in a shared world).
    moving: Moving,
    /// What the character is made with besides its shape (see [`Traits`]).
    traits: Traits,
    /// The character's standing shape, its crouched shape, and its floor max angle, rad.
    shapes: (CharacterShape, CharacterShape),
    /// Step heights up and down, m: standing, and crouched.
    steps: [(Vec3, Vec3); 2],
    /// Time at the end of the last tick, s.
    time: f64,
}

impl JoltMover {
    /// The scenario's character at its start, in a Jolt world of its own.
    pub fn new(scenario: &Scenario) -> Self {
        let built = build(&scenario.world, true);
        let traits = |moving: &Moving| Traits {
            max_slope: scenario.character.body.floor_max_angle,
            push: (!moving.movables.is_empty()).then_some(scenario.character.controller.push),
            meets_characters: !scenario.others.is_empty(),
        };
        let others: Vec<_> = match &built {
            Ok((physics, moving)) => scenario
                .others
                .iter()
                .map(|other| {
                    let other = crate::peer::as_other(scenario, other);
                    Jolt::new(&other, physics.clone(), traits(moving))
                })
                .collect(),
            Err(e) => scenario.others.iter().map(|_| Err(e.clone())).collect(),
        };
        let engine = built.and_then(|(physics, moving)| {
            Jolt::new(scenario, physics, traits(&moving)).map(|jolt| Jolt { moving, ..jolt })
        });
        let mover = Self::with_engine(scenario, engine);
        match others.is_empty() {
            true => mover,
            false => mover.with_others(scenario, others),
        }
    }

    /// The scenario's character at its start, in `physics` (built from the scenario's solids
    /// by [`world`]; several characters may share it).
    pub fn in_world(scenario: &Scenario, physics: JoltWorld) -> Self {
        let traits = Traits {
            max_slope: scenario.character.body.floor_max_angle,
            push: None,
            meets_characters: false,
        };
        Self::with_engine(scenario, Jolt::new(scenario, physics, traits))
    }
}

impl Jolt {
    /// The scenario's character at its start in `physics`, made with `traits`, with its
    /// contacts there read.
    fn new(scenario: &Scenario, physics: JoltWorld, traits: Traits) -> Result<Self, String> {
        let body = &scenario.character.body;
        let start = scenario.start.position;
        let crouched = crate::peer::crouched(scenario);
        let character = create(&mut physics.borrow_mut(), body.shape, traits, start)?;
        let settings = scenario.character.controller;
        let stairs = settings.stairs;
        let steps = |height: f32| {
            let up = Vec3::Y * height;
            let step_up = if stairs.step_up_enabled {
                up
            } else {
                Vec3::ZERO
            };
            let step_down = if stairs.step_down_enabled {
                -up
            } else {
                Vec3::ZERO
            };
            (step_up, step_down)
        };
        let steps = [steps(stairs.max_step_height), steps(crouched.1)];
        let update = ExtendedUpdateSettings::default()
            .walk_stairs_step_up(steps[0].0.into())
            .stick_to_floor_step_down(steps[0].1.into())
            .walk_stairs_min_step_forward(stairs.min_step_forward)
            .walk_stairs_step_forward_test(stairs.step_forward_test);
        Ok(Self {
            physics,
            character,
            update,
            gravity: Vec3::NEG_Y * settings.gravity.gravity,
            moving: Moving::default(),
            traits,
            time: 0.0,
            shapes: (body.shape, crouched.0),
            steps,
        })
    }

    /// True when the standing shape, its bottom at the character's place, overlaps nothing by
    /// more than [`STAND_UP_SLOP`].
    fn standing_fits(&self) -> Result<bool, String> {
        let physics = self.physics.borrow();
        let character = physics
            .character(self.character)
            .map_err(|e| format!("Jolt: {e}"))?;
        let standing = self.shapes.0;
        let (shape, _) = jolt_shape(standing)?;
        let centre = Vec3::from(character.position()) + Vec3::Y * standing.height() * 0.5;
        let query = CollideShape::new(&shape, RVec3::from(centre), glam::Quat::IDENTITY.into());
        let hits = physics
            .collide_shape(&query, &QueryFilter::new())
            .map_err(|e| format!("Jolt: {e}"))?;
        Ok(hits
            .iter()
            .all(|hit| hit.penetration_depth <= STAND_UP_SLOP))
    }

    /// Moves every platform to where its motion has it at the end of a tick of `dt` (s), by a
    /// physics step: Jolt gives each the velocity that takes it there, which the character
    /// reads as its ground's velocity in the next tick.
    /// The rigid bodies, with the character's pushes, move in the same step.
    fn move_platforms(&mut self, dt: f32) -> Result<(), String> {
        self.time += f64::from(dt);
        if self.moving.platforms.is_empty() && self.moving.movables.is_empty() {
            return Ok(());
        }
        let physics = &mut *self.physics.borrow_mut();
        for platform in &self.moving.platforms {
            let pose = platform.motion.placement(self.time);
            let center = pose.translation + pose.rotation * platform.center.as_dvec3();
            let rotation = (pose.rotation * platform.rotation.as_dquat()).as_quat();
            physics
                .body_mut(platform.id)
                .and_then(|mut body| {
                    body.move_kinematic(RVec3::from(center.as_vec3()), rotation.into(), dt)
                })
                .map_err(|e| format!("Jolt platform: {e}"))?;
        }
        physics
            .step(dt)
            .map(|_| ())
            .map_err(|e| format!("Jolt step: {e}"))
    }
}

/// Jolt's shape for a character `shape`, centred, and the radius of its supporting volume, m.
fn jolt_shape(shape: CharacterShape) -> Result<(Shape, f32), String> {
    let (shape, radius) = match shape {
        CharacterShape::Capsule { radius, height } if height * 0.5 > radius => {
            (Shape::new_capsule(height * 0.5 - radius, radius), radius)
        }
        CharacterShape::Capsule { radius, .. } => (Shape::new_sphere(radius), radius),
        CharacterShape::Cylinder { radius, height } => (
            Shape::new_cylinder_with_convex_radius(height * 0.5, radius, CHARACTER_SHAPE_MARGIN),
            radius,
        ),
        CharacterShape::Box { size } => (
            Shape::new_box_with_convex_radius((size * 0.5).into(), CHARACTER_SHAPE_MARGIN),
            size.x.min(size.z) * 0.5,
        ),
    };
    let shape = shape.map_err(|e| format!("Jolt refused the character's shape: {e}"))?;
    Ok((shape, radius))
}

/// What a character is made with besides its shape and place.
#[derive(Debug, Clone, Copy)]
struct Traits {
    /// The floor max angle, rad.
    max_slope: f32,
    /// Its mass and strength when its world has rigid bodies: it then also has an inner body
    /// of its shape, which rigid bodies meet.
    push: Option<PushSettings>,
    /// It collides with the other characters of its world (Jolt's `CharacterVsCharacter`, for
    /// those that have this set too).
    meets_characters: bool,
}

/// Creates a character of `shape` made with `traits` in `physics`, its bottom at `position`
/// (m), and reads its contacts there.
fn create(
    physics: &mut PhysicsWorld,
    shape: CharacterShape,
    traits: Traits,
    position: Vec3,
) -> Result<CharacterId, String> {
    let half_height = shape.height() * 0.5;
    let (shape, radius) = jolt_shape(shape)?;
    let settings = CharacterSettings::new(&shape)
        .shape_offset((Vec3::Y * half_height).into())
        .max_slope_angle(traits.max_slope)
        .collide_with_characters(traits.meets_characters)
        .supporting_volume(Vec3::Y.into(), -radius);
    let inner = traits.push.map(|_| InnerBody {
        shape: &shape,
        object_layer: ObjectLayer::MOVING,
    });
    let settings = match traits.push {
        Some(push) => settings
            .mass(push.mass)
            .max_strength(push.strength)
            .inner_body(inner),
        None => settings,
    };
    let start = RVec3::from(position);
    let id = physics
        .create_character(&settings, start, glam::Quat::IDENTITY.into())
        .map_err(|e| format!("Jolt refused the character: {e}"))?;
    physics
        .refresh_character_contacts(id, &QueryFilter::new())
        .map_err(|e| format!("Jolt: {e}"))?;
    Ok(id)
}

impl Engine for Jolt {
    fn move_body(&mut self, position: Vec3, velocity: Vec3, dt: f32) -> EngineMove {
        let moved = self.update(position, velocity, dt)?;
        self.move_platforms(dt)?;
        Ok(moved)
    }

    fn moves_platforms(&self) -> bool {
        !self.moving.platforms.is_empty()
    }

    fn movables(&self) -> Vec<(Vec3, glam::DQuat, Vec3, Vec3)> {
        let physics = self.physics.borrow();
        self.moving
            .movables
            .iter()
            .filter_map(|movable| {
                let body = physics.body(movable.id).ok()?;
                let rotation: glam::Quat = body.rotation().into();
                let turn = (rotation * movable.rotation.inverse()).as_dquat();
                let center: Vec3 = body.position().into();
                Some((
                    center,
                    turn,
                    body.linear_velocity().into(),
                    body.angular_velocity().into(),
                ))
            })
            .collect()
    }

    fn set_crouched(&mut self, wanted: bool, _position: Vec3) -> bool {
        let swapped = (wanted || self.standing_fits().unwrap_or(false))
            .then(|| self.swap_shape(wanted))
            .and_then(Result::ok);
        // Crouched afterwards: as asked when the swap was made, and still crouched otherwise
        // (a failed crouch leaves the body standing).
        swapped.map_or(!wanted, |()| wanted)
    }
}

impl Jolt {
    /// Makes the character anew with its crouched (`crouched`) or standing shape, where it is
    /// and moving as it moves, and sets the step heights that go with it.
    fn swap_shape(&mut self, crouched: bool) -> Result<(), String> {
        let physics = &mut *self.physics.borrow_mut();
        let jolt = |e: oxijolt::CharacterError| format!("Jolt: {e}");
        let old = physics.character(self.character).map_err(jolt)?;
        let (position, velocity): (Vec3, Vec3) =
            (old.position().into(), old.linear_velocity().into());
        let (standing, crouching) = self.shapes;
        let shape = if crouched { crouching } else { standing };
        let id = create(physics, shape, self.traits, position)?;
        physics.remove_character(self.character).map_err(jolt)?;
        self.character = id;
        physics
            .character_mut(id)
            .map_err(jolt)?
            .set_linear_velocity(velocity.into())
            .map_err(jolt)?;
        let (up, down) = self.steps[usize::from(crouched)];
        self.update = self
            .update
            .walk_stairs_step_up(up.into())
            .stick_to_floor_step_down(down.into());
        Ok(())
    }
}

impl Jolt {
    /// Jolt's `ExtendedUpdate` of the character from `position` (m) with `velocity` (m/s) and
    /// its ground's velocity, for `dt` (s): the translation (m) and whether it stands.
    fn update(&mut self, position: Vec3, velocity: Vec3, dt: f32) -> EngineMove {
        let physics = &mut *self.physics.borrow_mut();
        let jolt = |e: oxijolt::CharacterError| format!("Jolt: {e}");
        // What it stands on carries it, as in Jolt's character sample.
        let standing = physics.character(self.character).map_err(jolt)?;
        let ground: Vec3 = if standing.ground_state() == GroundState::OnGround {
            standing.ground_velocity().into()
        } else {
            Vec3::ZERO
        };
        physics
            .character_mut(self.character)
            .map_err(jolt)?
            .set_linear_velocity((velocity + ground).into())
            .map_err(jolt)?;
        physics
            .update_character(
                self.character,
                dt,
                self.gravity.into(),
                &self.update,
                &QueryFilter::new(),
            )
            .map_err(jolt)?;
        let character = physics.character(self.character).map_err(jolt)?;
        let grounded = character.ground_state() == GroundState::OnGround;
        let now: Vec3 = character.position().into();
        Ok((now - position, grounded))
    }
}
