//! `RustCharacterBody3D`: a `CharacterBody3D` that walks up and down stairs.
//!
//! The node is a translation table. Inspector properties become `kcc::ControllerSettings`
//! ([`settings`](crate::settings)), the node becomes a `kcc::KinematicBody`
//! ([`GodotBody`]), input becomes a `kcc::TickInput`, and the core's `TickReport` becomes
//! the node's velocity and signals.

use godot::classes::character_body_3d::MotionMode;
use godot::classes::notify::Node3DNotification;
use godot::classes::{
    CharacterBody3D, CollisionPolygon3D, CollisionShape3D, Engine, ICharacterBody3D, Input,
    InputMap, KinematicCollision3D, Node, Node3D, ProjectSettings,
};
use godot::prelude::*;

use kcc::{CharacterState, ConfigError, Controller, KinematicBody, TickInput, TickReport};

use crate::body::{GodotBody, body_shape};
use crate::cache::Keyed;
// The class docs link to the camera the way Godot's help does (`[StepSmoothCamera3D]`).
#[cfg(doc)]
use crate::camera::StepSmoothCamera3D;
use crate::convert::{float, int, to_glam, to_godot};
use crate::frame::MoveLedger;
use crate::gravity;
use crate::ground::{EngineFloor, GroundState, ground_state};
use crate::input::{ActionStates, Buttons, YawLookup, builtin_input, floating_input, yaw_lookup};
use crate::problems::{Problem, WarnedOnce, replaced_tick_input, velocity_to_run};
use crate::settings::{GroundFollow, Properties, StepDetection, sanitize};
use crate::signals::{self, BodySignal, tick_signals};
use crate::warnings::{BodySetup, Physics3D, ShapeChild, ShownWarnings, YawNode, body_warnings};

/// The input actions' names, in the order of the node's properties: left, right, forward, back,
/// jump, crouch.
type ActionNames = [StringName; 6];

/// Which input actions are missing from the input map (movement and jump; named), and whether
/// the optional crouch action is there.
type ActionsPresent = (Vec<String>, bool);

/// A [CharacterBody3D] that walks up and down stairs smoothly, with tunable acceleration.
///
/// Each physics tick it turns input into a velocity with normalized ADSR curves (attack
/// `1 - (1 - t)²`, release `(1 - t)²`), applies gravity and jumps, steps up onto ledges no
/// higher than [member max_step_height], moves with [method CharacterBody3D.move_and_slide],
/// and follows steps and slopes down instead of flying off them. Every step emits
/// [signal stepped], which [StepSmoothCamera3D] uses to hide the jolt.
///
/// **Built-in input** (the default): the node reads the input actions named under *Input*,
/// orients them by [member yaw_node], and runs the whole tick in its own physics process.
///
/// **A script that extends the node** and has its own `_physics_process` replaces the node's
/// (Godot calls the script's instead): call [method move_with_input] from it, once a physics
/// frame, to keep the built-in movement. The node warns once when a frame with built-in input
/// on moves the body twice, or not at all.
///
/// **Floating** ([member CharacterBody3D.motion_mode] set to Floating: swimming, flying, a
/// ladder your script switches to): no gravity, no jumps, no stair steps; the whole wish
/// direction, up and down too, moves the character with the floor's speed curves in three
/// dimensions, and Godot's floating slide treats every contact as a wall. Built-in input rises
/// while the jump action is held and sinks while crouch is held.
///
/// **The floor state:** [method is_grounded] and [method get_ground_state] say what the
/// controller says of the character after a tick (on floor, on a stair's edge, on a steep
/// slope, in the air); key animation on them. Godot's own
/// [method CharacterBody3D.is_on_floor] is the engine's last slide's, which is off the floor
/// on some ticks over a stair's edge.
///
/// **Driven by code** ([member use_builtin_input] off): call [method set_wish_direction] and
/// [method set_jump_pressed], then [method tick] from your `_physics_process`; or keep your own
/// velocity code and call [method move_and_step] where you called `move_and_slide()`; or compose
/// [method stair_step_up], `move_and_slide()` and [method stair_step_down] yourself.
///
/// Setup for Jolt Physics: give the body a [CollisionShape3D] (a capsule works; a box, cylinder
/// or convex shape wants its margin at 0.001 m, since Jolt rounds their edges by it), and keep
/// [member CharacterBody3D.safe_margin] at 0.001 m. The node's origin is the reference point
/// of every position (put the shape above it to make it the feet).
///
/// After every tick Godot's own state describes the tick's move, as after
/// [method CharacterBody3D.move_and_slide]: [method CharacterBody3D.get_real_velocity], the
/// wall state and the slide collisions (the tick ends with a real slide; on a step, the body is
/// lifted onto it first).
#[derive(GodotClass)]
#[class(base = CharacterBody3D, init, tool)]
pub struct RustCharacterBody3D {
    /// Highest ledge the character steps onto, and deepest drop it follows down, in m.
    #[export_group(name = "Stairs")]
    #[export(range = (0.0, 1.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 0.4)]
    max_step_height: float,

    /// Free tread the character needs on top of a step, in m. A ledge shallower than this in
    /// front of a wall is not climbed.
    #[export(range = (0.0, 0.5, 0.005, or_greater, suffix = "m"))]
    #[init(val = 0.1)]
    min_step_depth: float,

    /// Shortest forward probe for the top of a step, in m, so that slow walking and high tick
    /// rates (where speed × tick is tiny) still find steps. The body still moves only by its
    /// walk on the step tick (a cylinder floats at the tread's height until the tread is under
    /// it; with `flat_base` off it is put this far past the riser).
    #[export(range = (0.0, 0.1, 0.001, or_greater, suffix = "m"))]
    #[init(val = 0.02)]
    min_step_forward: float,

