//! Diagnostics: every problem a modder or player can cause, rendered like a compiler message
//! (`path:line:col: error: message`) with optional notes. Layers produce their own errors and
//! convert them to `Diagnostic` at the edge; nothing here knows about games.

use std::fmt;
use std::sync::Mutex;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

/// One problem, located in a file when it has a place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub path: String,
    pub line: Option<usize>,
    pub col: Option<usize>,
    pub severity: Severity,
    pub message: String,
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn error(path: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            path: path.into(),
            line: None,
            col: None,
            severity: Severity::Error,
            message: message.into(),
            notes: Vec::new(),
        }
    }

    pub fn warning(path: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(path, message)
        }
    }

    /// An error at a byte offset of `text`, the contents of `path`.
    pub fn at_offset(path: &str, text: &str, offset: usize, message: impl Into<String>) -> Self {
        let (line, col) = line_col(text, offset);
        Diagnostic::error(path, message).at(line, col)
    }

    pub fn at(mut self, line: usize, col: usize) -> Self {
        self.line = Some(line);
        self.col = Some(col);
        self
    }

    pub fn at_line(mut self, line: usize) -> Self {
        self.line = Some(line);
        self
    }

    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Reads a Lua error message of the form `path:line: message` into a located diagnostic.
    /// An error raised inside a library function, or located in the runtime's prelude (which
    /// only passes errors on: a script tail-called it), gets the first script line of the
    /// stack traceback that follows the message instead.
    /// A note names the script lines that called the one in error, innermost first, up to
    /// the hook the runtime called (`called from scripts/grid.lua:42, rules.lua:13`).
    pub fn from_lua_message(message: &str, fallback_path: &str) -> Self {
        let mut first = message.lines().next().unwrap_or(message);
        let frames = script_frames(message);
        let d = match split_location(first) {
            Some((path, line, rest)) if !is_runtime(path) => {
                Diagnostic::error(whole(path), rest.trim()).at_line(line)
            }
            located => {
                if let Some((_, _, rest)) = located {
                    first = rest;
                }
                match frames.first() {
                    Some(&(path, line)) => {
                        Diagnostic::error(whole(path), first.trim()).at_line(line)
                    }
                    None => Diagnostic::error(fallback_path, first.trim()),
                }
            }
        };
        let at = (d.path.clone(), d.line.unwrap_or(0));
        let callers: Vec<String> = (frames.iter())
            .map(|(path, line)| (whole(path), *line))
            .skip_while(|frame| *frame != at)
            .skip(1)
            .take(4)
            .map(|(path, line)| format!("{path}:{line}"))
            .collect();
        match callers.is_empty() {
            true => d,
            false => d.note(format!("called from {}", callers.join(", "))),
        }
    }
}

