//! Scripted runs (`--actions FILE`): one step per line, applied in order before the window
//! shows. A step is what is typed at the terminal prompt (an option's number, action or label:
//! `2`, `place 8 8`, `discard 南`) for whoever must decide, or one of `undo`, `redo`, `reload`
//! (re-read the game's files now) and `wait` (wait for a line on standard input, e.g. while a
//! file is edited). Blank lines and `#` comments are skipped; bots reply between steps.

use crate::diag::Diagnostic;
use std::path::Path;

#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// An option as typed at the prompt (`Session::typed`).
    Typed(String),
    Undo,
    Redo,
    Reload,
    Wait,
}

/// A step and the line it came from.
pub type Line = (usize, Step);

pub fn load_steps(path: &Path) -> Result<Vec<Line>, Diagnostic> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| Diagnostic::error(&shown, format!("cannot read: {e}")))?;
    Ok(parse_steps(&text))
}

pub fn parse_steps(text: &str) -> Vec<Line> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let line = line.split('#').next().unwrap_or("").trim();
            let step = match line {
                "undo" => Step::Undo,
                "redo" => Step::Redo,
                "reload" => Step::Reload,
                "wait" => Step::Wait,
                "" => return None,
                _ => Step::Typed(line.to_string()),
            };
            Some((i + 1, step))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_and_comments() {
        let steps = parse_steps("# opening\nplace 8 8\n\nundo # back\nwait\nreload\n2\n");
        assert_eq!(steps.len(), 5);
        assert_eq!(steps[4], (7, Step::Typed("2".into())));
        assert_eq!(steps[0], (2, Step::Typed("place 8 8".into())));
        assert_eq!(steps[1], (4, Step::Undo));
        assert_eq!(steps[3], (6, Step::Reload));
    }
}
