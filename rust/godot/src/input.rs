//! Stick input to a world-space wish direction.
//!
//! `Input.get_vector(left, right, forward, back)` gives `x` to the right and `y` backwards, in
//! the frame of whatever the player looks through. The yaw node (usually a pivot that carries
//! the camera) says where that is: only its heading across the ground is used (its turn around
//! the body's up direction), so a camera that also pitches or a scaled node still walks at full
//! speed along the ground, and a body whose `up_direction` is not +Y walks on its own ground.
//!
//! [`builtin_input`] is what the node's built-in input makes of the actions' states, and
//! [`yaw_lookup`] says when the yaw node path is followed.

use godot::builtin::{Basis, Vector2, Vector3};

/// The buttons a tick sees held.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Buttons {
    /// Jump (see `kcc::TickInput::jump`): a jump starts when it becomes held.
    pub jump: bool,
    /// Crouch (see `kcc::TickInput::crouch`): the body crouches while it is held.
    pub crouch: bool,
}

/// The input actions' states in one physics tick, as Godot's `Input` reports them.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ActionStates {
    /// `Input.get_vector(left, right, forward, back)`: x to the right, y backwards, each -1..1.
    pub stick: Vector2,
    /// The jump action is pressed.
    pub jump: bool,
    /// The crouch action is pressed; `None` when it is not in the input map (it is optional).
    pub crouch: Option<bool>,
}

/// What built-in input gives a tick: the wish direction (world space, as long as the stick is
/// pushed, 0..1) and the buttons held. `actions` is `None` when a movement or jump action is
/// missing from the input map: then no input at all. The stick is seen through the yaw node's
/// global basis `yaw`, or, without a yaw node (`None`), through the body's own global basis
/// `body`; `up` is the body's up direction (see [`wish_direction`]).
pub fn builtin_input(
    actions: Option<ActionStates>,
    yaw: Option<Basis>,
    body: Basis,
    up: Vector3,
) -> (Vector3, Buttons) {
    let Some(actions) = actions else {
        return (Vector3::ZERO, Buttons::default());
    };
    let buttons = Buttons {
        jump: actions.jump,
        crouch: actions.crouch.unwrap_or(false),
    };
    (
        wish_direction(actions.stick, yaw.unwrap_or(body), up),
        buttons,
    )
}

/// Built-in input for a floating body (`motion_mode` Floating: swimming, flying): the ground
/// `wish` of [`builtin_input`] with the jump button held moving up and the crouch button held
/// moving down, along the body's `up`; no button is passed on (a floating body neither jumps
/// nor crouches).
pub fn floating_input(wish: Vector3, buttons: Buttons, up: Vector3) -> (Vector3, Buttons) {
    let rise = f32::from(u8::from(buttons.jump)) - f32::from(u8::from(buttons.crouch));
    (wish + unit_up(up) * rise, Buttons::default())
}

/// What to do with the yaw node path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum YawLookup {
    /// The path is empty: the body's own rotation orients input.
    Unset,
    /// The path is absolute and the body is outside the scene tree, where Godot cannot follow
    /// it (it would print an error): the node counts as missing for now.
    Unreachable,
    /// Follow the path.
    Follow,
}

/// What to do with a yaw node path that is `empty` or `absolute`, for a body `in_tree` or not.
/// A relative path is followed outside the tree too (the editor's warnings look at a scene
/// being built).
pub fn yaw_lookup(empty: bool, absolute: bool, in_tree: bool) -> YawLookup {
    if empty {
        YawLookup::Unset
    } else if absolute && !in_tree {
        YawLookup::Unreachable
    } else {
        YawLookup::Follow
    }
}

/// The wish direction for `stick` (each axis -1..1, as `Input.get_vector` returns it) seen
/// through `yaw` (the global basis of the yaw node), on the ground of a body whose up
/// direction is `up`: perpendicular to `up`, as long as the stick.
///
/// ```
/// use godot::builtin::{Basis, Vector2, Vector3};
/// use rust_character_body::input::wish_direction;
///
/// // Stick pushed forward with the camera turned 90 degrees left (as Godot's rotation.y):
/// // forward is now -X.
/// let yaw = Basis::from_axis_angle(Vector3::UP, std::f32::consts::FRAC_PI_2);
/// let wish = wish_direction(Vector2::new(0.0, -1.0), yaw, Vector3::UP);
/// assert!((wish - Vector3::new(-1.0, 0.0, 0.0)).length() < 1e-5);
/// ```
pub fn wish_direction(stick: Vector2, yaw: Basis, up: Vector3) -> Vector3 {
    let up = unit_up(up);
    let back = ground_back(yaw, up);
    let right = up.cross(back);
    right * stick.x + back * stick.y
}

/// `up` as a unit vector; +Y when it is zero or not finite (as the core treats the body's up).
fn unit_up(up: Vector3) -> Vector3 {
    let length = up.length();
    if up.is_finite() && length > 1e-6 {
        up / length
    } else {
        Vector3::UP
    }
}

