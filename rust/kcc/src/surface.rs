//! What a contact is to the character: floor, a level tread, the edge of a step, a wall, an
//! overhang. Every angle threshold of the controller is defined here, once.
//!
//! Contacts are judged by their unit normal against the body's unit up:
//!
//! | surface | test | example |
//! |---|---|---|
//! | level | within about 1 degree of up ([`LEVEL_COSINE`]) | a tread, flat floor |
//! | floor | no steeper than the floor max angle (Godot's tolerance added) | a 30 degree ramp |
//! | edge | tilted, but not the side of something ([`SIDE_COSINE`]) | a rounded bottom on a step's edge |
//! | side | within [`SIDE_COSINE`] of horizontal | a riser's face, a wall |
//! | overhang | facing down more than [`SIDE_COSINE`] | the underside of a ledge |
//!
//! [`classify`] gives the one [`Surface`] of a contact for code that branches on it; the
//! predicates answer one question each.

use glam::Vec3;

/// Godot's tolerance when comparing a surface's angle with the floor max angle, rad.
pub const FLOOR_ANGLE_TOLERANCE: f32 = 0.01;

/// Cosine of about 1 degree: a normal this close to up is level, and two floor normals this
/// close to each other are one slope.
pub const LEVEL_COSINE: f32 = 0.9998;

/// Largest cosine between up and a contact normal that is the side of something (a wall, a
/// riser's face) rather than under the body (about 87 degrees); its negative bounds the
/// overhangs.
pub const SIDE_COSINE: f32 = 0.05;

/// Smallest cosine between up and a gentle contact (10 degrees): the rounding of a tread's edge
/// near its top.
pub const GENTLE_COSINE: f32 = 0.985;

/// Smallest cosine between up and a floor whose slope a move follows: steeper floors (only
/// possible with a floor max angle near 90 degrees) would turn a walk into a climb many times
/// faster.
pub const STEEPEST_FOLLOWED_COSINE: f32 = 0.1;

/// How much less steep than the floor max angle ground must be for the probe of a step up to
/// follow it as floor, and for a step up to land on it as floor, rad (1 degree). An edge or a
/// face right at the floor angle (a 45 degree chamfer on a stair's nosing) may be floor by its
/// swept normal and a wall for the engine's own slide (which measures the contact a little
/// differently) and stop the body: the probe looks at it as a possible riser, and a landing
/// on it as a landing on a step's edge, with the tread behind it.
pub const FLOOR_ANGLE_MARGIN: f32 = 0.0175;

/// Slope of the floor a held body comes down on beyond which the drop is a slope's crest, not
/// a step, rad (15 degrees). A capsule coming down a step onto the next step's edge rests on it
/// at a gentler tilt (8 degrees for 0.2 m steps, 0.3 m deep, radius 0.4 m, at 30 Hz).
pub const CREST_SLOPE: f32 = 0.26;

/// Sine of the angle below which two contact normals are one surface's (about 0.01 degree).
/// Over an edge the normal turns by the walk over the shape's radius (1 mm over 1 m: 1e-3 rad),
/// well clear of it.
pub const SAME_NORMAL_SINE: f32 = 2e-4;

/// Largest angle between the motion and the way into a riser at which the tread is looked for
/// toward the riser, as a cosine (85 degrees): stairs walked at up to 80 degrees from their
/// direction are climbed.
pub const TOWARD_RISER_COSINE: f32 = 0.087;

/// Largest cosine between the motion and the way into a riser at which the tread is looked for
/// toward the riser before along the motion (70 degrees): beyond it, the look along the motion
/// reaches hardly into the tread (at 60 degrees it finds it, one query less than the look
/// toward the riser).
pub const GRAZING_COSINE: f32 = 0.342;

/// What a contact is to a body, by its normal (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Surface {
    /// Floor within about 1 degree of level.
    Level,
    /// Tilted floor: walkable, not level.
    Slope,
    /// Too steep to stand on but under the body: a rounded bottom on a step's edge, a steep
    /// ramp.
    Steep,
    /// The side of something: a wall, a riser's face.
    Side,
    /// Faces down: the underside of a ledge, a ceiling.
    Overhang,
}

