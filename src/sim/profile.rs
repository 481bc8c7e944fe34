//! The `sim --profile` report: the game's Lua functions that did the most work (named by
//! `naming`), the runtime's own share, and the busiest lines with their text, as a table or
//! as JSON.

use super::naming::name_of;
use super::report::{pad, pct};
use crate::def::scripts::Scripts;
use crate::diag::plural;
use crate::script::profile::{Profile, EVERY, RUNTIME};
use serde_json::{json, Value};
use unicode_width::UnicodeWidthStr;

/// Rows shown of each list.
const TOP: usize = 12;
/// Characters of a line's text shown.
const WIDTH: usize = 72;
/// Samples below which the shares move from one batch to another.
const FEW: u64 = 1000;

/// One function of the game's Lua.
struct Function<'a> {
    file: &'a str,
    line: u32,
    name: String,
    own: u64,
    total: u64,
}

/// The game's functions, the most work under them (their callees' too) first; of two with as
/// much, the one with less of it its own (the caller, when one calls the other) first.
fn functions<'a>(p: &'a Profile, scripts: &Scripts) -> Vec<Function<'a>> {
    let mut out: Vec<Function> = (p.functions.iter())
        .filter(|((file, _), _)| file != RUNTIME)
        .map(|((file, line), (own, total))| Function {
            file,
            line: *line,
            name: name_of(scripts.text(file).unwrap_or_default(), *line),
            own: *own,
            total: *total,
        })
        .collect();
    out.sort_by(|a, b| b.total.cmp(&a.total).then(a.own.cmp(&b.own)));
    out
}

/// The busiest lines of the game's Lua: file, line, samples and the line's text.
fn lines<'a>(p: &'a Profile, scripts: &'a Scripts) -> Vec<(&'a str, u32, u64, &'a str)> {
    let text = |file: &str, line: u32| {
        let source = scripts.text(file).unwrap_or_default();
        source
            .lines()
            .nth(line.saturating_sub(1) as usize)
            .unwrap_or_default()
            .trim()
    };
    let mut out: Vec<_> = (p.lines.iter())
        .map(|((file, line), n)| (file.as_str(), *line, *n, text(file, *line)))
        .collect();
    out.sort_by_key(|l| std::cmp::Reverse(l.2));
    out
}

fn runtime_share(p: &Profile) -> u64 {
    let at = (RUNTIME.to_string(), 0);
    p.functions.get(&at).map_or(0, |(own, _)| *own)
}

/// `text` cut to `WIDTH` characters, between words where one ends late enough.
fn cut(text: &str) -> String {
    if text.chars().count() <= WIDTH {
        return text.to_string();
    }
    let head: String = text.chars().take(WIDTH - 1).collect();
    let at = (head.rfind(' '))
        .filter(|at| head[..*at].chars().count() > WIDTH / 2)
        .unwrap_or(head.len());
    format!("{} …", head[..at].trim_end())
}

fn share(n: u64, of: u64) -> String {
    format!("{:.1}%", pct(n as usize, of as usize))
}

/// VM instructions a game, about (a sample stands for `EVERY`).
pub fn per_game(p: &Profile, games: usize) -> u64 {
    p.samples * EVERY / games.max(1) as u64
}

/// The report as a table, for `games` games; `before`: the instructions a game of the batch
/// it follows (`sim --watch`), to say how the work changed.
pub fn render(p: &Profile, scripts: &Scripts, games: usize, before: Option<u64>) -> String {
    let mut out = header(p, games, before);
    let functions = functions(p, scripts);
    let rows: Vec<[String; 3]> = (functions.iter().take(TOP))
        .map(|f| {
            let counts = format!(
                "{:>6}  {:>6}",
                share(f.total, p.samples),
                share(f.own, p.samples)
            );
            [counts, format!("{}:{}", f.file, f.line), f.name.clone()]
        })
        .collect();
    let head = ["   total    self".into(), "where".into(), "function".into()];
    out.push_str(&table(Some(head), &rows));
    let runtime = share(runtime_share(p), p.samples);
    out.push_str(&format!(
        "          {runtime:>6}  the runtime's own Lua (the flow driver, ctx's Lua methods)\n"
    ));
    out.push_str(&more(functions.len(), "function"));
    let lines = lines(p, scripts);
    let rows: Vec<[String; 3]> = (lines.iter().take(TOP))
        .map(|(file, line, n, text)| {
            [
                format!("{:>6}", share(*n, p.samples)),
                format!("{file}:{line}"),
                cut(text),
            ]
        })
        .collect();
    out.push_str("\nbusiest lines\n");
    out.push_str(&table(None, &rows));
    out.push_str(&more(lines.len(), "line"));
    out
}

