//! A slide that stops dead in another character, as Godot's `move_and_slide` does on Godot
//! Physics when that character walked into the body after the body's last move (Godot moves a
//! character in its server only in the physics step after the frame): the slide's push out of
//! the overlap is cancelled with its travel. Measured on the Godot world,
//! `characters_corridor_pass` at 30, 90 and 100 Hz: the walk stopped dead for a tick where the
//! shoulders met and started again from rest, each character 0.23 m short at the end. The
//! controller moves the body out of the other and slides again, along the other's side; met
//! head on, the body stays stopped (the next tick moves it out before its move).

use glam::Vec3;
use kcc::{Contact, Controller, ControllerSettings, KinematicBody, MotionTest, TickInput};

/// Radius of the body and of the other character, m.
const RADIUS: f32 = 0.4;
/// Godot's default safe margin, m.
const MARGIN: f32 = 0.001;
/// Walking speed, m/s.
const SPEED: f32 = 3.0;

/// Level floor at y = 0 and another character standing still: an upright cylinder of
/// [`RADIUS`] around `other` (y = 0). A slide that starts inside it stops dead; other motions
/// are pushed out of it first (to the margin), then stop where they meet it, and a slide goes
/// on along its side for the rest of its motion.
struct OtherCharacter {
    position: Vec3,
    other: Vec3,
    on_wall: bool,
    first: Option<MotionTest>,
}

impl OtherCharacter {
    /// Horizontal distance from the body at `at` to the other's axis, m.
    fn apart(&self, at: Vec3) -> f32 {
        Vec3::new(at.x - self.other.x, 0.0, at.z - self.other.z).length()
    }

    /// The contact with the other of a body at `at`: the normal from the other's axis toward
    /// the body.
    fn contact(&self, at: Vec3) -> Contact {
        let normal = Vec3::new(at.x - self.other.x, 0.0, at.z - self.other.z).normalize();
        Contact {
            normal,
            point: self.other + normal * RADIUS + Vec3::Y * 0.9,
            depth: 0.0,
            movable: true,
        }
    }

    /// The push out of the other of a body at `from` (to the margin), m.
    fn recovery(&self, from: Vec3) -> Vec3 {
        let apart = self.apart(from);
        let clear = 2.0 * RADIUS + MARGIN;
        if apart >= 2.0 * RADIUS {
            return Vec3::ZERO;
        }
        let away = Vec3::new(from.x - self.other.x, 0.0, from.z - self.other.z) / apart;
        away * (clear - apart)
    }

    /// How far along the horizontal `motion` (m) a body at `from` goes before it touches the
    /// other (0 to 1 of it), and whether it touches.
    fn share_before(&self, from: Vec3, motion: Vec3) -> (f32, bool) {
        let (d, m) = (
            Vec3::new(from.x - self.other.x, 0.0, from.z - self.other.z),
            Vec3::new(motion.x, 0.0, motion.z),
        );
        let (a, b) = (m.length_squared(), 2.0 * d.dot(m));
        let c = d.length_squared() - (2.0 * RADIUS).powi(2);
        let disc = b * b - 4.0 * a * c;
        if a == 0.0 || disc < 0.0 || b >= 0.0 {
            return (1.0, false);
        }
        let t = (-b - disc.sqrt()) / (2.0 * a);
        if (0.0..=1.0).contains(&t) {
            (t, true)
        } else {
            (1.0, false)
        }
    }
}

