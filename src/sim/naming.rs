//! Names a Lua function as the line that defines it reads, for `sim --profile`: `R.pay` for
//! `function R.pay(…)`, `R.states.buying.options` for `options = function(…)` written inside
//! `R.states.buying = {`, and `grid.placing_turn(…).act` for a field of the table a function
//! returns.

/// The name of the function defined at line `line` of `source` (0: the file's top level).
pub fn name_of(source: &str, line: u32) -> String {
    if line == 0 {
        return "(the file's top level)".into();
    }
    let lines: Vec<&str> = source.lines().map(code).collect();
    let Some(text) = lines.get(line as usize - 1) else {
        return format!("function at line {line}");
    };
    let trimmed = text.trim();
    let (local, rest) = match trimmed.strip_prefix("local ") {
        Some(rest) => (true, rest.trim_start()),
        None => (false, trimmed),
    };
    if let Some(header) = rest.strip_prefix("function ") {
        return called(header);
    }
    let Some(at) = assigned_at(text) else {
        return "(anonymous function)".into();
    };
    let before = text[..at].trim_end();
    let start = before.len() - trailing_name(before).len();
    let (outer, field) = (before[..start].trim(), &before[start..]);
    if field.is_empty() {
        return "(anonymous function)".into();
    }
    if outer.ends_with('{') || outer.ends_with(',') {
        // A field of a table written on this line: `R.s.idle = { options = function`.
        let opened = outer.rfind('{').map_or("", |i| outer[..i].trim_end());
        let table = trailing_name(opened.strip_suffix('=').unwrap_or("").trim_end());
        return match table.is_empty() {
            true => field.to_string(),
            false => format!("{table}.{field}"),
        };
    }
    let plain = field.chars().all(|c| c.is_alphanumeric() || c == '_');
    let mut name = field.to_string();
    if plain && !local && outer.is_empty() {
        for table in enclosing(&lines[..line as usize - 1], indent(text)) {
            name = format!("{table}.{name}");
        }
    }
    name
}

/// A line without its comment (a `--` inside a string is rare on a definition's line).
fn code(line: &str) -> &str {
    line.find("--").map_or(line, |at| &line[..at])
}

fn indent(text: &str) -> usize {
    text.len() - text.trim_start().len()
}

/// `R.pay(G, ctx)` → `R.pay`: what a `function` header names.
fn called(header: &str) -> String {
    header
        .split('(')
        .next()
        .unwrap_or(header)
        .trim()
        .to_string()
}

/// Where the `=` of `name = function` is in `text`, if the line assigns a function.
fn assigned_at(text: &str) -> Option<usize> {
    text.match_indices("function").find_map(|(at, _)| {
        let before = text[..at].trim_end();
        (before.ends_with('=') && !before.ends_with("==")).then(|| before.len() - 1)
    })
}

/// The name `text` ends with: letters, digits, `_`, `.` and `:`.
fn trailing_name(text: &str) -> &str {
    let keep = |c: char| c.is_alphanumeric() || c == '_' || c == '.' || c == ':';
    let start = text.rfind(|c: char| !keep(c)).map_or(0, |i| i + 1);
    &text[start..]
}

/// The tables a field indented `depth` is written in, innermost first: each less indented
/// line above that opens one as `name = {`, through `return {` up to the function that
/// returns it (named `f(…)`). A field under any other line is no table's.
fn enclosing(above: &[&str], mut depth: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut returned = false;
    for open in above.iter().rev().filter(|l| !l.trim().is_empty()) {
        if indent(open) >= depth {
            continue;
        }
        depth = indent(open);
        let code = open.trim();
        let code = code.strip_prefix("local ").unwrap_or(code);
        match (code.strip_prefix("function "), code.strip_suffix('{')) {
            (Some(header), _) if returned => {
                out.push(format!("{}(…)", called(header)));
                break;
            }
            (_, Some(table)) if table.trim_end() == "return" => returned = true,
            (_, Some(table)) if !returned => match table.trim_end().strip_suffix('=') {
                Some(name) => out.push(name.trim().to_string()),
                None => break,
            },
            _ => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_are_named_as_their_definitions_read() {
        let src = "local R = {}\n\
                   function R.pay(G, ctx, p)\n\
                   end\n\
                   local function group_of(ctx, sp)\n\
                   end\n\
                   R.states.buying = { -- the offer\n\
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
                   -- a comment less indented\n\
                   \x20   options = function(G, ctx, p)\n\
                   \x20   end,\n\
                   \x20 },\n\
                   }\n\
                   R.s.idle = { options = function(G) end, act = function(G) end }\n\
                   R.f=function(G) end\n\
                   function M:spread(n)\n\
                   \x20 local cmp = function(a, b) return a < b end\n\
                   \x20 helper = function() end\n\
                   end\n";
        let lines = [0, 2, 4, 7, 8, 11, 14, 21, 25, 26, 27, 28, 29, 90];
        let names: Vec<String> = lines.iter().map(|l| name_of(src, *l)).collect();
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
                "R.s.idle.options",
                "R.f",
                "M:spread",
                "cmp",
                "helper",
                "function at line 90"
            ]
        );
    }
}