/// The [`Surface`] a contact with `normal` is for a body whose up is `up` (unit) and whose
/// steepest floor is `max_angle` (rad). A degenerate normal (zero, not finite) is a side.
pub fn classify(normal: Vec3, up: Vec3, max_angle: f32) -> Surface {
    // A degenerate normal is no floor, and its cosine (0 or NaN) neither steep nor overhang.
    let cosine = normal.dot(up);
    if is_walkable(normal, up, max_angle) {
        if cosine >= LEVEL_COSINE {
            Surface::Level
        } else {
            Surface::Slope
        }
    } else if cosine > SIDE_COSINE {
        Surface::Steep
    } else if cosine < -SIDE_COSINE {
        Surface::Overhang
    } else {
        Surface::Side
    }
}

/// True when a surface with unit `normal` counts as floor for a body whose up is `up` and whose
/// steepest floor is `max_angle` (rad). A degenerate normal (zero, not finite) is never floor.
pub fn is_walkable(normal: Vec3, up: Vec3, max_angle: f32) -> bool {
    match usable_normal(normal) {
        Some(n) => n.dot(up).clamp(-1.0, 1.0).acos() <= max_angle + FLOOR_ANGLE_TOLERANCE,
        None => false,
    }
}

/// True when unit `normal` is level for a body whose up is `up` (within about 1 degree).
pub fn is_level(normal: Vec3, up: Vec3) -> bool {
    normal.dot(up) >= LEVEL_COSINE
}

/// True when unit `normal` is under the body, not the side of something: it points up by more
/// than [`SIDE_COSINE`].
pub fn supports(normal: Vec3, up: Vec3) -> bool {
    normal.dot(up) > SIDE_COSINE
}

/// True when unit `normal` faces down: an overhang, which no step up can pass.
pub fn is_overhang(normal: Vec3, up: Vec3) -> bool {
    normal.dot(up) < -SIDE_COSINE
}

/// True when unit `normal` is the contact of an edge under a body: tilted from level, and not
/// the side of something.
pub fn is_edge(normal: Vec3, up: Vec3) -> bool {
    !is_level(normal, up) && supports(normal, up)
}

/// True when unit `normal` is within 10 degrees of level ([`GENTLE_COSINE`]).
pub fn is_gentle(normal: Vec3, up: Vec3) -> bool {
    normal.dot(up) >= GENTLE_COSINE
}

/// True when two floor normals are one slope (within about 1 degree).
pub fn same_slope(a: Vec3, b: Vec3) -> bool {
    a.dot(b) >= LEVEL_COSINE
}

/// True when two unit contact normals are one surface's (within [`SAME_NORMAL_SINE`]).
pub fn same_normal(a: Vec3, b: Vec3) -> bool {
    a.cross(b).length() < SAME_NORMAL_SINE
}

/// True when the engine's floor normal `floor` is the surface of the contact with unit
/// `normal`: the very same normal, or that surface blended with level floor (leaning the same
/// way, less and by more than [`same_slope`] allows). Godot Physics averages the normals of
/// every floor contact its slide met: a flat bottom's rim on a 45 degree chamfer and its face
/// over the tread gave 12 degrees. Jolt reports the one contact's normal. Normals within a
/// degree of each other that are not the same (a plank tipping between the slide and the
/// probe) are not taken for a blend.
pub fn floor_of(floor: Vec3, normal: Vec3, up: Vec3) -> bool {
    let lean = |n: Vec3| n - up * n.dot(up);
    let blend = lean(floor).dot(lean(normal)) > 0.0
        && floor.dot(up) > normal.dot(up)
        && !same_slope(floor, normal);
    same_normal(floor, normal) || blend
}

/// Angle between a surface normal and up, rad; `None` for a degenerate normal.
pub fn slope_angle(normal: Vec3, up: Vec3) -> Option<f32> {
    usable_normal(normal).map(|n| n.dot(up).clamp(-1.0, 1.0).acos())
}

