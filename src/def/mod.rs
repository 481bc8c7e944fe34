//! Game packages: a folder of TOML (manifest, maps, decks) and Lua files, read and validated
//! into a `Package`. The only layer that parses files. Every problem in the file set is
//! collected and returned sorted by file and line.

pub mod board;
pub mod cards;
pub mod data;
pub mod files;
pub mod folder;
pub mod items;
pub mod manifest;
pub mod scripts;
pub mod settings;
pub mod shared;
pub mod source;
pub mod style;

use crate::core::flow::Flow;
use crate::core::meld::Shapes;
use crate::core::zone::ZoneSpec;
use crate::diag::{self, Diagnostic};
use board::{Board, MapDef, Space};
use cards::{Card, Deck, DeckFileDef};
use manifest::ManifestDef;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// A place in a file, for diagnostics raised after parsing (e.g. by the script layer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loc {
    pub path: String,
    pub line: usize,
    pub col: usize,
}

impl Loc {
    pub fn error(&self, message: impl Into<String>) -> Diagnostic {
        Diagnostic::error(&self.path, message).at(self.line, self.col)
    }

    pub fn warning(&self, message: impl Into<String>) -> Diagnostic {
        Diagnostic::warning(&self.path, message).at(self.line, self.col)
    }
}

/// A loaded, validated game.
#[derive(Clone, Debug)]
pub struct Package {
    /// The game folder on disk.
    pub root: PathBuf,
    /// The game folder as shown in messages and Lua chunk names.
    pub shown: String,
    pub id: String,
    pub title: String,
    pub version: String,
    pub players: (usize, usize),
    pub rules_file: String,
    pub ai_file: Option<String>,
    pub space_kinds: Vec<String>,
    pub counters: Vec<String>,
    pub flow: Flow,
    /// Piles of items with a visibility, in the order game.toml lists them.
    pub zones: Vec<ZoneSpec>,
    /// The item codes: their names and fields.
    pub items: items::Items,
    pub melds: Option<Shapes>,
    pub settings: toml::Table,
    /// The values a setting may take, where game.toml lists them (`[choices]`).
    pub choices: settings::Choices,
    /// `undo` may take back a decision that showed a seat a hidden item (game.toml).
    pub undo_past_reveals: bool,
    pub maps: BTreeMap<String, Board>,
    pub default_map: String,
    /// Hash of every file in the folder: identifies the exact rules a replay was made with.
    pub files_hash: String,
    /// The Lua the game runs, as read with the package.
    pub scripts: scripts::Scripts,
    /// The text of game.toml, as read with the package.
    manifest: String,
    /// What is odd but does not stop the game (a state nothing reaches), sorted.
    pub warnings: Vec<Diagnostic>,
}

