//! Live reload against real file edits of a temp copy of the property game: the watcher's
//! request is awaited with a timeout (never a sleep), then the running game is reloaded.

mod common;
use common::*;
use meeple::def::load_package;
use meeple::engine::{Game, GameConfig};
use meeple::reload::Watcher;
use meeple::replay::{Record, ReloadMark};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(10);

struct Live {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    game: Game,
    watcher: Watcher,
}

/// A 2-player demo game on a temp copy, seed 1, with a watcher on it.
fn live() -> Live {
    let (tmp, root) = copy_game("monopoly", "games/mono");
    let pkg =
        Arc::new(load_package(&root).unwrap_or_else(|d| panic!("{}", meeple::diag::render(&d))));
    let config = GameConfig {
        map: Some("demo".into()),
        seats: 2,
        seed: 1,
        settings: Vec::new(),
    };
    let game =
        Game::new(pkg.clone(), config).unwrap_or_else(|d| panic!("{}", meeple::diag::render(&d)));
    let watcher = Watcher::for_game(&pkg).expect("watching");
    Live {
        _tmp: tmp,
        root,
        game,
        watcher,
    }
}

impl Live {
    fn edit(&self, file: &str, from: &str, to: &str) {
        let path = self.root.join(file);
        let text = std::fs::read_to_string(&path).expect("reading");
        assert!(text.contains(from), "{file} has no '{from}'");
        std::fs::write(&path, text.replacen(from, to, 1)).expect("writing");
    }

    /// Waits for the watcher's next request (panics after WAIT).
    fn wait(&self) -> Vec<PathBuf> {
        self.watcher
            .requests
            .recv_timeout(WAIT)
            .expect("a reload request")
            .paths
    }

    fn line_of(&self, file: &str, needle: &str) -> usize {
        line_in(
            &std::fs::read_to_string(self.root.join(file)).expect("reading"),
            needle,
        )
    }
}

/// P2 owns beijing; P1 stands on free parking (9) and will roll 1+2 onto beijing (2).
fn p2_owns_beijing(l: &mut Live) {
    exec(
        &mut l.game,
        "R.acquire(G, ctx, 2, 2); ctx.board:place(1, 9)",
    );
}

#[test]
fn a_rent_change_takes_effect_in_the_same_game() {
    let mut l = live();
    p2_owns_beijing(&mut l);
    l.edit("maps/demo.toml", "rent = [20, 150,", "rent = [99, 150,");
    let paths = l.wait();
    assert!(
        paths.iter().any(|p| p.ends_with("maps/demo.toml")),
        "{paths:?}"
    );
    let reloaded = l
        .game
        .try_reload()
        .unwrap_or_else(|d| panic!("{}", meeple::diag::render(&d)));
    assert_eq!(reloaded.files_hash, l.game.pkg.files_hash);
    assert_eq!(position(&l.game, 1), 9, "the position survives the reload");
    l.game.force_dice(&[1, 2]);
    act(&mut l.game, "roll");
    assert_eq!(position(&l.game, 1), 2);
    assert_eq!(cash(&l.game, 1), 1500 + 200 - 99);
    assert_eq!(cash(&l.game, 2), 1500 + 99);
}

#[test]
fn a_syntax_error_keeps_the_old_rules_and_fixing_it_reloads() {
    let mut l = live();
    p2_owns_beijing(&mut l);
    l.edit(
        "rules.lua",
        "local function here(ctx, p)",
        "local function here(ctx, p) = oops",
    );
    l.wait();
    let line = l.line_of("rules.lua", "= oops");
    let err = l.game.try_reload().expect_err("a syntax error");
    let shown = meeple::diag::render(&err);
    assert!(
        shown.starts_with(&format!("{}:{line}: error: ", l.game.pkg.file("rules.lua"))),
        "{shown}"
    );
    // The old rules keep playing.
    l.game.force_dice(&[1, 2]);
    act(&mut l.game, "roll");
    assert_eq!(cash(&l.game, 1), 1500 + 200 - 20);
    l.edit(
        "rules.lua",
        "local function here(ctx, p) = oops",
        "local function here(ctx, p)",
    );
    l.wait();
    l.game
        .try_reload()
        .unwrap_or_else(|d| panic!("{}", meeple::diag::render(&d)));
    assert!(l.game.pending().is_some());
}

