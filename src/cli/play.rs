//! `meeple play`: a game in the terminal. Shows the board, every player's counters and
//! holdings, what just happened and the numbered options of a human seat; bots move on their
//! own. At any prompt: a number or an action, `undo`, `redo`, `save FILE`, `why`, `quit`. The game's
//! files are watched: a save reloads the rules in the same position. With a display (and no
//! `--text`) the same session opens in the window (`crate::app`).

use super::live::{self, Input, Inputs};
use super::render::render;
use super::thinking::thinking;
use super::{load, record_game, script_diag, CmdResult};
use crate::ai::alphabeta::value_text;
use crate::ai::{Bot, Seat};
use crate::core::event::Event;
use crate::diag::Diagnostic;
use crate::engine::{Game, GameConfig, GameError};
use crate::reload::Watcher;
use crate::replay::{Record, RecordStep};
use crate::script::ScriptError;
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct PlayArgs {
    /// Game id (a folder under games/) or a path to a game folder
    game: Option<String>,
    /// Map to play on (default: the game's default map)
    #[arg(long)]
    map: Option<String>,
    #[arg(long, help = concat!("Who plays each seat, comma-separated, one entry per seat: human, ", crate::bot_kinds!(), " (default: human,ai; with --load, the saved game's players)"))]
    players: Option<String>,
    /// Seed of the game's random generator (default: a new one each game, printed at the start)
    #[arg(long)]
    seed: Option<u64>,
    /// Override a setting from game.toml, e.g. --set salary=300 (repeatable)
    #[arg(long = "set", value_name = "KEY=VALUE")]
    settings: Vec<String>,
    /// Resume a game saved with `save FILE` (from the GAME folder when given: a game that moved)
    #[arg(long, value_name = "FILE")]
    load: Option<PathBuf>,
    /// Write a replay of the whole game to FILE when it ends or on quit
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Do not reload the rules when the game's files change
    #[arg(long)]
    no_watch: bool,
    /// Seconds a person has to answer when several players are asked at once (a claim on a
    /// discard); then the state's default answer is taken. 0 waits for ever
    #[arg(long, default_value_t = 15, value_name = "SECONDS")]
    answer_seconds: u64,
    /// Play in the terminal even when a display is available
    #[arg(long)]
    text: bool,
    #[command(flatten)]
    window: crate::app::WindowArgs,
}

pub struct Session {
    pub game: Game,
    pub seats: Vec<Seat>,
    pub bots: Vec<Option<Box<dyn Bot>>>,
    pub record: Record,
    /// Per `undo` command: decisions undone and their record steps, for `redo`.
    undone: Vec<(usize, Vec<RecordStep>)>,
    /// How the game would differ under the rules of the last reload, as last said (a later
    /// reload says it again only when it changed).
    pub differs: Option<String>,
    /// Seconds a person has to answer a simultaneous decision (0: no limit).
    pub answer_seconds: u64,
    /// The seed, when it is told only once the game is over: it tells every hidden pile.
    pub secret_seed: Option<u64>,
}