/// The chunk names Lua may cut in its messages (it keeps the last 56 bytes of a longer one,
/// after "..."), as the runtime gave them, so that a cut name is read back whole.
static LONG_NAMES: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Notes the name of a chunk of Lua (a script's path as shown) that Lua may cut.
pub fn note_chunk_name(name: &str) {
    if name.len() > 50 {
        let mut names = LONG_NAMES.lock().unwrap_or_else(|e| e.into_inner());
        if !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    }
}

/// `path` whole: a name Lua cut (`...games/x/rules.lua`) is the one noted name it ends.
fn whole(path: &str) -> String {
    let Some(tail) = path.strip_prefix("...") else {
        return path.to_string();
    };
    let names = LONG_NAMES.lock().unwrap_or_else(|e| e.into_inner());
    let mut ending = names.iter().filter(|n| n.ends_with(tail));
    match (ending.next(), ending.next()) {
        (Some(name), None) => name.clone(),
        _ => path.to_string(),
    }
}

/// The script lines of a Lua message's stack traceback, innermost first: the frames before
/// the first of the runtime's own Lua that follows a script's (the driver that called the
/// hook), without the runtime's own and the C functions'.
fn script_frames(message: &str) -> Vec<(&str, usize)> {
    let frames = (message.lines())
        .skip_while(|l| !l.starts_with("stack traceback:"))
        .filter_map(|l| split_location(l.trim()));
    let mut out: Vec<(&str, usize)> = Vec::new();
    for (path, line, _) in frames {
        match is_runtime(path) {
            true if !out.is_empty() => break,
            true => {}
            // A function calling itself is one caller, however deep.
            false if out.last() == Some(&(path, line)) => {}
            false => out.push((path, line)),
        }
    }
    out
}

/// The chunk name of the runtime's own Lua helpers (`src/script/prelude.lua`).
pub const PRELUDE: &str = "meeple/prelude.lua";
/// The chunk name of the runtime's flow driver (`src/script/driver.lua`).
pub const DRIVER: &str = "meeple/driver.lua";

/// Whether a chunk is the runtime's own Lua (the prelude, the driver, and the small chunks
/// of a roll's fields and of the sandbox), which only passes errors on: an error located
/// there is shown at the script line that called it.
pub fn is_runtime(path: &str) -> bool {
    [PRELUDE, DRIVER, "dice", "sandbox"].contains(&path)
}

/// `path:line: rest` → (path, line, rest), for paths without spaces.
fn split_location(text: &str) -> Option<(&str, usize, &str)> {
    let mut parts = text.splitn(3, ':');
    let (path, line, rest) = (parts.next()?, parts.next()?, parts.next()?);
    let line = line.trim().parse::<usize>().ok()?;
    (!path.is_empty() && !path.contains(' ') && !path.starts_with('['))
        .then_some((path, line, rest))
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..floor_char_boundary(text, offset)];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(col) = self.col {
                write!(f, ":{col}")?;
            }
        }
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, ": {sev}: {}", self.message)?;
        for note in &self.notes {
            write!(f, "\n    {note}")?;
        }
        Ok(())
    }
}

/// Sorts by file, then line and column, so a list reads top to bottom.
pub fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by(|a, b| (&a.path, a.line, a.col).cmp(&(&b.path, b.line, b.col)));
}

/// Renders a list, one diagnostic per paragraph.
pub fn render(diags: &[Diagnostic]) -> String {
    diags
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// `"; did you mean 'x'?"` for the candidate nearest `word`, or nothing when none is near.
pub fn hint<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    did_you_mean(word, candidates)
        .map(|h| format!("; did you mean '{h}'?"))
        .unwrap_or_default()
}

/// The index of the one `true` in `fits`, if only one is.
pub fn sole(fits: impl Iterator<Item = bool>) -> Option<usize> {
    let mut found = fits.enumerate().filter(|(_, fit)| *fit);
    match (found.next(), found.next()) {
        (Some((i, _)), None) => Some(i),
        _ => None,
    }
}

/// `"'cels' is not one of: points, cells; did you mean 'cells'?"`: a name outside a closed set.
pub fn not_one_of(given: &str, names: &[&str]) -> String {
    let hint = hint(given, names.iter().copied());
    format!("'{given}' is not one of: {}{hint}", names.join(", "))
}

