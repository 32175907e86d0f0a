//! `StepSmoothCamera3D`: a camera that hides stair steps.
//!
//! The camera listens to its character's `stepped` signal. On a step of `dy` it stays where it
//! was (an offset of `-dy` relative to its resting place), then eases back with the core's
//! frame-rate independent decay: [`CameraHeight`] says where it is; this class only reads and
//! writes Godot's values.

use godot::classes::{Camera3D, Engine, ICamera3D, Node};
use godot::prelude::*;

use crate::camera_height::CameraHeight;
use crate::character::RustCharacterBody3D;
use crate::convert::float;
use crate::warnings::{CameraSetup, camera_warnings};

/// Default rate at which the step offset returns to zero, 1/s (the `decay` property's default).
const DEFAULT_DECAY: f32 = 20.0;

/// A [Camera3D] that smooths out the vertical jolt of stair steps.
///
/// When its [member target] steps up or down by `dy` ([signal RustCharacterBody3D.stepped]),
/// the camera keeps its height for that instant and then glides back to its resting place:
/// `offset = offset × exp(-decay × delta)` every frame, independent of the frame rate.
///
/// Put it below the character (usually under a yaw pivot) at eye height; that local height is
/// its resting place, taken when it enters the scene. While the character crouches the view
/// glides down by [method RustCharacterBody3D.get_crouch_drop] (the shape keeps its feet and
/// lowers its top), at the same rate. Only the local y position is driven: rotate and move it
/// sideways freely, but move it up and down through its parent.
///
/// **Physics interpolation** (Godot 4.4+): with it off the camera moves every rendered frame
/// (`_process`); with it on, every physics tick (`_physics_process`), like the body it rides
/// on, and Godot interpolates both between ticks, so the offset is not applied between
/// interpolated frames twice. The easing is frame-rate independent either way.
#[derive(GodotClass)]
#[class(base = Camera3D, init, tool)]
pub struct StepSmoothCamera3D {
    /// The character whose steps are smoothed. Empty: the nearest [RustCharacterBody3D] above
    /// the camera in the scene tree. Read when the camera becomes ready.
    #[export]
    target: Option<Gd<RustCharacterBody3D>>,

    /// Rate at which the step offset returns to zero, in 1/s: 20 feels weighty, 40 snappy.
    #[export(range = (0.0, 60.0, 0.5, or_greater, suffix = "1/s"))]
    #[init(val = 20.0)]
    decay: float,

    /// The resting local height and the offset of recent steps, m.
    #[init(val = CameraHeight::new(0.0, DEFAULT_DECAY))]
    height: CameraHeight,

    /// The character followed, found on ready.
    followed: Option<Gd<RustCharacterBody3D>>,

    base: Base<Camera3D>,
}

#[godot_api]
impl ICamera3D for StepSmoothCamera3D {
    fn ready(&mut self) {
        if Engine::singleton().is_editor_hint() {
            return;
        }
        let rest = self.base().get_position().y;
        self.height.set_rest(rest);
        self.followed = self.find_target();
        match self.followed.clone() {
            Some(target) => {
                target
                    .signals()
                    .stepped()
                    .connect_other(&*self, Self::add_step);
            }
            None => godot_warn!(
                "StepSmoothCamera3D \"{}\": no RustCharacterBody3D to follow; set `target`",
                self.base().get_name()
            ),
        }
    }

    fn process(&mut self, delta: f64) {
        if !self.base().is_physics_interpolated_and_enabled() {
            self.glide(delta);
        }
    }

    fn physics_process(&mut self, delta: f64) {
        if self.base().is_physics_interpolated_and_enabled() {
            self.glide(delta);
        }
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        let setup = CameraSetup {
            has_target: self.find_target().is_some(),
            decay: self.decay,
        };
        camera_warnings(&setup).iter().map(GString::from).collect()
    }
}

#[godot_api]
impl StepSmoothCamera3D {
    /// Records a step of `vertical_travel` m (positive up): the camera keeps its height and
    /// eases back. Connected to the target's [signal RustCharacterBody3D.stepped] on ready;
    /// call it yourself for other vertical jolts you want smoothed.
    #[func]
    fn add_step(&mut self, vertical_travel: f32) {
        self.height.add_step(vertical_travel);
    }

    /// Current vertical offset from the resting place, in m (negative after a step up).
    #[func]
    fn get_step_offset(&self) -> f32 {
        self.height.offset()
    }

    /// Drops the offset at once (after a teleport, say).
    #[func]
    fn reset_smoothing(&mut self) {
        self.height.reset();
    }

    /// Sets the resting local height, in m (it is taken from the position on ready).
    #[func]
    fn set_rest_height(&mut self, height: f32) {
        self.height.set_rest(height);
    }

    /// The resting local height, in m.
    #[func]
    fn get_rest_height(&self) -> f32 {
        self.height.rest()
    }
}

impl StepSmoothCamera3D {
    /// Moves the camera to its height after `delta` s: the step offset eased back, the crouch's
    /// lowering eased toward the character's.
    fn glide(&mut self, delta: f64) {
        if Engine::singleton().is_editor_hint() {
            return;
        }
        let drop = match &self.followed {
            Some(body) if body.is_instance_valid() => body.bind().get_crouch_drop(),
            _ => 0.0,
        };
        let mut position = self.base().get_position();
        position.y = self.height.advance(delta as f32, self.decay, drop);
        self.base_mut().set_position(position);
    }

    /// The `target` property, or else the nearest `RustCharacterBody3D` ancestor.
    fn find_target(&self) -> Option<Gd<RustCharacterBody3D>> {
        if let Some(target) = &self.target {
            // A target freed since it was set counts as none.
            return target.is_instance_valid().then(|| target.clone());
        }
        let mut node: Option<Gd<Node>> = self.base().get_parent();
        while let Some(current) = node {
            match current.try_cast::<RustCharacterBody3D>() {
                Ok(body) => return Some(body),
                Err(other) => node = other.get_parent(),
            }
        }
        None
    }
}