    /// How much further to look for a flat tread when the shape lands on a step's edge, in m.
    #[export(range = (0.0, 0.5, 0.01, or_greater, suffix = "m"))]
    #[init(val = 0.15)]
    step_forward_test: float,

    /// Slide iterations of the stair sweeps along ceilings and walls (count, at least 1).
    #[export(range = (1.0, 8.0, 1.0, or_greater))]
    #[init(val = 3)]
    sweep_iterations: int,

    /// How a step in the way is found. [code]Contacts[/code]: from the move's own contacts, the
    /// stair sweeps running only when the slide meets a wall (flat ground costs the slide
    /// alone). [code]Probe[/code]: a probe along the motion before every grounded move, which
    /// climbs a step before the slide touches it (one more query a tick).
    #[export]
    #[init(val = StepDetection::Contacts)]
    step_detection: StepDetection,

    /// How the body follows steps and slopes. [code]Snap[/code]: the stair sweeps lift it onto
    /// a step and snap it down at once, and [signal stepped] lets a camera smooth the step.
    /// [code]Smooth[/code]: a probe under the shape finds the ground, and the body moves
    /// toward its height at [member ground_follow_speed]; the shape must float
    /// [member max_step_height] above the node's origin (lift the [CollisionShape3D] and
    /// shorten it by that much), so it passes over steps. No [signal stepped]; Godot's own
    /// [method CharacterBody3D.is_on_floor] sees the floating shape off the floor (the tick's
    /// [signal landed] and [signal left_floor] follow the probe).
    #[export]
    #[init(val = GroundFollow::Snap)]
    ground_follow: GroundFollow,

    /// How fast a [code]Smooth[/code] ground follow closes the gap between the feet and the
    /// ground, in 1/s: the gap shrinks by [code]exp(-speed * t)[/code] (20: 95 % in 0.15 s).
    #[export(range = (0.1, 100.0, 0.1, or_greater, suffix = "1/s"))]
    #[init(val = 20.0)]
    ground_follow_speed: float,

    /// Whether the body stands flat on a stair's edge, its feet at the edge's height while the
    /// edge is under it: a capsule then does not roll over the edge, its height changes once
    /// per stair and [signal stepped] fires once per riser, up and down (a cylinder or box
    /// already does; on the rounding of an edge it is held at the edge's height too). Off, a
    /// capsule rolls over each edge and the signal fires for the parts of the drops the edge's
    /// slope does not explain. [code]Snap[/code] ground follow only. Godot's own
    /// [method CharacterBody3D.is_on_floor] may be false while the body floats over an edge
    /// ([signal landed] and [signal left_floor] count the edge as floor).
    #[export]
    #[init(val = true)]
    flat_base: bool,

    /// Whether the character steps up onto ledges no higher than [member max_step_height].
    #[export]
    #[init(val = true)]
    step_up_enabled: bool,

    /// Whether the character follows steps and slopes down instead of flying off them.
    #[export]
    #[init(val = true)]
    step_down_enabled: bool,

    /// Top horizontal speed on floor with the stick fully pushed, in m/s.
    #[export_group(name = "Movement")]
    #[export(range = (0.0, 20.0, 0.1, or_greater, suffix = "m/s"))]
    #[init(val = 5.0)]
    max_speed: float,

    /// Time from standing still to [member max_speed] on floor (attack), in s.
    #[export(range = (0.001, 2.0, 0.001, or_greater, suffix = "s"))]
    #[init(val = 0.2)]
    attack_time: float,

    /// Time from [member max_speed] to standing still on floor once input stops (release), in s.
    #[export(range = (0.001, 2.0, 0.001, or_greater, suffix = "s"))]
    #[init(val = 0.15)]
    release_time: float,

    /// Top horizontal speed in the air, in m/s.
    #[export(range = (0.0, 20.0, 0.1, or_greater, suffix = "m/s"))]
    #[init(val = 5.0)]
    air_max_speed: float,

    /// Time from standing still to [member air_max_speed] in the air (air control), in s.
    #[export(range = (0.001, 5.0, 0.001, or_greater, suffix = "s"))]
    #[init(val = 0.5)]
    air_attack_time: float,

    /// Time from [member air_max_speed] to still in the air once input stops (air drag), in s.
    #[export(range = (0.001, 5.0, 0.001, or_greater, suffix = "s"))]
    #[init(val = 1.0)]
    air_release_time: float,

    /// Keep the horizontal speed on ramps and over stair edges: on floor, the move follows the
    /// floor's slope, so walking up or down a 30° ramp covers the ground as fast as flat floor.
    /// Off: Godot's own slide, which walks slower up and down slopes (see
    /// [member CharacterBody3D.floor_constant_speed]).
    #[export]
    #[init(val = true)]
    constant_horizontal_speed: bool,

    /// Use [member custom_gravity] instead of Godot's gravity for this body. Off: the body
    /// falls with [method PhysicsBody3D.get_gravity] (the project's default gravity, and the
    /// gravity of any [Area3D] it is in), the part of it along -[member
    /// CharacterBody3D.up_direction].
    #[export_group(name = "Gravity & Jump")]
    #[export]
    use_custom_gravity: bool,

    /// Downward acceleration when [member use_custom_gravity] is on, in m/s².
    #[export(range = (0.0, 50.0, 0.1, or_greater, suffix = "m/s²"))]
    #[init(val = 9.8)]
    custom_gravity: float,

    /// Fastest falling speed, in m/s.
    #[export(range = (0.1, 100.0, 0.1, or_greater, suffix = "m/s"))]
    #[init(val = 55.0)]
    terminal_speed: float,