/// Whether `id` can name a game: letters, digits, `_` and `-`, at least one.
pub fn is_game_id(id: &str) -> bool {
    !id.is_empty() && (id.chars()).all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// The name of item `code` among `items` (its number when the game names none).
pub fn item_name(items: &[String], code: i64) -> String {
    usize::try_from(code)
        .ok()
        .and_then(|c| items.get(c).cloned())
        .unwrap_or_else(|| code.to_string())
}

impl Package {
    /// Whether the game keeps piles some seat cannot see (any zone but a public one): what
    /// the log and reports say then must not tell what a hand holds.
    pub fn hides_piles(&self) -> bool {
        (self.zones.iter()).any(|z| z.visibility != crate::core::zone::Visibility::Public)
    }

    /// The name of an item code from `items`.
    pub fn item_name(&self, code: i64) -> String {
        item_name(&self.items.names, code)
    }

    /// How an item code is shown: its `label`, or its name.
    pub fn item_label(&self, code: i64) -> String {
        item_name(&self.items.labels, code)
    }

    pub fn file(&self, rel: &str) -> String {
        format!("{}/{rel}", self.shown)
    }

    /// The text of the game's `game.toml`, as the package was read from it.
    pub fn manifest_text(&self) -> &str {
        &self.manifest
    }

    /// The player counts the game takes, as a message says them: "2" or "2 to 6".
    pub fn player_counts(&self) -> String {
        match self.players {
            (min, max) if min == max => format!("{min}"),
            (min, max) => format!("{min} to {max}"),
        }
    }

    pub fn map(&self, name: Option<&str>) -> Result<&Board, String> {
        let name = name.unwrap_or(&self.default_map);
        self.maps.get(name).ok_or_else(|| {
            let names: Vec<&str> = self.maps.keys().map(|s| s.as_str()).collect();
            let hint = crate::diag::hint(name, names.iter().copied());
            format!(
                "game '{}' has no map '{name}'{hint} (maps: {})",
                self.id,
                names.join(", ")
            )
        })
    }
}

/// The folder of game `name`: a path to a game folder (or to its game.toml), else a game id
/// looked for here, in `games/` and in the meeple source tree's `games/`. An id not found is
/// answered with the nearest known one and every game there is.
pub fn find_game(name: &str) -> Result<PathBuf, String> {
    let given = Path::new(name);
    let folder = match given.file_name().is_some_and(|f| f == "game.toml") {
        true => (given.parent())
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new(".")),
        false => given,
    };
    let manifest = folder.join("game.toml");
    if manifest.is_file() {
        return Ok(folder.to_path_buf());
    }
    if name.contains(['/', std::path::MAIN_SEPARATOR]) || name.starts_with('.') {
        return Err(format!(
            "no game at '{name}' ({} is not there)",
            manifest.display()
        ));
    }
    let [here, source] = games_folders();
    let candidates = [here.join(name), source.join(name)];
    if let Some(found) = candidates.iter().find(|c| c.join("game.toml").is_file()) {
        return Ok(found.clone());
    }
    let mut looked = vec![given.join("game.toml").display().to_string()];
    looked.extend(
        candidates
            .iter()
            .map(|c| c.join("game.toml").display().to_string()),
    );
    looked.dedup();
    let last = looked.pop().unwrap_or_default();
    let ids = game_ids(&[here, source]);
    let hint = crate::diag::hint(name, ids.iter().map(|s| s.as_str()));
    let known = match ids.is_empty() {
        true => String::new(),
        false => format!("; games: {}", ids.join(", ")),
    };
    Err(format!(
        "no game '{name}'{hint} (looked for {} and {last}{known})",
        looked.join(", ")
    ))
}