#[test]
fn removing_the_state_the_game_is_in_is_refused() {
    let mut l = live();
    exec(&mut l.game, "ctx.board:place(1, 9)");
    l.game.force_dice(&[1, 2]);
    act(&mut l.game, "roll");
    assert_eq!(l.game.state_name(), "buying");
    let before = l.game.snapshot().unwrap();
    l.edit(
        "game.toml",
        "buying = { next = [\"auction\", \"next_player\"], decide = true }\n",
        "",
    );
    l.edit(
        "game.toml",
        "next = [\"buying\", \"auction\", \"event_card\", \"next_player\"]",
        "next = [\"auction\", \"event_card\", \"next_player\"]",
    );
    l.wait();
    let err = l.game.try_reload().expect_err("the live state is gone");
    let shown = meeple::diag::render(&err);
    let manifest = l.game.pkg.file("game.toml");
    assert!(
        shown.contains(&format!(
            "{manifest}: error: the live game is in state 'buying', which [flow] no longer has"
        )),
        "{shown}"
    );
    assert_eq!(l.game.snapshot().unwrap(), before, "nothing changed");
    assert_eq!(options(&l.game), vec!["buy beijing", "pass"]);
}

/// A setting may change its value live, not its type: the reload is refused at the key.
/// A game whose player count the new game.toml no longer takes is refused, naming the counts.
#[test]
fn a_player_count_the_game_no_longer_takes_is_refused() {
    let mut l = live();
    l.edit(
        "game.toml",
        "players = { min = 2, max = 6 }",
        "players = { min = 3, max = 6 }",
    );
    l.wait();
    let err = l
        .game
        .try_reload()
        .expect_err("two players are no longer allowed");
    assert_eq!(
        meeple::diag::render(&err),
        format!(
            "{}: error: the live game has 2 players; game.toml now takes 3 to 6 players",
            l.game.pkg.file("game.toml")
        )
    );
}

#[test]
fn a_setting_that_changes_type_is_refused_at_its_line() {
    let mut l = live();
    let before = l.game.snapshot().unwrap();
    l.edit("game.toml", "jail_fine = 50", "jail_fine = \"fifty\"");
    l.wait();
    let err = l
        .game
        .try_reload()
        .expect_err("a string where a number was");
    let text = std::fs::read_to_string(l.root.join("game.toml")).unwrap();
    let line = 1 + text
        .lines()
        .position(|t| t.starts_with("jail_fine"))
        .unwrap();
    assert_eq!(
        meeple::diag::render(&err).lines().next().unwrap(),
        format!(
            "{}:{line}:1: error: setting 'jail_fine' changed from integer to string; the live game \
             keeps values of the old type",
            l.game.pkg.file("game.toml")
        )
    );
    assert_eq!(l.game.snapshot().unwrap(), before, "nothing changed");
}

#[test]
fn an_editor_style_save_is_picked_up() {
    let mut l = live();
    p2_owns_beijing(&mut l);
    let map = l.root.join("maps/demo.toml");
    let text =
        std::fs::read_to_string(&map)
            .unwrap()
            .replacen("rent = [20, 150,", "rent = [33, 150,", 1);
    let tmp = l.root.join("maps/.demo.toml.swp");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, &map).unwrap();
    l.wait();
    l.game
        .try_reload()
        .unwrap_or_else(|d| panic!("{}", meeple::diag::render(&d)));
    l.game.force_dice(&[1, 2]);
    act(&mut l.game, "roll");
    assert_eq!(cash(&l.game, 1), 1500 + 200 - 33);
}