    /// Upward speed a jump from the floor starts with, in m/s (0 disables jumping). A jump
    /// starts on a press of the jump button (not while it is held), on the floor or within
    /// [member coyote_time] of walking off it.
    #[export(range = (0.0, 20.0, 0.1, or_greater, suffix = "m/s"))]
    #[init(val = 4.5)]
    jump_velocity: float,

    /// How long after walking off a ledge a jump press still jumps, in s ("coyote time"; 0:
    /// only on the floor).
    #[export(range = (0.0, 0.5, 0.01, or_greater, suffix = "s"))]
    #[init(val = 0.1)]
    coyote_time: float,

    /// How long a jump pressed in the air is remembered, in s: landing within it jumps at once
    /// (0: a press in the air is forgotten).
    #[export(range = (0.0, 0.5, 0.01, or_greater, suffix = "s"))]
    #[init(val = 0.1)]
    jump_buffer_time: float,

    /// Share of its upward speed a rising jump keeps when the jump button is released, so a tap
    /// jumps lower than a hold (1: every jump is as high).
    #[export(range = (0.0, 1.0, 0.01))]
    #[init(val = 0.5)]
    jump_release_cut: float,

    /// Height of the body's collision shape while crouched, in m (a capsule stays at least as
    /// tall as it is wide). The first [CollisionShape3D] child (a capsule, cylinder or box)
    /// shrinks to it, keeping its bottom where it is, while the crouch input is held, and grows
    /// back once it is released and the space above is free.
    #[export_group(name = "Crouch")]
    #[export(range = (0.1, 2.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 1.0)]
    crouch_height: float,

    /// Top walking speed while crouched, in m/s.
    #[export(range = (0.1, 10.0, 0.1, or_greater, suffix = "m/s"))]
    #[init(val = 2.5)]
    crouch_max_speed: float,

    /// Highest ledge stepped onto, and deepest drop followed down, while crouched, in m.
    #[export(range = (0.0, 1.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 0.25)]
    crouch_max_step_height: float,

    /// Strongest push the character gives a [RigidBody3D] it walks into, in N: the body gets
    /// an impulse at the contact, sharing the walk's momentum by the two masses, so a light
    /// crate slides ahead at nearly the walking speed and one whose friction on the floor is
    /// more than this (friction × mass × gravity) stays and stops the character like a wall.
    /// 0 pushes nothing (as Godot's own body). A frozen body is never pushed.
    #[export_group(name = "Pushing")]
    #[export(range = (0.0, 5000.0, 1.0, or_greater, suffix = "N"))]
    #[init(val = 500.0)]
    push_strength: float,

    /// The character's mass, in kg: how a push shares the walk's momentum with the body.
    #[export(range = (1.0, 500.0, 0.1, or_greater, suffix = "kg"))]
    #[init(val = 80.0)]
    mass: float,

    /// Whether the character's weight (its [member mass] times its gravity) presses down on a
    /// [RigidBody3D] it stands on, at the contact: a seesaw tips under it. Off: bodies under
    /// the character feel nothing of it (as under Godot's own body).
    #[export]
    #[init(val = true)]
    weight_on_bodies: bool,

    /// Whether the character steps up onto a [RigidBody3D] its move runs into (a low crate)
    /// instead of pushing it. Off: crates are pushed, not climbed.
    #[export]
    #[init(val = false)]
    step_onto_bodies: bool,

    /// Read the input actions below and run the whole tick in the node's physics process. Turn
    /// off to drive the node from code ([method tick], [method move_and_step]).
    #[export_group(name = "Input")]
    #[export]
    #[var(set = set_use_builtin_input)]
    #[init(val = true)]
    use_builtin_input: bool,

    /// Input action that moves left (negative x of the stick).
    #[export]
    #[init(val = StringName::from("move_left"))]
    move_left_action: StringName,

    /// Input action that moves right (positive x of the stick).
    #[export]
    #[init(val = StringName::from("move_right"))]
    move_right_action: StringName,

    /// Input action that moves forward (away from the camera).
    #[export]
    #[init(val = StringName::from("move_forward"))]
    move_forward_action: StringName,

    /// Input action that moves back (toward the camera).
    #[export]
    #[init(val = StringName::from("move_back"))]
    move_back_action: StringName,

    /// Input action that jumps when pressed (see [member jump_velocity]).
    #[export]
    #[init(val = StringName::from("jump"))]
    jump_action: StringName,

    /// Input action that crouches while held (see [member crouch_height]). Optional: without it
    /// in the project's input map the body never crouches from built-in input.
    #[export]
    #[init(val = StringName::from("crouch"))]
    crouch_action: StringName,

    /// A [Node3D] whose heading orients the input, usually the pivot that turns the camera:
    /// its turn around the body's [member CharacterBody3D.up_direction]. Its pitch, roll and
    /// scale are ignored. Empty: the body's own rotation.
    #[export(node_path = ("Node3D"))]
    #[var(set = set_yaw_node)]
    yaw_node: NodePath,

    /// Wish direction set by code for [method tick].
    wish_direction: Vector3,
    /// Jump button state set by code for [method tick].
    jump_pressed: bool,
    /// Crouch button state set by code for [method tick].
    crouch_pressed: bool,
    /// What the character remembers between ticks: the jump's last button state, buffered
    /// press, time since the floor and rising jump; the crouch's standing height.
    state: CharacterState,
    /// Height of the last step, m, for [method get_last_step_height].
    last_step_height: f32,
    /// How much lower the top of the shape is than standing after the last tick, m, for
    /// [method get_crouch_drop].
    crouch_drop: f32,
    /// Problems already warned about, so that each is warned about once.
    warned: WarnedOnce,
    /// The moves of the current physics frame, to warn about two moves in one or none.
    moves: MoveLedger,
    /// Whether the controller had the character standing after its last tick or
    /// [method move_and_step]; `None` before the first.
    standing: Option<bool>,
    /// The controller made from the properties and the world's gravity (m/s²), with the
    /// properties' problems.
    controller: Keyed<(Properties, f32), (Option<Controller>, Vec<ConfigError>)>,
    /// Which input actions exist, by the actions' names.
    actions: Keyed<ActionNames, ActionsPresent>,
    /// The yaw node the path led to, while it is alive and in the tree.
    yaw: Option<Gd<Node3D>>,
    /// The configuration warnings the editor shows.
    shown: ShownWarnings,
    /// The object the port's motion tests write their results into, made by the first and
    /// kept across ticks (see [`Self::with_port`]): no allocation per tick.
    motion_result: Option<Gd<KinematicCollision3D>>,