pub fn run(a: PlayArgs) -> CmdResult {
    let mut s = match &a.load {
        Some(file) => {
            if a.map.is_some() || a.seed.is_some() || !a.settings.is_empty() {
                eprintln!("note: --load resumes the saved game as it was; --map, --seed and --set are ignored");
            }
            resume(file, a.game.as_deref(), a.players.as_deref())?
        }
        None => start(&a)?,
    };
    s.answer_seconds = a.answer_seconds;
    let windowed = windowed(&a);
    if a.text && a.window.scripted() {
        return Err(vec![Diagnostic::error(
            "--text",
            "--screenshot, --actions, --click and --frames need the window; drop --text",
        )]);
    }
    let watcher = if a.no_watch {
        None
    } else {
        match Watcher::for_game(&s.game.pkg) {
            Ok(w) => Some(w),
            Err(e) => {
                eprintln!("note: {e}; edits will not reload");
                None
            }
        }
    };
    if windowed {
        if let Err(why) = crate::app::display() {
            let flag = a.window.scripted_by().unwrap_or("play");
            return Err(vec![Diagnostic::error(
                flag,
                format!("the window cannot open: {why}; on a machine without one, run under `xvfb-run -a`"),
            )]);
        }
        let seed = s.secret_seed;
        let code = crate::app::run(s, watcher, a.window, a.record);
        tell_seed(seed);
        return code;
    }
    if let (false, Err(why)) = (a.text, crate::app::display()) {
        if std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty()) {
            eprintln!("note: the window cannot open: {why}; playing in the terminal");
        }
    }
    let mut inputs = Inputs::new(watcher);
    let mut redraw = true;
    // A bot's move the rules failed on: bots wait until the rules reload or a line is typed.
    let mut stalled = false;
    loop {
        for r in inputs.reloads() {
            let changed = live::reload(&mut s, &r);
            redraw |= changed;
            stalled &= !changed;
        }
        print_events(&mut s.game);
        let Some(p) = s.game.pending() else {
            println!("\n{}", s.render());
            if let Some(o) = s.game.outcome() {
                println!("game over: {o}");
            }
            break;
        };
        let seat = p.seat;
        if let Some(index) = s.forced() {
            if let Err(GameError::Script(e)) = apply(&mut s, seat, index) {
                println!("{}", roll_back(&mut s, &e));
                stalled = true;
            }
            continue;
        }
        if s.bots[seat].is_some() && !stalled {
            if let Err(e) = bot_move(&mut s, seat) {
                println!(
                    "{e}\nP{} ({}) cannot move: fix the rules (saving them reloads the game) or press \
                     Enter to let it try again; a number or an action moves for it; undo, save FILE \
                     and quit work as ever",
                    seat + 1,
                    s.seats[seat]
                );
                stalled = true;
            }
            continue;
        }
        if redraw {
            println!("\n{}", s.render());
        }
        print_options(&mut s);
        // No clock while a bot waits for its rules to be fixed.
        let limit = s.answer_limit().filter(|_| !stalled);
        if let Some(d) = limit {
            println!(
                "(answer within {} s, or '{}' is taken)",
                d.as_secs(),
                s.default_label()
            );
        }
        print!("> ");
        let _ = std::io::stdout().flush();
        let line = match inputs.next(limit) {
            None => break,
            Some(Input::Reload(r)) => {
                println!();
                redraw = live::reload(&mut s, &r);
                stalled &= !redraw;
                continue;
            }
            Some(Input::TimedOut) => {
                let index = s.default_option();
                println!("\ntime is up: {}", s.label(index));
                match apply(&mut s, seat, index) {
                    Err(GameError::Script(e)) => println!("{}", roll_back(&mut s, &e)),
                    other => other.map_err(|e| vec![script_diag(e)])?,
                }
                redraw = true;
                continue;
            }
            Some(Input::Line(line)) => line,
        };
        let before = s.game.history.len();
        if !command(&mut s, seat, line.trim())? {
            break;
        }
        redraw = s.game.history.len() != before;
        // Enter lets a waiting bot try again; so does a move made for it (or an undo).
        stalled &= !(redraw || line.trim().is_empty());
    }
    if let Some(path) = &a.record {
        println!("{}", write_replay(&mut s, path).map_err(|d| vec![d])?);
    }
    tell_seed(s.secret_seed);
    // A session that ends on a move the rules could not make did not go well.
    Ok(if stalled { 1 } else { 0 })
}

/// Tells the seed kept secret while the game went on.
fn tell_seed(seed: Option<u64>) {
    if let Some(seed) = seed {
        println!("the game's seed was {seed} (play it again with --seed {seed})");
    }
}

/// Writes the whole game so far as a replay to `path`.
pub fn write_replay(s: &mut Session, path: &Path) -> Result<String, Diagnostic> {
    s.record.snapshot = None;
    s.record
        .save(path)
        .map_err(|e| Diagnostic::error(path.display().to_string(), e))?;
    Ok(format!("replay written to {}", path.display()))
}

