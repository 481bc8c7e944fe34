//! Drawing primitives shared by the renderers and the HUD: the bundled font (WenQuanYi Micro
//! Hei, which covers CJK, Latin, digits and currency signs, so a mixed string such as
//! "北京胡同 ¥200" renders whole), text that wraps and shrinks to fit a box (breaking a word
//! too wide for it), and colours.

use crate::app::layout::Rect;
use crate::def::style::Rgba;
use macroquad::prelude::*;
use std::cell::RefCell;

/// The font, bundled into the binary (licence beside it in `assets/fonts/`).
const FONT: &[u8] = include_bytes!("../../assets/fonts/wqy-microhei.ttc");

/// A line of text waiting to be drawn: the text, its top-left corner, its size and colour.
type Queued = (String, f32, f32, f32, Color);

/// Text waits in a queue until `flush`: drawing all of a layer's shapes and then all of its
/// text keeps the GPU on one texture at a time (every switch between the font atlas and
/// plain shapes is a separate draw call, and software renderers pay dearly for each).
pub struct Painter {
    font: Font,
    queued: RefCell<Vec<Queued>>,
}

/// Horizontal placement of a text line inside its box.
#[derive(Clone, Copy, PartialEq)]
pub enum Align {
    Left,
    Center,
}

pub fn color(c: Rgba) -> Color {
    Color::from_rgba(c.0[0], c.0[1], c.0[2], c.0[3])
}

/// A colour with its alpha multiplied by `a`.
pub fn faded(c: Color, a: f32) -> Color {
    Color::new(c.r, c.g, c.b, c.a * a)
}

pub fn fill(r: Rect, c: Color) {
    draw_rectangle(r.x, r.y, r.w, r.h, c);
}

pub fn outline(r: Rect, thickness: f32, c: Color) {
    draw_rectangle_lines(r.x, r.y, r.w, r.h, thickness, c);
}

impl Painter {
    pub fn new() -> Result<Painter, String> {
        let font = load_ttf_font_from_bytes(FONT)
            .map_err(|e| format!("the bundled font does not load: {e}"))?;
        Ok(Painter {
            font,
            queued: RefCell::new(Vec::new()),
        })
    }

    /// Width of `s` at `size` pixels.
    pub fn width(&self, s: &str, size: f32) -> f32 {
        measure_text(s, Some(&self.font), px(size), 1.0).width
    }

    /// One line of text with its top-left corner at (x, y), drawn at the next `flush`.
    pub fn text(&self, s: &str, x: f32, y: f32, size: f32, c: Color) {
        self.queued
            .borrow_mut()
            .push((s.to_string(), x, y, size, c));
    }

    /// Draws the queued text, over everything drawn so far.
    pub fn flush(&self) {
        for (s, x, y, size, color) in self.queued.borrow_mut().drain(..) {
            let params = TextParams {
                font: Some(&self.font),
                font_size: px(size),
                color,
                ..Default::default()
            };
            draw_text_ex(&s, x, y + size * 0.88, params);
        }
    }

    /// Text wrapped at spaces to fit `r`'s width, shrunk (down to `MIN_TEXT`) until the lines
    /// fit its height, centred vertically; a word still too wide at the smallest size is broken
    /// across lines. Returns the size used.
    pub fn text_in(&self, s: &str, r: Rect, size: f32, align: Align, c: Color) -> f32 {
        let mut size = size;
        let lines = loop {
            let measure = |t: &str| self.width(t, size);
            let lines = wrap(s, r.w, &measure, false);
            let wide = lines.iter().any(|l| measure(l) > r.w);
            let tall = lines.len() as f32 * size * 1.15 > r.h;
            if !(wide || tall) {
                break lines;
            }
            if size <= MIN_TEXT {
                break if wide {
                    wrap(s, r.w, &measure, true)
                } else {
                    lines
                };
            }
            size = (size * 0.9).max(MIN_TEXT);
        };
        let line_h = size * 1.15;
        let mut y = r.y + (r.h - line_h * lines.len() as f32) / 2.0;
        for l in &lines {
            let x = match align {
                Align::Left => r.x,
                Align::Center => r.x + (r.w - self.width(l, size)) / 2.0,
            };
            self.text(l, x, y, size, c);
            y += line_h;
        }
        size
    }
}

