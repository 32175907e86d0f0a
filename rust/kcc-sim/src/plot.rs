//! SVG plots of a run: the height of the body and of the smoothed camera against the distance
//! travelled, over the profile of the geometry under the path (floor below, ceiling above, and
//! 1 m beyond where the body stopped), with the top of the shape to show the headroom.

use std::path::{Path, PathBuf};

use glam::Vec3;
use plotters::prelude::*;

use crate::course::Profile;
use crate::run::Run;
use crate::scenario::Scenario;

/// Longest horizontal gap between two profile samples, m: ticks further apart are subdivided so
/// that step edges stay sharp at low tick rates.
const PROFILE_SPACING: f32 = 0.02;

/// How far beyond the end of the path the profile goes, m (along the last direction moved).
const LOOK_AHEAD: f32 = 1.0;

/// Plot size, pixels.
const SIZE: (u32, u32) = (1100, 520);

/// One sample of the path and what is under and over it.
struct Sample {
    /// Horizontal distance travelled so far, m.
    distance: f64,
    /// Floor height under the path, m (`None` where there is none within reach).
    floor: Option<f64>,
    /// Ceiling height over the path, m (`None` where there is none within reach).
    ceiling: Option<f64>,
}

/// Writes the plot of `run` to `<dir>/<file stem>.svg` and returns the path. `profile` must
/// be built from the scenario's solids.
pub fn write(
    scenario: &Scenario,
    run: &Run,
    profile: &Profile,
    dir: &Path,
) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(format!("{}.svg", run.file_stem()));
    draw(scenario, run, profile, &path).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(path)
}

fn draw(
    scenario: &Scenario,
    run: &Run,
    profile: &Profile,
    path: &Path,
) -> Result<(), Box<dyn std::error::Error>> {
    let height = scenario.character.body.shape.height();
    // Rays start this far above the bottom of the shape: over any step it could climb.
    let lift = scenario.character.controller.stairs.max_step_height + 0.05;
    let reach = height + 10.0;

    let mut body = Vec::with_capacity(run.ticks.len() + 1);
    let mut camera = Vec::with_capacity(run.ticks.len() + 1);
    let mut samples = Vec::new();
    let mut distance = 0.0f64;
    let mut previous = run.start;
    let mut heading = Vec3::ZERO;
    let mut sample = |at: Vec3, distance: f64| {
        let origin = at + Vec3::Y * lift;
        samples.push(Sample {
            distance,
            floor: profile.floor_below(origin, reach).map(f64::from),
            ceiling: profile.ceiling_above(origin, reach).map(f64::from),
        });
    };
    sample(run.start, 0.0);
    body.push((0.0, f64::from(run.start.y)));
    camera.push((0.0, f64::from(run.start.y)));
    for tick in &run.ticks {
        let step = (tick.position - previous).with_y(0.0);
        let length = step.length();
        let pieces = (length / PROFILE_SPACING).ceil().max(1.0) as u32;
        for piece in 1..=pieces {
            let share = piece as f32 / pieces as f32;
            let at = previous + (tick.position - previous) * share;
            sample(at, distance + f64::from(length * share));
        }
        distance += f64::from(length);
        previous = tick.position;
        if length > 1e-6 {
            heading = step / length;
        }
        body.push((distance, f64::from(tick.position.y)));
        camera.push((distance, f64::from(tick.position.y + tick.camera_offset)));
    }
    // The geometry a little beyond where the body stopped: what stopped it.
    let pieces = (LOOK_AHEAD / PROFILE_SPACING).ceil() as u32;
    for piece in 1..=pieces {
        let ahead = LOOK_AHEAD * piece as f32 / pieces as f32;
        sample(previous + heading * ahead, distance + f64::from(ahead));
    }
    let head: Vec<(f64, f64)> = body
        .iter()
        .map(|(d, y)| (*d, y + f64::from(height)))
        .collect();

    let heights = body.iter().chain(&camera).map(|(_, y)| *y);
    let floors = samples.iter().filter_map(|s| s.floor);
    let low = heights.clone().chain(floors).fold(f64::INFINITY, f64::min) - 0.3;
    let high = heights.fold(f64::NEG_INFINITY, f64::max) + f64::from(height) + 0.3;
    let far = samples.last().map_or(0.0, |s| s.distance).max(0.5);

    let root = SVGBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let title = format!(
        "{}: {} at {} Hz",
        run.scenario,
        run.controller.name(),
        run.tick_rate
    );
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..far, low..high)?;
    chart
        .configure_mesh()
        .x_desc("distance travelled (m)")
        .y_desc("height (m)")
        .light_line_style(WHITE.mix(0.0))
        .draw()?;

    let solid = RGBColor(150, 150, 150);
    chart
        .draw_series(AreaSeries::new(
            samples
                .iter()
                .map(|s| (s.distance, s.floor.unwrap_or(low).clamp(low, high))),
            low,
            solid.mix(0.5),
        ))?
        .label("floor under the path")
        .legend(move |(x, y)| {
            Rectangle::new([(x, y - 5), (x + 20, y + 5)], solid.mix(0.5).filled())
        });
    let ceiling = RGBColor(120, 90, 60);
    chart
        .draw_series(AreaSeries::new(
            samples
                .iter()
                .map(|s| (s.distance, s.ceiling.unwrap_or(high).clamp(low, high))),
            high,
            ceiling.mix(0.4),
        ))?
        .label("ceiling over the path")
        .legend(move |(x, y)| {
            Rectangle::new([(x, y - 5), (x + 20, y + 5)], ceiling.mix(0.4).filled())
        });
    let top = RGBColor(90, 140, 230);
    chart
        .draw_series(LineSeries::new(head, top.stroke_width(1)))?
        .label("top of the shape")
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], top.stroke_width(1)));
    chart
        .draw_series(LineSeries::new(body, BLUE.stroke_width(2)))?
        .label("body (bottom of the shape)")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLUE.stroke_width(2)));
    chart
        .draw_series(LineSeries::new(camera, RED.stroke_width(2)))?
        .label("smoothed camera (body + step offset)")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], RED.stroke_width(2)));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