fn start(a: &PlayArgs) -> Result<Session, Vec<Diagnostic>> {
    let Some(name) = &a.game else {
        return Err(vec![Diagnostic::error(
            "meeple play",
            "name a game (e.g. `meeple play monopoly`) or --load FILE",
        )]);
    };
    let pkg = load(name)?;
    let players = a.players.as_deref().unwrap_or("human,ai");
    let seats = Seat::parse_list(players).map_err(|e| vec![Diagnostic::error("--players", e)])?;
    let seed = a.seed.unwrap_or_else(fresh_seed);
    let config = GameConfig {
        map: a.map.clone(),
        seats: seats.len(),
        seed,
        settings: a.settings.clone(),
    };
    let mut game = Game::new(pkg, config)?;
    Seat::check_all(&seats, &game).map_err(|e| vec![Diagnostic::error("--players", e)])?;
    game.enable_undo();
    let start_hash = game.snapshot().map_err(|e| vec![script_diag(e)])?.hash();
    let record = Record::new(
        &game,
        seats.iter().map(|s| s.to_string()).collect(),
        start_hash,
    );
    // A fresh seed tells every hidden pile (the deal follows from it): a person who could
    // not see one hears it once the game is over.
    let secret = a.seed.is_none()
        && (seats.iter().enumerate()).any(|(i, s)| *s == Seat::Human && game.hides_from(Some(i)));
    // The prompt's commands are for the terminal; the window has its buttons and keys.
    let windowed = windowed(a);
    println!(
        "{} · map {} · {}{}",
        game.pkg.title,
        game.pkg
            .map(a.map.as_deref())
            .map(|b| b.name.clone())
            .unwrap_or_default(),
        match secret {
            true => "seed told when the game ends".to_string(),
            false => format!("seed {seed}"),
        },
        match windowed {
            true => "",
            false => " · type a number, an action, undo, redo, save FILE, why or quit",
        }
    );
    let mut session = Session::new(game, seats, record);
    session.secret_seed = secret.then_some(seed);
    Ok(session)
}

/// Whether the session opens the window (a display, or a scripted window run, and no --text).
fn windowed(a: &PlayArgs) -> bool {
    !a.text && (a.window.scripted() || crate::app::display().is_ok())
}

/// A seed for a new game when none is given: the clock's nanoseconds.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    crate::core::rng::splitmix64(nanos) % 1_000_000
}