#[test]
fn a_burst_of_50_saves_ends_on_the_last_version() {
    let mut l = live();
    p2_owns_beijing(&mut l);
    let map = l.root.join("maps/demo.toml");
    let original = std::fs::read_to_string(&map).unwrap();
    for rent in 1..=50 {
        std::fs::write(
            &map,
            original.replacen("rent = [20, 150,", &format!("rent = [{rent}, 150,"), 1),
        )
        .unwrap();
    }
    // Every request is followed by a reload; the last one sees the last save.
    loop {
        l.wait();
        l.game
            .try_reload()
            .unwrap_or_else(|d| panic!("{}", meeple::diag::render(&d)));
        if eval(&l.game, "ctx.board.spaces[2].rent[1]") == serde_json::json!(50) {
            break;
        }
    }
    l.game.force_dice(&[1, 2]);
    act(&mut l.game, "roll");
    assert_eq!(cash(&l.game, 1), 1500 + 200 - 50);
}

/// A record of (at most) `steps` decisions of a seeded 2-player demo game with heuristic bots,
/// and the step (from 1) at which the first rent was paid.
fn recorded(steps: usize) -> (meeple::replay::Record, Option<usize>) {
    use meeple::ai::Seat;
    use meeple::replay::{Record, RecordStep};
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    let mut record = Record::new(
        &g,
        vec!["ai".into(), "ai".into()],
        g.snapshot().unwrap().hash(),
    );
    let mut bots: Vec<_> = (0..2)
        .map(|s| Seat::Heuristic(None).bot(1, s).unwrap())
        .collect();
    let mut rent = None;
    g.drain_events();
    for n in 1..=steps {
        let Some(pending) = g.pending() else { break };
        let seat = pending.seat;
        let i = bots[seat].choose(&mut g).unwrap().index;
        let action = g.pending().unwrap().options()[i].clone();
        g.apply_index(i).unwrap();
        if rent.is_none()
            && g.drain_events()
                .iter()
                .any(|e| e.to_string().contains(" rent to "))
        {
            rent = Some(n);
        }
        let hash = g.snapshot().unwrap().hash();
        record.steps.push(RecordStep {
            seat,
            action,
            hash,
            log: Vec::new(),
        });
    }
    (record, rent)
}

/// How the game so far would go under edited rules is said in words: the first step whose log
/// differs (a rent of another amount), or that is no longer legal.
#[test]
fn the_history_is_told_in_words_under_the_new_rules() {
    use meeple::replay::differences;
    let (record, rent) = recorded(60);
    let step = rent.expect("a rent is paid in 60 decisions");
    let same = package("monopoly");
    assert_eq!(differences(same.clone(), same.clone(), &record), None);
    let (_tmp, dearer) = copy_game("monopoly", "games/dearer");
    let map = std::fs::read_to_string(dearer.join("maps/demo.toml")).unwrap();
    std::fs::write(
        dearer.join("maps/demo.toml"),
        map.replace("rent = [", "rent = [1"),
    )
    .unwrap();
    let dearer = std::sync::Arc::new(load_package(&dearer).unwrap());
    let said = differences(same.clone(), dearer, &record).expect("the rent differs");
    assert!(said.starts_with(&format!("step {step} (P")), "{said}");
    assert!(
        said.contains(" rent to P") && said.contains("', now '"),
        "{said}"
    );
    // Renaming the roll makes the first decision illegal.
    let l = live();
    l.edit(
        "rules.lua",
        "local out = { { \"roll\" } }",
        "local out = { { \"throw\" } }",
    );
    l.edit(
        "rules.lua",
        "if verb == \"roll\" then",
        "if verb == \"throw\" then",
    );
    let renamed = std::sync::Arc::new(load_package(&l.root).unwrap());
    assert_eq!(
        differences(same, renamed, &record).as_deref(),
        Some("step 1 (P1: roll) is no longer legal: 'roll' is not a legal option for P1 in state 'wait_player' (options: 'throw')")
    );
}

/// A live grid keeps its size: a map edited to another size is refused with both sizes, and
/// the game goes on under the last good rules.
#[test]
fn a_grid_of_another_size_is_refused_with_both_sizes() {
    let (_tmp, root) = copy_game("tictactoe", "games/ttt");
    let pkg =
        Arc::new(load_package(&root).unwrap_or_else(|d| panic!("{}", meeple::diag::render(&d))));
    let mut g = start_with(&pkg, "board", 2, 1, &[]);
    let map = root.join("maps/board.toml");
    let text = std::fs::read_to_string(&map).unwrap();
    std::fs::write(&map, text.replace("rows = 3", "rows = 4")).unwrap();
    let Err(diags) = g.try_reload() else {
        panic!("a grid of another size is refused")
    };
    let shown: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        shown,
        [format!(
            "{}: error: the board is now 4×3, but the live game is played on a 3×3 grid, which keeps its size; restart the game to play on the new board",
            pkg.file("maps/board.toml")
        )]
    );
    assert_eq!(g.pending().map(|p| p.len()), Some(9));
}

