//! The HUD column and the overlays: title, round, turn and state; each player with their
//! colour, counters and status lines; the message line; a button per option that is not a
//! board click; the bot panel (candidates and scores of the last decision); the event log;
//! the keys. Over the board: the reload flash and the failed-reload overlay.

use super::layout::{Layout, Rect};
use super::paint::{color, faded, fill, outline, Align};
use super::scene::Scene;
use super::table::{Button, Table};
use crate::ai::alphabeta::value_text;
use crate::core::event::shown_to;
use crate::diag::render;
use macroquad::prelude::*;

const PANEL: Color = Color::new(0.13, 0.16, 0.20, 1.0);
const INK: Color = Color::new(0.93, 0.94, 0.95, 1.0);
const DIM: Color = Color::new(0.62, 0.66, 0.71, 1.0);
const ACCENT: Color = Color::new(1.0, 0.75, 0.0, 1.0);
const BUTTON: Color = Color::new(0.22, 0.36, 0.55, 1.0);
const WARN: Color = Color::new(1.0, 0.62, 0.35, 1.0);

/// Draws the HUD in `l.hud` and records the option buttons in `t.buttons`.
pub fn draw(t: &mut Table, scene: &Scene, l: &Layout) {
    let s = l.scale;
    let r = l.hud;
    fill(r, PANEL);
    let x = r.x + 12.0 * s;
    let w = r.w - 24.0 * s;
    let mut y = r.y + 10.0 * s;
    y = title(t, scene, x, y, w, s);
    y = players(t, scene, x, y, w, s);
    // The end of the game, large: who won.
    if let Some(o) = &scene.world.outcome {
        let text = o.to_string();
        let r = Rect::new(x, y + 4.0 * s, w, 30.0 * s);
        t.p.text_in(&text, r, 24.0 * s, Align::Left, ACCENT);
        y += 40.0 * s;
    }
    if let Some(m) = &t.message {
        // A long message (a script error) wraps over up to six lines rather than shrink.
        let lines = m.lines().take(3).collect::<Vec<_>>().join(" ");
        let size = 14.0 * s;
        let h = t.p.lines_of(&lines, w, size, 6) as f32 * size * 1.15 + 4.0 * s;
        t.p.text_in(&lines, Rect::new(x, y, w, h), size, Align::Left, WARN);
        y += h + 4.0 * s;
    }
    y = buttons(t, scene, x, y, w, s);
    if t.s.game.pending().is_some() && !scene.human {
        let dots = ".".repeat(1 + (get_time() * 3.0) as usize % 3);
        t.p.text(&format!("{}{dots}", t.s.thinking()), x, y, 15.0 * s, ACCENT);
        y += 24.0 * s;
    }
    y = panel(t, scene, x, y, w, s);
    let more = if scene.buttons.len() > BUTTONS {
        " · Tab: more"
    } else {
        ""
    };
    let keys = match scene.world.outcome {
        Some(_) => "game over · U undo · S save · Q quit".to_string(),
        None => {
            format!("click or 1-9: play{more} · U undo · R redo · S save · W ask the ai · Q quit")
        }
    };
    let bottom = r.y + r.h - 20.0 * s;
    log(t, x, y, w, bottom - 6.0 * s, s);
    t.p.text(&keys, x, bottom, 13.0 * s, DIM);
}

fn title(t: &Table, scene: &Scene, x: f32, y: f32, w: f32, s: f32) -> f32 {
    let map = t.board().map(|b| b.name.clone()).unwrap_or_default();
    let head = format!("{} · {map}", t.s.game.pkg.title);
    t.p.text_in(
        &head,
        Rect::new(x, y, w, 30.0 * s),
        24.0 * s,
        Align::Left,
        INK,
    );
    let wd = &scene.world;
    let line = format!("round {} · turn {} · {}", wd.round, wd.turn, scene.state);
    t.p.text(&line, x, y + 34.0 * s, 15.0 * s, DIM);
    y + 60.0 * s
}

