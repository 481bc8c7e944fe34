//! A game's look (`style.toml` in its folder, optional): colours of the table, the board, the
//! seats, the space groups and kinds, the currency shown before prices, how a grid is drawn,
//! an optional image. Top-level keys apply to every map; a `[maps.<id>]` table overrides them
//! for one map. Read here, drawn by the window; every colour is checked (`#rrggbb[aa]`).

use super::items::Items;
use super::source::{key_position, parse_toml, Schema};
use crate::diag::{hint, not_one_of, plural, Diagnostic};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

pub const FILE: &str = "style.toml";

const TOP: &[&str] = &[
    "background",
    "board",
    "line",
    "text",
    "seat_colors",
    "groups",
    "kinds",
    "currency",
    "price_key",
    "grid",
    "checkered",
    "pieces",
    "star_points",
    "winning_line",
    "image",
    "text_scale",
    "item_colors",
    "maps",
];

pub const SCHEMA: Schema = &[("", TOP), ("maps.*", TOP.split_last().expect("keys").1)];

/// An RGBA colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgba(pub [u8; 4]);

/// How a grid's pieces sit: on the line crossings (Go-like boards) or inside the cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridPlace {
    Points,
    Cells,
}

/// What a grid piece looks like: round stones or X/O marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pieces {
    Stones,
    Marks,
}

const GRIDS: &[(&str, GridPlace)] = &[("points", GridPlace::Points), ("cells", GridPlace::Cells)];
const PIECES: &[(&str, Pieces)] = &[("stones", Pieces::Stones), ("marks", Pieces::Marks)];

/// `[item_colors.<field>]`: a colour for each of a field's values.
type ByField = BTreeMap<String, BTreeMap<String, String>>;

#[derive(Deserialize, Default, Clone)]
struct StyleDef {
    background: Option<String>,
    board: Option<String>,
    line: Option<String>,
    text: Option<String>,
    seat_colors: Option<Vec<String>>,
    groups: Option<BTreeMap<String, String>>,
    kinds: Option<BTreeMap<String, String>>,
    currency: Option<String>,
    price_key: Option<String>,
    grid: Option<String>,
    checkered: Option<String>,
    pieces: Option<String>,
    star_points: Option<bool>,
    winning_line: Option<bool>,
    image: Option<String>,
    text_scale: Option<f32>,
    item_colors: Option<ByField>,
    #[serde(default)]
    maps: BTreeMap<String, StyleDef>,
}

/// The validated look of one map.
#[derive(Clone, Debug, PartialEq)]
pub struct Style {
    pub background: Rgba,
    pub board: Rgba,
    pub line: Rgba,
    pub text: Rgba,
    pub seat_colors: Vec<Rgba>,
    pub groups: BTreeMap<String, Rgba>,
    pub kinds: BTreeMap<String, Rgba>,
    pub currency: String,
    /// Key of a space's `data` holding its price.
    pub price_key: String,
    pub grid: GridPlace,
    /// The colour of every other cell of a grid of cells (the dark squares of a chess board,
    /// the bottom-left one dark); none: cells of the board's colour.
    pub checkered: Option<Rgba>,
    pub pieces: Pieces,
    pub star_points: bool,
    /// Whether a won game draws the winner's line through the last move (games won by a line).
    pub winning_line: bool,
    /// An image file, relative to the game folder (or the shared `assets/`).
    pub image: Option<String>,
    pub text_scale: f32,
    /// The colour of each item's name on its face, by code (none: the text colour of tiles).
    pub item_colors: Vec<Option<Rgba>>,
}

impl Default for Style {
    fn default() -> Style {
        Style {
            background: Rgba([0x23, 0x2a, 0x33, 0xff]),
            board: Rgba([0xd9, 0xe8, 0xd2, 0xff]),
            line: Rgba([0x2b, 0x2b, 0x2b, 0xff]),
            text: Rgba([0x1a, 0x1a, 0x1a, 0xff]),
            seat_colors: DEFAULT_SEATS.iter().map(|c| Rgba(*c)).collect(),
            groups: BTreeMap::new(),
            kinds: BTreeMap::new(),
            currency: String::new(),
            price_key: "price".into(),
            grid: GridPlace::Points,
            checkered: None,
            pieces: Pieces::Stones,
            star_points: true,
            winning_line: false,
            image: None,
            text_scale: 1.0,
            item_colors: Vec::new(),
        }
    }
}