    base: Base<CharacterBody3D>,
}

#[godot_api]
impl ICharacterBody3D for RustCharacterBody3D {
    fn physics_process(&mut self, delta: f64) {
        if !self.use_builtin_input || Engine::singleton().is_editor_hint() {
            return;
        }
        self.move_with_builtin_input("physics_process", delta);
    }

    /// Godot sends the node's notifications whether or not a script overrides its virtuals,
    /// and the physics one after `_physics_process` (the script's or the node's) has run.
    fn on_notification(&mut self, what: Node3DNotification) {
        let editor = Engine::singleton().is_editor_hint();
        match what {
            Node3DNotification::READY if editor => self.base_mut().set_process(true),
            Node3DNotification::PROCESS if editor => self.refresh_warnings(),
            Node3DNotification::PHYSICS_PROCESS if !editor => {
                let frame = Engine::singleton().get_physics_frames();
                let problem = self.moves.frame_ended(frame, self.use_builtin_input);
                self.warn(problem);
            }
            Node3DNotification::ENTER_TREE | Node3DNotification::EXIT_TREE => self.yaw = None,
            _ => {}
        }
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        body_warnings(&self.setup())
            .iter()
            .map(GString::from)
            .collect()
    }
}

#[godot_api]
impl RustCharacterBody3D {
    /// Emitted when the character steps up or down a stair. `vertical_travel` is the height
    /// change in m: positive up, negative down. Connect a camera smoother to it (the
    /// [StepSmoothCamera3D] connects itself).
    #[signal]
    pub fn stepped(vertical_travel: f32);

    /// Emitted when the character comes down on floor after being in the air.
    #[signal]
    pub fn landed();

    /// Emitted when a jump starts.
    #[signal]
    pub fn jumped();

    /// Emitted when the character leaves the floor: it jumped, or walked off a ledge higher
    /// than [member max_step_height].
    #[signal]
    pub fn left_floor();

    /// [method get_ground_state]: nothing supports the character (jumping, falling).
    #[constant]
    pub const GROUND_IN_AIR: i64 = GroundState::InAir as i64;
    /// [method get_ground_state]: on walkable floor, as [method CharacterBody3D.is_on_floor]
    /// also says.
    #[constant]
    pub const GROUND_ON_FLOOR: i64 = GroundState::OnFloor as i64;
    /// [method get_ground_state]: standing on or over a stair's edge (Godot's
    /// [method CharacterBody3D.is_on_floor] may be false).
    #[constant]
    pub const GROUND_ON_EDGE: i64 = GroundState::OnEdge as i64;
    /// [method get_ground_state]: against ground too steep to stand on, under it.
    #[constant]
    pub const GROUND_ON_STEEP_SLOPE: i64 = GroundState::OnSteepSlope as i64;
    /// [member ground_follow]: the stair sweeps lift the body onto a step and snap it down.
    #[constant]
    pub const GROUND_FOLLOW_SNAP: i64 = GroundFollow::Snap as i64;
    /// [member ground_follow]: a probe under a floating shape; the body moves smoothly.
    #[constant]
    pub const GROUND_FOLLOW_SMOOTH: i64 = GroundFollow::Smooth as i64;
    /// [member step_detection]: from the move's own contacts.
    #[constant]
    pub const STEP_DETECTION_CONTACTS: i64 = StepDetection::Contacts as i64;
    /// [member step_detection]: a probe along the motion before every grounded move.
    #[constant]
    pub const STEP_DETECTION_PROBE: i64 = StepDetection::Probe as i64;

    /// Turns built-in input on or off.
    #[func]
    fn set_use_builtin_input(&mut self, enabled: bool) {
        self.use_builtin_input = enabled;
        self.base_mut().update_configuration_warnings();
    }

    /// Sets the node whose turn orients built-in input.
    #[func]
    fn set_yaw_node(&mut self, path: NodePath) {
        self.yaw_node = path;
        self.yaw = None;
        self.base_mut().update_configuration_warnings();
    }

    /// Sets where [method tick] moves the character, world space: direction, and length for how
    /// far the stick is pushed (0 to 1, longer counts as 1). The vertical part is ignored, but
    /// by a floating body (see the class description). It stays set until changed.
    #[func]
    fn set_wish_direction(&mut self, direction: Vector3) {
        self.wish_direction = direction;
    }

    /// The wish direction [method tick] uses.
    #[func]
    fn get_wish_direction(&self) -> Vector3 {
        self.wish_direction
    }

    /// Sets whether the jump button is held for [method tick]. A jump starts when it becomes
    /// held (see [member jump_velocity]), and releasing it while rising cuts the jump (see
    /// [member jump_release_cut]); it stays held until set to false.
    #[func]
    fn set_jump_pressed(&mut self, pressed: bool) {
        self.jump_pressed = pressed;
    }

    /// Whether [method tick] sees the jump button held.
    #[func]
    fn is_jump_pressed(&self) -> bool {
        self.jump_pressed
    }