fn players(t: &Table, scene: &Scene, x: f32, mut y: f32, w: f32, s: f32) -> f32 {
    let current = t.s.game.pending().map(|p| p.seat);
    let world = &scene.world;
    for seat in 0..world.seats {
        let counters: Vec<String> = (t.s.game.pkg.counters.iter().enumerate())
            .map(|(c, name)| format!("{name} {}", world.counters[c][seat]))
            .collect();
        let mut text = format!("P{} {}", seat + 1, t.s.seats[seat]);
        if !counters.is_empty() {
            text.push_str(&format!(" · {}", counters.join(" · ")));
        }
        let h = 24.0 * s;
        if Some(seat) == current {
            let band = Rect::new(x - 6.0 * s, y - 2.0 * s, w + 12.0 * s, h);
            fill(band, faded(ACCENT, 0.18));
        }
        draw_circle(
            x + 8.0 * s,
            y + 10.0 * s,
            8.0 * s,
            color(t.style.seat(seat)),
        );
        draw_circle_lines(x + 8.0 * s, y + 10.0 * s, 8.0 * s, 1.0, DIM);
        let (ink, shown) = match world.in_play[seat] {
            true => (INK, text),
            false => (DIM, format!("{text} · out")),
        };
        t.p.text(&shown, x + 22.0 * s, y, 17.0 * s, ink);
        y += h;
        let status = scene.status[seat].join(" · ");
        if !status.is_empty() {
            // Up to three lines, and one more per line break, before it shrinks (a long list
            // of what a player owns).
            let (sw, size) = (w - 22.0 * s, 13.0 * s);
            let most = 3 + status.matches('\n').count();
            let h = 16.0 * s * t.p.lines_of(&status, sw, size, most) as f32 + 2.0 * s;
            t.p.text_in(
                &status,
                Rect::new(x + 22.0 * s, y - 2.0 * s, sw, h),
                size,
                Align::Left,
                DIM,
            );
            y += h;
        }
    }
    y + 8.0 * s
}

/// Option buttons shown at once; more are shown a page at a time, `PAGE` options and a
/// button to the next page.
const BUTTONS: usize = 12;
const PAGE: usize = BUTTONS - 1;

/// The buttons of page `page` (counted from 0, going round after the last) of the options
/// `options` (index and label): all of them when they fit, else `PAGE` and the next page's.
fn on_page(options: &[(usize, String)], page: usize) -> Vec<(Button, String)> {
    let button = |(i, label): &(usize, String)| (Button::Option(*i), label.clone());
    if options.len() <= BUTTONS {
        return options.iter().map(button).collect();
    }
    let pages = options.len().div_ceil(PAGE);
    let page = page % pages;
    let mut shown: Vec<_> = options
        .iter()
        .skip(page * PAGE)
        .take(PAGE)
        .map(button)
        .collect();
    shown.push((
        Button::More,
        format!("more → (page {} of {pages})", page + 1),
    ));
    shown
}

/// The page of `options` to show: the one turned to (`turned`) while these same options were
/// offered, else the first.
pub(super) fn shown_page(
    turned: &(Vec<(usize, String)>, usize),
    options: &[(usize, String)],
) -> usize {
    match turned.0 == options {
        true => turned.1,
        false => 0,
    }
}

