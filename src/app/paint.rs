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

    /// `s` laid out by `fit` in `r`, centred vertically. Returns the size used.
    pub fn text_in(&self, s: &str, r: Rect, size: f32, align: Align, c: Color) -> f32 {
        let (size, lines) = fit(s, r, size, &|t, size| self.width(t, size));
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

    /// How many lines `s` wraps into at `size` in a box `width` wide, at most `most`: the
    /// height a caller leaves it, so that long text wraps instead of shrinking unreadably.
    pub fn lines_of(&self, s: &str, width: f32, size: f32, most: usize) -> usize {
        let lines = wrap(s, width, &|t| self.width(t, size), false).len();
        lines.clamp(1, most)
    }
}

/// Text wrapped at spaces to fit `r`'s width (`measure(text, size)` reads a width), shrunk
/// until the lines fit its height: the size and the lines. Below `READABLE_TEXT` a word too
/// wide for a line is broken (hyphenated) when that fits; at `MIN_TEXT` it is broken anyway.
fn fit(s: &str, r: Rect, size: f32, measure: &dyn Fn(&str, f32) -> f32) -> (f32, Vec<String>) {
    let mut size = size;
    loop {
        let width = |t: &str| measure(t, size);
        let lines = wrap(s, r.w, &width, false);
        let wide = lines.iter().any(|l| width(l) > r.w);
        let fits = |lines: &[String]| lines.len() as f32 * size * 1.15 <= r.h;
        if !wide && fits(&lines) {
            return (size, lines);
        }
        if wide && size <= READABLE_TEXT {
            // A word with digits (a price) is never broken: its line may still be too wide.
            let split = wrap(s, r.w, &width, true);
            let narrow = split.iter().all(|l| width(l) <= r.w);
            if (narrow && fits(&split)) || size <= MIN_TEXT {
                return (size, split);
            }
        }
        if size <= MIN_TEXT {
            return (size, lines);
        }
        size = (size * 0.9).max(MIN_TEXT);
    }
}

/// The smallest text size `text_in` shrinks to, in pixels.
const MIN_TEXT: f32 = 7.0;

/// The size below which `text_in` breaks a word too long for its line rather than shrink.
const READABLE_TEXT: f32 = 10.0;

/// Greedy word wrap of `s` into lines no wider than `width` as `measure` reads them; CJK text
/// without spaces is one word, and a line break in `s` always starts a line. With `split`, a
/// word wider than a line is broken into pieces that fit, except a word with digits in it (a
/// price stays whole).
fn wrap(s: &str, width: f32, measure: &dyn Fn(&str) -> f32, split: bool) -> Vec<String> {
    (s.split('\n'))
        .flat_map(|part| wrap_line(part, width, measure, split))
        .collect()
}

/// `wrap` of text without line breaks.
fn wrap_line(s: &str, width: f32, measure: &dyn Fn(&str) -> f32, split: bool) -> Vec<String> {
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
/// letters only, a piece of two letters or more that ends inside the word gets a hyphen, and
/// the last piece keeps three letters.
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
        // No one or two letters left alone after a hyphen (`Connecti-cut`, not `Connectic-ut`).
        let left = chars.len() - end;
        if letters && (1..3).contains(&left) && end - start > 3 + left {
            end = chars.len() - 3;
        }
        // The last break of a word moves to a syllable's edge when the rest still fits a line.
        let rest_fits = |k: usize| measure(&chars[k..].iter().collect::<String>()) <= width;
        if letters && end < chars.len() && rest_fits(end) {
            end = syllable_break(&chars, start, end, rest_fits);
        }
        pieces.push(piece(start, end));
        start = end;
    }
    pieces
}

