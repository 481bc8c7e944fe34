//! A session's files: starting a game or resuming a save (its game found where it was played,
//! or in the folder named), saving it and writing its replay. Messages for the player are
//! returned, not printed.

use super::Session;
use crate::ai::Seat;
use crate::def::Package;
use crate::diag::Diagnostic;
use crate::engine::{Game, GameConfig, GameError};
use crate::replay::Record;
use std::path::Path;
use std::sync::Arc;

/// A session ready to play, and what to tell the player first.
pub struct Started {
    pub session: Session,
    pub said: Vec<String>,
}

/// A new game of `pkg` under `config` with `seats`; with `secret_seed`, the seed is kept
/// from the players until the game ends when it would tell a person hidden piles.
pub fn start(
    pkg: Arc<Package>,
    seats: Vec<Seat>,
    config: GameConfig,
    secret_seed: bool,
) -> Result<Session, Vec<Diagnostic>> {
    let seed = config.seed;
    let mut game = Game::new(pkg, config)?;
    Seat::check_all(&seats, &game).map_err(|e| vec![Diagnostic::error("--players", e)])?;
    game.enable_undo();
    let start_hash = game
        .snapshot()
        .map_err(|e| vec![e.into_diagnostic("meeple")])?
        .hash();
    let players = seats.iter().map(|s| s.to_string()).collect();
    let record = Record::new(&game, players, start_hash);
    let secret = secret_seed && tells_a_person(&seats, &game);
    let mut session = Session::new(game, seats, record);
    session.secret_seed = secret.then_some(seed);
    Ok(session)
}

/// Whether the seed would tell a person something: it tells every hidden pile (the deal
/// follows from it).
fn tells_a_person(seats: &[Seat], game: &Game) -> bool {
    (seats.iter().enumerate()).any(|(i, s)| *s == Seat::Human && game.hides_from(Some(i)))
}

/// The game saved in `file` (a save, or a replay played out to its end), from the folder
/// `game` names when given (else where it was played, else by its id), with `players` when
/// given (else the saved ones).
pub fn resume(
    file: &Path,
    game: Option<&str>,
    players: Option<&str>,
) -> Result<Started, Vec<Diagnostic>> {
    let shown = file.display().to_string();
    let mut record = Record::load(file).map_err(|d| vec![d])?;
    let mut said = Vec::new();
    let pkg = record_game(&record, &shown, game, &mut said)?;
    if game.is_some() {
        record.moved_to(&pkg.root);
    }
    let mut game = crate::replay::resume(pkg, &record, &shown)?;
    game.enable_undo();
    game.set_last_cell(record.filled);
    game.history = (record.steps.iter())
        .map(|s| crate::engine::Step {
            seat: s.seat,
            action: s.action.clone(),
        })
        .collect();
    // The players given, else the saved ones; a problem is reported against where they came from.
    let (list, from) = match players {
        Some(list) => (list.to_string(), "--players"),
        None => (record.players.join(","), shown.as_str()),
    };
    let seats = Seat::parse_list(&list)
        .and_then(|seats| same_count(seats, record.players.len()))
        .and_then(|seats| Seat::check_all(&seats, &game).map(|_| seats))
        .map_err(|e| vec![Diagnostic::error(from, e)])?;
    if players.is_some() {
        record.players = seats.iter().map(|s| s.to_string()).collect();
    }
    said.push(format!(
        "resumed {} after {}",
        record.game,
        crate::diag::plural(record.steps.len(), "decision")
    ));
    if game.pkg.files_hash != record.files_at_end() {
        said.push("note: the game's files changed since it was saved; it goes on under the rules as they are now".into());
        record.rules_changed_to(game.pkg.files_hash.clone());
    }
    let seed = game.config.seed;
    let secret = tells_a_person(&seats, &game);
    let mut session = Session::new(game, seats, record);
    session.secret_seed = secret.then_some(seed);
    session.resumable = true;
    Ok(Started { session, said })
}

/// `seats` when there is one per seat of a saved game with `n` seats.
fn same_count(seats: Vec<Seat>, n: usize) -> Result<Vec<Seat>, String> {
    match seats.len() == n {
        true => Ok(seats),
        false => Err(format!(
            "the saved game has {n} seats; give {n} players, not {}",
            seats.len()
        )),
    }
}

/// Finds and reads a game. When its package has problems, they are every file's (manifest,
/// maps, decks, style, each Lua file's syntax), sorted, each once; `strict` (`check`) also
/// reads the style and the scripts of a package that loads, and fails on their problems.
pub fn read_game(game: &str, strict: bool) -> Result<Arc<Package>, Vec<Diagnostic>> {
    let dir = crate::def::find_game(game).map_err(|e| vec![Diagnostic::error(game, e)])?;
    let folder = crate::def::folder::read_folder(&dir, strict);
    let mut problems = folder.problems;
    problems.extend(crate::script::host::syntax_problems(&folder.lua));
    match folder.package {
        Some(pkg) if problems.is_empty() => Ok(Arc::new(pkg)),
        _ => {
            crate::diag::sort(&mut problems);
            problems.dedup();
            Err(problems)
        }
    }
}