const DEFAULT_SEATS: [[u8; 4]; 6] = [
    [0xd6, 0x28, 0x28, 0xff],
    [0x1d, 0x4e, 0xd8, 0xff],
    [0x2a, 0x9d, 0x3a, 0xff],
    [0xe9, 0xa1, 0x00, 0xff],
    [0x7b, 0x2c, 0xbf, 0xff],
    [0x0e, 0x9a, 0xa7, 0xff],
];

impl Style {
    /// Colour of a seat (0-based); the list has one per seat the game takes (load checks it,
    /// the default colours included).
    pub fn seat(&self, seat: usize) -> Rgba {
        self.seat_colors[seat % self.seat_colors.len()]
    }

    /// The colour `[item_colors]` gives the name of the item `code`, if it gives one.
    pub fn item_color(&self, code: i64) -> Option<Rgba> {
        *usize::try_from(code)
            .ok()
            .and_then(|c| self.item_colors.get(c))?
    }
}

/// What a style file is read for: the map whose look it gives, the game's maps (a `[maps.<id>]`
/// table must name one), the most players the game takes (each needs a colour of its own) and
/// the game folder (where an `image` must be).
pub struct StyleFor<'a> {
    pub map: &'a str,
    pub maps: Vec<&'a str>,
    pub seats: usize,
    pub root: &'a Path,
    /// The space kinds and groups the game's files declare, which `[kinds]` and `[groups]`
    /// colour; None when the game's files did not load.
    pub names: Option<Names>,
}

/// The names a style may colour: the game's space kinds, every map's groups and the items.
#[derive(Clone)]
pub struct Names {
    pub kinds: Vec<String>,
    pub groups: Vec<String>,
    pub items: Items,
}

impl Names {
    /// The kinds game.toml declares and those the maps use (a game that declares none allows
    /// any), the groups of every map, and the items.
    pub fn of(pkg: &super::Package) -> Names {
        let spaces = || pkg.maps.values().flat_map(|b| b.spaces.iter());
        let sorted = |mut v: Vec<String>| {
            v.sort();
            v.dedup();
            v
        };
        let used = spaces().map(|s| s.kind.clone());
        Names {
            kinds: sorted(pkg.space_kinds.iter().cloned().chain(used).collect()),
            groups: sorted(spaces().filter_map(|s| s.group.clone()).collect()),
            items: pkg.items.clone(),
        }
    }
}

impl<'a> StyleFor<'a> {
    /// The style of `map` of the game `pkg`.
    pub fn game(pkg: &'a super::Package, map: &'a str) -> StyleFor<'a> {
        StyleFor {
            map,
            maps: pkg.maps.keys().map(String::as_str).collect(),
            seats: pkg.players.1,
            root: &pkg.root,
            names: Some(Names::of(pkg)),
        }
    }
}

/// Reads `style.toml` of the game folder (shown as `shown`); no file gives the default look.
/// Every problem is reported, located.
pub fn load_style(shown: &str, game: &StyleFor) -> Result<Style, Vec<Diagnostic>> {
    let (path, text) = read_style(shown, game.root)?;
    style_of(&path, text.as_deref(), game)
}

/// The look of every map of `pkg`, read as the window reads it (the file read once): every
/// problem of every map, each once (the file's top-level problems show for every map), sorted.
pub fn check_styles(pkg: &super::Package) -> Result<(), Vec<Diagnostic>> {
    let maps: Vec<&str> = pkg.maps.keys().map(String::as_str).collect();
    let names = Some(Names::of(pkg));
    check_styles_of(&pkg.shown, &pkg.root, &maps, pkg.players.1, names)
}

/// The same for a game folder whose package did not load: its maps and most players as far
/// as its manifest says.
pub fn check_styles_of(
    shown: &str,
    root: &Path,
    maps: &[&str],
    seats: usize,
    names: Option<Names>,
) -> Result<(), Vec<Diagnostic>> {
    let (path, text) = read_style(shown, root)?;
    let mut diags: Vec<Diagnostic> = Vec::new();
    for map in maps {
        let game = StyleFor {
            map,
            maps: maps.to_vec(),
            seats,
            root,
            names: names.clone(),
        };
        for d in style_of(&path, text.as_deref(), &game)
            .err()
            .unwrap_or_default()
        {
            if !diags.contains(&d) {
                diags.push(d);
            }
        }
    }
    crate::diag::sort(&mut diags);
    match diags.is_empty() {
        true => Ok(()),
        false => Err(diags),
    }
}