/// A button for each option that is not only a click on the board, a page at a time when
/// there are more than `BUTTONS`.
fn buttons(t: &mut Table, scene: &Scene, x: f32, mut y: f32, w: f32, s: f32) -> f32 {
    t.buttons.clear();
    let size = 15.0 * s;
    let h = 28.0 * s;
    let mut cx = x;
    for (button, label) in on_page(&scene.buttons, shown_page(&t.page, &scene.buttons)) {
        let bw = (t.p.width(&label, size) + 20.0 * s).min(w);
        if cx + bw > x + w {
            cx = x;
            y += h + 6.0 * s;
        }
        let r = Rect::new(cx, y, bw, h);
        let hover = t.interactive && r.contains(mouse_position());
        let ink = if button == Button::More { ACCENT } else { INK };
        fill(r, if hover { faded(BUTTON, 0.7) } else { BUTTON });
        outline(r, 1.0, faded(INK, 0.5));
        t.p.text_in(&label, r.inset(4.0 * s), size, Align::Center, ink);
        t.buttons.push((r, button));
        cx += bw + 6.0 * s;
    }
    if !scene.buttons.is_empty() {
        y += h + 6.0 * s;
    }
    let mut note = Vec::new();
    if scene.board_only > 0 && scene.human {
        let n = scene.board_only;
        let place = if scene.table.is_some() {
            "table"
        } else {
            "board"
        };
        note.push(match (scene.picked.is_empty(), scene.together) {
            (true, false) => format!("{n} on the {place}: click one there"),
            (true, true) => {
                format!("{n} options on the {place}: click tiles or cards to pick them")
            }
            (false, _) => format!("{n} take the picked tiles: pick more"),
        });
    }
    if let Some(clock) = &t.clock_text {
        note.push(clock.clone());
    }
    for line in note {
        t.p.text(&line, x, y, 14.0 * s, ACCENT);
        y += 22.0 * s;
    }
    y + 4.0 * s
}

/// The bot's last decision: what it chose and its best candidates with their scores. In a game
/// with hidden zones only the viewer's own advice is shown: another seat's candidates would
/// tell its hand, and its choice a claim answer before all are in.
/// A choice that is not the last decision played (forced moves came after) says its turn.
fn panel(t: &Table, scene: &Scene, x: f32, mut y: f32, w: f32, s: f32) -> f32 {
    let Some(th) = t.panel.as_ref().filter(|th| t.shows_thoughts_of(th.seat)) else {
        return y;
    };
    let mut head = format!("P{} ({}) → {}", th.seat + 1, th.who, th.label);
    if scene.world.decisions > th.decisions + 1 {
        head = format!("turn {}: {head}", th.turn);
    }
    t.p.text_in(
        &head,
        Rect::new(x, y, w, 22.0 * s),
        16.0 * s,
        Align::Left,
        ACCENT,
    );
    y += 24.0 * s;
    let top = th.candidates.iter().map(|c| c.1).fold(f64::MIN, f64::max);
    let low = th.candidates.iter().map(|c| c.1).fold(f64::MAX, f64::min);
    let shown: Vec<(&String, f64, String)> = (th.candidates.iter().take(6))
        .map(|(label, score)| (label, *score, value_text(*score)))
        .collect();
    // Values right-aligned in a column as wide as the widest, the labels after it.
    let size = 13.0 * s;
    let column = (shown.iter().map(|v| t.p.width(&v.2, size))).fold(56.0 * s, f32::max);
    let (values_end, labels) = (x + 78.0 * s + column, x + 88.0 * s + column);
    for (label, score, value) in shown {
        let share = if top > low {
            ((score - low) / (top - low)) as f32
        } else {
            1.0
        };
        let bar = Rect::new(x, y + 3.0 * s, 70.0 * s * share.max(0.03), 12.0 * s);
        fill(bar, faded(ACCENT, 0.6));
        t.p.text(&value, values_end - t.p.width(&value, size), y, size, INK);
        let r = Rect::new(labels, y, w - (labels - x), 18.0 * s);
        t.p.text_in(label, r, size, Align::Left, DIM);
        y += 18.0 * s;
    }
    y + 8.0 * s
}

/// The newest events the viewer is shown that fit between `y` and `bottom`, newest last. A
/// long one (a card's text) wraps onto up to three lines.
fn log(t: &Table, x: f32, y: f32, w: f32, bottom: f32, s: f32) {
    let (line, size) = (17.0 * s, 13.0 * s);
    let (mut shown, mut used) = (Vec::new(), 0.0);
    let viewer = t.s.viewer();
    let seen = t.log.iter().filter(|(to, _)| shown_to(*to, viewer));
    for (_, text) in seen.rev() {
        let h = line * t.p.lines_of(text, w, size, 3) as f32;
        if used + h > bottom - y {
            break;
        }
        shown.push((text, h));
        used += h;
    }
    let mut ly = y;
    for (text, h) in shown.into_iter().rev() {
        t.p.text_in(text, Rect::new(x, ly, w, h), size, Align::Left, DIM);
        ly += h;
    }
}

