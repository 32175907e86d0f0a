//! Per-tick CSV traces of a run.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::run::Run;

/// The CSV header: units in the column names.
pub const HEADER: &str = "tick,time_s,x_m,y_m,z_m,vx_mps,vy_mps,vz_mps,on_floor,stepped_m,camera_offset_m,penetration_m,queries,tick_ns,round_trips,godot_on_floor,godot_on_wall,godot_real_vx_mps,godot_real_vy_mps,godot_real_vz_mps,godot_slide_collisions,wish_x,wish_y,wish_z,jump,crouch";

/// Writes the trace of `run` to `<dir>/<file stem>.csv` and returns the path. Empty cells:
/// `stepped_m` on ticks without a step, `queries` for a controller that does not count them,
/// `round_trips` and the `godot_*` columns (Godot's own state of the body) outside the Godot
/// world. The last five columns are the tick's input: the world-space wish direction (length 0..1,
/// written exactly, so that a replay feeds the controller the same numbers), jump and crouch held
/// (1 or 0).
pub fn write(run: &Run, dir: &Path) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(format!("{}.csv", run.file_stem()));
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path)?);
    writeln!(out, "{HEADER}")?;
    for (index, tick) in run.ticks.iter().enumerate() {
        let p = tick.position;
        let v = tick.velocity;
        let stepped = tick.stepped.map_or(String::new(), |dy| format!("{dy:.6}"));
        let queries = tick.queries.map_or(String::new(), |q| q.to_string());
        let round_trips = tick.round_trips.map_or(String::new(), |q| q.to_string());
        let godot = tick.godot.map_or(",,,,,".to_string(), |g| {
            format!(
                "{},{},{:.6},{:.6},{:.6},{}",
                u8::from(g.on_floor),
                u8::from(g.on_wall),
                g.real_velocity.x,
                g.real_velocity.y,
                g.real_velocity.z,
                g.slide_collisions
            )
        });
        writeln!(
            out,
            "{},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{},{},{:.6},{:.6},{},{},{},{},{},{},{},{},{}",
            index + 1,
            tick.time,
            p.x,
            p.y,
            p.z,
            v.x,
            v.y,
            v.z,
            u8::from(tick.on_floor),
            stepped,
            tick.camera_offset,
            tick.penetration,
            queries,
            tick.nanos,
            round_trips,
            godot,
            tick.command.wish.x,
            tick.command.wish.y,
            tick.command.wish.z,
            u8::from(tick.command.jump),
            u8::from(tick.command.crouch)
        )?;
    }
    out.flush()?;
    Ok(path)
}
