//! Per-tick CSV traces of a run.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::run::Run;

/// The CSV header: units in the column names.
pub const HEADER: &str = "tick,time_s,x_m,y_m,z_m,vx_mps,vy_mps,vz_mps,on_floor,stepped_m,camera_offset_m,penetration_m,queries,tick_ns";

/// Writes the trace of `run` to `<dir>/<file stem>.csv` and returns the path. Empty cells:
/// `stepped_m` on ticks without a step, `queries` for a controller that does not count them.
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
        writeln!(
            out,
            "{},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{},{},{:.6},{:.6},{},{}",
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
            tick.nanos
        )?;
    }
    out.flush()?;
    Ok(path)
}