/// Where hands are hidden, the report names a step by its seat only: a move may be secret
/// (a pass of three cards), and so may the options a rejection would list.
#[test]
fn the_report_on_a_game_with_hidden_hands_names_no_move() {
    use meeple::replay::{differences, Record};
    let mut g = start("mahjong", "table", 4, 1, &[]);
    let start_hash = g.snapshot().unwrap().hash();
    let mut record = Record::new(&g, vec!["ai".into(); 4], start_hash);
    record_steps(&mut g, &mut record, 3);
    let (_tmp, root) = copy_game("mahjong", "games/mj");
    let rules = std::fs::read_to_string(root.join("rules.lua")).unwrap();
    let edited = rules.replace("\"P%d discards %s\"", "\"P%d throws away %s\"");
    std::fs::write(root.join("rules.lua"), edited).unwrap();
    let said = differences(
        package("mahjong"),
        load_package(&root).map(std::sync::Arc::new).unwrap(),
        &record,
    )
    .expect("the discard line differs");
    assert!(
        said.starts_with("step 1 (P1's move): 'P1 discards "),
        "{said}"
    );
    assert!(said.contains("', now 'P1 throws away "), "{said}");
}

/// A package runs the Lua it was read with, not the files on disk now: after an edit of the
/// rules in the same folder, the package from before still plays the old rules, so a reload
/// can tell how the game so far would differ.
#[test]
fn a_package_keeps_the_lua_it_was_read_with() {
    use meeple::replay::differences;
    let (record, _) = recorded(10);
    let l = live();
    let before = std::sync::Arc::new(load_package(&l.root).unwrap());
    l.edit(
        "rules.lua",
        "local out = { { \"roll\" } }",
        "local out = { { \"throw\" } }",
    );
    let after = std::sync::Arc::new(load_package(&l.root).unwrap());
    assert_eq!(differences(before.clone(), before.clone(), &record), None);
    assert_eq!(
        differences(before, after, &record).as_deref(),
        Some("step 1 (P1: roll) is no longer legal: 'roll' is not a legal option for P1 in state 'wait_player' (options: 'throw')")
    );
}

/// Plays the first option `n` times, recording each step.
fn record_steps(g: &mut Game, record: &mut meeple::replay::Record, n: usize) {
    for _ in 0..n {
        let p = g.pending().unwrap();
        let (seat, action) = (p.seat, p.options()[0].clone());
        g.apply(seat, &action).unwrap();
        let hash = g.snapshot().unwrap().hash();
        (record.steps).push(meeple::replay::RecordStep {
            seat,
            action,
            hash,
            log: Vec::new(),
        });
    }
}

/// A record of two steps of `l`'s game, then `edit` of `file` reloaded live (the record
/// notes it), and the files' hash after it.
fn recorded_across_an_edit(l: &mut Live, file: &str, edit: (&str, &str)) -> (Record, String) {
    let start = l.game.snapshot().unwrap().hash();
    let mut record = Record::new(&l.game, vec!["ai".into(), "ai".into()], start);
    record_steps(&mut l.game, &mut record, 2);
    l.edit(file, edit.0, edit.1);
    l.wait();
    let r = l
        .game
        .try_reload()
        .unwrap_or_else(|d| panic!("{}", meeple::diag::render(&d)));
    record.reloads.push(ReloadMark {
        after_step: 2,
        files_hash: r.files_hash.clone(),
    });
    (record, r.files_hash)
}