    /// Sets whether the crouch button is held for [method tick] (see [member crouch_height]);
    /// it stays held until set to false.
    #[func]
    fn set_crouch_pressed(&mut self, pressed: bool) {
        self.crouch_pressed = pressed;
    }

    /// Whether [method tick] sees the crouch button held.
    #[func]
    fn is_crouch_pressed(&self) -> bool {
        self.crouch_pressed
    }

    /// True while the body is crouched: its shape is shrunk to [member crouch_height]. It stays
    /// crouched after the button is released until there is room to stand.
    #[func]
    fn is_crouched(&self) -> bool {
        self.state.crouch.crouched()
    }

    /// The controller's own floor state after the last tick: true while the character stands
    /// (on floor, or on a stair's edge). Unlike [method CharacterBody3D.is_on_floor] it stays
    /// true on every step of a staircase; key animation and footsteps on it. Before the first
    /// tick, Godot's [method CharacterBody3D.is_on_floor].
    #[func]
    fn is_grounded(&self) -> bool {
        self.standing.unwrap_or_else(|| self.base().is_on_floor())
    }

    /// What the character stands on after the last tick: [constant GROUND_IN_AIR],
    /// [constant GROUND_ON_FLOOR], [constant GROUND_ON_EDGE] (on or over a stair's edge, where
    /// Godot's [method CharacterBody3D.is_on_floor] may be false) or
    /// [constant GROUND_ON_STEEP_SLOPE] (against ground too steep to stand on).
    #[func]
    fn get_ground_state(&self) -> GroundState {
        let base = self.base();
        let engine = EngineFloor {
            on_floor: base.is_on_floor(),
            wall_normal: base.is_on_wall().then(|| to_glam(base.get_wall_normal())),
            up: kcc::floor::unit_up(to_glam(base.get_up_direction())),
            floor_max_angle: base.get_floor_max_angle(),
        };
        let floating = self.ground_follow == GroundFollow::Smooth;
        ground_state(self.is_grounded(), floating, engine)
    }

    /// Runs one whole tick of `delta` s with the built-in input (the actions named under
    /// *Input*, oriented by [member yaw_node]), as the node's own physics process does. A
    /// script that extends the node and has its own `_physics_process` calls it there, once a
    /// physics frame, to keep the built-in movement:
    /// [codeblock]
    /// extends RustCharacterBody3D
    ///
    /// func _physics_process(delta: float) -> void:
    ///     move_with_input(delta)
    ///     $AnimationTree.set("parameters/grounded", is_grounded())
    /// [/codeblock]
    /// It reads the input whatever [member use_builtin_input] says.
    #[func]
    fn move_with_input(&mut self, delta: f64) {
        self.move_with_builtin_input("move_with_input", delta);
    }

    /// How much lower the top of the character's shape is than when it stands, in m: 0 while
    /// standing, the standing height less the crouched one while crouched.
    /// [StepSmoothCamera3D] lowers the view by it.
    #[func]
    pub fn get_crouch_drop(&self) -> f32 {
        self.crouch_drop
    }

    /// Height change of the last stair step, in m (positive up, negative down; 0 before any).
    #[func]
    fn get_last_step_height(&self) -> f32 {
        self.last_step_height
    }

    /// Runs one whole tick of `delta` s with the wish direction and jump set by code: speed
    /// curves, gravity and jump, step up, move, step down. Updates
    /// [member CharacterBody3D.velocity] and emits the signals. Call it from
    /// `_physics_process` with [member use_builtin_input] off. A `delta` that is not positive
    /// moves nothing; one above 0.25 s is clamped.
    #[func]
    fn tick(&mut self, delta: f64) {
        self.record_move("tick");
        let buttons = Buttons {
            jump: self.jump_pressed,
            crouch: self.crouch_pressed,
        };
        self.run_tick(self.wish_direction, buttons, delta as f32);
    }

    /// A drop-in for `move_and_slide()` that also walks stairs: moves by
    /// [member CharacterBody3D.velocity] over `delta` s, stepping up and down, and writes the
    /// velocity back. Keep your own velocity code and call this instead of `move_and_slide()`.
    /// Returns true when the character stepped up or down (and [signal stepped] was emitted).
    /// It emits [signal left_floor] and [signal landed] as [method tick] does. Like
    /// `move_and_slide()`, it does not push the [RigidBody3D]s it meets (the tick does, by
    /// [member push_strength]). A `delta` that is not positive moves nothing.
    #[func]
    fn move_and_step(&mut self, delta: f64) -> bool {
        self.record_move("move_and_step");
        let Some((controller, velocity)) = self.prepare("move_and_step") else {
            return false;
        };
        let report = self.with_port(|body| controller.move_and_step(body, velocity, delta as f32));
        self.apply_report(&report);
        report.stepped.is_some()
    }

    /// Building block: if a step blocks the horizontal part of
    /// [member CharacterBody3D.velocity] over `delta` s, lifts the body onto the step (and a
    /// little ahead when the tread needs it), drops the vertical part of the velocity (it now
    /// stands on the step) and returns the height gained in m, emitting [signal stepped].
    /// Your `move_and_slide()` right after it then carries the body across the tread, so the
    /// body moves once per tick and Godot's state describes the move. Returns 0 and leaves the
    /// body alone when it is not on floor, is moving up, or nothing steppable is ahead.
    #[func]
    fn stair_step_up(&mut self, delta: f64) -> f32 {
        let Some((controller, velocity)) = self.prepare("stair_step_up") else {
            return 0.0;
        };
        let height = self.with_port(|body| controller.stair_step_up(body, velocity, delta as f32));
        let up = to_glam(self.base().get_up_direction());
        let Some(step) = signals::step_up(height, velocity, up) else {
            return 0.0;
        };
        self.base_mut().set_velocity(to_godot(step.velocity));
        self.emit([BodySignal::Stepped(step.height)]);
        step.height
    }

