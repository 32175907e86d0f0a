use glam::Vec3;
use kcc::{Controller, ControllerSettings, KinematicBody, TickInput};
use kcc_parry::{BodySettings, ParryBody, World, geometry};
use std::sync::Arc;
fn main() {
    let mut w = World::new();
    w.add(geometry::aabb_box(Vec3::new(0.0, -0.5, 0.0), Vec3::new(200.0, 1.0, 200.0)).unwrap());
    w.extend(geometry::stairs(Vec3::new(0.0, 0.0, -1.0), Vec3::NEG_Z, 10, 0.3, 0.3, 4.0).unwrap());
    w.add(geometry::aabb_box(Vec3::new(0.0, 1.5, -6.0), Vec3::new(4.0, 3.0, 4.0)).unwrap());
    let mut b = ParryBody::new(Arc::new(w), BodySettings::default(), Vec3::new(0.0, 3.0, -4.5)).unwrap();
    let mut s = ControllerSettings::default(); s.movement.ground.max_speed = 4.0;
    let c = Controller::new(s).unwrap();
    let mut v = Vec3::ZERO;
    for _ in 0..10 { v = c.tick(&mut b, &TickInput { wish_direction: Vec3::ZERO, jump: false, velocity: v }, 1.0 / 60.0).velocity; }
    v = Vec3::new(0.0, 0.0, 4.0);
    for i in 0..30 {
        let before = b.position(); let q = b.queries();
        let r = c.tick(&mut b, &TickInput { wish_direction: Vec3::Z, jump: false, velocity: v }, 1.0 / 60.0);
        v = r.velocity;
        let p = b.position();
        println!("{i} ({:.4} {:.4} {:.4}) dy {:.4} floor {} n {:.3?} up {:.3} down {:.3} st {:?} q {} v {:.2?}", p.x, p.y, p.z, p.y - before.y, r.on_floor, b.floor_normal(), r.step_up, r.step_down, r.stepped, b.queries() - q, v);
    }
}
