//! What a scripted window leaves behind: the screenshot (after the scripted clicks, in order),
//! written as a PNG, and the frame-time statistics of a `--frames` run.

use super::draw_all;
use super::layout::Layout;
use super::table::{Button, Table};
use super::Done;
use crate::diag::Diagnostic;
use macroquad::prelude::*;
use std::path::Path;
use std::time::{Duration, Instant};

/// The scripted clicks in order (bots do not reply between them), then the screenshot;
/// prints what each click did and where the buttons it brought are, for the next click.
pub fn shoot(t: &mut Table, clicks: &[(f32, f32)], path: &Path, now: f64) -> Done {
    for &(x, y) in clicks {
        let l = Layout::new(screen_width(), screen_height());
        let said = t.click((x, y), now);
        println!(
            "click {x},{y}: {}",
            said.unwrap_or_else(|| "nothing there".into())
        );
        draw_all(t, &l, now);
        for (r, button) in t.buttons.clone() {
            let (cx, cy) = r.center();
            let label = match button {
                Button::Option(i) => t.s.label(i),
                Button::More => "more".into(),
            };
            println!("  button '{label}' at {},{}", cx.round(), cy.round());
        }
    }
    let image = get_screen_data();
    write_png(path, image.width as u32, image.height as u32, &image.bytes)
        .map_err(|e| vec![Diagnostic::error(path.display().to_string(), e)])?;
    let state = match t.s.game.pending() {
        Some(p) => format!("P{} to play", p.seat + 1),
        None => {
            t.s.game
                .outcome()
                .map(|o| o.to_string())
                .unwrap_or_default()
        }
    };
    println!(
        "screenshot {} ({}x{}) after {}; {state}",
        path.display(),
        image.width,
        image.height,
        crate::diag::plural(t.s.game.history.len(), "decision")
    );
    Ok(0)
}

/// Writes RGBA pixels read from the screen (bottom row first) as a PNG, top row first.
fn write_png(path: &Path, w: u32, h: u32, bottom_up: &[u8]) -> Result<(), String> {
    let row = w as usize * 4;
    let mut top_down = Vec::with_capacity(bottom_up.len());
    for y in (0..h as usize).rev() {
        top_down.extend_from_slice(&bottom_up[y * row..(y + 1) * row]);
    }
    let file = std::fs::File::create(path).map_err(|e| format!("cannot write: {e}"))?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), w, h);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().map_err(|e| e.to_string())?;
    writer
        .write_image_data(&top_down)
        .map_err(|e| e.to_string())
}

/// Frame times of a `--frames` run.
#[derive(Default)]
pub struct Frames {
    pub count: usize,
    work: Vec<Duration>,
    intervals: Vec<Duration>,
    last: Option<Instant>,
}

impl Frames {
    pub fn add(&mut self, work: Duration) {
        let now = Instant::now();
        if let Some(last) = self.last {
            self.intervals.push(now - last);
        }
        self.last = Some(now);
        self.work.push(work);
        self.count += 1;
    }

    pub fn report(&self) -> String {
        format!(
            "{} frames · frame interval {} · update+draw {}",
            self.count,
            stats(&self.intervals),
            stats(&self.work)
        )
    }
}

/// "mean X ms, p95 Y ms, max Z ms".
fn stats(d: &[Duration]) -> String {
    if d.is_empty() {
        return "n/a".into();
    }
    let mut ms: Vec<f64> = d.iter().map(|x| x.as_secs_f64() * 1000.0).collect();
    ms.sort_by(|a, b| a.total_cmp(b));
    let mean = ms.iter().sum::<f64>() / ms.len() as f64;
    let p95 = ms[((ms.len() as f64 * 0.95) as usize).min(ms.len() - 1)];
    format!(
        "mean {mean:.2} ms, p95 {p95:.2} ms, max {:.2} ms",
        ms[ms.len() - 1]
    )
}