    /// Building block: after `move_and_slide()`, if the body stood on floor before the move
    /// (`was_grounded`), is not moving up and has lost the floor, moves it down onto floor
    /// within [member max_step_height] and snaps it there. Returns the height change in m
    /// (negative, emitting [signal stepped]), or 0 when there was no step: no floor in reach,
    /// or only a slope followed down. The horizontal travel that tells a slope from a step is
    /// taken from `get_position_delta()`, so call it right after your last `move_and_slide()`.
    #[func]
    fn stair_step_down(&mut self, was_grounded: bool) -> f32 {
        let Some((controller, velocity)) = self.prepare("stair_step_down") else {
            return 0.0;
        };
        let travel = to_glam(self.base().get_position_delta());
        let up = kcc::floor::unit_up(to_glam(self.base().get_up_direction()));
        let horizontal_travel = kcc::floor::horizontal(travel, up).length();
        let step = self.with_port(|body| {
            controller.stair_step_down(body, was_grounded, velocity, horizontal_travel)
        });
        self.emit(step.map(BodySignal::Stepped));
        step.unwrap_or(0.0)
    }

    /// Building block: sweeps the body's shape from the origin of `transform` by `motion` (m)
    /// without moving the body, sliding along what it hits up to [member sweep_iterations]
    /// times, and returns `transform` moved to where the sweep ended. Only the origin of
    /// `transform` is used; the shape keeps the body's own rotation.
    #[func]
    fn iterate_sweep(&mut self, transform: Transform3D, motion: Vector3) -> Transform3D {
        let Some((controller, _)) = self.prepare("iterate_sweep") else {
            return transform;
        };
        let iterations = controller.settings().stairs.sweep_iterations;
        let sweep = self.with_port(|body| {
            kcc::sweep::iterate_sweep(body, to_glam(transform.origin), to_glam(motion), iterations)
        });
        let mut end = transform;
        end.origin = to_godot(sweep.end);
        end
    }
}

impl RustCharacterBody3D {
    /// The inspector's tuning properties.
    fn properties(&self) -> Properties {
        Properties {
            floating: self.base().get_motion_mode() == MotionMode::FLOATING,
            max_step_height: self.max_step_height,
            min_step_depth: self.min_step_depth,
            min_step_forward: self.min_step_forward,
            step_forward_test: self.step_forward_test,
            sweep_iterations: self.sweep_iterations,
            step_detection: self.step_detection,
            ground_follow: self.ground_follow,
            ground_follow_speed: self.ground_follow_speed,
            flat_base: self.flat_base,
            step_up_enabled: self.step_up_enabled,
            step_down_enabled: self.step_down_enabled,
            max_speed: self.max_speed,
            attack_time: self.attack_time,
            release_time: self.release_time,
            air_max_speed: self.air_max_speed,
            air_attack_time: self.air_attack_time,
            air_release_time: self.air_release_time,
            constant_horizontal_speed: self.constant_horizontal_speed,
            use_custom_gravity: self.use_custom_gravity,
            custom_gravity: self.custom_gravity,
            terminal_speed: self.terminal_speed,
            jump_velocity: self.jump_velocity,
            coyote_time: self.coyote_time,
            jump_buffer_time: self.jump_buffer_time,
            jump_release_cut: self.jump_release_cut,
            crouch_height: self.crouch_height,
            crouch_max_speed: self.crouch_max_speed,
            crouch_max_step_height: self.crouch_max_step_height,
            push_strength: self.push_strength,
            mass: self.mass,
            weight_on_bodies: self.weight_on_bodies,
            step_onto_bodies: self.step_onto_bodies,
        }
    }

    /// Downward acceleration the world gives the body, m/s² (see [`gravity::world_gravity`]).
    fn world_gravity(&self) -> f32 {
        let base = self.base();
        let engine = base.is_inside_tree().then(|| base.get_gravity());
        gravity::world_gravity(base.get_up_direction(), engine)
    }

    /// A controller with the current properties, bad ones clamped (each problem warned once).
    /// Made again only when a property, the motion mode or the world's gravity changed.
    fn controller(&mut self) -> Option<Controller> {
        let key = (self.properties(), self.world_gravity());
        let (controller, problems) = self.controller.get(key, |(properties, gravity)| {
            let (settings, problems) = sanitize(properties.to_settings(*gravity));
            // `sanitize` returns settings the core accepts; should it ever not, skip the tick.
            (Controller::new(settings).ok(), problems)
        });
        let (controller, problems) = (controller.clone(), problems.clone());
        self.warn(problems.into_iter().map(Problem::BadSetting));
        controller
    }

    /// The controller and the velocity `method` (a tick or a building block) runs with, or
    /// `None` when it cannot run (see [`velocity_to_run`]); problems are warned once.
    fn prepare(&mut self, method: &'static str) -> Option<(Controller, glam::Vec3)> {
        let in_tree = self.base().is_inside_tree();
        let velocity = to_glam(self.base().get_velocity());
        let (velocity, problem) = match velocity_to_run(method, in_tree, velocity) {
            Ok(run) => run,
            Err(problem) => {
                self.warn([problem]);
                return None;
            }
        };
        self.warn(problem);
        Some((self.controller()?, velocity))
    }

    /// One tick of `delta` s with the built-in input, a move by `method`.
    fn move_with_builtin_input(&mut self, method: &'static str, delta: f64) {
        self.record_move(method);
        let (wish, buttons) = self.read_input();
        self.run_tick(wish, buttons, delta as f32);
    }

    /// Counts a move by `method` in this physics frame, warning once when it is the second.
    fn record_move(&mut self, method: &'static str) {
        if Engine::singleton().is_in_physics_frame() {
            let frame = Engine::singleton().get_physics_frames();
            let problem = self.moves.moved(frame, method);
            self.warn(problem);
        }
    }

