//! The `sim --profile` report: the game's Lua functions that did the most work, each named
//! from the line that defines it, the runtime's own share, and the busiest lines with their
//! text, as a table or as JSON.

use crate::def::scripts::Scripts;
use crate::script::profile::{Profile, EVERY, RUNTIME};
use serde_json::{json, Value};

/// Rows shown of each list.
const TOP: usize = 12;
/// Characters of a line's text shown.
const WIDTH: usize = 72;

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

/// The busiest lines of the game's Lua, with their text.
fn lines<'a>(p: &'a Profile, scripts: &Scripts) -> Vec<(&'a str, u32, u64, String)> {
    let mut out: Vec<_> = (p.lines.iter())
        .map(|((file, line), n)| (file.as_str(), *line, *n, text_of(scripts, file, *line)))
        .collect();
    out.sort_by_key(|l| std::cmp::Reverse(l.2));
    out
}

fn runtime_share(p: &Profile) -> u64 {
    let at = (RUNTIME.to_string(), 0);
    p.functions.get(&at).map_or(0, |(own, _)| *own)
}

fn text_of(scripts: &Scripts, file: &str, line: u32) -> String {
    let text = scripts.text(file).unwrap_or_default();
    let text = text
        .lines()
        .nth(line.saturating_sub(1) as usize)
        .unwrap_or_default();
    let text = text.trim();
    if text.chars().count() <= WIDTH {
        return text.to_string();
    }
    // Cut between words where one ends late enough.
    let cut: String = text.chars().take(WIDTH - 1).collect();
    let at = cut
        .rfind(' ')
        .filter(|at| *at > WIDTH / 2)
        .unwrap_or(cut.len());
    format!("{} …", cut[..at].trim_end())
}

/// What a function is called where it is defined, line `line` of `source`: `R.pay` for
/// `function R.pay(…)`, `group_of` for `local function group_of(…)`,
/// `R.states.buying.options` for `options = function(…)` inside `R.states.buying = {`.
pub fn name_of(source: &str, line: u32) -> String {
    if line == 0 {
        return "(the file's top level)".into();
    }
    let lines: Vec<&str> = source.lines().collect();
    let Some(text) = lines.get(line as usize - 1) else {
        return format!("function at line {line}");
    };
    let code = text.trim();
    let code = code.strip_prefix("local ").unwrap_or(code);
    if let Some(rest) = code.strip_prefix("function ") {
        return rest.split('(').next().unwrap_or(rest).trim().to_string();
    }
    let Some(at) = code.find("= function") else {
        return "(anonymous function)".into();
    };
    let field = code[..at].trim();
    let inner = field.chars().all(|c| c.is_alphanumeric() || c == '_');
    let mut name = field.to_string();
    if inner {
        for table in enclosing(&lines[..line as usize - 1], indent(text)) {
            name = format!("{table}.{name}");
        }
    }
    name
}

fn indent(text: &str) -> usize {
    text.len() - text.trim_start().len()
}

/// The tables a field indented `depth` is written in, innermost first: each less indented
/// line above that opens one as `name = {`, through `return {` up to the function that
/// returns it (named `f(…)`).
fn enclosing(above: &[&str], mut depth: usize) -> Vec<String> {
    let mut out = Vec::new();
    let lines = above.iter().rev().filter(|l| !l.trim().is_empty());
    for open in lines {
        if indent(open) >= depth {
            continue;
        }
        depth = indent(open);
        let code = open.trim();
        let code = code.strip_prefix("local ").unwrap_or(code);
        if let Some(f) = code.strip_prefix("function ") {
            out.push(format!("{}(…)", f.split('(').next().unwrap_or(f).trim()));
            break;
        }
        let Some(table) = code.strip_suffix('{').map(str::trim_end) else {
            break;
        };
        match table.strip_suffix('=') {
            Some(name) => out.push(name.trim().to_string()),
            None if table == "return" => {}
            None => break,
        }
    }
    out
}

fn share(n: u64, of: u64) -> String {
    format!("{:.1}%", n as f64 * 100.0 / of.max(1) as f64)
}