#[test]
fn a_replay_records_reloads_and_verifies_up_to_the_first() {
    use meeple::replay::verify;
    let mut l = live();
    let rent = ("rent = [20, 150,", "rent = [99, 150,");
    let (mut record, files_hash) = recorded_across_an_edit(&mut l, "maps/demo.toml", rent);
    record_steps(&mut l.game, &mut record, 1);
    assert!(l
        .game
        .events()
        .iter()
        .any(|e| matches!(e, meeple::core::event::Event::Reload { .. })));
    let v = verify(l.game.pkg.clone(), &record)
        .unwrap_or_else(|d| panic!("{}", meeple::diag::render(&d)));
    assert_eq!(v.divergence, None);
    assert_eq!(v.steps, 2);
    assert_eq!(
        v.stopped_at,
        Some(ReloadMark {
            after_step: 2,
            files_hash
        })
    );
}

/// `meeple replay` under files reloaded after the game began says why the steps before the
/// reload diverge.
#[test]
fn a_replay_under_files_reloaded_later_says_why_it_diverges() {
    let mut l = live();
    let setup = ("G.bankruptcies = 0", "G.bankruptcies = 7");
    let (record, _) = recorded_across_an_edit(&mut l, "rules.lua", setup);
    let file = l.root.join("game.json");
    record.save(&file).unwrap();
    let out = meeple_in(&l.root, &["replay", "game.json"]);
    let said = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines.len(), 3, "{said}");
    assert_eq!(
        lines[0],
        "note: the game's files changed since this record was made"
    );
    assert!(
        lines[1].starts_with("diverged after 0 matching steps: it would start differently"),
        "{said}"
    );
    assert_eq!(
        lines[2],
        "note: the game's files are those it was reloaded to after step 2; the steps before \
         were played under earlier files, which a record does not keep"
    );
    assert_eq!(out.status.code(), Some(2));
}

/// Lines a running `meeple play` prints, read on a thread.
/// The lines `child` writes, on standard output and on standard error when that is piped.
fn lines_of(child: &mut std::process::Child) -> std::sync::mpsc::Receiver<String> {
    use std::io::{BufRead, Read};
    let (tx, rx) = std::sync::mpsc::channel();
    let out: Box<dyn Read + Send> = Box::new(child.stdout.take().expect("piped stdout"));
    let err = (child.stderr.take()).map(|e| Box::new(e) as Box<dyn Read + Send>);
    for stream in std::iter::once(out).chain(err) {
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stream)
                .lines()
                .map_while(Result::ok)
            {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
    }
    rx
}

/// The first line holding each needle, whatever order they come in.
fn wait_for_all<const N: usize>(
    rx: &std::sync::mpsc::Receiver<String>,
    needles: [&str; N],
) -> [String; N] {
    let mut found: [Option<String>; N] = std::array::from_fn(|_| None);
    while found.iter().any(Option::is_none) {
        let line = rx
            .recv_timeout(WAIT)
            .unwrap_or_else(|_| panic!("no line with each of {needles:?}: {found:?}"));
        for (slot, needle) in found.iter_mut().zip(needles) {
            if slot.is_none() && line.contains(needle) {
                *slot = Some(line.clone());
            }
        }
    }
    found.map(Option::unwrap)
}

fn wait_for(rx: &std::sync::mpsc::Receiver<String>, needle: &str) -> String {
    loop {
        let line = rx
            .recv_timeout(WAIT)
            .unwrap_or_else(|_| panic!("no line with '{needle}'"));
        if line.contains(needle) {
            return line;
        }
    }
}

#[test]
fn play_reloads_on_save_and_says_so_on_one_line() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let l = live();
    let mut child = Command::new(env!("CARGO_BIN_EXE_meeple"))
        .args(["play", "mono", "--seed", "3", "--text"])
        .current_dir(l.root.parent().unwrap())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("meeple runs");
    let rx = lines_of(&mut child);
    wait_for(&rx, "P1, choose:");
    l.edit("maps/demo.toml", "rent = [20, 150,", "rent = [99, 150,");
    let line = wait_for(&rx, "reloaded");
    assert!(line.starts_with("reloaded maps/demo.toml ("), "{line}");
    l.edit(
        "rules.lua",
        "local function here(ctx, p)",
        "local function here(ctx, p) = oops",
    );
    wait_for(
        &rx,
        "not reloaded (rules.lua): the last good rules keep running",
    );
    let diag = wait_for(&rx, "error:");
    assert!(diag.starts_with("mono/rules.lua:"), "{diag}");
    child.stdin.as_mut().unwrap().write_all(b"quit\n").unwrap();
    assert!(child.wait().unwrap().success());
}