/// The game a record or save `file` was made of: `game` when given (a moved or copied folder),
/// else the folder it was played from, else its id (with a note in `said` naming the folder
/// found, when the one it was played from is gone). `Record::check` then insists the ids agree.
pub fn record_game(
    record: &Record,
    file: &str,
    game: Option<&str>,
    said: &mut Vec<String>,
) -> Result<Arc<Package>, Vec<Diagnostic>> {
    if let Some(game) = game {
        return read_game(game, false);
    }
    // The folder it was played from is gone: it may have moved.
    let gone = record.game_dir_gone();
    let name_it = format!("`meeple play FOLDER --load {file}`, `meeple replay {file} --game FOLDER` or `meeple ai FOLDER --replay {file}`");
    let pkg = read_game(&record.game_location(), false).map_err(|mut d| {
        if let Some(gone) = gone {
            d.push(Diagnostic::error(
                file,
                format!("the game was played from {gone}; if it moved, name its folder: {name_it}"),
            ));
        }
        d
    })?;
    if let Some(gone) = gone {
        said.push(format!(
            "note: the game was played from {gone}, which is gone; using the game '{}' found at {} (to use another folder: {name_it})",
            pkg.id,
            pkg.root.display()
        ));
    }
    Ok(pkg)
}

impl Session {
    /// Saves the game to `file` (resumable with `--load`). Says what happened.
    pub fn save(&mut self, file: &str) -> String {
        if file.is_empty() {
            return "usage: save FILE".into();
        }
        match self.keep_position() {
            Ok(()) => match self.record.save(Path::new(file)) {
                Ok(()) => {
                    self.resumable = true;
                    format!(
                        "saved to {file} (resume with: meeple play --load {})",
                        shell_word(file)
                    )
                }
                Err(e) => format!("{file}: {e}"),
            },
            Err(e) => e.to_string(),
        }
    }

    /// Puts the position in the record, as a save holds it: its snapshot, the ids it is
    /// indexed by, the last cell filled and the last lines of the log.
    fn keep_position(&mut self) -> Result<(), GameError> {
        self.record.snapshot = Some(self.game.snapshot()?);
        self.record.layout = self.game.layout();
        self.record.filled = self.game.last_cell();
        self.record.backlog = self.backlog.iter().cloned().collect();
        Ok(())
    }

    /// Writes the whole game so far as a replay to `path`. Says what happened. A game whose
    /// position was edited by hand keeps its position too: its steps do not lead there.
    pub fn write_replay(&mut self, path: &Path) -> Result<String, Diagnostic> {
        let shown = || path.display().to_string();
        match self.record.edits.is_empty() {
            true => self.record.snapshot = None,
            false => {
                (self.keep_position()).map_err(|e| Diagnostic::error(shown(), e.to_string()))?
            }
        }
        self.record
            .save(path)
            .map_err(|e| Diagnostic::error(path.display().to_string(), e))?;
        self.resumable = true;
        Ok(format!("replay written to {}", path.display()))
    }
}

/// `meeple play GAME --map MAP --players P --seed N --set …`: the command that plays a game
/// again, each setting quoted where a shell would split it.
pub fn play_command(
    (game, map, players): (&str, &str, &str),
    seed: u64,
    settings: &[String],
) -> String {
    let sets: String = (settings.iter())
        .map(|s| format!(" --set {}", shell_word(s)))
        .collect();
    let game = shell_word(game);
    format!("meeple play {game} --map {map} --players {players} --seed {seed}{sets}")
}

/// `text` as one word of a shell command line: quoted when it holds anything but plain
/// characters of a path.
fn shell_word(text: &str) -> String {
    let plain = |c: char| c.is_alphanumeric() || "/._-+=:,@%".contains(c);
    match !text.is_empty() && text.chars().all(plain) {
        true => text.to_string(),
        false => format!("'{}'", text.replace('\'', r"'\''")),
    }
}

#[cfg(test)]
mod tests {
    use super::shell_word;

    #[test]
    fn a_path_is_quoted_only_when_a_shell_would_split_or_read_it() {
        assert_eq!(shell_word("saves/mid-game_2.json"), "saves/mid-game_2.json");
        assert_eq!(shell_word("with space.json"), "'with space.json'");
        assert_eq!(shell_word("it's.json"), r"'it'\''s.json'");
        assert_eq!(shell_word("$HOME.json"), "'$HOME.json'");
    }
}