/// The smallest text size `text_in` shrinks to, in pixels.
const MIN_TEXT: f32 = 7.0;

/// Greedy word wrap of `s` into lines no wider than `width` as `measure` reads them; CJK text
/// without spaces is one word. With `split`, a word wider than a line is broken into pieces
/// that fit, except a word with digits in it (a price stays whole).
fn wrap(s: &str, width: f32, measure: &dyn Fn(&str) -> f32, split: bool) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in s.split_whitespace() {
        let pieces =
            match split && measure(word) > width && !word.contains(|c: char| c.is_ascii_digit()) {
                true => split_word(word, width, measure),
                false => vec![word.to_string()],
            };
        for piece in pieces {
            match lines.last_mut() {
                Some(last) if measure(&format!("{last} {piece}")) <= width => {
                    last.push(' ');
                    last.push_str(&piece);
                }
                _ => lines.push(piece),
            }
        }
    }
    lines
}

/// `word` in pieces no wider than `width` (at least one character each). In a word of Latin
/// letters only, a piece of two letters or more that ends inside the word gets a hyphen.
fn split_word(word: &str, width: f32, measure: &dyn Fn(&str) -> f32) -> Vec<String> {
    let chars: Vec<char> = word.chars().collect();
    let letters = chars.iter().all(char::is_ascii_alphabetic);
    let piece = |from: usize, to: usize| {
        let mut p: String = chars[from..to].iter().collect();
        if letters && to < chars.len() && to - from > 1 {
            p.push('-');
        }
        p
    };
    let mut pieces = Vec::new();
    let mut start = 0;
    while start < chars.len() {
        let mut end = start + 1;
        while end < chars.len() && measure(&piece(start, end + 1)) <= width {
            end += 1;
        }
        pieces.push(piece(start, end));
        start = end;
    }
    pieces
}

/// A font size in whole pixels (the glyph cache is per size).
fn px(size: f32) -> u16 {
    size.round().clamp(6.0, 200.0) as u16
}

#[cfg(test)]
mod tests {
    use super::wrap;

    /// One unit of width per character.
    fn chars(t: &str) -> f32 {
        t.chars().count() as f32
    }

    #[test]
    fn words_wrap_at_spaces_and_stay_whole_without_split() {
        assert_eq!(
            wrap("Mediterranean Avenue", 10.0, &chars, false),
            ["Mediterranean", "Avenue"]
        );
        assert_eq!(
            wrap("St. James Place", 10.0, &chars, false),
            ["St. James", "Place"]
        );
    }

    #[test]
    fn a_word_wider_than_the_line_is_hyphenated_when_split() {
        assert_eq!(
            wrap("Mediterranean Avenue", 6.0, &chars, true),
            ["Medit-", "erran-", "ean", "Avenue"]
        );
        assert_eq!(
            wrap("B.&O. Railroad", 3.0, &chars, true),
            ["B.&", "O.", "Ra-", "il-", "ro-", "ad"]
        );
        // No hyphen after a single letter, nor in a word that is not all letters.
        assert_eq!(
            wrap("Oriental", 1.0, &chars, true),
            ["O", "r", "i", "e", "n", "t", "a", "l"]
        );
        assert_eq!(
            wrap("mono/rules.lua", 5.0, &chars, true),
            ["mono/", "rules", ".lua"]
        );
    }

    #[test]
    fn cjk_text_is_split_without_hyphens_and_prices_stay_whole() {
        assert_eq!(
            wrap("北京胡同路口 ¥200", 4.0, &chars, true),
            ["北京胡同", "路口", "¥200"]
        );
        assert_eq!(wrap("¥200", 3.0, &chars, true), ["¥200"]);
    }
}