    /// In the editor, once a frame: asks the editor to show the configuration warnings again
    /// when they changed (a property, the shape or a margin).
    fn refresh_warnings(&mut self) {
        let now = body_warnings(&self.setup());
        if self.shown.refresh(now) {
            self.base_mut().update_configuration_warnings();
        }
    }

    /// One whole tick of `delta` s toward `wish` (world space) with the `buttons` held.
    fn run_tick(&mut self, wish: Vector3, buttons: Buttons, delta: f32) {
        let Some((controller, velocity)) = self.prepare("tick") else {
            return;
        };
        let input = TickInput {
            wish_direction: to_glam(wish),
            jump: buttons.jump,
            velocity,
            crouch: buttons.crouch,
        };
        let mut state = self.state;
        let (report, height) = self.with_port(|body| {
            let report = controller.tick_with(body, &input, &mut state, delta);
            (
                report,
                state.crouch.standing_height.map(|_| body.shape_height()),
            )
        });
        self.state = state;
        self.crouch_drop = crouch_drop(state.crouch.standing_height, height);
        self.apply_report(&report);
    }

    /// Runs `f` with the port over this node, handing it the motion tests' result object kept
    /// from the last tick and keeping it for the next.
    fn with_port<R>(&mut self, f: impl FnOnce(&mut GodotBody<'_, Self>) -> R) -> R {
        let kept = self.motion_result.take();
        let mut body = GodotBody::with_result(self, kept);
        let out = f(&mut body);
        self.motion_result = body.into_result();
        out
    }

    /// Writes a tick's velocity back to the body, warns about input the core replaced, and
    /// emits the tick's signals.
    fn apply_report(&mut self, report: &TickReport) {
        self.warn(replaced_tick_input(report.sanitized));
        self.standing = Some(report.on_floor);
        self.base_mut().set_velocity(to_godot(report.velocity));
        self.emit(tick_signals(report));
    }

    /// Emits `signals` in order, recording each step's height for
    /// [method get_last_step_height]. No base guard is held here: each emit takes its own, so
    /// handlers may call back into the body.
    fn emit(&mut self, signals: impl IntoIterator<Item = BodySignal>) {
        for signal in signals {
            match signal {
                BodySignal::Stepped(height) => {
                    self.last_step_height = height;
                    self.signals().stepped().emit(height);
                }
                BodySignal::Jumped => self.signals().jumped().emit(),
                BodySignal::LeftFloor => self.signals().left_floor().emit(),
                BodySignal::Landed => self.signals().landed().emit(),
            }
        }
    }

    /// The wish direction and the buttons of built-in input (see [`builtin_input`]; a
    /// floating body rises on jump and sinks on crouch, see [`floating_input`]).
    fn read_input(&mut self) -> (Vector3, Buttons) {
        let actions = self.action_states();
        let yaw = self.yaw_node_3d().map(|node| node.get_global_basis());
        let base = self.base();
        let up = base.get_up_direction();
        let (wish, buttons) = builtin_input(actions, yaw, base.get_global_basis(), up);
        if base.get_motion_mode() == MotionMode::FLOATING {
            floating_input(wish, buttons, up)
        } else {
            (wish, buttons)
        }
    }

    /// The input actions' states, or `None` while a movement or jump action is missing from
    /// the project's input map (warned once; Godot prints an error for each read of a missing
    /// action). The crouch action is optional.
    fn action_states(&mut self) -> Option<ActionStates> {
        let names: ActionNames = [
            self.move_left_action.clone(),
            self.move_right_action.clone(),
            self.move_forward_action.clone(),
            self.move_back_action.clone(),
            self.jump_action.clone(),
            self.crouch_action.clone(),
        ];
        let (missing, has_crouch) = self.actions.get(names, actions_present).clone();
        if !missing.is_empty() {
            self.warn([Problem::MissingInputActions(missing)]);
            return None;
        }
        let input = Input::singleton();
        Some(ActionStates {
            stick: input.get_vector(
                &self.move_left_action,
                &self.move_right_action,
                &self.move_forward_action,
                &self.move_back_action,
            ),
            jump: input.is_action_pressed(&self.jump_action),
            crouch: has_crouch.then(|| input.is_action_pressed(&self.crouch_action)),
        })
    }

    /// What the yaw node path says to do (see [`yaw_lookup`]) and, when it was followed, the
    /// node it leads to.
    fn yaw_target(&self) -> (YawLookup, Option<Gd<Node>>) {
        let path = &self.yaw_node;
        let lookup = yaw_lookup(
            path.is_empty(),
            path.is_absolute(),
            self.base().is_inside_tree(),
        );
        let node = match lookup {
            YawLookup::Follow => self.base().get_node_or_null(path),
            YawLookup::Unset | YawLookup::Unreachable => None,
        };
        (lookup, node)
    }

    /// The yaw node, when the path leads to a `Node3D`: the one found before while it is alive
    /// and in the tree (forgotten when the path changes or the body enters or leaves the
    /// tree), else looked up.
    fn yaw_node_3d(&mut self) -> Option<Gd<Node3D>> {
        if let Some(node) = &self.yaw
            && node.is_instance_valid()
            && node.is_inside_tree()
        {
            return Some(node.clone());
        }
        self.yaw = self.yaw_target().1?.try_cast::<Node3D>().ok();
        self.yaw.clone()
    }

    /// Where the yaw node path leads, for the editor's warnings.
    fn yaw_node_state(&self) -> YawNode {
        let path = || self.yaw_node.to_string();
        match self.yaw_target() {
            (YawLookup::Unset, _) => YawNode::Unset,
            (_, None) => YawNode::Missing(path()),
            (_, Some(node)) => match node.try_cast::<Node3D>() {
                Ok(_) => YawNode::Found,
                Err(node) => YawNode::NotNode3D(path(), node.get_class().to_string()),
            },
        }
    }

    /// What the editor's warnings are made from.
    fn setup(&self) -> BodySetup {
        let shapes = self
            .base()
            .get_children()
            .iter_shared()
            .filter_map(shape_child)
            .collect();
        let (settings, settings_problems) =
            sanitize(self.properties().to_settings(self.world_gravity()));
        let base = self.base();
        BodySetup {
            shapes,
            safe_margin: base.get_safe_margin(),
            floor_max_angle: base.get_floor_max_angle(),
            builtin_input: self.use_builtin_input,
            yaw_node: self.yaw_node_state(),
            settings_problems,
            float_height: settings.float_height(),
            physics: project_physics(),
        }
    }

    /// Prints each of `problems` as a Godot warning naming this node, the first time it is
    /// met (see [`WarnedOnce`]).
    fn warn(&mut self, problems: impl IntoIterator<Item = Problem>) {
        for problem in problems {
            if let Some(message) = self.warned.first_time(problem) {
                let name = self.base().get_name();
                godot_warn!("RustCharacterBody3D \"{name}\": {message}");
            }
        }
    }
}

/// The 3D physics engine the project setting names.
fn project_physics() -> Physics3D {
    let name = ProjectSettings::singleton().get_setting("physics/3d/physics_engine");
    Physics3D::from_setting(&name.try_to::<GString>().unwrap_or_default().to_string())
}

/// A collision shape child as the warnings see it; `None` for other children.
fn shape_child(child: Gd<Node>) -> Option<ShapeChild> {
    let name = child.get_name().to_string();
    match child.try_cast::<CollisionShape3D>() {
        Ok(holder) => {
            let shape = holder
                .get_shape()
                .map(|shape| (body_shape(&shape), shape.get_margin()));
            Some(ShapeChild::collision_shape(
                name,
                holder.get_position().y,
                shape,
            ))
        }
        Err(child) => child
            .try_cast::<CollisionPolygon3D>()
            .ok()
            .map(|polygon| ShapeChild::polygon(name, polygon.get_margin())),
    }
}

/// Which of the input actions `names` (see [`ActionNames`]) are missing from the project's
/// input map (movement and jump), and whether the optional crouch action is in it.
fn actions_present(names: &ActionNames) -> ActionsPresent {
    let map = InputMap::singleton();
    let missing = names[..5]
        .iter()
        .filter(|action| !map.has_action(*action))
        .map(StringName::to_string)
        .collect();
    (missing, map.has_action(&names[5]))
}

/// How much lower the top of the shape is than standing, m: the standing height less the shape's
/// `height` now while crouched (`standing` is `Some`), 0 while standing.
fn crouch_drop(standing: Option<f32>, height: Option<f32>) -> f32 {
    match (standing, height) {
        (Some(standing), Some(height)) if (standing - height).is_finite() => {
            (standing - height).max(0.0)
        }
        _ => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use godot::meta::{FromGodot, ToGodot};

    use super::*;

    /// The named constant GDScript reads for each ground state (a new state without one does
    /// not compile).
    fn ground_constant(state: GroundState) -> i64 {
        match state {
            GroundState::InAir => RustCharacterBody3D::GROUND_IN_AIR,
            GroundState::OnFloor => RustCharacterBody3D::GROUND_ON_FLOOR,
            GroundState::OnEdge => RustCharacterBody3D::GROUND_ON_EDGE,
            GroundState::OnSteepSlope => RustCharacterBody3D::GROUND_ON_STEEP_SLOPE,
        }
    }

    /// The named constant of each inspector enum's value.
    fn follow_constant(follow: GroundFollow) -> i64 {
        match follow {
            GroundFollow::Snap => RustCharacterBody3D::GROUND_FOLLOW_SNAP,
            GroundFollow::Smooth => RustCharacterBody3D::GROUND_FOLLOW_SMOOTH,
        }
    }

    fn detection_constant(detection: StepDetection) -> i64 {
        match detection {
            StepDetection::Contacts => RustCharacterBody3D::STEP_DETECTION_CONTACTS,
            StepDetection::Probe => RustCharacterBody3D::STEP_DETECTION_PROBE,
        }
    }

    #[test]
    fn the_crouch_drop_is_the_height_lost_while_crouched_and_zero_standing() {
        assert_eq!(crouch_drop(None, None), 0.0);
        assert!((crouch_drop(Some(1.8), Some(1.0)) - 0.8).abs() < 1e-6);
        assert_eq!(crouch_drop(Some(1.8), Some(f32::NAN)), 0.0);
        assert_eq!(crouch_drop(Some(1.0), Some(1.2)), 0.0);
    }

    #[test]
    fn every_enum_value_has_a_named_constant_that_gdscript_reads_as_that_value() {
        use GroundState::*;
        // What GDScript reads (an int), and the value that int sets.
        for state in [InAir, OnFloor, OnEdge, OnSteepSlope] {
            let int: i64 = state.to_godot();
            assert_eq!(int, ground_constant(state), "{state:?}");
            assert_eq!(GroundState::from_godot(int), state);
        }
        for follow in [GroundFollow::Snap, GroundFollow::Smooth] {
            let int: i64 = follow.to_godot();
            assert_eq!(int, follow_constant(follow), "{follow:?}");
            assert_eq!(GroundFollow::from_godot(int), follow);
        }
        for detection in [StepDetection::Contacts, StepDetection::Probe] {
            let int: i64 = detection.to_godot();
            assert_eq!(int, detection_constant(detection), "{detection:?}");
            assert_eq!(StepDetection::from_godot(int), detection);
        }
    }
}