/// VM instructions a game, about (a sample stands for `EVERY`).
pub fn per_game(p: &Profile, games: usize) -> u64 {
    p.samples * EVERY / games.max(1) as u64
}

/// Samples below which the shares move from run to run of other games.
const FEW: u64 = 1000;

/// The report as a table, for `games` games; `before`: the instructions a game of the batch
/// it follows (`sim --watch`), to say how the work changed.
pub fn render(p: &Profile, scripts: &Scripts, games: usize, before: Option<u64>) -> String {
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
         up to 100%). C functions (ctx methods, string.format) are not counted, and a function\n\
         that ends in `return f(…)` hands its frame to f.\n",
    );
    let functions = functions(p, scripts);
    let rows: Vec<(String, String)> = (functions.iter().take(TOP))
        .map(|f| {
            let counts = format!(
                "{:>6}  {:>6}",
                share(f.total, p.samples),
                share(f.own, p.samples)
            );
            (counts, format!("{}:{}\t{}", f.file, f.line, f.name))
        })
        .collect();
    out.push_str(&table(("   total    self", "where\tfunction"), &rows));
    let runtime = share(runtime_share(p), p.samples);
    out.push_str(&format!(
        "          {runtime:>6}  the runtime's own Lua (flow driver, ctx methods)\n"
    ));
    out.push_str(&more(functions.len(), "function"));
    let lines = lines(p, scripts);
    let rows: Vec<(String, String)> = (lines.iter().take(TOP))
        .map(|(file, line, n, text)| {
            (
                format!("{:>6}", share(*n, p.samples)),
                format!("{file}:{line}\t{text}"),
            )
        })
        .collect();
    out.push_str("\nbusiest lines\n");
    out.push_str(&table(("", ""), &rows));
    out.push_str(&more(lines.len(), "line"));
    out
}

/// Rows of counts and `where\tcontent`, the content aligned after the widest place.
fn table(head: (&str, &str), rows: &[(String, String)]) -> String {
    let split = |s: &str| -> (String, String) {
        let (at, rest) = s.split_once('\t').unwrap_or((s, ""));
        (at.to_string(), rest.to_string())
    };
    let width = (rows.iter().map(|(_, r)| split(r).0.chars().count()))
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    if !head.0.is_empty() {
        let (at, rest) = split(head.1);
        out.push_str(&format!("{}  {at:width$}  {rest}\n", head.0));
    }
    for (counts, row) in rows {
        let (at, rest) = split(row);
        out.push_str(&format!("  {counts}  {at:width$}  {rest}\n"));
    }
    out
}

/// "  … 14 more functions (--json lists them all)" when `n` is more than the rows shown.
fn more(n: usize, what: &str) -> String {
    let Some(left) = n.checked_sub(TOP).filter(|left| *left > 0) else {
        return String::new();
    };
    let s = if left == 1 { "" } else { "s" };
    format!("  … {left} more {what}{s} (--json lists them all)\n")
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
    fn functions_are_named_as_their_definitions_read() {
        let src = "local R = {}\n\
                   function R.pay(G, ctx, p)\n\
                   end\n\
                   local function group_of(ctx, sp)\n\
                   end\n\
                   R.states.buying = {\n\
                   \x20 options = function(G, ctx, p)\n\
                   \x20   table.sort(t, function(a, b) return a < b end)\n\
                   \x20 end,\n\
                   }\n\
                   R.label = function(G, ctx, o) end\n\
                   function grid.placing_turn(over)\n\
                   \x20 return {\n\
                   \x20   act = function(G, ctx, action, p)\n\
                   \x20   end,\n\
                   \x20 }\n\
                   end\n\
                   R.states = {\n\
                   \x20 turn = {\n\
                   \x20   options = function(G, ctx, p)\n";
        let names: Vec<String> = [0, 2, 4, 7, 8, 11, 14, 20, 40]
            .map(|l| name_of(src, l))
            .into();
        assert_eq!(
            names,
            [
                "(the file's top level)",
                "R.pay",
                "group_of",
                "R.states.buying.options",
                "(anonymous function)",
                "R.label",
                "grid.placing_turn(…).act",
                "R.states.turn.options",
                "function at line 40"
            ]
        );
    }
}
