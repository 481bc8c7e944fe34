//! Live reload at the window: requests from the watcher (or a scripted `reload`) go through
//! the session's one reload, then the look is read again. A reload that works flashes what
//! changed (files, and the spaces whose definition changed); a failed one keeps every
//! diagnostic on screen until a reload works, while the last good game stays playable. When
//! the rules swap but the look fails, the new rules are live and the overlay says so.

use super::table::Table;
use crate::def::board::Board;
use crate::def::style::{image_bytes, load_style, Style, StyleFor};
use crate::diag::Diagnostic;
use crate::reload::ReloadRequest;
use crate::session::{Reloaded, Session};
use macroquad::texture::Texture2D;

/// Seconds a reload flash stays.
const FLASH: f64 = 3.0;

impl Table {
    /// Reload requests from the watcher.
    pub fn watch(&mut self, now: f64) {
        let requests: Vec<ReloadRequest> = match &self.requests {
            Some(r) => r.try_iter().collect(),
            None => return,
        };
        if let Some(last) = requests.last() {
            self.reload(last, now);
        }
    }

    /// Reloads the rules (the session's one reload) and the look; on success flashes what
    /// changed, on failure shows every diagnostic until a reload succeeds while the last good
    /// game stays playable.
    pub fn reload(&mut self, request: &ReloadRequest, now: f64) {
        let before = self.board().cloned();
        let (said, differs) = match self.s.reload(request) {
            Reloaded::Done { said, differs } => (said, differs),
            Reloaded::Failed { said, diags } => {
                self.overlay = diags;
                self.overlay_title = said;
                return;
            }
        };
        self.changed = match (&before, self.board()) {
            (Some(a), Some(b)) => changed_spaces(a, b),
            _ => Vec::new(),
        };
        self.absorb_events(now);
        self.after_jump();
        if let Some(d) = differs {
            let said = format!("under the new rules this game would differ: {d}");
            self.log.push_back((None, said));
        }
        match look(&self.s) {
            Ok((style, image)) => {
                (self.style, self.image) = (style, image);
                self.overlay.clear();
                let spaces = match self.changed.len() {
                    0 => String::new(),
                    n => format!(" · {n} space(s) changed"),
                };
                self.flash = Some((format!("{said}{spaces}"), now));
            }
            Err(diags) => {
                self.overlay = diags;
                self.overlay_title =
                    format!("{said}: the new rules are live; the look keeps its old style");
            }
        }
    }

    /// The reload flash, while it shows.
    pub fn flash(&self, now: f64) -> Option<(&str, f32)> {
        let (text, at) = self.flash.as_ref()?;
        let left = FLASH - (now - at);
        (left > 0.0).then(|| (text.as_str(), (left / FLASH).min(1.0) as f32))
    }
}

/// The style and image for the session's map.
fn look(s: &Session) -> Result<(Style, Option<Texture2D>), Vec<Diagnostic>> {
    let style = style(s)?;
    let image = image(s, &style)?;
    Ok((style, image))
}

/// The style for the session's map (read before the window opens, so errors show first). A
/// style without a `currency` shows the game's `currency` setting, when it has a text one.
pub fn style(s: &Session) -> Result<Style, Vec<Diagnostic>> {
    let pkg = &s.game.pkg;
    let map = s.game.config.map.as_deref().unwrap_or(&pkg.default_map);
    let mut style = load_style(&pkg.shown, &StyleFor::game(pkg, map))?;
    if let (true, Some(toml::Value::String(c))) =
        (style.currency.is_empty(), s.game.settings.get("currency"))
    {
        style.currency = c.clone();
    }
    Ok(style)
}

/// The image `style` names, if any (loaded once the window is open).
pub fn image(s: &Session, style: &Style) -> Result<Option<Texture2D>, Vec<Diagnostic>> {
    let pkg = &s.game.pkg;
    match &style.image {
        Some(file) => Ok(Some(load_image(&pkg.root, &pkg.shown, file)?)),
        None => Ok(None),
    }
}

/// An image from the game folder, else from the shared `assets/`.
fn load_image(
    root: &std::path::Path,
    shown: &str,
    file: &str,
) -> Result<Texture2D, Vec<Diagnostic>> {
    let fail = |e: String| vec![Diagnostic::error(format!("{shown}/style.toml"), e)];
    let bytes = image_bytes(root, file).map_err(fail)?;
    let image = macroquad::texture::Image::from_file_with_format(&bytes, None)
        .map_err(|e| fail(format!("image '{file}': {e}")))?;
    Ok(Texture2D::from_image(&image))
}

/// Spaces whose name, kind, group or data differ between two versions of a map.
fn changed_spaces(a: &Board, b: &Board) -> Vec<usize> {
    b.spaces
        .iter()
        .enumerate()
        .filter(|(i, s)| {
            a.spaces.get(*i).is_none_or(|o| {
                o.id != s.id
                    || o.name != s.name
                    || o.kind != s.kind
                    || o.group != s.group
                    || o.data != s.data
            })
        })
        .map(|(i, _)| i)
        .collect()
}