/// Rules that would start the recorded game differently say so in words, not in hashes.
#[test]
fn rules_that_start_a_game_differently_say_so() {
    let game = start("monopoly", "demo", 2, 1, &[]);
    let start_hash = game.snapshot().unwrap().hash();
    let record = meeple::replay::Record::new(&game, vec!["human".into(), "ai".into()], start_hash);
    let poorer = "local setup = R.setup\n\
                  R.setup = function(G, ctx) setup(G, ctx); ctx.counter:set(1, 'cash', 1) end";
    let v = variant("monopoly", poorer, "", None);
    assert_eq!(
        meeple::replay::differences(game.pkg.clone(), v.pkg.clone(), &record).as_deref(),
        Some("at the start, P1's cash was 1500, now 1")
    );
}

/// A map with a space fewer is said as such, not as a difference hidden in the position.
#[test]
fn a_board_of_another_size_says_so() {
    let game = start("monopoly", "demo", 2, 1, &[]);
    let start_hash = game.snapshot().unwrap().hash();
    let record = Record::new(&game, vec!["human".into(), "ai".into()], start_hash);
    let (_tmp, root) = copy_game("monopoly", "games/monopoly");
    let map = root.join("maps/demo.toml");
    let text = std::fs::read_to_string(&map).unwrap();
    let last = text.rfind("[[spaces]]").unwrap();
    std::fs::write(&map, &text[..last]).unwrap();
    assert_eq!(
        meeple::replay::differences(game.pkg.clone(), load(&root), &record).as_deref(),
        Some("at the start, the board had 10 spaces, now 9")
    );
}

/// A difference the rules' own state does not show (a stone the new rules also place) is
/// still named, in words.
#[test]
fn a_difference_outside_g_is_named_too() {
    use meeple::replay::differences;
    let mut game = start("tictactoe", "board", 2, 1, &[]);
    let start_hash = game.snapshot().unwrap().hash();
    let mut record = Record::new(&game, vec!["human".into(), "human".into()], start_hash);
    record_steps(&mut game, &mut record, 1);
    let extra = "local act = R.states.turn.act\n\
                 R.states.turn.act = function(G, ctx, a, p)\n  \
                   ctx.grid:set(3, 3, 2)\n  return act(G, ctx, a, p)\nend";
    let v = variant("tictactoe", extra, "", None);
    assert_eq!(
        differences(package("tictactoe"), v.pkg.clone(), &record).as_deref(),
        Some("after step 1 (P1: place 1 1), cell (3, 3) held empty, now P2's stone")
    );
}

/// A reload compares the game with the rules it was played under: an edit taken back after a
/// reload reports no difference, though it differs from the rules it replaces.
#[test]
fn a_reload_that_puts_back_the_rules_played_reports_no_difference() {
    use meeple::reload::ReloadRequest;
    use meeple::session::{Reloaded, Session};
    let (_tmp, root) = copy_game("monopoly", "games/mono");
    let pkg = Arc::new(load_package(&root).unwrap_or_else(|d| panic!("{d:?}")));
    let config = GameConfig {
        map: Some("demo".into()),
        seats: 2,
        seed: 1,
        settings: Vec::new(),
    };
    let humans = vec![meeple::ai::Seat::Human; 2];
    let mut s =
        meeple::session::start(pkg, humans, config, false).unwrap_or_else(|d| panic!("{d:?}"));
    for _ in 0..4 {
        let seat = s.game.pending().expect("a decision").seat;
        s.apply(seat, 0).expect("the first option plays");
    }
    let edit = |from: &str, to: &str| {
        let path = root.join("game.toml");
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    };
    let differs = |s: &mut Session| match s.reload(&ReloadRequest::everything()) {
        Reloaded::Done { differs, .. } => differs,
        Reloaded::Failed { diags, .. } => panic!("{}", meeple::diag::render(&diags)),
    };
    edit("start_cash = 1500", "start_cash = 1499");
    let said = differs(&mut s).expect("a difference under the new rules");
    assert!(said.starts_with("at the start, "), "{said}");
    edit("start_cash = 1499", "start_cash = 1500");
    assert_eq!(differs(&mut s), None);
    assert_eq!(
        s.undo().0,
        "nothing to undo: the history starts again at a reload"
    );
}

