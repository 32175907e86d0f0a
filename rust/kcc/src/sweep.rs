//! Shape sweeps that slide along what they hit (the article's `iterate_sweep`).

use glam::Vec3;

use crate::body::{Contact, KinematicBody};
use crate::floor::slide;
use crate::surface::usable_normal;

/// Where a sweep ended and what stopped it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sweep {
    /// Where the body's origin would be after the sweep, m.
    pub end: Vec3,
    /// The contact of the last test if it was blocked; `None` when the sweep ended free.
    pub contact: Option<Contact>,
}

/// Sweeps the body's shape from `from` by `motion` (m) without moving the body. On each hit the
/// rest of the motion slides along the contact, up to `iterations` tests in all. Sliding stops
/// when it would turn the motion backwards, so a sweep never travels against its request.
pub fn iterate_sweep<B: KinematicBody + ?Sized>(
    body: &mut B,
    from: Vec3,
    motion: Vec3,
    iterations: u32,
) -> Sweep {
    sweep_while(body, from, motion, iterations, |next| {
        next.dot(motion) > 0.0
    })
}

/// [`iterate_sweep`] that slides on only while `goes_on` holds for the motion left after a hit
/// (m): the stair lift's sweep also refuses a slide that carries the body back from the step.
pub(crate) fn sweep_while<B: KinematicBody + ?Sized>(
    body: &mut B,
    from: Vec3,
    motion: Vec3,
    iterations: u32,
    goes_on: impl Fn(Vec3) -> bool,
) -> Sweep {
    let mut end = from;
    let mut rest = motion;
    let mut contact = None;
    for _ in 0..iterations.max(1) {
        if rest.length_squared() < 1e-12 {
            break;
        }
        let test = body.test_move(end, rest);
        if !test.travel.is_finite() {
            break;
        }
        end += test.travel;
        contact = test.contact;
        let Some(hit) = test.contact else {
            break;
        };
        let Some(normal) = usable_normal(hit.normal) else {
            break;
        };
        let next = slide(test.remainder, normal);
        if !goes_on(next) {
            break;
        }
        rest = next;
    }
    Sweep { end, contact }
}
