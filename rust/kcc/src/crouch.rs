//! Crouching: the body's shape shrinks to the crouch height while the crouch input is held, and
//! grows back to its standing height once the input is released and the space above is free.
//!
//! The shape keeps its bottom (the feet) where it is both ways. Standing up is checked with one
//! sweep of the crouched shape up by the height it would grow: the swept volume is the
//! standing shape's, so a body under a low bar stays crouched until it has walked out. While
//! crouched the character walks with [`CrouchSettings::max_speed`] and steps up and down by
//! [`CrouchSettings::max_step_height`]. What a crouch remembers between ticks is a
//! [`CrouchState`], kept by the caller with the jump's ([`crate::CharacterState`]).

use crate::body::KinematicBody;
use crate::floor::unit_up;
use crate::settings::CrouchSettings;

/// What a crouch remembers from one tick to the next.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CrouchState {
    /// The height of the body's shape before it crouched, m: what standing up grows it back
    /// to. `None` while standing.
    pub standing_height: Option<f32>,
}

impl CrouchState {
    /// True while the body is crouched (its shape shrunk).
    pub fn crouched(&self) -> bool {
        self.standing_height.is_some()
    }

    /// Crouches when `wanted` and standing; stands up when not `wanted`, crouched, and the
    /// standing shape fits where the body is. Returns whether the body is crouched afterwards.
    /// A crouch height no lower than the body's shape leaves the body standing.
    pub fn update<B: KinematicBody + ?Sized>(
        &mut self,
        body: &mut B,
        wanted: bool,
        settings: &CrouchSettings,
    ) -> bool {
        match self.standing_height {
            None if wanted => {
                let standing = body.shape_height();
                if settings.height < standing {
                    body.set_shape_height(settings.height);
                    self.standing_height = Some(standing);
                }
            }
            Some(standing) if !wanted => {
                let up = unit_up(body.up_direction());
                let grow = standing - body.shape_height();
                let room = body.test_move(body.position(), up * grow.max(0.0));
                if !room.collided() {
                    body.set_shape_height(standing);
                    self.standing_height = None;
                }
            }
            _ => {}
        }
        self.crouched()
    }
}