/// The unit "backward" direction across the ground (perpendicular to unit `up`) that `basis`
/// faces: its backward axis (+Z) laid onto the ground, or, when that axis points (almost)
/// along `up`, its right axis (+X) laid onto the ground and turned a quarter back. When
/// neither can be seen or the basis is not finite, the world's +Z (else +X) laid onto the
/// ground: no turn.
pub fn ground_back(basis: Basis, up: Vector3) -> Vector3 {
    let flat = |axis: Vector3| {
        let on_ground = axis - up * axis.dot(up);
        let length = on_ground.length();
        (on_ground.is_finite() && length > VISIBLE_HEADING).then(|| on_ground / length)
    };
    flat(basis.col_c())
        .or_else(|| flat(basis.col_a()).map(|right| right.cross(up)))
        .or_else(|| flat(Vector3::BACK))
        .or_else(|| flat(Vector3::RIGHT).map(|right| right.cross(up)))
        .unwrap_or(Vector3::BACK)
}

/// Shortest ground projection of an axis whose heading is trusted, in units of the axis.
const VISIBLE_HEADING: f32 = 1e-3;

#[cfg(test)]
mod tests {
    use super::*;
    use godot::builtin::EulerOrder;
    use std::f32::consts::FRAC_PI_2;

    fn close(a: Vector3, b: Vector3) -> bool {
        (a - b).length() < 1e-5
    }

    /// The stick pushed forward, nothing else.
    fn forward() -> ActionStates {
        ActionStates {
            stick: Vector2::new(0.0, -1.0),
            ..ActionStates::default()
        }
    }

    #[test]
    fn builtin_input_walks_where_the_yaw_node_looks() {
        let yaw = Basis::from_axis_angle(Vector3::UP, FRAC_PI_2);
        let body = Basis::from_axis_angle(Vector3::UP, -FRAC_PI_2);
        let (wish, _) = builtin_input(Some(forward()), Some(yaw), body, Vector3::UP);
        assert!(close(wish, Vector3::new(-1.0, 0.0, 0.0)), "{wish:?}");
        // Without a yaw node the body's own turn orients the stick.
        let (wish, _) = builtin_input(Some(forward()), None, body, Vector3::UP);
        assert!(close(wish, Vector3::new(1.0, 0.0, 0.0)), "{wish:?}");
        // A half-pushed stick walks at half speed.
        let half = ActionStates {
            stick: Vector2::new(0.5, 0.0),
            ..forward()
        };
        let (wish, _) = builtin_input(Some(half), None, Basis::IDENTITY, Vector3::UP);
        assert!(close(wish, Vector3::new(0.5, 0.0, 0.0)), "{wish:?}");
    }

    #[test]
    fn builtin_input_passes_the_buttons() {
        let held = ActionStates {
            jump: true,
            crouch: Some(true),
            ..forward()
        };
        let (_, buttons) = builtin_input(Some(held), None, Basis::IDENTITY, Vector3::UP);
        assert_eq!(
            buttons,
            Buttons {
                jump: true,
                crouch: true
            }
        );
        let up = ActionStates {
            crouch: Some(false),
            ..forward()
        };
        let (_, buttons) = builtin_input(Some(up), None, Basis::IDENTITY, Vector3::UP);
        assert_eq!(buttons, Buttons::default());
        // Without a crouch action the body never crouches; jumping still works.
        let no_crouch = ActionStates {
            jump: true,
            crouch: None,
            ..forward()
        };
        let (_, buttons) = builtin_input(Some(no_crouch), None, Basis::IDENTITY, Vector3::UP);
        assert_eq!(
            buttons,
            Buttons {
                jump: true,
                crouch: false
            }
        );
    }

    #[test]
    fn builtin_input_without_its_actions_is_no_input() {
        let yaw = Basis::from_axis_angle(Vector3::UP, 1.0);
        let (wish, buttons) = builtin_input(None, Some(yaw), Basis::IDENTITY, Vector3::UP);
        assert_eq!(wish, Vector3::ZERO);
        assert_eq!(buttons, Buttons::default());
    }

    #[test]
    fn the_yaw_path_is_followed_where_godot_can_follow_it() {
        assert_eq!(yaw_lookup(true, false, true), YawLookup::Unset);
        assert_eq!(yaw_lookup(true, true, false), YawLookup::Unset);
        assert_eq!(yaw_lookup(false, true, false), YawLookup::Unreachable);
        assert_eq!(yaw_lookup(false, true, true), YawLookup::Follow);
        // A relative path is followed outside the tree too: the editor's scene is built there.
        assert_eq!(yaw_lookup(false, false, false), YawLookup::Follow);
        assert_eq!(yaw_lookup(false, false, true), YawLookup::Follow);
    }

    #[test]
    fn unturned_forward_is_negative_z() {
        let forward = wish_direction(Vector2::new(0.0, -1.0), Basis::IDENTITY, Vector3::UP);
        assert!(close(forward, Vector3::new(0.0, 0.0, -1.0)), "{forward:?}");
        let right = wish_direction(Vector2::new(1.0, 0.0), Basis::IDENTITY, Vector3::UP);
        assert!(close(right, Vector3::new(1.0, 0.0, 0.0)), "{right:?}");
    }

