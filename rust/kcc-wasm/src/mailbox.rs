//! The mailbox: a small array of `f32` in the module's memory where numbers cross the boundary.
//!
//! A host import that answers with vectors (a position, a test move) writes them here before it
//! returns; a tick leaves its report here. The page reads and writes it through a
//! `Float32Array` over the module's memory at [`crate::abi::kcc_mailbox`]. Where each value
//! sits is listed in [`crate::host`] (answers) and [`report`] (the tick's report).

use std::cell::Cell;

/// Number of `f32` slots.
pub const LEN: usize = 32;

thread_local! {
    // One per thread: the module runs on the page's one thread; native tests run in parallel.
    static SLOTS: [Cell<f32>; LEN] = const { [const { Cell::new(0.0) }; LEN] };
}

/// Address of the first slot, for the host.
pub fn address() -> *mut f32 {
    SLOTS.with(|slots| slots.as_ptr().cast::<f32>().cast_mut())
}

/// Slot `index`; 0 outside the mailbox.
pub fn get(index: usize) -> f32 {
    SLOTS.with(|slots| slots.get(index).map_or(0.0, Cell::get))
}

/// Three slots from `index` as a vector.
pub fn vec3(index: usize) -> glam::Vec3 {
    glam::Vec3::new(get(index), get(index + 1), get(index + 2))
}

/// Writes `values` from slot `index` on; what would fall outside the mailbox is dropped.
pub fn put(index: usize, values: &[f32]) {
    SLOTS.with(|slots| {
        for (slot, value) in slots.iter().skip(index).zip(values) {
            slot.set(*value);
        }
    });
}

/// Where [`crate::abi::kcc_tick`] and [`crate::abi::kcc_move_and_step`] leave their report
/// (`kcc::TickReport`). Flags are 0 or 1.
pub mod report {
    /// Velocity after the tick, m/s, 3 slots: write it back to the body.
    pub const VELOCITY: usize = 0;
    /// How fast the body really moved, m/s, 3 slots.
    pub const REAL_VELOCITY: usize = 3;
    /// Height gained by stepping up, m.
    pub const STEP_UP: usize = 6;
    /// Height lost by stepping down, m (0 or less).
    pub const STEP_DOWN: usize = 7;
    /// Vertical travel of the tick's stair steps, m, for the camera (valid when `STEPPED_FLAG`).
    pub const STEPPED: usize = 8;
    /// 1 when the tick stepped (the `stepped` signal would be emitted).
    pub const STEPPED_FLAG: usize = 9;
    /// 1 when the body stood on floor as the tick began.
    pub const WAS_ON_FLOOR: usize = 10;
    /// 1 when the body stands on floor after the tick.
    pub const ON_FLOOR: usize = 11;
    /// 1 when a jump started this tick.
    pub const JUMPED: usize = 12;
    /// 1 when the body is crouched after the tick.
    pub const CROUCHED: usize = 13;
    /// Sub-steps the delta was split into.
    pub const SUBSTEPS: usize = 14;
    /// Inputs that were unusable and replaced, as bits: 1 wish direction, 2 velocity, 4 delta,
    /// 8 delta clamped, 16 position.
    pub const SANITIZED: usize = 15;
    /// Slots the report takes.
    pub const LEN: usize = 16;
}

/// Writes `report` into the mailbox at the [`report`] slots.
pub fn put_report(tick: &kcc::TickReport) {
    let flag = |on: bool| if on { 1.0 } else { 0.0 };
    let s = tick.sanitized;
    let sanitized = [
        s.wish_direction,
        s.velocity,
        s.delta,
        s.delta_clamped,
        s.position,
    ]
    .iter()
    .enumerate()
    .map(|(bit, on)| if *on { 1u32 << bit } else { 0 })
    .sum::<u32>();
    let values: [f32; report::LEN] = [
        tick.velocity.x,
        tick.velocity.y,
        tick.velocity.z,
        tick.real_velocity.x,
        tick.real_velocity.y,
        tick.real_velocity.z,
        tick.step_up,
        tick.step_down,
        tick.stepped.unwrap_or(0.0),
        flag(tick.stepped.is_some()),
        flag(tick.was_on_floor),
        flag(tick.on_floor),
        flag(tick.jumped),
        flag(tick.crouched),
        tick.substeps as f32,
        sanitized as f32,
    ];
    put(0, &values);
}