impl KinematicBody for OtherCharacter {
    stored_position!();
    fn test_move(&mut self, from: Vec3, motion: Vec3) -> MotionTest {
        let out = self.recovery(from);
        let start = from + out;
        let down = motion.y.min(0.0).max(-start.y.max(0.0));
        let rise = Vec3::Y * (motion.y.max(0.0) + down);
        let (share, met) = self.share_before(start, motion);
        let travel = out + Vec3::new(motion.x, 0.0, motion.z) * share + rise;
        let landed = motion.y < 0.0 && (start.y + motion.y) <= 0.0;
        let contact = if met {
            Some(self.contact(from + travel))
        } else if landed {
            Some(super::static_contact(Vec3::Y, from + travel))
        } else {
            None
        };
        MotionTest {
            travel,
            remainder: motion - (travel - out),
            contact,
        }
    }
    fn move_and_slide(&mut self, velocity: Vec3, dt: f32) -> Vec3 {
        let motion = Vec3::new(velocity.x, 0.0, velocity.z) * dt;
        if self.apart(self.position) < 2.0 * RADIUS {
            // Godot Physics: the push out of the overlap is cancelled with the travel.
            self.on_wall = true;
            self.first = Some(MotionTest {
                travel: Vec3::ZERO,
                remainder: motion,
                contact: Some(self.contact(self.position)),
            });
            return Vec3::ZERO;
        }
        let (share, met) = self.share_before(self.position, motion);
        self.on_wall = met;
        if !met {
            self.first = None;
            self.position += motion;
            return Vec3::new(velocity.x, 0.0, velocity.z);
        }
        self.position += motion * share;
        let contact = self.contact(self.position);
        self.first = Some(MotionTest {
            travel: motion * share,
            remainder: motion * (1.0 - share),
            contact: Some(contact),
        });
        let along = |v: Vec3| v - contact.normal * v.dot(contact.normal).min(0.0);
        self.position += along(motion * (1.0 - share));
        along(Vec3::new(velocity.x, 0.0, velocity.z))
    }
    fn slide_collision_count(&self) -> usize {
        usize::from(self.first.is_some())
    }
    fn touched_character(&self, index: usize) -> bool {
        index == 0 && self.first.is_some()
    }
    on_level_floor_by_walls!();
    upright_body!(RADIUS);
}

/// Walks a body along -Z at [`SPEED`] for `ticks` at 30 Hz from inside the other character,
/// standing at `other`: the reports of its ticks.
fn walk_from_inside(other: Vec3, ticks: u32) -> (OtherCharacter, Vec<kcc::TickReport>) {
    let mut settings = ControllerSettings::default();
    settings.movement.ground.max_speed = SPEED;
    let controller = Controller::new(settings).unwrap();
    let mut body = OtherCharacter {
        position: Vec3::ZERO,
        other,
        on_wall: false,
        first: None,
    };
    assert!(
        body.apart(body.position) < 2.0 * RADIUS - 0.01,
        "starts inside"
    );
    let mut velocity = Vec3::NEG_Z * SPEED;
    let mut reports = Vec::new();
    for _ in 0..ticks {
        let input = TickInput {
            wish_direction: Vec3::NEG_Z,
            jump: false,
            velocity,
            crouch: false,
        };
        let report = controller.tick(&mut body, &input, 1.0 / 30.0);
        velocity = report.velocity;
        reports.push(report);
    }
    (body, reports)
}

#[test]
fn a_slide_stopped_dead_in_a_character_it_meets_at_the_shoulder_slides_on_out_of_it() {
    // The other 0.6 m aside and 0.5 m ahead: 2 cm inside it.
    let other = Vec3::new(0.6, 0.0, -0.5);
    let start = Vec3::ZERO;
    let (body, reports) = walk_from_inside(other, 15);
    let first = reports[0];
    // Out of the other (along its normal, 2 cm), then the walk along its side.
    let out = first.separated;
    assert!(out.length() > 0.015 && out.x < 0.0, "pushed out by {out}");
    let walked = first.real_velocity / 30.0;
    assert!(walked.z < -0.05, "walked on: {walked} m");
    // The tick's real velocity is the slide's, without the push (as get_real_velocity()).
    let slid = body_after(other, 1) - start - out;
    assert!(
        (slid - walked).length() < 1e-4,
        "slid {slid}, reported {walked}"
    );
    for (tick, report) in reports.iter().enumerate() {
        let speed = Vec3::new(report.velocity.x, 0.0, report.velocity.z).length();
        assert!(speed > 0.5 * SPEED, "tick {tick}: {speed} m/s");
    }
    assert!(reports[1..].iter().all(|r| r.separated == Vec3::ZERO));
    assert!(body.apart(body.position) >= 2.0 * RADIUS, "ends outside");
    assert!(body.position.z < -1.0, "walked past: {}", body.position);
}

/// Where the body is after `ticks` of [`walk_from_inside`] with the other at `other`, m.
fn body_after(other: Vec3, ticks: u32) -> Vec3 {
    walk_from_inside(other, ticks).0.position
}

#[test]
fn a_slide_stopped_dead_in_a_character_met_head_on_stays_stopped() {
    // Straight ahead, 2 cm inside: nothing of the walk goes along its side.
    let other = Vec3::new(0.0, 0.0, -0.78);
    let (body, reports) = walk_from_inside(other, 1);
    assert_eq!(reports[0].separated, Vec3::ZERO);
    assert_eq!(body.position.x, 0.0);
    assert!(body.position.z > -0.001, "{}", body.position);
}