/// The style file's path as shown, and its text (None when the game has none).
fn read_style(shown: &str, root: &Path) -> Result<(String, Option<String>), Vec<Diagnostic>> {
    let (file, path) = (root.join(FILE), format!("{shown}/{FILE}"));
    if !file.is_file() {
        return Ok((path, None));
    }
    match super::source::read_text(&file, &path) {
        Ok(text) => Ok((path, Some(text))),
        Err(d) => Err(vec![d]),
    }
}

/// The look `text` gives `game`: the default look when there is no file.
fn style_of(path: &str, text: Option<&str>, game: &StyleFor) -> Result<Style, Vec<Diagnostic>> {
    match (text, too_few_defaults(game.seats)) {
        (Some(text), _) => parse_style(path, text, game),
        // No style file: the players' count in game.toml asks for more colours.
        (None, Some(msg)) => {
            let manifest = format!("{}game.toml", path.strip_suffix(FILE).unwrap_or_default());
            let msg = format!("players.max is {}, but {msg}, in a style.toml", game.seats);
            Err(vec![Diagnostic::error(manifest, msg)])
        }
        (None, None) => Ok(Style::default()),
    }
}

/// Where the image file `file` a style names is: in the game folder, else in the shared
/// `assets/`; None when in neither (or when `file` is absolute or climbs out with `..`).
pub fn image_path(root: &Path, file: &str) -> Option<std::path::PathBuf> {
    let inside = Path::new(file).components().all(|c| {
        matches!(
            c,
            std::path::Component::Normal(_) | std::path::Component::CurDir
        )
    });
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    [root.join(file), shared.join(file)]
        .into_iter()
        .find(|p| inside && p.is_file())
}

/// The bytes of the image file `file` a style names (see `image_path`), or why not.
pub fn image_bytes(root: &Path, file: &str) -> Result<Vec<u8>, String> {
    let path = image_path(root, file).ok_or_else(|| {
        format!("image: no file '{file}' in the game folder or the shared assets/")
    })?;
    std::fs::read(&path).map_err(|e| format!("image '{file}': {e}"))
}

/// Parses a style file's text for `game`.
pub fn parse_style(path: &str, text: &str, game: &StyleFor) -> Result<Style, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let def: Option<StyleDef> = parse_toml(path, text, SCHEMA, &mut diags);
    let Some(mut def) = def else {
        return Err(diags);
    };
    let at = |segs: &[&str], message: String| match key_position(text, segs) {
        Some(offset) => Diagnostic::at_offset(path, text, offset, message),
        None => Diagnostic::error(path, message),
    };
    for id in def
        .maps
        .keys()
        .filter(|id| !game.maps.contains(&id.as_str()))
    {
        let message = format!(
            "maps.{id}: the game has no map '{id}' (its maps: {}){}",
            game.maps.join(", "),
            hint(id, game.maps.iter().copied())
        );
        diags.push(at(&["maps", id], message));
    }
    let over = def.maps.remove(game.map).unwrap_or_default();
    let mut b = Builder {
        diags,
        at: &at,
        path,
        game,
    };
    let style = b.build(def, over);
    if b.diags.is_empty() {
        Ok(style)
    } else {
        crate::diag::sort(&mut b.diags);
        Err(b.diags)
    }
}

struct Builder<'a> {
    diags: Vec<Diagnostic>,
    at: &'a dyn Fn(&[&str], String) -> Diagnostic,
    path: &'a str,
    game: &'a StyleFor<'a>,
}