/// `n` and `noun`, plural but for one: "1 map", "2 maps".
pub fn plural(n: usize, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

/// "did you mean" hint: the closest candidate within a small edit distance: one edit in a
/// word of up to five letters (`nope` is not `zone`), two in a longer one, a third of the
/// letters in a long one.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    // Letter case counts last: `c` means `C` before `S`.
    let lower = word.to_lowercase();
    candidates
        .into_iter()
        .map(|c| {
            let d = strsim::damerau_levenshtein(&lower, &c.to_lowercase());
            ((d, strsim::damerau_levenshtein(word, c)), c)
        })
        .filter(|((d, _), c)| *d <= if c.len() <= 5 { 1 } else { 2.max(c.len() / 3) })
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_lua_cut_is_read_back_whole() {
        let long = "/tmp/a-folder-with-a-long-name/and-another-one/games/x/rules.lua";
        note_chunk_name(long);
        let cut = format!("...{}", &long[long.len() - 56..]);
        let d =
            Diagnostic::from_lua_message(&format!("{cut}:9: attempt to index a nil value"), "?");
        assert_eq!((d.path.as_str(), d.line), (long, Some(9)));
    }

    #[test]
    fn a_near_name_in_other_letter_case_comes_first() {
        assert_eq!(did_you_mean("c", ["D", "S", "C", "H"]), Some("C"));
        assert_eq!(did_you_mean("suite", ["rank", "suit"]), Some("suit"));
        assert_eq!(did_you_mean("x", ["rank", "suit"]), None);
    }

    #[test]
    fn line_col_counts_chars() {
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
        assert_eq!(line_col("起点\nx", 7), (2, 1));
    }

    #[test]
    fn the_script_lines_that_called_the_error_are_noted() {
        let msg = "scripts/grid.lua:31: attempt to perform arithmetic on a nil value\n\
                   stack traceback:\n\t[C]: in ?\n\
                   \tscripts/grid.lua:31: in function <scripts/grid.lua:29>\n\
                   \tscripts/grid.lua:44: in function 'grid.flanked'\n\t(...tail calls...)\n\
                   \tgames/x/rules.lua:17: in field 'act'\n\
                   \tmeeple/driver.lua:270: in function <meeple/driver.lua:198>\n\
                   \tgames/x/rules.lua:90: in main chunk\n\t[C]: in ?";
        let d = Diagnostic::from_lua_message(msg, "?");
        assert_eq!(
            d.to_string(),
            "scripts/grid.lua:31: error: attempt to perform arithmetic on a nil value\n    \
             called from scripts/grid.lua:44, games/x/rules.lua:17"
        );
        // A recursion is one caller.
        let deep = "games/x/rules.lua:3: stack overflow\nstack traceback:\n\
                    \tgames/x/rules.lua:3: in function 'R.deep'\n\
                    \tgames/x/rules.lua:3: in function 'R.deep'\n\
                    \tgames/x/rules.lua:3: in function 'R.deep'\n\t...\n\
                    \tgames/x/rules.lua:18: in field 'act'\n\tmeeple/driver.lua:270: in ?";
        let d = Diagnostic::from_lua_message(deep, "?");
        assert_eq!(
            d.to_string(),
            "games/x/rules.lua:3: error: stack overflow\n    called from games/x/rules.lua:18"
        );
        // An error in the hook itself has no caller to note.
        let hook = "games/x/rules.lua:17: boom\nstack traceback:\n\t[C]: in ?\n\
                    \tgames/x/rules.lua:17: in field 'act'\n\tmeeple/driver.lua:270: in ?";
        let d = Diagnostic::from_lua_message(hook, "?");
        assert_eq!(d.to_string(), "games/x/rules.lua:17: error: boom");
    }

    #[test]
    fn lua_message_is_located() {
        let d = Diagnostic::from_lua_message("games/x/rules.lua:42: boom", "?");
        assert_eq!(d.to_string(), "games/x/rules.lua:42: error: boom");
    }

    #[test]
    fn library_errors_take_the_calling_script_line() {
        let msg = "attempt to compare number with nil\nstack traceback:\n\t[C]: in ?\n\t[C]: in function 'math.min'\n\tgames/x/rules.lua:7: in upvalue 'g'";
        let d = Diagnostic::from_lua_message(msg, "?");
        assert_eq!(
            d.to_string(),
            "games/x/rules.lua:7: error: attempt to compare number with nil"
        );
    }

    #[test]
    fn suggestion() {
        assert_eq!(
            did_you_mean("propety", ["go", "property"]),
            Some("property")
        );
        assert_eq!(did_you_mean("zzz", ["go", "property"]), None);
        assert_eq!(did_you_mean("nope", ["zone", "board"]), None);
        assert_eq!(did_you_mean("bord", ["zone", "board"]), Some("board"));
    }
}
