//! The window (macroquad; the only module that names it). `meeple play` opens it when a display
//! is available: the same session as the terminal, drawn by a board renderer chosen by the
//! map's kind (`view`), with the HUD, animations, bots thinking on a worker thread and live
//! reload. `--actions`, `--click`, `--screenshot` and `--frames` script it for tests, users
//! and benchmarks. `layout` is pure arithmetic, so tests can compute where things are drawn.

mod anim;
mod bots;
mod capture;
mod grid;
mod hud;
pub mod layout;
mod live;
mod paint;
pub mod scene;
pub mod script;
pub mod seating;
mod table;
pub mod tableview;
mod track;
mod view;
mod worker;
mod zones;
pub use view::Spot;

use crate::def::style::Style;
use crate::diag::{render, Diagnostic};
use crate::reload::Watcher;
use crate::session::Session;
use clap::Args;
use layout::Layout;
use macroquad::prelude::*;
use script::{load_steps, Line, Step};
use std::path::PathBuf;
use std::time::Instant;
use table::Table;

/// How a window run ended: the process's exit code, or the problems that stopped it.
pub type Done = Result<i32, Vec<Diagnostic>>;

/// The window's options of `meeple play`.
#[derive(Args, Clone, Debug)]
pub struct WindowArgs {
    /// Window: render once after the scripted steps, save a PNG to FILE and exit
    #[arg(long, value_name = "FILE", conflicts_with = "text")]
    pub screenshot: Option<PathBuf>,
    /// Window: apply the steps in FILE first, one a line as typed at the prompt (an option's
    /// number, action or label; undo, redo, reload, wait)
    #[arg(long, value_name = "FILE", conflicts_with = "text")]
    pub actions: Option<PathBuf>,
    /// Window: click at pixel X,Y after the scripted steps (with --screenshot); repeat it for
    /// several clicks in order (a piece, then one of the buttons its options bring)
    #[arg(long, value_name = "X,Y", value_parser = click, conflicts_with = "text",
          requires = "screenshot")]
    pub click: Vec<(f32, f32)>,
    /// Window: run N frames, print frame times (mean, p95, max) and exit
    #[arg(long, value_name = "N", conflicts_with = "text")]
    pub frames: Option<usize>,
    /// Window: its size in pixels
    #[arg(long, value_name = "WxH", default_value = "1280x800", value_parser = size,
          conflicts_with = "text")]
    pub size: (f32, f32),
    /// Window: multisampling for smoother edges (e.g. 4 on a graphics card; 1 = off, the
    /// default, keeps software-rendered displays fast)
    #[arg(long, value_name = "N", default_value_t = 1, conflicts_with = "text")]
    pub msaa: i32,
}

impl WindowArgs {
    /// Whether the run is scripted (and so needs the window).
    pub fn scripted(&self) -> bool {
        self.scripted_by().is_some()
    }