impl Builder<'_> {
    /// The base style with the map's overrides applied field by field.
    fn build(&mut self, base: StyleDef, over: StyleDef) -> Style {
        let d = Style::default();
        let checkered = map_over_base(base.checkered.clone(), over.checkered.clone());
        let mut style = Style {
            background: self.pick(
                "background",
                &base.background,
                &over.background,
                d.background,
            ),
            board: self.pick("board", &base.board, &over.board, d.board),
            line: self.pick("line", &base.line, &over.line, d.line),
            text: self.pick("text", &base.text, &over.text, d.text),
            seat_colors: match over.seat_colors.as_ref().or(base.seat_colors.as_ref()) {
                Some(list) if list.is_empty() => {
                    let key = self.key_in(over.seat_colors.is_some(), "seat_colors");
                    let segs: Vec<&str> = key.iter().map(String::as_str).collect();
                    let msg = "seat_colors is empty: give one colour per seat, or leave it out for the default colours";
                    self.diags.push((self.at)(&segs, msg.to_string()));
                    d.seat_colors
                }
                Some(list) => {
                    let key = self.key_in(over.seat_colors.is_some(), "seat_colors");
                    if list.len() < self.game.seats {
                        let segs: Vec<&str> = key.iter().map(String::as_str).collect();
                        let seats = |from: usize, to: usize| match from == to {
                            true => format!("seat {from}"),
                            false => format!("seats {from} to {to}"),
                        };
                        let (n, max) = (list.len(), self.game.seats);
                        let msg = format!(
                            "seat_colors lists {} for up to {max} players: give one per seat ({} \
                             would repeat the colour{} of {})",
                            plural(n, "colour"),
                            seats(n + 1, max),
                            if n == 1 { "" } else { "s" },
                            seats(1, n)
                        );
                        self.diags.push((self.at)(&segs, msg));
                    }
                    list.iter()
                        .enumerate()
                        .map(|(i, c)| self.color(&key, Some(i), c))
                        .collect()
                }
                _ => {
                    if let Some(msg) = too_few_defaults(self.game.seats) {
                        self.diags.push(Diagnostic::error(self.path, msg));
                    }
                    d.seat_colors
                }
            },
            groups: self.table("groups", base.groups, over.groups),
            kinds: self.table("kinds", base.kinds, over.kinds),
            currency: over.currency.or(base.currency).unwrap_or(d.currency),
            price_key: over.price_key.or(base.price_key).unwrap_or(d.price_key),
            grid: self.choice("grid", base.grid, over.grid, GRIDS, d.grid),
            checkered: None,
            pieces: self.choice("pieces", base.pieces, over.pieces, PIECES, d.pieces),
            star_points: over
                .star_points
                .or(base.star_points)
                .unwrap_or(d.star_points),
            winning_line: over
                .winning_line
                .or(base.winning_line)
                .unwrap_or(d.winning_line),
            image: self.image(base.image, over.image),
            text_scale: self.scale(base.text_scale, over.text_scale, d.text_scale),
            item_colors: self.item_colors(base.item_colors, over.item_colors),
        };
        style.checkered = self.checkered(checkered, style.grid);
        style
    }

    /// The colour of every other cell (`checkered`, the map's over the base's), which only a
    /// grid of cells has.
    fn checkered(&mut self, given: Option<(bool, String)>, grid: GridPlace) -> Option<Rgba> {
        let (in_map, text) = given?;
        if grid != GridPlace::Cells {
            let what = "colours every other cell: it needs grid = \"cells\" (pieces on the points have no cells)";
            self.problem(in_map, "checkered", what.to_string());
        }
        Some(self.color(&self.key_in(in_map, "checkered"), None, &text))
    }

    /// The colour of each item's name (by code) from `[item_colors.<field>]`: by the items'
    /// values of one field (`name` included); the map's table over the base's. A field the
    /// items lack, or a value none of them has, is an error at its key.
    fn item_colors(&mut self, base: Option<ByField>, over: Option<ByField>) -> Vec<Option<Rgba>> {
        let Some((in_map, tables)) = map_over_base(base, over) else {
            return Vec::new();
        };
        let key = self.key_in(in_map, "item_colors");
        if tables.len() > 1 {
            let fields: Vec<&str> = tables.keys().map(String::as_str).collect();
            let what = format!(
                "colour the items by one field, not by {}",
                fields.join(" and ")
            );
            self.problem(in_map, "item_colors", what);
        }
        let game = self.game;
        let items = game.names.as_ref().map(|n| &n.items);
        let mut out = Vec::new();
        for (field, colors) in &tables {
            let key = [key.clone(), vec![field.clone()]].concat();
            let texts = items.and_then(|items| self.field_texts(&key, items, field));
            let mut by_value = BTreeMap::new();
            for (value, c) in colors {
                let key = [key.clone(), vec![value.clone()]].concat();
                if let Some(texts) = texts.as_ref().filter(|t| !t.contains(value)) {
                    self.no_such_value(&key, field, value, texts);
                }
                by_value.insert(value, self.color(&key, None, c));
            }
            if let (Some(texts), 1) = (&texts, tables.len()) {
                out = texts.iter().map(|t| by_value.get(t).copied()).collect();
            }
        }
        out
    }

    /// Each item's value of `field` (`name` included), or an error at `key` when the game
    /// keeps no items or they have no such field.
    fn field_texts(&mut self, key: &[String], items: &Items, field: &str) -> Option<Vec<String>> {
        let what = match items.texts_of(field) {
            Some(texts) if !texts.is_empty() => return Some(texts),
            Some(_) => "the game keeps no items (game.toml lists none)".to_string(),
            None => {
                let fields = items.field_names();
                let hint = hint(field, fields.iter().copied());
                format!(
                    "the items have no field '{field}' (they have: {}){hint}",
                    fields.join(", ")
                )
            }
        };
        let segs: Vec<&str> = key.iter().map(String::as_str).collect();
        let msg = format!("{}: {what}", segs.join("."));
        self.diags.push((self.at)(&segs, msg));
        None
    }

    /// An error at `key`: no item has `value` as its `field` (`texts`: each item's).
    fn no_such_value(&mut self, key: &[String], field: &str, value: &str, texts: &[String]) {
        let mut values: Vec<&str> = Vec::new();
        for t in texts {
            if !values.contains(&t.as_str()) {
                values.push(t);
            }
        }
        let listed = match values.len() > 13 {
            true => format!("{}, …", values[..13].join(", ")),
            false => values.join(", "),
        };
        let segs: Vec<&str> = key.iter().map(String::as_str).collect();
        let msg = format!(
            "{}: no item has {field} '{value}' (its values: {listed}){}",
            segs.join("."),
            hint(value, values.iter().copied())
        );
        self.diags.push((self.at)(&segs, msg));
    }

    /// The image file (the map's over the base's), which must be in the game folder or the
    /// shared `assets/`.
    fn image(&mut self, base: Option<String>, over: Option<String>) -> Option<String> {
        let (in_map, file) = map_over_base(base, over)?;
        if image_path(self.game.root, &file).is_none() {
            let what = format!("no file '{file}' in the game folder or the shared assets/");
            self.problem(in_map, "image", what);
        }
        Some(file)
    }

    /// The text scale (the map's over the base's), 0.5 to 3.
    fn scale(&mut self, base: Option<f32>, over: Option<f32>, d: f32) -> f32 {
        let Some((in_map, v)) = map_over_base(base, over) else {
            return d;
        };
        if !(0.5..=3.0).contains(&v) {
            self.problem(in_map, "text_scale", format!("{v} is outside 0.5 to 3"));
            return d;
        }
        v
    }

    /// A problem with the value of key `name` (in the map's table when `in_map`), located at
    /// the key and named by its path.
    fn problem(&mut self, in_map: bool, name: &str, what: String) {
        let key = self.key_in(in_map, name);
        let segs: Vec<&str> = key.iter().map(String::as_str).collect();
        let msg = format!("{}: {what}", segs.join("."));
        self.diags.push((self.at)(&segs, msg));
    }

    /// The key path of `name`, under `maps.<id>` when the map's table set it.
    fn key_in(&self, in_map: bool, name: &str) -> Vec<String> {
        if in_map {
            vec!["maps".into(), self.game.map.into(), name.into()]
        } else {
            vec![name.into()]
        }
    }

    fn pick(&mut self, name: &str, base: &Option<String>, over: &Option<String>, d: Rgba) -> Rgba {
        match map_over_base(base.as_ref(), over.as_ref()) {
            Some((in_map, c)) => self.color(&self.key_in(in_map, name), None, c),
            None => d,
        }
    }

    /// One of `choices` by name (the map's over the base's), or `d`; an unknown name is an
    /// error at its key that lists the choices (so the file's other problems show too).
    fn choice<T: Copy>(
        &mut self,
        name: &str,
        base: Option<String>,
        over: Option<String>,
        choices: &[(&str, T)],
        d: T,
    ) -> T {
        let Some((in_map, text)) = map_over_base(base, over) else {
            return d;
        };
        if let Some((_, v)) = choices.iter().find(|(n, _)| *n == text) {
            return *v;
        }
        let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
        self.problem(in_map, name, not_one_of(&text, &names));
        d
    }

    /// Base entries, then the map's entries over them.
    fn table(
        &mut self,
        name: &str,
        base: Option<BTreeMap<String, String>>,
        over: Option<BTreeMap<String, String>>,
    ) -> BTreeMap<String, Rgba> {
        let mut out = BTreeMap::new();
        for (in_map, t) in [(false, base), (true, over)] {
            for (k, c) in t.unwrap_or_default() {
                let mut key = self.key_in(in_map, name);
                key.push(k.clone());
                self.named(name, &key, &k);
                let rgba = self.color(&key, None, &c);
                out.insert(k, rgba);
            }
        }
        out
    }

    /// An error at `key` when `k`, a key of `[kinds]` or `[groups]`, names no space kind or
    /// group of the game: its colour would colour nothing.
    fn named(&mut self, table: &str, key: &[String], k: &str) {
        let Some(names) = &self.game.names else {
            return;
        };
        let (known, what) = match table {
            "kinds" => (&names.kinds, "space kind"),
            _ => (&names.groups, "space group"),
        };
        if known.iter().any(|n| n == k) {
            return;
        }
        let hint = crate::diag::hint(k, known.iter().map(String::as_str));
        let listed = match known.is_empty() {
            true => "none".to_string(),
            false => known.join(", "),
        };
        let msg = format!("no {what} '{k}' in the game (its files name: {listed}){hint}");
        let segs: Vec<&str> = key.iter().map(String::as_str).collect();
        self.diags.push((self.at)(&segs, msg));
    }

    fn color(&mut self, key: &[String], index: Option<usize>, text: &str) -> Rgba {
        match parse_color(text) {
            Some(c) => c,
            None => {
                let segs: Vec<&str> = key.iter().map(|s| s.as_str()).collect();
                let shown = match index {
                    Some(i) => format!("{} entry {}", segs.join("."), i + 1),
                    None => segs.join("."),
                };
                self.diags.push((self.at)(
                    &segs,
                    format!("{shown}: '{text}' is not a colour (expected #rrggbb or #rrggbbaa)"),
                ));
                Rgba([0xff, 0x00, 0xff, 0xff])
            }
        }
    }
}