/// The unit version of `normal`, or `None` when it is not finite or has almost no length.
pub fn usable_normal(normal: Vec3) -> Option<Vec3> {
    if !normal.is_finite() {
        return None;
    }
    let length = normal.length();
    (length > 1e-3).then(|| normal / length)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walkable_uses_angle_with_tolerance() {
        let up = Vec3::Y;
        let max = 45f32.to_radians();
        assert!(is_walkable(Vec3::Y, up, max));
        let at_45 = Vec3::new(0.0, 1.0, 1.0).normalize();
        assert!(is_walkable(at_45, up, max));
        let at_50 = Vec3::new(50f32.to_radians().sin(), 50f32.to_radians().cos(), 0.0);
        assert!(!is_walkable(at_50, up, max));
        assert!(!is_walkable(Vec3::X, up, max));
        assert!(!is_walkable(-Vec3::Y, up, max));
    }

    #[test]
    fn a_floor_normal_blended_with_level_floor_is_the_contacts_surface() {
        let up = Vec3::Y;
        let chamfer = Vec3::new(0.0, 1.0, 1.0).normalize();
        assert!(floor_of(chamfer, chamfer, up));
        // Godot Physics' average of the chamfer's contact and level ones.
        let blended = Vec3::new(-0.029, 0.978, 0.209).normalize();
        assert!(floor_of(blended, chamfer, up));
        // Tilted more than the contact, or the other way: another surface.
        let steeper = Vec3::new(0.0, 0.5, 0.866);
        assert!(!floor_of(steeper, chamfer, up));
        let other_way = Vec3::new(0.0, 0.978, -0.209).normalize();
        assert!(!floor_of(other_way, chamfer, up));
        // A plank tipping between the slide and the probe: within a degree, not a blend.
        let plank = Vec3::new(0.0, 0.97941, 0.20188).normalize();
        let turned = Vec3::new(0.0, 0.97903, 0.20373).normalize();
        assert!(!floor_of(plank, turned, up));
    }

    #[test]
    fn degenerate_normals_are_never_floor() {
        let max = 45f32.to_radians();
        assert!(!is_walkable(Vec3::ZERO, Vec3::Y, max));
        assert!(!is_walkable(Vec3::NAN, Vec3::Y, max));
        assert!(!is_walkable(
            Vec3::new(0.0, f32::INFINITY, 0.0),
            Vec3::Y,
            max
        ));
        assert_eq!(slope_angle(Vec3::ZERO, Vec3::Y), None);
        assert_eq!(classify(Vec3::NAN, Vec3::Y, max), Surface::Side);
        // A non-unit but usable normal is normalized first.
        assert!(is_walkable(Vec3::new(0.0, 3.0, 0.0), Vec3::Y, max));
    }

    #[test]
    fn every_contact_is_one_surface() {
        let max = 45f32.to_radians();
        let tilted = |degrees: f32| {
            let angle = degrees.to_radians();
            Vec3::new(0.0, angle.cos(), angle.sin())
        };
        assert_eq!(classify(Vec3::Y, Vec3::Y, max), Surface::Level);
        assert_eq!(classify(tilted(0.5), Vec3::Y, max), Surface::Level);
        assert_eq!(classify(tilted(30.0), Vec3::Y, max), Surface::Slope);
        assert_eq!(classify(tilted(60.0), Vec3::Y, max), Surface::Steep);
        assert_eq!(classify(tilted(89.0), Vec3::Y, max), Surface::Side);
        assert_eq!(classify(tilted(120.0), Vec3::Y, max), Surface::Overhang);
        // An edge is tilted floor or steep: never level, never a side.
        assert!(is_edge(tilted(30.0), Vec3::Y) && is_edge(tilted(60.0), Vec3::Y));
        assert!(!is_edge(Vec3::Y, Vec3::Y) && !is_edge(tilted(89.0), Vec3::Y));
        // Another up turns the same normals.
        assert_eq!(classify(Vec3::X, Vec3::X, max), Surface::Level);
        assert_eq!(classify(Vec3::Y, Vec3::X, max), Surface::Side);
    }

    #[test]
    fn normals_of_one_surface_are_the_same_and_an_edge_turns() {
        let face = Vec3::new(0.0, 0.866, 0.5);
        assert!(same_normal(face, face));
        // Over an edge of a 0.3 m capsule, 5 mm of walk turn the normal by about 1 degree.
        let turned = Vec3::new(0.0, 0.85, 0.53).normalize();
        assert!(!same_normal(face, turned));
        assert!(same_slope(face, face) && !same_slope(face, Vec3::Y));
    }
}