    #[test]
    fn turning_left_a_quarter_turns_forward_to_negative_x() {
        let yaw = Basis::from_axis_angle(Vector3::UP, FRAC_PI_2);
        let forward = wish_direction(Vector2::new(0.0, -1.0), yaw, Vector3::UP);
        assert!(close(forward, Vector3::new(-1.0, 0.0, 0.0)), "{forward:?}");
    }

    #[test]
    fn pitch_and_scale_do_not_slow_the_character() {
        let yaw = 0.7;
        let looking_down = Basis::from_euler(EulerOrder::YXZ, Vector3::new(-1.2, yaw, 0.0));
        let scaled = Basis::from_axis_angle(Vector3::UP, yaw).scaled(Vector3::splat(3.0));
        let stick = Vector2::new(0.6, -0.8);
        let plain = Basis::from_axis_angle(Vector3::UP, yaw);
        let expected = wish_direction(stick, plain, Vector3::UP);
        for basis in [looking_down, scaled] {
            let wish = wish_direction(stick, basis, Vector3::UP);
            assert!(close(wish, expected), "{wish:?} vs {expected:?}");
            assert!((wish.length() - 1.0).abs() < 1e-5);
            assert_eq!(wish.y, 0.0);
        }
    }

    #[test]
    fn input_lies_on_the_ground_of_the_bodys_up() {
        // A body walking on a wall: up is +X. The camera pivot is the body's own frame turned
        // so that its up is +X (rotated -90 degrees about Z); forward on the stick is -Z still.
        let up = Vector3::RIGHT;
        let pivot = Basis::from_axis_angle(Vector3::BACK, -FRAC_PI_2);
        let forward = wish_direction(Vector2::new(0.0, -1.0), pivot, up);
        assert!(close(forward, Vector3::new(0.0, 0.0, -1.0)), "{forward:?}");
        let right = wish_direction(Vector2::new(1.0, 0.0), pivot, up);
        assert!(close(right, Vector3::new(0.0, -1.0, 0.0)), "{right:?}");
        for stick in [Vector2::new(0.3, -0.9), Vector2::new(-1.0, 0.0)] {
            let wish = wish_direction(stick, pivot, up);
            assert!(wish.dot(up).abs() < 1e-5, "{wish:?} leaves the ground");
            assert!((wish.length() - stick.length()).abs() < 1e-5);
        }
        // Upside down (up is -Y): the ground is the same plane, right and left swap.
        let down = wish_direction(Vector2::new(1.0, 0.0), Basis::IDENTITY, Vector3::DOWN);
        assert!(close(down, Vector3::new(-1.0, 0.0, 0.0)), "{down:?}");
    }

    #[test]
    fn degenerate_bases_and_ups_give_no_turn() {
        // Looking straight down, the heading comes from the right axis.
        for yaw in [0.0, 0.5, -2.0] {
            let straight_down =
                Basis::from_euler(EulerOrder::YXZ, Vector3::new(-FRAC_PI_2, yaw, 0.0));
            let expected = Basis::from_axis_angle(Vector3::UP, yaw).col_c();
            let back = ground_back(straight_down, Vector3::UP);
            assert!(close(back, expected), "{yaw}: {back:?}");
        }
        let broken = Basis::from_cols(
            Vector3::ZERO,
            Vector3::ZERO,
            Vector3::new(f32::NAN, 0.0, 1.0),
        );
        assert_eq!(ground_back(broken, Vector3::UP), Vector3::BACK);
        let zero = Basis::from_cols(Vector3::ZERO, Vector3::ZERO, Vector3::ZERO);
        assert_eq!(ground_back(zero, Vector3::UP), Vector3::BACK);
        // A broken up counts as +Y.
        for up in [Vector3::ZERO, Vector3::new(f32::NAN, 1.0, 0.0)] {
            let wish = wish_direction(Vector2::new(0.0, -1.0), Basis::IDENTITY, up);
            assert!(
                close(wish, Vector3::new(0.0, 0.0, -1.0)),
                "{up:?}: {wish:?}"
            );
        }
    }

    #[test]
    fn a_floating_body_rises_on_jump_and_sinks_on_crouch_and_presses_neither() {
        let forward = Vector3::new(0.0, 0.0, -1.0);
        let both = Buttons {
            jump: true,
            crouch: true,
        };
        let jump = Buttons {
            jump: true,
            crouch: false,
        };
        let crouch = Buttons {
            jump: false,
            crouch: true,
        };
        assert_eq!(
            floating_input(forward, jump, Vector3::UP),
            (Vector3::new(0.0, 1.0, -1.0), Buttons::default())
        );
        assert_eq!(
            floating_input(Vector3::ZERO, crouch, Vector3::UP * 3.0),
            (Vector3::DOWN, Buttons::default())
        );
        assert_eq!(floating_input(forward, both, Vector3::UP).0, forward);
        assert_eq!(
            floating_input(forward, Buttons::default(), Vector3::UP).0,
            forward
        );
    }
}