/// The failed-reload overlay (every diagnostic) and the reload flash, over the board. Neither
/// takes clicks: the last good game stays playable underneath.
pub fn overlays(t: &Table, l: &Layout, now: f64) {
    let s = l.scale;
    let b = l.board;
    if !t.overlay.is_empty() {
        let text = render(&t.overlay);
        let lines: Vec<&str> = text.lines().collect();
        let line = 16.0 * s;
        let h = (lines.len() as f32 * line + 50.0 * s).min(b.h * 0.6);
        let r = Rect::new(b.x + 10.0 * s, b.y + 10.0 * s, b.w - 20.0 * s, h);
        fill(r, OVERLAY);
        outline(r, 2.0, Color::new(1.0, 0.4, 0.4, 1.0));
        let head = format!("{} (fix and save to retry)", t.overlay_title);
        let head_box = Rect::new(r.x + 10.0 * s, r.y + 6.0 * s, r.w - 20.0 * s, 22.0 * s);
        t.p.text_in(&head, head_box, 16.0 * s, Align::Left, WHITE);
        let mut y = r.y + 34.0 * s;
        for l in lines {
            if y + line > r.y + r.h {
                break;
            }
            let box_ = Rect::new(r.x + 10.0 * s, y, r.w - 20.0 * s, line);
            t.p.text_in(
                l,
                box_,
                13.0 * s,
                Align::Left,
                Color::new(1.0, 0.85, 0.85, 1.0),
            );
            y += line;
        }
        t.p.flush();
    }
    if let Some((text, alpha)) = t.flash(now) {
        // Over the middle of the board, clear of a track's spaces.
        let r = Rect::new(b.x + b.w * 0.2, b.y + b.h * 0.7, b.w * 0.6, 40.0 * s);
        fill(r, faded(Color::new(0.1, 0.45, 0.2, 0.92), alpha));
        t.p.text_in(
            text,
            r.inset(6.0 * s),
            17.0 * s,
            Align::Center,
            faded(WHITE, alpha),
        );
        t.p.flush();
    }
}

/// The failed-reload overlay's fill (tests look for it).
pub const OVERLAY: Color = Color::new(0.35, 0.04, 0.06, 0.93);

#[cfg(test)]
mod tests {
    use super::*;

    fn options(n: usize) -> Vec<(usize, String)> {
        (0..n).map(|i| (i, format!("o{i}"))).collect()
    }

    #[test]
    fn a_dozen_options_fit_without_pages() {
        let shown = on_page(&options(12), 3);
        assert_eq!(shown.len(), 12);
        assert_eq!(shown[11], (Button::Option(11), "o11".to_string()));
    }

    #[test]
    fn more_options_go_a_page_at_a_time_and_round() {
        let first = on_page(&options(23), 0);
        assert_eq!(first.len(), 12);
        assert_eq!(first[10], (Button::Option(10), "o10".to_string()));
        assert_eq!(
            first[11],
            (Button::More, "more → (page 1 of 3)".to_string())
        );
        let last = on_page(&options(23), 2);
        assert_eq!(
            last,
            [
                (Button::Option(22), "o22".to_string()),
                (Button::More, "more → (page 3 of 3)".to_string())
            ]
        );
        assert_eq!(on_page(&options(23), 3), first);
    }

    #[test]
    fn a_page_turned_to_stays_while_the_same_options_are_offered() {
        let turned = (options(23), 2);
        assert_eq!(shown_page(&turned, &options(23)), 2);
        assert_eq!(shown_page(&turned, &options(22)), 0);
    }
}
