use glam::Vec3;
use kcc::KinematicBody;
use kcc_parry::{World, geometry, ParryBody, BodySettings};
use std::sync::Arc;
fn main() {
    let s = geometry::aabb_box(Vec3::new(0.0, -0.5, 0.0), Vec3::new(200.0, 1.0, 200.0)).unwrap();
    let mut w = World::new(); w.add(s);
    let mut b = ParryBody::new(Arc::new(w), BodySettings::default(), Vec3::ZERO).unwrap();
    for z in [-0.30787036f32, -0.38194454, -0.2, -0.5, -1.0, -3.0] {
        let from = Vec3::new(0.0, 0.00093886984, z);
        let t = b.test_move(from, Vec3::new(0.0, -0.0027, 0.0));
        println!("{z}: {:?}", t);
        let t = b.test_move(from, Vec3::new(0.0, 0.0, -0.07));
        println!("   h: {:?}", t.travel);
    }
}