/// The map's value over the base's, with whether it is the map's.
fn map_over_base<T>(base: Option<T>, over: Option<T>) -> Option<(bool, T)> {
    match over {
        Some(v) => Some((true, v)),
        None => base.map(|v| (false, v)),
    }
}

/// Why the default seat colours cannot serve a game of up to `seats` players, if they cannot.
fn too_few_defaults(seats: usize) -> Option<String> {
    (seats > DEFAULT_SEATS.len()).then(|| {
        format!(
            "the {} default seat colours do not cover up to {seats} players: give seat_colors, one per seat",
            DEFAULT_SEATS.len()
        )
    })
}

/// `#rrggbb` or `#rrggbbaa`.
pub fn parse_color(text: &str) -> Option<Rgba> {
    let hex = text.strip_prefix('#')?;
    if !(hex.len() == 6 || hex.len() == 8) || !hex.is_ascii() {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    let alpha = if hex.len() == 8 { byte(6)? } else { 0xff };
    Some(Rgba([byte(0)?, byte(2)?, byte(4)?, alpha]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game of maps demo and classic, up to `seats` players, in a folder that is not there.
    fn game(map: &str, seats: usize) -> StyleFor<'_> {
        StyleFor {
            map,
            maps: vec!["classic", "demo"],
            seats,
            root: Path::new("/no/such/game"),
            names: None,
        }
    }

    #[test]
    fn unknown_keys_maps_scales_and_images_show_beside_the_files_other_problems() {
        let text = "backgrund = \"#000000\"\nboard = \"#zz0000\"\ntext_scale = 9\n\
                    image = \"nope.png\"\n[maps.demo]\ntext_scale = 2\n[maps.clasic]\n\
                    board = \"#000000\"\n";
        let diags = parse_style("s.toml", text, &game("demo", 2)).unwrap_err();
        let shown: Vec<_> = diags.iter().map(|d| d.to_string()).collect();
        assert_eq!(
            shown,
            [
                "s.toml:1:1: error: unknown key 'backgrund'; did you mean 'background'?",
                "s.toml:2:1: error: board: '#zz0000' is not a colour (expected #rrggbb or #rrggbbaa)",
                "s.toml:4:1: error: image: no file 'nope.png' in the game folder or the shared assets/",
                "s.toml:7:7: error: maps.clasic: the game has no map 'clasic' (its maps: classic, demo); did you mean 'classic'?",
            ]
        );
        // (The base's text_scale = 9 above is not an error: the map's own replaces it.)
        let scale = parse_style("s.toml", "text_scale = 9\n", &game("demo", 2)).unwrap_err();
        assert_eq!(
            scale[0].to_string(),
            "s.toml:1:1: error: text_scale: 9 is outside 0.5 to 3"
        );
        let ok = parse_style("s.toml", "text_scale = 1.5\n", &game("demo", 2)).unwrap();
        assert_eq!(ok.text_scale, 1.5);
        let outside = parse_style("s.toml", "image = \"../../etc/hosts\"\n", &game("demo", 2));
        assert!(outside.is_err(), "a path out of the folders");
        let shared = parse_style(
            "s.toml",
            "image = \"fonts/wqy-microhei.LICENSE\"\n",
            &game("demo", 2),
        );
        assert_eq!(
            shared.unwrap().image.as_deref(),
            Some("fonts/wqy-microhei.LICENSE")
        );
    }

    #[test]
    fn maps_override_the_base_and_colours_are_checked() {
        let text = "board = \"#102030\"\ncurrency = \"¥\"\n[groups]\nnorth = \"#ff0000\"\n\
                    [maps.classic]\ncurrency = \"$\"\nboard = \"#00000080\"\n";
        let demo = parse_style("s.toml", text, &game("demo", 2)).unwrap();
        assert_eq!(demo.board, Rgba([0x10, 0x20, 0x30, 0xff]));
        assert_eq!(demo.currency, "¥");
        assert_eq!(demo.groups["north"], Rgba([0xff, 0, 0, 0xff]));
        let classic = parse_style("s.toml", text, &game("classic", 2)).unwrap();
        assert_eq!(classic.board, Rgba([0, 0, 0, 0x80]));
        assert_eq!(classic.currency, "$");
    }

    #[test]
    fn bad_colours_and_unknown_keys_are_located() {
        let text = "board = \"green\"\n[maps.demo]\nlines = \"#000000\"\n";
        let diags = parse_style("s.toml", text, &game("demo", 2)).unwrap_err();
        assert_eq!(diags.len(), 2, "{diags:?}");
        assert!(diags[0].message.contains("'green'"), "{:?}", diags[0]);
        assert!(diags[1].message.contains("lines"), "{:?}", diags[1]);
        let diags = parse_style("s.toml", "board = \"green\"\n", &game("demo", 2)).unwrap_err();
        assert_eq!((diags[0].line, diags[0].col), (Some(1), Some(1)));
        assert!(diags[0].message.contains("'green' is not a colour"));
        let seats = "seat_colors = [\"#ff0000\", \"#zzz\"]\n";
        let diags = parse_style("s.toml", seats, &game("demo", 2)).unwrap_err();
        assert_eq!(
            diags[0].message,
            "seat_colors entry 2: '#zzz' is not a colour (expected #rrggbb or #rrggbbaa)"
        );
    }

    #[test]
    fn an_unknown_choice_is_located_and_the_files_other_problems_show_too() {
        let text = "grid = \"cels\"\nline = \"#3b2a1\"\n[maps.demo]\npieces = \"stone\"\n";
        let diags = parse_style("s.toml", text, &game("demo", 2)).unwrap_err();
        let shown: Vec<_> = diags.iter().map(|d| (d.line, d.message.as_str())).collect();
        assert_eq!(
            shown,
            [
                (
                    Some(1),
                    "grid: 'cels' is not one of: points, cells; did you mean 'cells'?"
                ),
                (
                    Some(2),
                    "line: '#3b2a1' is not a colour (expected #rrggbb or #rrggbbaa)"
                ),
                (
                    Some(4),
                    "maps.demo.pieces: 'stone' is not one of: stones, marks; did you mean 'stones'?"
                ),
            ]
        );
        let ok = parse_style(
            "s.toml",
            "grid = \"cells\"\npieces = \"marks\"\n",
            &game("demo", 2),
        );
        let style = ok.unwrap();
        assert_eq!(
            (style.grid, style.pieces),
            (GridPlace::Cells, Pieces::Marks)
        );
    }

    /// Every seat the game takes needs a colour of its own, in the base style or a map's.
    #[test]
    fn too_few_seat_colours_for_the_players_are_an_error_at_the_list() {
        let text = "board = \"#102030\"\nseat_colors = [\"#ff0000\", \"#0000ff\"]\n";
        assert!(parse_style("s.toml", text, &game("demo", 2)).is_ok());
        let diags = parse_style("s.toml", text, &game("demo", 4)).unwrap_err();
        assert_eq!(
            diags.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
            [
                "s.toml:2:1: error: seat_colors lists 2 colours for up to 4 players: give one per \
              seat (seats 3 to 4 would repeat the colours of seats 1 to 2)"
            ]
        );
        let in_map = "[maps.demo]\nseat_colors = [\"#ff0000\"]\n";
        let diags = parse_style("s.toml", in_map, &game("demo", 2)).unwrap_err();
        assert_eq!(
            diags[0].to_string(),
            "s.toml:2:1: error: seat_colors lists 1 colour for up to 2 players: give one per seat \
             (seat 2 would repeat the colour of seat 1)"
        );
        assert!(
            parse_style("s.toml", in_map, &game("classic", 6)).is_ok(),
            "the default colours"
        );
        let plain = parse_style("s.toml", "board = \"#102030\"\n", &game("demo", 8)).unwrap_err();
        assert_eq!(
            plain[0].to_string(),
            "s.toml: error: the 6 default seat colours do not cover up to 8 players: give \
             seat_colors, one per seat"
        );
        // A game without a style file: its players' count is what to change.
        let none = load_style("g", &game("demo", 8)).unwrap_err();
        assert_eq!(
            none[0].to_string(),
            "g/game.toml: error: players.max is 8, but the 6 default seat colours do not cover \
             up to 8 players: give seat_colors, one per seat, in a style.toml"
        );
    }

    /// A style for a deck of four cards, A and K in ♠ and ♥, with their suits as a field.
    fn deck(text: &str, map: &str) -> Result<Style, Vec<Diagnostic>> {
        let items = crate::def::items::Items {
            names: ["A♠", "K♠", "A♥", "K♥"].map(String::from).to_vec(),
            labels: Vec::new(),
            fields: vec!["suit".into()],
            values: ["♠", "♠", "♥", "♥"]
                .map(|s| vec![toml::Value::from(s)])
                .to_vec(),
        };
        let names = Names {
            kinds: Vec::new(),
            groups: Vec::new(),
            items,
        };
        let game = StyleFor {
            names: Some(names),
            ..game(map, 2)
        };
        parse_style("s.toml", text, &game)
    }

    #[test]
    fn items_are_coloured_by_one_field_and_a_map_may_colour_them_its_own_way() {
        let text = "[item_colors.suit]\n\"♥\" = \"#c00000\"\n\
                    [maps.classic.item_colors.name]\n\"A♠\" = \"#0000ff\"\n";
        let red = Some(Rgba([0xc0, 0, 0, 0xff]));
        assert_eq!(
            deck(text, "demo").unwrap().item_colors,
            [None, None, red, red]
        );
        let blue = Some(Rgba([0, 0, 0xff, 0xff]));
        let classic = deck(text, "classic").unwrap();
        assert_eq!(classic.item_colors, [blue, None, None, None]);
        assert_eq!((classic.item_color(0), classic.item_color(9)), (blue, None));
    }

    #[test]
    fn an_item_colour_for_no_field_or_value_is_located_with_the_one_meant() {
        let shown = |text: &str| -> Vec<String> {
            let diags = deck(text, "demo").unwrap_err();
            diags.iter().map(|d| d.to_string()).collect()
        };
        assert_eq!(
            shown("[item_colors.siut]\n\"♥\" = \"#c00000\"\n"),
            ["s.toml:1:14: error: item_colors.siut: the items have no field 'siut' (they have: name, suit); did you mean 'suit'?"]
        );
        assert_eq!(
            shown("[item_colors.suit]\n\"♤\" = \"red\"\n[item_colors.name]\n"),
            [
                "s.toml:1:2: error: item_colors: colour the items by one field, not by name and suit",
                "s.toml:2:1: error: item_colors.suit.♤: no item has suit '♤' (its values: ♠, ♥); did you mean '♠'?",
                "s.toml:2:1: error: item_colors.suit.♤: 'red' is not a colour (expected #rrggbb or #rrggbbaa)",
            ]
        );
    }

    #[test]
    fn a_checkered_board_needs_cells() {
        let cells = parse_style(
            "s.toml",
            "grid = \"cells\"\ncheckered = \"#769656\"\n",
            &game("demo", 2),
        );
        assert_eq!(
            cells.unwrap().checkered,
            Some(Rgba([0x76, 0x96, 0x56, 0xff]))
        );
        let diags =
            parse_style("s.toml", "checkered = \"#769656\"\n", &game("demo", 2)).unwrap_err();
        let shown: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
        assert_eq!(
            shown,
            ["s.toml:1:1: error: checkered: colours every other cell: it needs grid = \"cells\" (pieces on the points have no cells)"]
        );
    }
}