/// The ids (folder names) of the games in `folders`, sorted, each once.
fn game_ids(folders: &[PathBuf]) -> Vec<String> {
    let mut ids: Vec<String> = (folders.iter())
        .flat_map(|f| std::fs::read_dir(f).into_iter().flatten().flatten())
        .filter(|e| e.path().join("game.toml").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

/// Where games are looked for by id: `games/` here, then the meeple source tree's.
fn games_folders() -> [PathBuf; 2] {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    [PathBuf::from("games"), source]
}

/// Whether a game `id` under `games/` here hides the shipped game of that id (in the meeple
/// source tree's `games/`).
pub fn hides_shipped_game(id: &str) -> bool {
    let [here, source] = games_folders();
    let (mine, shipped) = (here.join(id), source.join(id));
    let same = mine.canonicalize().ok() == shipped.canonicalize().ok();
    mine.join("game.toml").is_file() && shipped.join("game.toml").is_file() && !same
}

/// Every game folder (one with a `game.toml`) under `games/` here, or else under the meeple
/// source tree's, sorted.
pub fn all_games() -> Vec<PathBuf> {
    let [here, source] = games_folders();
    let root = if here.is_dir() { here } else { source };
    let mut out: Vec<PathBuf> = (std::fs::read_dir(&root).into_iter().flatten().flatten())
        .map(|e| e.path())
        .filter(|p| p.join("game.toml").is_file())
        .collect();
    out.sort();
    out
}

/// How a path is shown: relative to the current directory when it is below it.
pub fn shown_path(path: &Path) -> String {
    let cwd = std::env::current_dir().ok();
    let abs = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    match cwd.as_ref().and_then(|c| abs.strip_prefix(c).ok()) {
        // The current directory itself, so that its files read `./rules.lua`.
        Some(rel) if rel.as_os_str().is_empty() => ".".to_string(),
        Some(rel) => rel.display().to_string(),
        None => path.display().to_string(),
    }
}

/// Reads and validates the game in `root`; every problem found, sorted, on failure.
pub fn load_package(root: &Path) -> Result<Package, Vec<Diagnostic>> {
    let shown = shown_path(root);
    let files = files::Files::read(root, &shown);
    let mut diags = Vec::new();
    let manifest_path = format!("{shown}/game.toml");
    let text = read(&files, "game.toml", &mut diags);
    let def: Option<ManifestDef> = text
        .as_deref()
        .and_then(|t| source::parse_toml(&manifest_path, t, manifest::SCHEMA, &mut diags));
    let Some(text) = text else {
        return Err(diags);
    };
    let loc = |offset: usize| at(&manifest_path, &text, offset);
    let key_loc = |segs: &[&str]| source::key_position(&text, segs).map(&loc);
    let declared = |key: &str| key_loc(&["settings", key]);
    let Some(mut def) = def else {
        // The maps and decks are still checked, against what of the manifest could be read;
        // when nothing of it can be, each other TOML file for its syntax.
        let Some(parts) = manifest::ManifestParts::read(&text) else {
            for rel in files.toml().filter(|rel| *rel != "game.toml") {
                let Some(other) = read(&files, rel, &mut diags) else {
                    continue;
                };
                if let Err(e) = toml::Deserializer::parse(&other) {
                    diags.push(source::toml_error(&files.shown(rel), &other, None, &e));
                }
            }
            diag::sort(&mut diags);
            return Err(diags);
        };
        if let (Some(min), Some(max)) = (parts.players.min, parts.players.max) {
            check_players(min, max, &key_loc, &manifest_path, &mut diags);
        }
        load_maps(
            &files,
            &shown,
            &parts.decks,
            &parts.maps,
            &parts.space_kinds,
            (&parts.settings, &declared, &settings::Choices::new()),
            &loc,
            &mut diags,
        );
        diag::sort(&mut diags);
        return Err(diags);
    };
    // An `ai.lua` beside the rules is the AI script unless game.toml names another.
    if def.ai.is_none() && files.exists("ai.lua") {
        def.ai = Some(toml::Spanned::new(0..0, "ai.lua".to_string()));
    }
    if *def.api.get_ref() != 1 {
        diags.push(loc(def.api.span().start).error(format!(
            "unsupported api version {} (this meeple speaks api 1)",
            def.api.get_ref()
        )));
    }
    check_players(
        def.players.min,
        def.players.max,
        &key_loc,
        &manifest_path,
        &mut diags,
    );
    let flow = manifest::check_flow(&def.flow, &loc, &key_loc, &mut diags);
    let mut warnings = manifest::flow_warnings(&flow, &key_loc, &manifest_path);
    if !is_game_id(def.id.get_ref()) {
        diags.push(loc(def.id.span().start).error(format!(
            "'{}' is not a game id: use letters, digits, '_' and '-' (saves and replays name \
             the game by it)",
            def.id.get_ref()
        )));
    }
    if def.title.trim().is_empty() {
        let msg = "the title is empty: the terminal and the window show the game by its title";
        warnings.push(match key_loc(&["title"]) {
            Some(l) => l.warning(msg),
            None => Diagnostic::warning(&manifest_path, msg),
        });
    }
    let items_loc = |segs: &[&str]| {
        (0..=segs.len())
            .rev()
            .find_map(|n| key_loc(&segs[..n]))
            .unwrap_or_else(|| loc(0))
    };
    let all = toml::Value::Table(def.settings.clone());
    for (path, shown) in settings::not_finite(&all) {
        let mut segs = vec!["settings"];
        segs.extend(path.iter().map(String::as_str));
        diags.push(items_loc(&segs).error(format!(
            "setting '{}' is not a finite number: rules can neither compare nor show it",
            &shown[1..]
        )));
    }
    if let Some(e) = settings::bad_round_cap(&def.settings) {
        diags.push(items_loc(&["settings", "round_cap"]).error(e));
    }
    let choices = settings::check_choices(&def.choices, &def.settings, &items_loc, &mut diags);
    let items = items::check_items(def.items.as_ref(), &items_loc, &mut diags);
    let zones = manifest::check_zones(&def.zones, def.melds.is_some(), &loc, &mut diags);
    let melds = def
        .melds
        .as_ref()
        .map(|m| manifest::check_melds(m, &loc, &mut diags));
    for file in [Some(&def.rules), def.ai.as_ref()].into_iter().flatten() {
        if !files.exists(file.get_ref()) {
            diags.push(loc(file.span().start).error(files.not_found("script", file.get_ref())));
        }
    }
    let (maps, default_map) = load_maps(
        &files,
        &shown,
        &def.decks,
        &def.maps,
        &def.space_kinds,
        (&def.settings, &declared, &choices),
        &loc,
        &mut diags,
    );
    // The decks' warnings, said once though a deck several maps share is read for each; beside
    // the errors when there are any (a slip in a card's data may be their cause).
    diag::sort(&mut diags);
    diags.dedup();
    if diags.iter().all(|d| d.severity == diag::Severity::Warning) {
        warnings.append(&mut diags);
    }
    if def.maps.keys().all(|k| k == "default") {
        let msg = "no map is listed in [maps]: every game is played on one (a game without a \
                   board lists a map whose kind is \"table\")";
        diags.push(key_loc(&["maps"]).unwrap_or_else(|| loc(0)).error(msg));
    }
    if !diags.is_empty() {
        diag::sort(&mut diags);
        return Err(diags);
    }
    let named = [
        Some(def.rules.get_ref()),
        def.ai.as_ref().map(|a| a.get_ref()),
    ];
    let named: Vec<&str> = named.into_iter().flatten().map(String::as_str).collect();
    let scripts = scripts::Scripts::read(&files, &named);
    Ok(Package {
        root: root.to_path_buf(),
        files_hash: hash(&files, &scripts),
        scripts,
        manifest: text,
        warnings,
        shown,
        id: def.id.into_inner(),
        title: def.title,
        version: def.version,
        players: (def.players.min, def.players.max),
        rules_file: def.rules.into_inner(),
        ai_file: def.ai.map(|a| a.into_inner()),
        space_kinds: def.space_kinds,
        counters: def.counters,
        flow,
        zones,
        items,
        melds,
        settings: def.settings,
        choices,
        undo_past_reveals: def.undo_past_reveals,
        maps,
        default_map,
    })
}

/// An error at `players` when its counts cannot be: no player, or fewer at most than at least.
fn check_players(
    min: usize,
    max: usize,
    key_loc: &dyn Fn(&[&str]) -> Option<Loc>,
    manifest_path: &str,
    diags: &mut Vec<Diagnostic>,
) {
    if min != 0 && min <= max {
        return;
    }
    let (key, why) = match min {
        0 => ("min", "a game needs at least 1 player".to_string()),
        _ => ("max", format!("max is {max}, below min {min}")),
    };
    let msg = format!("bad player counts: {why}");
    diags.push(match key_loc(&["players", key]) {
        Some(at) => at.error(msg),
        None => Diagnostic::error(manifest_path, msg),
    });
}

/// The game's settings, where game.toml declares each one, and the values some may take.
type GameSettings<'a> = (
    &'a toml::Table,
    &'a dyn Fn(&str) -> Option<Loc>,
    &'a settings::Choices,
);

/// The maps listed in `[maps]`, each with the shared decks and its own, and the default map's
/// name; every problem of their files pushed on `diags`.
#[allow(clippy::too_many_arguments)]
fn load_maps(
    files: &files::Files,
    shown: &str,
    deck_files: &[toml::Spanned<String>],
    listed: &BTreeMap<String, toml::Spanned<String>>,
    kinds: &[String],
    settings: GameSettings,
    loc: &dyn Fn(usize) -> Loc,
    diags: &mut Vec<Diagnostic>,
) -> (BTreeMap<String, Board>, String) {
    let shared_decks: Vec<Deck> = deck_files
        .iter()
        .flat_map(|d| load_decks(files, shown, d, settings.0, loc, diags))
        .collect();
    let mut maps = BTreeMap::new();
    let mut default_map = None;
    for (name, file) in listed {
        if name == "default" {
            default_map = Some(file.clone());
            continue;
        }
        let board = load_board(
            files,
            shown,
            name,
            file,
            kinds,
            &shared_decks,
            settings,
            loc,
            diags,
        );
        if let Some(board) = board {
            maps.insert(name.clone(), board);
        }
    }
    let default_map = match default_map {
        Some(d) if !listed.contains_key(d.get_ref()) => {
            let names = listed
                .keys()
                .filter(|k| *k != "default")
                .map(|k| k.as_str());
            diags.push(loc(d.span().start).error(format!(
                "default map '{}' is not listed in [maps]{}",
                d.get_ref(),
                diag::hint(d.get_ref(), names)
            )));
            String::new()
        }
        Some(d) => d.get_ref().clone(),
        None => maps.keys().next().cloned().unwrap_or_default(),
    };
    (maps, default_map)
}

fn at(path: &str, text: &str, offset: usize) -> Loc {
    let (line, col) = diag::line_col(text, offset);
    Loc {
        path: path.to_string(),
        line,
        col,
    }
}

fn read(files: &files::Files, rel: &str, diags: &mut Vec<Diagnostic>) -> Option<String> {
    files.text(rel).map_err(|d| diags.push(d)).ok()
}

#[allow(clippy::too_many_arguments)]
fn load_board(
    files: &files::Files,
    shown: &str,
    name: &str,
    file: &toml::Spanned<String>,
    kinds: &[String],
    shared: &[Deck],
    (game_settings, declared, choices): GameSettings,
    manifest_loc: &dyn Fn(usize) -> Loc,
    diags: &mut Vec<Diagnostic>,
) -> Option<Board> {
    let path = format!("{shown}/{}", file.get_ref());
    if !files.exists(file.get_ref()) {
        diags.push(manifest_loc(file.span().start).error(files.not_found("map", file.get_ref())));
        return None;
    }
    let text = read(files, file.get_ref(), diags)?;
    let def: MapDef = source::parse_toml(&path, &text, board::SCHEMA, diags)?;
    let loc = |offset: usize| at(&path, &text, offset);
    let mut seen = HashMap::new();
    let mut spaces = Vec::new();
    let grid = check_grid(&def, &loc, diags);
    let ids: Vec<&str> = def.spaces.iter().map(|s| s.id.get_ref().as_str()).collect();
    let jumps: Vec<Option<usize>> = (def.spaces.iter())
        .map(|s| jump_of(s, &ids, &loc, diags))
        .collect();
    let space_locs: Vec<Loc> = def.spaces.iter().map(|s| loc(s.id.span().start)).collect();
    for ((s, jump), at) in def.spaces.into_iter().zip(jumps).zip(&space_locs) {
        if s.id.get_ref().trim().is_empty() {
            diags.push(at.clone().error("a space id must not be empty"));
        } else if let Some(first) = seen.get(s.id.get_ref()) {
            diags.push(at.clone().error(format!(
                "duplicate space id '{}' (its first space is at line {first})",
                s.id.get_ref()
            )));
        } else {
            seen.insert(s.id.get_ref().clone(), at.line);
        }
        if !kinds.is_empty() && !kinds.contains(s.kind.get_ref()) {
            let hint = diag::hint(s.kind.get_ref(), kinds.iter().map(|k| k.as_str()));
            diags.push(loc(s.kind.span().start).error(format!(
                "unknown space kind '{}' (expected: {}){hint}",
                s.kind.get_ref(),
                kinds.join(", ")
            )));
        }
        reserved_data(&s.data, SPACE_FIELDS, "a space", at.clone(), diags);
        spaces.push(Space {
            id: s.id.into_inner(),
            name: s.name,
            kind: s.kind.into_inner(),
            group: s.group,
            jump,
            data: s.data,
        });
    }
    // A kind of space takes the same data on every space of it.
    let rows: Vec<data::Row> = (spaces.iter().zip(&space_locs))
        .map(|(sp, at): (&Space, &Loc)| data::Row {
            what: format!("space '{}'", sp.id),
            class: format!("kind '{}'", sp.kind),
            data: &sp.data,
            at: at.clone(),
        })
        .collect();
    diags.extend(data::odd_data(&rows, "space"));
    let mut decks: Vec<Deck> = shared.to_vec();
    for d in &def.decks {
        decks.extend(load_decks(files, shown, d, game_settings, &loc, diags));
    }
    let mut ids = HashSet::new();
    for d in &decks {
        if !ids.insert(d.id.clone()) {
            diags.push(Diagnostic::error(
                &path,
                format!("deck '{}' is defined twice for map '{name}'", d.id),
            ));
        }
    }
    // Where game.toml declares a setting: the mistake in an error about its value may be there.
    let declaration = |key: &str| {
        let (l, v) = (declared(key)?, game_settings.get(key)?);
        Some(format!(
            "{}:{}: the game declares '{key}' as {v}",
            l.path, l.line
        ))
    };
    let mut settings = game_settings.clone();
    let map_sets: HashSet<String> = def.settings.keys().cloned().collect();
    for (key, value) in def.settings {
        let shown = value.to_string();
        let applied = settings::apply_value(&mut settings, &key, value, &shown).and_then(|_| {
            let off = (choices.get(&key).zip(settings.get(&key)))
                .and_then(|(values, v)| settings::off_choice(&key, v, values));
            off.map_or(Ok(()), Err)
        });
        if let Err(e) = applied {
            let offset = source::key_position(&text, &["settings", &key]).unwrap_or(0);
            let d = loc(offset).error(e);
            diags.push(declaration(&key).into_iter().fold(d, Diagnostic::note));
        }
    }
    if let Some(e) = (map_sets.contains("round_cap"))
        .then(|| settings::bad_round_cap(&settings))
        .flatten()
    {
        let offset = source::key_position(&text, &["settings", "round_cap"]).unwrap_or(0);
        diags.push(loc(offset).error(e));
    }
    if let Some((rows, cols)) = &grid {
        // A square grid names one setting twice: one error says it.
        let sides = [(rows, &def.rows), (cols, &def.cols)];
        for (dim, field) in sides.into_iter().take(if rows == cols { 1 } else { 2 }) {
            if let Err(e) = dim.resolve(&settings) {
                let at = field.as_ref().map(|f| f.span().start).unwrap_or(0);
                let d = loc(at).error(e);
                let note = match dim {
                    board::Dim::Setting(key) if !map_sets.contains(key) => declaration(key),
                    _ => None,
                };
                diags.push(note.into_iter().fold(d, Diagnostic::note));
            }
        }
    }
    Some(Board {
        id: name.to_string(),
        name: def.name,
        path,
        spaces,
        decks,
        grid,
        kind: def
            .kind
            .as_ref()
            .map_or("track", |k| k.get_ref().as_str())
            .to_string(),
        settings,
        looped: def.looped.as_ref().is_none_or(|l| *l.get_ref()),
    })
}

/// The index of the space `s.jump` names among `ids`, or an error at the name.
fn jump_of(
    s: &board::SpaceDef,
    ids: &[&str],
    loc: &dyn Fn(usize) -> Loc,
    diags: &mut Vec<Diagnostic>,
) -> Option<usize> {
    let to = s.jump.as_ref()?;
    let found = ids.iter().position(|id| id == to.get_ref());
    let problem = match found {
        Some(i) if ids[i] == s.id.get_ref() => "a space cannot jump to itself".to_string(),
        Some(i) => return Some(i),
        None => format!(
            "space '{}' jumps to '{}', which is no space of this map{}",
            s.id.get_ref(),
            to.get_ref(),
            diag::hint(to.get_ref(), ids.iter().copied())
        ),
    };
    diags.push(loc(to.span().start).error(problem));
    None
}

/// A grid map needs rows and cols (numbers or integer settings) and no spaces.
fn check_grid(
    def: &MapDef,
    loc: &dyn Fn(usize) -> Loc,
    diags: &mut Vec<Diagnostic>,
) -> Option<(board::Dim, board::Dim)> {
    let kind = def
        .kind
        .as_ref()
        .map(|k| k.get_ref().as_str())
        .unwrap_or("track");
    if let (Some(looped), false) = (&def.looped, kind == "track") {
        diags.push(
            loc(looped.span().start)
                .error("loop is for track maps: whether the last space leads back to the first"),
        );
    }
    match kind {
        "track" => {
            for dim in [&def.rows, &def.cols].into_iter().flatten() {
                diags.push(
                    loc(dim.span().start)
                        .error("rows and cols are for grid maps (add kind = \"grid\")"),
                );
            }
            None
        }
        "table" => {
            if let Some(space) = def.spaces.first() {
                diags.push(loc(space.id.span().start).error("a table map has no [[spaces]]"));
            }
            for dim in [&def.rows, &def.cols].into_iter().flatten() {
                diags.push(loc(dim.span().start).error("rows and cols are for grid maps"));
            }
            None
        }
        "grid" => {
            if let Some(space) = def.spaces.first() {
                diags.push(loc(space.id.span().start).error("a grid map has no [[spaces]]"));
            }
            let dim = |d: &Option<toml::Spanned<board::Dim>>,
                       name: &str,
                       diags: &mut Vec<Diagnostic>| match d {
                Some(d) => Some(d.get_ref().clone()),
                None => {
                    let at = def.kind.as_ref().map(|k| k.span().start).unwrap_or(0);
                    diags.push(loc(at).error(format!(
                        "a grid map needs {name} (a number or the name of an integer setting)"
                    )));
                    None
                }
            };
            let (rows, cols) = (dim(&def.rows, "rows", diags), dim(&def.cols, "cols", diags));
            rows.zip(cols)
        }
        other => {
            let at = def.kind.as_ref().map(|k| k.span().start).unwrap_or(0);
            let kinds = ["track", "grid", "table"];
            diags.push(loc(at).error(format!("map kind {}", diag::not_one_of(other, &kinds))));
            None
        }
    }
}

/// The fields the runtime sets on a space's and a card's table in Lua, over its `data`.
const SPACE_FIELDS: &[&str] = &["id", "name", "kind", "group", "jump", "index"];
const CARD_FIELDS: &[&str] = &["id", "text", "effect", "deck", "index"];

/// An error at `at` for each `data` key that a field of the runtime's (`fields`) would hide.
fn reserved_data(
    data: &toml::Table,
    fields: &[&str],
    what: &str,
    at: Loc,
    diags: &mut Vec<Diagnostic>,
) {
    for key in data.keys().filter(|k| fields.contains(&k.as_str())) {
        diags.push(at.clone().error(format!(
            "data key '{key}' would be hidden: {what}'s table already has '{key}' (its fields: {}); give it another name",
            fields.join(", ")
        )));
    }
}

/// An error for each `{name}` in card `id`'s text that is neither one of its data fields nor
/// a setting, at the name (`at` gives the location of a byte offset in the text; exact unless
/// the string has escapes before the name).
fn text_names(
    text: &str,
    id: &str,
    data: &toml::Table,
    settings: &toml::Table,
    at: &dyn Fn(usize) -> Loc,
    diags: &mut Vec<Diagnostic>,
) {
    for (offset, name) in cards::placeholders(text) {
        if data.contains_key(name) || settings.contains_key(name) {
            continue;
        }
        let known = data.keys().chain(settings.keys()).map(|k| k.as_str());
        let hint = crate::diag::hint(name, known);
        diags.push(at(offset).error(format!(
            "card '{id}': its text names {{{name}}}, which is neither a data field of the card nor a setting{hint}"
        )));
    }
}

fn load_decks(
    files: &files::Files,
    shown: &str,
    file: &toml::Spanned<String>,
    settings: &toml::Table,
    from: &dyn Fn(usize) -> Loc,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Deck> {
    let path = format!("{shown}/{}", file.get_ref());
    if !files.exists(file.get_ref()) {
        diags.push(from(file.span().start).error(files.not_found("deck", file.get_ref())));
        return Vec::new();
    }
    let Some(text) = read(files, file.get_ref(), diags) else {
        return Vec::new();
    };
    let Some(def) = source::parse_toml::<DeckFileDef>(&path, &text, cards::SCHEMA, diags) else {
        return Vec::new();
    };
    let loc = |offset: usize| at(&path, &text, offset);
    let card_locs: Vec<Loc> = (def.decks.iter())
        .flat_map(|d| d.cards.iter().map(|c| loc(c.id.span().start)))
        .collect();
    let decks: Vec<Deck> = def
        .decks
        .into_iter()
        .map(|d| {
            let mut seen = HashSet::new();
            let cards: Vec<Card> = d
                .cards
                .into_iter()
                .map(|c| {
                    if c.id.get_ref().trim().is_empty() {
                        diags.push(loc(c.id.span().start).error("a card id must not be empty"));
                    } else if !seen.insert(c.id.get_ref().clone()) {
                        diags.push(
                            loc(c.id.span().start)
                                .error(format!("duplicate card id '{}'", c.id.get_ref())),
                        );
                    }
                    reserved_data(
                        &c.data,
                        CARD_FIELDS,
                        "a card",
                        loc(c.id.span().start),
                        diags,
                    );
                    if let Some(text) = &c.text {
                        // Past the opening quote.
                        let at = |offset: usize| loc(text.span().start + 1 + offset);
                        text_names(
                            text.get_ref(),
                            c.id.get_ref(),
                            &c.data,
                            settings,
                            &at,
                            diags,
                        );
                    }
                    let effect = c.effect.map(|e| (e.get_ref().clone(), loc(e.span().start)));
                    Card {
                        id: c.id.into_inner(),
                        text: c.text.map(|t| t.into_inner()).unwrap_or_default(),
                        effect,
                        data: c.data,
                    }
                })
                .collect();
            Deck {
                id: d.id.into_inner(),
                name: d.name,
                cards,
            }
        })
        .collect();
    // An effect takes the same data whichever deck of the file its card is in.
    let rows: Vec<data::Row> = (decks.iter().flat_map(|d| &d.cards))
        .zip(card_locs)
        .filter_map(|(c, at)| {
            let (effect, _) = c.effect.as_ref()?;
            Some(data::Row {
                what: format!("card '{}'", c.id),
                class: format!("effect '{effect}'"),
                data: &c.data,
                at,
            })
        })
        .collect();
    diags.extend(data::odd_data(&rows, "card"));
    decks
}

/// Content hash of every TOML and Lua file of the folder (not its tests), in sorted path order,
/// and of the shared scripts the game can `require`: of the bytes the package was read from.
fn hash(files: &files::Files, scripts: &scripts::Scripts) -> String {
    let mut h = blake3::Hasher::new();
    files.hash_into(&mut h);
    scripts.hash_shared_into(&mut h);
    h.finalize().to_hex()[..16].to_string()
}

pub(crate) fn collect_files(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().to_string();
        if name.starts_with('.') || name == "tests" {
            continue;
        }
        let is_source = name.ends_with(".toml") || name.ends_with(".lua");
        if p.is_dir() {
            collect_files(root, &p, out);
        } else if let (true, Ok(rel)) = (is_source, p.strip_prefix(root)) {
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}