/// The game saved in `file`, from `game`'s folder when given (else where it was played), with
/// `players` when given (else the saved ones).
fn resume(
    file: &Path,
    game: Option<&str>,
    players: Option<&str>,
) -> Result<Session, Vec<Diagnostic>> {
    let shown = file.display().to_string();
    let mut record = Record::load(file).map_err(|d| vec![d])?;
    if record.snapshot.is_none() {
        return Err(vec![Diagnostic::error(
            &shown,
            "this file has no snapshot to resume from (it is a replay; use `meeple replay`)",
        )]);
    }
    let pkg = record_game(&record, &shown, game)?;
    if game.is_some() {
        record.moved_to(&pkg.root);
    }
    let mut game = crate::replay::resume(pkg, &record, &shown)?;
    game.enable_undo();
    if let Some(grid) = game.world_mut().grid.as_mut() {
        grid.filled = record.filled;
    }
    game.history = record
        .steps
        .iter()
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
    println!(
        "resumed {} after {}",
        record.game,
        crate::diag::plural(record.steps.len(), "decision")
    );
    if game.pkg.files_hash != record.files_at_end() {
        println!("note: the game's files changed since it was saved; it goes on under the rules as they are now");
        record.rules_changed_to(game.pkg.files_hash.clone());
    }
    Ok(Session::new(game, seats, record))
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

/// The bot of `seat` moves. On an error the position stays as it was (a move the rules
/// failed on is undone) and the error is returned as text.
fn bot_move(s: &mut Session, seat: usize) -> Result<(), String> {
    let bot = s.bots[seat].as_mut().expect("a bot seat");
    let who = format!("P{} ({})", seat + 1, s.seats[seat]);
    let choice = thinking(&who, || bot.choose(&mut s.game)).map_err(|e| e.to_string())?;
    // A simultaneous answer stays secret, and so does who was asked: nothing is said.
    if s.game.waiting().is_empty() {
        let label = s.label(choice.index);
        println!("P{} ({}) → {label}", seat + 1, s.seats[seat]);
    }
    apply(s, seat, choice.index).map_err(|e| match e {
        GameError::Script(e) => roll_back(s, &e),
        other => other.to_string(),
    })
}

/// Applies option `index` for `seat` and records it (the one path for every player).
pub fn apply(s: &mut Session, seat: usize, index: usize) -> Result<(), GameError> {
    s.game.apply_index(index)?;
    let hash = s.game.snapshot()?.hash();
    let action = s.game.history.last().expect("just applied").action.clone();
    s.record.steps.push(RecordStep { seat, action, hash });
    s.undone.clear();
    Ok(())
}

/// Undoes a move the rules failed on (`e`), so that play goes on; says so.
pub fn roll_back(s: &mut Session, e: &ScriptError) -> String {
    let _ = s.game.undo();
    s.record.steps.truncate(s.game.history.len());
    format!("{e}\nthe rules failed on that move; it was undone")
}

/// A bot for every seat that is not human, seeded from the game's `seed` and how many `steps`
/// the record has got (a resumed game's bots differ from the first run's).
pub fn bots(seats: &[Seat], seed: u64, steps: usize) -> Vec<Option<Box<dyn Bot>>> {
    let seed = seed ^ steps as u64;
    seats
        .iter()
        .enumerate()
        .map(|(i, s)| s.bot(seed, i))
        .collect()
}

impl Session {
    /// Whose eyes the terminal shows: the human being asked, else the only human seat, else
    /// nobody's (public things only).
    pub fn viewer(&self) -> Option<usize> {
        if let Some(p) = self.game.pending() {
            if self.bots[p.seat].is_none() {
                return Some(p.seat);
            }
        }
        let humans: Vec<usize> = (0..self.bots.len())
            .filter(|s| self.bots[*s].is_none())
            .collect();
        match humans[..] {
            [only] => Some(only),
            _ => None,
        }
    }

    /// A session with a bot for every seat that is not human (see `bots`).
    fn new(game: Game, seats: Vec<Seat>, record: Record) -> Session {
        let bots = bots(&seats, game.config.seed, record.steps.len());
        Session {
            game,
            seats,
            bots,
            record,
            undone: Vec::new(),
            differs: None,
            answer_seconds: 0,
            secret_seed: None,
        }
    }
}

impl Session {
    /// The answer a person gives without being asked: the only option of a decision that asks
    /// several seats at once (a claim they cannot make), so that being asked tells nothing.
    pub fn forced(&self) -> Option<usize> {
        let p = self.game.pending()?;
        let person = self.bots.get(p.seat).is_some_and(|b| b.is_none());
        (person && p.len() == 1 && !self.game.waiting().is_empty()).then_some(0)
    }

    /// How long the human being asked may take: limited only in a simultaneous decision.
    pub fn answer_limit(&self) -> Option<std::time::Duration> {
        (self.answer_seconds > 0 && !self.game.waiting().is_empty())
            .then(|| std::time::Duration::from_secs(self.answer_seconds))
    }

    /// The option taken when time runs out: the state's declared default verb, else the first.
    pub fn default_option(&self) -> usize {
        let options = self.game.pending().map(|p| p.options()).unwrap_or_default();
        self.game.default_option(options).unwrap_or(0)
    }

    pub fn default_label(&mut self) -> String {
        self.label(self.default_option())
    }

    /// Option `index`'s label as the session's viewer may know it (`viewer`).
    pub fn label(&mut self, index: usize) -> String {
        let viewer = self.viewer();
        let labels = self.game.shown(viewer).labels;
        labels.get(index).cloned().unwrap_or_default()
    }

    /// The terminal picture, as the viewer may see it.
    pub fn render(&mut self) -> String {
        let viewer = self.viewer();
        let shown = self.game.shown(viewer);
        render(&self.game, &self.seats, viewer, &shown)
    }
}

/// A name typed in quotes, as a shell would take it, without them.
fn unquoted(text: &str) -> &str {
    match text.strip_prefix(['"', '\'']) {
        Some(inner) if !inner.is_empty() && inner.ends_with(&text[..1]) => {
            &inner[..inner.len() - 1]
        }
        _ => text,
    }
}

/// Handles one line typed at the prompt; false to stop playing.
fn command(s: &mut Session, seat: usize, line: &str) -> Result<bool, Vec<Diagnostic>> {
    match line {
        "" => {}
        "quit" | "exit" => return Ok(false),
        "undo" => println!("{}", undo(s)),
        "redo" => println!("{}", redo(s)),
        _ if line == "why" || line.starts_with("why ") => why(&mut s.game, seat, line[3..].trim()),
        _ if line.starts_with("save") => {
            println!("{}", save(s, unquoted(line["save".len()..].trim())))
        }
        _ => {
            let index = match line.parse::<usize>() {
                Ok(n) => s.game.option_number(n),
                Err(_) => match crate::core::action::Action::parse(line) {
                    // An option's label as shown is taken too (`discard 南` for `discard 27`).
                    Some(action) => s.game.check_action(seat, &action).or_else(|e| {
                        let labels = s.game.shown(Some(seat)).labels;
                        let found = labels.iter().position(|l| l == line);
                        let (n, reason) = (labels.len(), s.game.reason(seat, &action));
                        found.ok_or_else(|| match (n, reason) {
                            // The options are listed and the rules give no reason: point at
                            // the list rather than at the actions behind its labels.
                            (1..=MAX_LISTED, Ok(None)) => GameError::Rejected(format!(
                                "'{line}' is not one of P{}'s options: type its number or its \
                                 text as listed",
                                seat + 1
                            )),
                            _ => e,
                        })
                    }),
                    None => Err(GameError::Rejected("type a number or an action".into())),
                },
            };
            match index.and_then(|i| apply(s, seat, i)) {
                Ok(()) => {}
                Err(GameError::Rejected(r)) => println!("rejected: {r}"),
                Err(GameError::Script(e)) => println!("{}", roll_back(s, &e)),
            }
        }
    }
    Ok(true)
}

/// Steps back to this human's previous decision (undoing the bots' replies too); what was
/// undone is kept for `redo`. Says what happened.
pub fn undo(s: &mut Session) -> String {
    let mut undone = 0;
    let mut kept = None;
    loop {
        // A person who saw a hidden item (a drawn tile) cannot be made to forget it.
        let people = s.game.undo_would_unteach();
        if let Some(p) = people.into_iter().find(|p| s.bots[*p].is_none()) {
            kept = Some(p);
            break;
        }
        match s.game.undo() {
            Ok(true) => undone += 1,
            Ok(false) => break,
            Err(e) => return e.to_string(),
        }
        if human_turn(s) {
            break;
        }
    }
    let steps = s
        .record
        .steps
        .split_off(s.game.history.len().min(s.record.steps.len()));
    if undone > 0 {
        s.undone.push((undone, steps));
    }
    s.game.drain_events();
    let stop = kept.map(|p| {
        format!(
            "P{} saw something hidden then (a draw, a deal), which an undo cannot take back",
            p + 1
        )
    });
    match (undone, stop) {
        (0, Some(why)) => format!("cannot undo: {why}"),
        (0, None) => "nothing to undo".into(),
        (n, Some(why)) => format!(
            "undid {} (stopped there: {why})",
            crate::diag::plural(n, "decision")
        ),
        (n, None) => format!("undid {}", crate::diag::plural(n, "decision")),
    }
}

/// Brings back what the last `undo` took back. Says what happened.
pub fn redo(s: &mut Session) -> String {
    let Some((count, steps)) = s.undone.pop() else {
        return "nothing to redo".into();
    };
    for _ in 0..count {
        if let Err(e) = s.game.redo() {
            return e.to_string();
        }
    }
    s.record.steps.extend(steps);
    s.game.drain_events();
    format!("redid {}", crate::diag::plural(count, "decision"))
}

/// Whether the seat to move is a person's (no bot plays it).
pub fn human_turn(s: &Session) -> bool {
    s.game
        .pending()
        .is_some_and(|p| s.bots.get(p.seat).is_some_and(|b| b.is_none()))
}

/// What a bot (the heuristic unless named: `why mcts:500`) would choose here, and the
/// candidates it weighed, best first (top 10).
fn why(game: &mut Game, asker: usize, bot: &str) {
    let seat = if bot.is_empty() {
        Ok(Seat::Heuristic(None))
    } else {
        Seat::parse(bot)
    };
    // Only bots can explain a choice: an unknown kind is named as no bot (the usage line lists
    // the bots, not `human`); a known kind's bad parameter keeps its own message.
    let kind = bot.split(':').next().unwrap_or_default();
    let bot = seat
        .as_ref()
        .map_err(|e| match Seat::parse(kind) {
            Ok(_) => e.clone(),
            Err(_) => format!("'{bot}' is not a bot"),
        })
        .and_then(|s| (s.bot(game.config.seed, 0)).ok_or_else(|| format!("'{s}' is not a bot")));
    let mut bot = match bot {
        Ok(bot) => bot,
        Err(why) => {
            println!(
                concat!("{}\nusage: why [BOT], BOT one of: ", crate::bot_kinds!()),
                why
            );
            return;
        }
    };
    let name = seat.map(|s| s.to_string()).unwrap_or_default();
    match thinking(&name, || bot.explain(game)) {
        Ok(c) => {
            let labels = game.shown(Some(asker)).labels;
            println!("{name} would choose: {}", labels[c.index]);
            let ranked = c.ranked().into_iter().take(10);
            let shown: Vec<_> = ranked.map(|(i, v)| (i, value_text(v))).collect();
            let width = shown
                .iter()
                .map(|(_, v)| v.len())
                .max()
                .unwrap_or(0)
                .max(10);
            for (i, value) in shown {
                println!("  {value:>width$}  {}", labels[i]);
            }
        }
        // A bot that cannot play this game says why, as a sentence of its own.
        Err(GameError::Rejected(why)) => println!("{why}"),
        Err(e) => println!("{e}"),
    }
}

/// Saves the game to `file` (resumable with `--load`). Says what happened.
pub fn save(s: &mut Session, file: &str) -> String {
    if file.is_empty() {
        return "usage: save FILE".into();
    }
    match s.game.snapshot() {
        Ok(snap) => {
            s.record.snapshot = Some(snap);
            s.record.layout = s.game.layout();
            s.record.filled = s.game.world().grid.as_ref().and_then(|g| g.filled);
            match s.record.save(Path::new(file)) {
                Ok(()) => format!(
                    "saved to {file} (resume with: meeple play --load {})",
                    shell_word(file)
                ),
                Err(e) => format!("{file}: {e}"),
            }
        }
        Err(e) => e.to_string(),
    }
}

fn print_events(game: &mut Game) {
    for e in game.drain_events() {
        match e {
            Event::Action { .. } | Event::Reload { .. } => {}
            other => println!("  · {other}"),
        }
    }
}

/// Lists the options by number (labelled as the seat asked may know them, with a failing
/// text hook said once); a long list (a grid's free points) is summed up instead.
fn print_options(s: &mut Session) {
    let Some(seat) = s.game.pending().map(|p| p.seat) else {
        return;
    };
    let shown = s.game.shown(Some(seat));
    if let Some(problem) = &shown.problem {
        println!("{problem}");
    }
    let Some(p) = s.game.pending() else { return };
    if p.len() > MAX_LISTED {
        let examples: Vec<String> = p
            .options()
            .iter()
            .take(3)
            .map(|o| format!("'{o}'"))
            .collect();
        println!(
            "P{}, choose one of {} options by typing it (e.g. {}, …)",
            p.seat + 1,
            p.len(),
            examples.join(", ")
        );
        return;
    }
    println!("P{}, choose:", p.seat + 1);
    let width = p.len().to_string().len();
    for (i, label) in shown.labels.iter().enumerate() {
        println!("  {:>width$}) {label}", i + 1);
    }
}

/// Longest option list printed in full.
const MAX_LISTED: usize = 20;

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