/// Where the last piece of `chars` from `start` breaks at `end` or before it: before the
/// last consonant that a vowel follows (`Board-walk`, `Pennsyl-vania`, not `Boardw-alk`), or
/// a pair such as `tr` that a vowel follows (`Elec-tric`), when that keeps a vowel and at
/// least half the piece before it and leaves three letters after it that `fits` one line;
/// else at `end`.
fn syllable_break(chars: &[char], start: usize, end: usize, fits: impl Fn(usize) -> bool) -> usize {
    let vowel = |c: char| "aeiouyAEIOUY".contains(c);
    let pair = |k: usize| {
        let two: String = chars[k - 1..=k].iter().collect::<String>().to_lowercase();
        PAIRS.contains(&two.as_str())
    };
    let shortest = start + (end - start).div_ceil(2).max(2);
    (shortest..=end.min(chars.len().saturating_sub(3)))
        .rev()
        .find(|&k| {
            let before_vowel = vowel(chars[k + 1]) && !pair(k);
            let before_pair = pair(k + 1) && vowel(chars[k + 2]);
            !vowel(chars[k])
                && (before_vowel || before_pair)
                && chars[start..k].iter().any(|c| vowel(*c))
                && fits(k)
        })
        .unwrap_or(end)
}

/// Letter pairs that sound as one: a break does not part them.
const PAIRS: &[&str] = &[
    "ch", "ck", "gh", "ph", "sh", "th", "wh", "ng", "qu", "bl", "br", "cl", "cr", "dr", "fl", "fr",
    "gl", "gr", "pl", "pr", "sc", "sk", "sl", "sm", "sn", "sp", "st", "sw", "tr", "wr",
];

/// A font size in whole pixels (the glyph cache is per size).
fn px(size: f32) -> u16 {
    size.round().clamp(6.0, 200.0) as u16
}

#[cfg(test)]
mod tests {
    use super::{fit, wrap, Rect};

    /// One unit of width per character.
    fn chars(t: &str) -> f32 {
        t.chars().count() as f32
    }

    /// Half a size unit of width per character.
    fn glyphs(t: &str, size: f32) -> f32 {
        chars(t) * size * 0.5
    }

    #[test]
    fn a_long_word_is_broken_before_the_text_shrinks_past_reading() {
        // "Mediterranean" needs 13 × 6.5 = 84.5 at size 13, in a space 60 wide.
        let space = Rect::new(0.0, 0.0, 60.0, 60.0);
        let (size, lines) = fit("Mediterranean Avenue", space, 13.0, &glyphs);
        assert!((9.0..=10.0).contains(&size), "{size}");
        assert_eq!(lines, ["Mediterra-", "nean Avenue"]);
        // Short words only shrink as far as they must, and stay whole.
        let (size, lines) = fit("Park Place", space, 13.0, &glyphs);
        assert_eq!(
            (size, lines),
            (13.0, vec!["Park".to_string(), "Place".to_string()])
        );
        // With no room for a second line the text shrinks on to the smallest size, where a
        // word too wide is broken all the same.
        let flat = Rect::new(0.0, 0.0, 40.0, 9.0);
        let (size, lines) = fit("Mediterranean", flat, 13.0, &glyphs);
        assert_eq!(size, 7.0);
        assert_eq!(lines, ["Mediterra-", "nean"]);
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
    fn a_line_break_starts_a_line() {
        assert_eq!(
            wrap("ones 3 twos -\nfull house 25", 40.0, &chars, false),
            ["ones 3 twos -", "full house 25"]
        );
    }

    #[test]
    fn a_word_wider_than_the_line_is_hyphenated_when_split() {
        assert_eq!(
            wrap("Connecticut Avenue", 10.0, &chars, true),
            ["Connecti-", "cut Avenue"]
        );
        assert_eq!(
            wrap("Mediterranean Avenue", 6.0, &chars, true),
            ["Medit-", "erra-", "nean", "Avenue"]
        );
        // Before a consonant that a vowel follows, where the piece stays at least half full.
        assert_eq!(wrap("Boardwalk", 7.0, &chars, true), ["Board-", "walk"]);
        assert_eq!(
            wrap("Pennsylvania", 9.0, &chars, true),
            ["Pennsyl-", "vania"]
        );
        // Not where the rest would need another line, nor inside a pair such as `sh` or `tr`,
        // nor after a piece without a vowel.
        assert_eq!(
            wrap("Mediterranean", 7.0, &chars, true),
            ["Medite-", "rranean"]
        );
        assert_eq!(wrap("Washington", 8.0, &chars, true), ["Washing-", "ton"]);
        assert_eq!(wrap("Electric", 7.0, &chars, true), ["Elec-", "tric"]);
        assert_eq!(wrap("Strength", 6.0, &chars, true), ["Stren-", "gth"]);
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