    /// The first flag given that scripts the window.
    pub fn scripted_by(&self) -> Option<&'static str> {
        [
            (self.screenshot.is_some(), "--screenshot"),
            (self.actions.is_some(), "--actions"),
            (!self.click.is_empty(), "--click"),
            (self.frames.is_some(), "--frames"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }
}

/// Whether a window can open, or why not. On X11 systems: `DISPLAY` names an X server that
/// answers `XOpenDisplay`, the call the window opens with (asked once per run).
pub fn display() -> Result<(), String> {
    if cfg!(any(target_os = "windows", target_os = "macos")) {
        return Ok(());
    }
    static ANSWER: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    ANSWER
        .get_or_init(|| match std::env::var("DISPLAY") {
            Ok(d) if !d.is_empty() => {
                x_server_answers().map_err(|why| format!("{why} (DISPLAY={d})"))
            }
            _ => Err("no display (DISPLAY is not set)".into()),
        })
        .clone()
}

/// Opens a connection to the X server `DISPLAY` names, through the system's libX11, and keeps
/// it open for the rest of the run: an X server that has just lost its last client resets
/// itself (Xvfb does by default) and refuses connections meanwhile, so closing the probe's
/// connection could make the window's own, opened right after, fail.
fn x_server_answers() -> Result<(), String> {
    type Open = unsafe extern "C" fn(*const libc::c_char) -> *mut libc::c_void;
    // SAFETY: libX11's XOpenDisplay has this C signature; the library stays loaded (never
    // closed) as long as the connection it opened.
    unsafe {
        let lib = [c"libX11.so.6", c"libX11.so"]
            .iter()
            .map(|name| libc::dlopen(name.as_ptr(), libc::RTLD_LAZY | libc::RTLD_LOCAL))
            .find(|lib| !lib.is_null())
            .ok_or("libX11 is not installed")?;
        let open = libc::dlsym(lib, c"XOpenDisplay".as_ptr());
        if open.is_null() {
            libc::dlclose(lib);
            return Err("libX11 lacks XOpenDisplay".into());
        }
        let display = std::mem::transmute::<*mut libc::c_void, Open>(open)(std::ptr::null());
        if display.is_null() {
            libc::dlclose(lib);
            return Err("no X server answers".into());
        }
        Ok(())
    }
}

/// What a run does besides playing, checked before the window opens.
struct Plan {
    steps: Vec<Line>,
    steps_file: String,
    clicks: Vec<(f32, f32)>,
    screenshot: Option<PathBuf>,
    frames: Option<usize>,
    record: Option<PathBuf>,
}

/// Opens the window on `s` and plays until quit (or until the scripted run ends).
pub fn run(s: Session, watcher: Option<Watcher>, a: WindowArgs, record: Option<PathBuf>) -> Done {
    let (width, height) = a.size;
    // A bad style.toml is reported before any window opens.
    let style = live::style(&s)?;
    let steps = match &a.actions {
        Some(path) => load_steps(path).map_err(|d| vec![d])?,
        None => Vec::new(),
    };
    let plan = Plan {
        steps,
        steps_file: a
            .actions
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
        clicks: a.click.clone(),
        screenshot: a.screenshot.clone(),
        frames: a.frames,
        record,
    };
    let conf = Conf {
        window_title: format!("meeple · {}", s.game.pkg.title),
        window_width: width as i32,
        window_height: height as i32,
        high_dpi: !a.scripted(),
        window_resizable: true,
        sample_count: a.msaa.clamp(1, 16),
        ..Default::default()
    };
    macroquad::Window::from_config(conf, async move {
        let code = match window(s, watcher, plan, style).await {
            Ok(code) => code,
            Err(d) => {
                eprintln!("{}", render(&d));
                1
            }
        };
        std::process::exit(code);
    });
    Ok(0)
}

/// `--size WxH`: at least 200x150 pixels.
fn size(text: &str) -> Result<(f32, f32), String> {
    (parse_pair(text, 'x'))
        .filter(|(w, h)| *w >= 200.0 && *h >= 150.0)
        .ok_or_else(|| "expected WIDTHxHEIGHT, at least 200x150".into())
}

/// `--click X,Y`: a pixel of the window.
fn click(text: &str) -> Result<(f32, f32), String> {
    parse_pair(text, ',').ok_or_else(|| "expected X,Y".into())
}

/// `A<sep>B` as two numbers.
fn parse_pair(text: &str, sep: char) -> Option<(f32, f32)> {
    let (a, b) = text.split_once(sep)?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

async fn window(s: Session, watcher: Option<Watcher>, plan: Plan, style: Style) -> Done {
    prevent_quit();
    crate::session::interrupt::watch();
    let mut t = Table::new(s, watcher, plan.screenshot.is_none(), style)?;
    run_steps(&mut t, &plan).await?;
    let mut frames = capture::Frames::default();
    loop {
        let now = get_time();
        let work = Instant::now();
        t.watch(now);
        t.bots(now);
        t.answer_clock(now);
        if plan.screenshot.is_none() && handle_input(&mut t, now) {
            return quit(&mut t, &plan);
        }
        let l = Layout::new(screen_width(), screen_height());
        draw_all(&mut t, &l, now);
        if let Some(path) = &plan.screenshot {
            // A few frames first: the window settles its size.
            if frames.count == 2 {
                let code = capture::shoot(&mut t, &plan.clicks, path, now)?;
                quit(&mut t, &plan)?;
                return Ok(code);
            }
        }
        frames.add(work.elapsed());
        if plan.frames.is_some_and(|n| frames.count >= n) {
            let played = crate::diag::plural(t.s.game.history.len(), "decision");
            println!("{} · {played} played", frames.report());
            return quit(&mut t, &plan);
        }
        next_frame().await;
    }
}

/// Applies the scripted steps, bots replying in between; a rejected step stops the run.
/// Bots move at once here (in this thread), so a scripted position is the same every run.
async fn run_steps(t: &mut Table, plan: &Plan) -> Result<(), Vec<Diagnostic>> {
    let at = |line: usize, e: String| vec![Diagnostic::error(&plan.steps_file, e).at_line(line)];
    let mut played = None;
    for (line, step) in &plan.steps {
        t.bots_now(0.0).map_err(|e| at(*line, e))?;
        match step {
            Step::Typed(typed) => {
                if let Some(outcome) = t.s.game.outcome() {
                    let after = played
                        .map(|l| format!(" after line {l}"))
                        .unwrap_or_default();
                    let end = format!("the game ended{after} ({outcome})");
                    let e = format!("'{typed}': {end}: remove the lines from here, or undo first");
                    return Err(at(*line, e));
                }
                let seat =
                    t.s.game
                        .decision()
                        .map_err(|e| at(*line, e.to_string()))?
                        .seat;
                played = Some(*line);
                let index =
                    t.s.typed(seat, typed, |_| None)
                        .map_err(|e| at(*line, format!("'{typed}': {e}")))?;
                t.play_option(index, 0.0).map_err(|e| at(*line, e))?;
            }
            Step::Undo => t.undo(),
            Step::Redo => t.redo(),
            Step::Reload => t.reload(&crate::reload::ReloadRequest::everything(), get_time()),
            Step::Wait => {
                println!("waiting (line {line}): press enter to go on");
                let mut buf = String::new();
                let _ = std::io::stdin().read_line(&mut buf);
                // A file saved while waiting reloads before the next step.
                t.watch(get_time());
            }
        }
    }
    // A screenshot shows the position once the bots have replied to the last step; a live
    // window lets them think on the worker.
    if plan.screenshot.is_some() {
        t.bots_now(0.0).map_err(|e| at(plan.steps.len(), e))?;
    }
    Ok(())
}

fn draw_all(t: &mut Table, l: &Layout, now: f64) {
    clear_background(paint::color(t.style.background));
    let scene = t.scene();
    if let Some(board) = t.board() {
        let frame = view::Frame {
            p: &t.p,
            layout: l,
            style: &t.style,
            board,
            world: &scene.world,
            anim: &t.anim,
            now,
            targets: &scene.targets,
            picked: &scene.picked,
            changed: if t.flash(now).is_some() {
                &t.changed
            } else {
                &[]
            },
            last: scene.last,
            image: t.image.as_ref(),
            mouse: t.interactive.then(mouse_position),
            table: scene.table.as_ref(),
        };
        view::draw(view::BoardKind::of(board), &frame);
    }
    hud::draw(t, &scene, l);
    t.p.flush();
    hud::overlays(t, l, now);
}

/// Clicks and keys; true to quit.
fn handle_input(t: &mut Table, now: f64) -> bool {
    if is_quit_requested() || crate::session::interrupt::asked() {
        return true;
    }
    if is_mouse_button_pressed(MouseButton::Left) {
        t.click(mouse_position(), now);
    }
    let ctrl = is_key_down(KeyCode::LeftControl) || is_key_down(KeyCode::RightControl);
    let pressed = |k: KeyCode| is_key_pressed(k);
    if pressed(KeyCode::U) || (ctrl && pressed(KeyCode::Z)) {
        t.undo();
    } else if pressed(KeyCode::R) || (ctrl && pressed(KeyCode::Y)) {
        t.redo();
    } else if pressed(KeyCode::S) {
        t.save();
    } else if pressed(KeyCode::W) {
        t.advise();
    } else if pressed(KeyCode::Tab) {
        t.next_page();
    } else if pressed(KeyCode::Q) || pressed(KeyCode::Escape) {
        return true;
    } else if let Some(n) = DIGITS.iter().position(|k| pressed(*k)) {
        t.press_button(n, now);
    }
    false
}

/// Keys 1 to 9 press the option buttons in order.
const DIGITS: [KeyCode; 9] = [
    KeyCode::Key1,
    KeyCode::Key2,
    KeyCode::Key3,
    KeyCode::Key4,
    KeyCode::Key5,
    KeyCode::Key6,
    KeyCode::Key7,
    KeyCode::Key8,
    KeyCode::Key9,
];

fn quit(t: &mut Table, plan: &Plan) -> Done {
    if let Some(path) = &plan.record {
        println!("{}", t.s.write_replay(path).map_err(|d| vec![d])?);
    }
    if let Some(note) = t.s.seed_note() {
        println!("{note}");
    }
    Ok(0)
}