/// `sim --watch` names the file each re-run follows, and compares the batch after a fix with
/// the last batch without errors, not with the broken one: its figures and, profiled, its Lua
/// work a game.
#[test]
fn sim_watch_compares_a_fix_with_the_last_clean_batch() {
    use std::process::{Command, Stdio};
    let l = live();
    let mut child = Command::new(env!("CARGO_BIN_EXE_meeple"))
        .args([
            "sim",
            "mono",
            "--games",
            "20",
            "--jobs",
            "1",
            "--watch",
            "--profile",
        ])
        .current_dir(l.root.parent().unwrap())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("meeple runs");
    let rx = lines_of(&mut child);
    wait_for(&rx, "watching");
    // A game that does not load is not re-run, and says why.
    l.edit("game.toml", "salary = 200", "salary = ");
    wait_for(
        &rx,
        "game.toml changed; not re-run, as the game does not load:",
    );
    wait_for(&rx, "game.toml:");
    l.edit("game.toml", "salary = ", "salary = 200");
    wait_for(&rx, "game.toml changed: re-running the batch");
    let jail = "ctx:log(\"P%d goes to jail\", p)";
    l.edit("rules.lua", jail, "error(\"no jail today\")");
    wait_for(&rx, "rules.lua changed: re-running the batch");
    // The table comes on standard output, the note on standard error: in either order.
    let [errors, _] = wait_for_all(
        &rx,
        [
            "errors ",
            "the next edit is compared with the last batch without errors, not this one",
        ],
    );
    assert!(errors.contains("0.0%"), "{errors}");
    l.edit("rules.lua", "error(\"no jail today\")", jail);
    wait_for(&rx, "rules.lua changed: re-running the batch");
    wait_for(&rx, "after the edit (same seeds):");
    // The same games as the first batch: nothing changed, and no errors row.
    loop {
        let line = wait_for(&rx, "");
        assert!(!line.starts_with("errors"), "{line}");
        if line.starts_with("rounds mean") {
            assert!(line.ends_with("+0.0"), "{line}");
            break;
        }
    }
    let work = wait_for(&rx, "where the Lua work went");
    assert!(
        work.contains(" a game, was ") && work.contains(": +0.0% ("),
        "{work}"
    );
    child.kill().expect("stopping the watch");
    let _ = child.wait();
}

/// A replay under edited files says in words where the game first goes otherwise: the line
/// the step wrote then and now, or, when its log reads the same, that the position differs.
#[test]
fn a_diverging_replay_says_how_in_words() {
    let (_tmp, root) = common::copy_game("monopoly", "mono");
    let cwd = root.parent().unwrap();
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_meeple"));
    cmd.args([
        "play",
        "mono",
        "--seed",
        "5",
        "--text",
        "--no-watch",
        "--record",
        "rec.json",
    ])
    .current_dir(cwd);
    let out = common::typing(&mut cmd, "1\n1\n1\n1\n1\n1\nquit\n");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let edit = |file: &str, from: &str, to: &str| {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        assert!(text.contains(from), "{file} has {from:?}");
        std::fs::write(root.join(file), text.replacen(from, to, 1)).unwrap();
    };
    let replay = || {
        let out = meeple_in(cwd, &["replay", "rec.json"]);
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .nth(1)
            .unwrap_or_default()
            .to_string()
    };
    edit("game.toml", "salary = 200", "salary = 300");
    assert_eq!(
        replay(),
        "diverged after 4 matching steps: step 5 (P1: roll): 'P1 collects ¥200 salary', now \
         'P1 collects ¥300 salary'"
    );
    edit("game.toml", "salary = 300", "salary = 200");
    edit("rules.lua", "-sp.price)", "-sp.price - 1)");
    let said = replay();
    assert!(
        said.starts_with(
            "diverged after 1 matching step: step 2 (P1: buy guangzhou) writes the \
                          same log but leaves another position (recorded "
        ),
        "{said}"
    );
}
