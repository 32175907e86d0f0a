use glam::Vec3;
use kcc::{Controller, ControllerSettings, KinematicBody, TickInput};
use kcc_parry::{BodySettings, ParryBody, World, geometry};
use std::sync::Arc;
fn main() {
    let rate: f32 = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(120.0);
    let mut w = World::new();
    w.add(geometry::aabb_box(Vec3::new(0.0, -0.5, 0.0), Vec3::new(200.0, 1.0, 200.0)).unwrap());
    w.extend(geometry::stairs(Vec3::new(0.0, 0.0, -1.0), Vec3::NEG_Z, 10, 0.3, 0.3, 4.0).unwrap());
    let w = Arc::new(w);
    let mut b = ParryBody::new(w, BodySettings::default(), Vec3::ZERO).unwrap();
    let mut s = ControllerSettings::default();
    s.movement.ground.max_speed = 4.0;
    let c = Controller::new(s).unwrap();
    let mut v = Vec3::ZERO;
    for _ in 0..10 { v = c.tick(&mut b, &TickInput { wish_direction: Vec3::ZERO, jump: false, velocity: v }, 1.0 / rate).velocity; }
    v = Vec3::new(0.0, v.y, -4.0);
    for i in 0..(rate as usize * 2) {
        let q = b.queries();
        let before = b.position();
        let r = c.tick(&mut b, &TickInput { wish_direction: Vec3::NEG_Z, jump: false, velocity: v }, 1.0 / rate);
        v = r.velocity;
        let p = b.position();
        println!("{i} pos ({:.4} {:.4} {:.4}) dz {:.4} floor {} n {:?} v ({:.2} {:.2} {:.2}) up {:.3} down {:.3} q {}", p.x, p.y, p.z, p.z - before.z, r.on_floor, b.floor_normal(), v.x, v.y, v.z, r.step_up, r.step_down, b.queries() - q);
        if p.y > 2.99 { break; }
    }
}