/// How much work, how it changed since `before`, and how to read the table.
fn header(p: &Profile, games: usize, before: Option<u64>) -> String {
    let now = per_game(p, games);
    let change = before.map_or(String::new(), |was| {
        let by = (now as f64 / was.max(1) as f64 - 1.0) * 100.0;
        format!(", was {}: {by:+.1}%", big(was))
    });
    let mut out = format!(
        "\nwhere the Lua work went: {} VM instructions, {} a game{change} ({} samples, one every {EVERY})\n",
        big(p.samples * EVERY),
        big(now),
        grouped(p.samples),
    );
    if p.samples < FEW {
        out.push_str("few samples: play more games for steadier shares\n");
    }
    out.push_str(
        "total: samples with the function on the stack; self: in the function itself (these add\n\
         up to 100%). Work done in C (string.format, ctx.board:owned_by) is not counted, and a\n\
         function that ends in `return f(…)` hands its frame to f.\n",
    );
    out
}

/// Rows of counts, a place and what is there, the places padded to the widest; `head` names
/// the columns.
fn table(head: Option<[String; 3]>, rows: &[[String; 3]]) -> String {
    let width = (rows.iter().map(|r| r[1].width())).max().unwrap_or(0);
    let mut out = String::new();
    if let Some([counts, place, what]) = head {
        out.push_str(&format!("{counts}  {}  {what}\n", pad(&place, width)));
    }
    for [counts, place, what] in rows {
        out.push_str(&format!("  {counts}  {}  {what}\n", pad(place, width)));
    }
    out
}

/// "  … and 14 other functions (--json lists them all)" when some of `n` were not shown.
fn more(n: usize, what: &str) -> String {
    match n.saturating_sub(TOP) {
        0 => String::new(),
        left => format!(
            "  … and {} (--json lists them all)\n",
            plural(left, &format!("other {what}"))
        ),
    }
}

/// 305543 → "305,543".
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// 1234567 → "1.23 M".
fn big(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1} k", n as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.2} M", n as f64 / 1e6),
        _ => format!("{:.2} G", n as f64 / 1e9),
    }
}

/// The report as JSON: every function and line sampled, the busiest first.
pub fn json(p: &Profile, scripts: &Scripts) -> Value {
    let functions: Vec<Value> = (functions(p, scripts).iter())
        .map(|f| {
            json!({"file": f.file, "line": f.line, "name": f.name, "total": f.total, "self": f.own})
        })
        .collect();
    let lines: Vec<Value> = (lines(p, scripts).into_iter())
        .map(
            |(file, line, n, text)| json!({"file": file, "line": line, "samples": n, "text": text}),
        )
        .collect();
    json!({
        "every": EVERY,
        "samples": p.samples,
        "runtime": runtime_share(p),
        "functions": functions,
        "lines": lines,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_grouped_by_thousands() {
        let shown = [0, 999, 1000, 305543, 1234567].map(grouped);
        assert_eq!(shown, ["0", "999", "1,000", "305,543", "1,234,567"]);
    }

    #[test]
    fn long_lines_are_cut_between_words() {
        let line = "if holds_whole(ctx, p, sp) and ctx.counters.cash[p] >= sp.house_cost then out[#out + 1] = x end";
        assert_eq!(
            cut(line),
            "if holds_whole(ctx, p, sp) and ctx.counters.cash[p] >= sp.house_cost …"
        );
        let long = "北".repeat(100);
        assert_eq!(cut(&long), format!("{} …", "北".repeat(71)));
    }
}
