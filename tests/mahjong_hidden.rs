//! Hidden information in Mahjong: no seat's view (the JSON view, the terminal, a bot's input)
//! ever holds another seat's concealed tiles or the wall's order. Raise the number of seeded
//! games with MEEPLE_MAHJONG_GAMES (default 3) and those of the leak test, which follows every
//! channel a person reads, with MEEPLE_LEAK_GAMES (default 200).

mod common;
use common::*;
use meeple::ai::{fair, Bot, Choice, Seat};
use meeple::core::action::Action;
use meeple::core::world::World;
use meeple::core::zone::ZoneState;
use meeple::engine::{Game, GameError};
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;

/// Seeded games: MEEPLE_MAHJONG_GAMES, default 3.
fn games() -> u64 {
    games_from_env("MEEPLE_MAHJONG_GAMES", 3)
}

const HAND: usize = 1;
const WALL: usize = 0;

#[test]
fn every_view_shows_only_the_seats_own_hand() {
    for seed in 0..games() {
        println!("seed {seed}");
        let mut g = start("mahjong", "table", 4, seed, &[]);
        let mut bots: Vec<_> = (0..4).map(|s| Seat::Random.bot(seed, s).unwrap()).collect();
        while let Some(p) = g.pending() {
            let seat = p.seat;
            let zones = g.world().unwrap().zones.clone();
            for viewer in [None, Some(0), Some(1), Some(2), Some(3)] {
                let v = g.view(viewer).unwrap();
                let wall = zones[WALL][0].len();
                assert_eq!(v["zones"]["wall"], json!({ "count": wall }));
                for q in 0..4 {
                    let truth = &zones[HAND][q];
                    let expected = if viewer == Some(q) {
                        json!(truth)
                    } else {
                        json!({ "count": truth.len() })
                    };
                    assert_eq!(v["zones"]["hand"][q], expected, "seed {seed}: P{}", q + 1);
                }
            }
            let i = bots[seat].choose(&mut g).unwrap().index;
            g.apply_index(i).unwrap();
        }
    }
}

/// A bot that writes down the world it is shown and takes the first option.
struct Peek(Rc<RefCell<Vec<World>>>);

impl Bot for Peek {
    fn choose(&mut self, game: &mut Game) -> Result<Choice, GameError> {
        self.0.borrow_mut().push(game.world().unwrap().clone());
        Ok(Choice {
            index: 0,
            candidates: Vec::new(),
        })
    }
}

/// The world a fair bot is shown in `game`; checks the true position comes back.
fn shown(game: &mut Game) -> World {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let mut bot = fair(Box::new(Peek(seen.clone())), 5);
    let truth = game.snapshot().unwrap();
    bot.choose(game).unwrap();
    assert_eq!(
        game.snapshot().unwrap(),
        truth,
        "the true position is restored"
    );
    let world = seen.borrow()[0].clone();
    world
}

fn shown_to_p1(game: &mut Game) -> ZoneState {
    shown(game).zones
}

#[test]
fn a_bot_is_shown_a_redeal_that_does_not_depend_on_the_hidden_tiles() {
    let mut a = start("mahjong", "table", 4, 1, &[]);
    let mut b = start("mahjong", "table", 4, 1, &[]);
    // Same view for P1, other hidden tiles: P2 and P3 swap hands, the wall is reversed.
    exec(
        &mut b,
        "local h2, h3 = ctx.zone.hand[2]:clear(), ctx.zone.hand[3]:clear() \
         ctx.zone.hand[2]:add(table.unpack(h3)) ctx.zone.hand[3]:add(table.unpack(h2)) \
         local w = ctx.zone.wall:clear() for i = 1, #w do ctx.zone.wall:add(w[i]) end",
    );
    assert_eq!(a.view(Some(0)).unwrap(), b.view(Some(0)).unwrap());
    assert_ne!(a.world().unwrap().zones, b.world().unwrap().zones);
    let (seen_a, seen_b) = (shown_to_p1(&mut a), shown_to_p1(&mut b));
    assert_eq!(
        seen_a, seen_b,
        "nothing of the hidden arrangement reaches the bot"
    );
    let truth = a.world().unwrap().zones.clone();
    assert_eq!(seen_a[HAND][0], truth[HAND][0], "its own hand is real");
    assert_ne!(seen_a[HAND][1], truth[HAND][1], "P2's hand is a re-deal");
    assert_ne!(seen_a[WALL][0], truth[WALL][0], "the wall is a re-deal");
    for (q, pile) in seen_a[HAND].iter().enumerate() {
        assert_eq!(pile.len(), truth[HAND][q].len(), "hand sizes are known");
    }
}

#[test]
fn a_bot_asked_later_in_a_claim_is_not_shown_earlier_answers() {
    let mut g = start("mahjong", "table", 4, 1, &[]);
    exec(
        &mut g,
        "for p = 1, 4 do \
           for _, t in ipairs(ctx.zone.hand[p]:clear()) do ctx.zone.wall:add(t) end \
         end \
         local function give(p, tiles) \
           for _, t in ipairs(tiles) do assert(ctx.zone.wall:move(t, ctx.zone.hand[p])) end \
         end \
         give(1, {21, 29, 29, 29, 30, 30, 30, 31, 31, 31, 32, 32, 32, 33}) \
         give(2, {19, 20, 1, 4, 7, 10, 13, 16, 23, 26, 27, 28, 33}) \
         give(3, {21, 21, 2, 5, 8, 11, 14, 17, 18, 24, 27, 28, 33}) \
         give(4, {0, 1, 3, 4, 6, 9, 12, 15, 22, 25, 27, 28, 33})",
    );
    act(&mut g, "discard 21");
    act(&mut g, "chow 19");
    let seen = shown(&mut g);
    let claim = seen.claim.expect("the claim is open");
    assert_eq!(
        claim.answers,
        vec![Action::new("pass")],
        "P2's chow is not shown"
    );
    assert_eq!(
        g.world().unwrap().claim.as_ref().unwrap().answers,
        vec![Action::parse("chow 19").unwrap()]
    );
}

#[test]
fn the_terminal_shows_other_hands_face_down() {
    let input: String = "1\n".repeat(400);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_meeple"))
        .args(["play", "mahjong", "--players", "human,random,random,random"])
        .args(["--seed", "7", "--no-watch", "--text"])
        .args(["--answer-seconds", "0"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(input.as_bytes())?;
            child.wait_with_output()
        })
        .expect("meeple runs");
    let text = String::from_utf8(out.stdout).unwrap();
    // (the last picture is the end's, where every hand is laid open)
    let playing = text.rsplit_once("\n── ").unwrap().0;
    let (mut seat, mut hands_seen) = (0, 0);
    for line in playing.lines() {
        if let Some(n) = line.get(1..3).filter(|p| p.starts_with('P')) {
            seat = n[1..].parse().unwrap_or(0);
        }
        if line.starts_with("wall:") {
            assert!(line.ends_with("face down") || line == "wall: —", "{line}");
        }
        if line.trim_start().starts_with("hand ") && seat != 1 {
            assert!(line.ends_with("face down"), "P{seat}: {line}");
            hands_seen += 1;
        }
    }
    assert!(hands_seen > 30, "the game was drawn many times:\n{text}");
}

/// The tile a seat draws is told to that seat alone: the terminal of a person at P1 shows
/// P1's draws and no other seat's.
#[test]
fn a_draw_is_told_to_the_drawer_alone() {
    let text = play(
        &["--players", "human,ai,ai,ai", "--seed", "3"],
        "1\n1\nquit\n",
    );
    let told: Vec<&str> = (text.lines()).filter(|l| l.contains(" only) ")).collect();
    assert_eq!(
        told,
        [
            "  · (P1 only) you draw 3万",
            "  · (P1 only) you draw 6条",
            "  · (P1 only) you draw 7饼"
        ],
        "{text}"
    );
}

/// A tile may be typed by its name (`7p` for 7饼, `e` for 东) as well as by its label: P1
/// holds 7饼 and 东 and no 北 on seed 7.
#[test]
fn a_tile_is_typed_by_its_name_or_its_label() {
    let text = play_typed(
        "mahjong",
        "human,random,random,random",
        7,
        "discard n\ndiscard 7p\ndiscard e\nquit\n",
    );
    let said: Vec<&str> = (text.lines())
        .filter(|l| l.contains("> rejected") || l.contains("P1 discards"))
        .map(|l| l.trim_start_matches('>').trim())
        .collect();
    assert_eq!(
        said,
        [
            "rejected: 'discard 北' is not allowed: P1 has no 北",
            "· P1 discards 7饼",
            "· P1 discards 东"
        ],
        "{text}"
    );
}

/// Seeded games of the leak test: MEEPLE_LEAK_GAMES, default 200.
fn leak_games() -> u64 {
    games_from_env("MEEPLE_LEAK_GAMES", 200)
}

/// Everything the person at seat `v` reads at this position: the JSON view, the terminal's
/// picture, the window's scene (its buttons, status lines, state line, table and click targets)
/// and, when `v` decides, the labels and spots of its options, why actions are refused and what
/// the heuristic bot would advise.
fn channels(g: &mut Game, v: usize, seats: &[Seat]) -> Vec<String> {
    let shown = g.shown(Some(v));
    let mut out = vec![
        g.view(Some(v)).unwrap().to_string(),
        meeple::cli::render::render(g, seats, Some(v), &shown),
    ];
    let asked = g.pending().is_some_and(|p| p.seat == v);
    let kinds: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
    let scene = meeple::app::scene::Scene::read(g, &[], &kinds, asked, Some(v));
    out.push(format!(
        "{:?} {:?} {} {:?} {:?} {:?}",
        scene.buttons, scene.status, scene.state, scene.table, scene.targets, scene.problem
    ));
    if asked {
        out.push(format!("{shown:?}"));
        for probe in ["discard 13", "pung 5", "win"] {
            out.push(g.why_not(v, &Action::parse(probe).unwrap()));
        }
        let mut advisor = Seat::Heuristic(None).bot(3, v).unwrap();
        let c = advisor.explain(g).unwrap();
        out.push(format!("{} {:?}", shown.labels[c.index], c.ranked()));
    }
    out
}

/// Puts `t` (a game of the same package and config) at the position `g` is at, but with
/// everything `v` cannot see dealt another way (and the generator reseeded): a world `v`
/// cannot tell from the true one.
fn twin(g: &mut Game, t: &mut Game, v: usize, seed: u64) {
    t.restore(&g.snapshot().unwrap()).unwrap();
    t.determinize(v, seed).unwrap();
    t.exec("return nil").unwrap();
}

/// The public log lines of applying option `i` (as the terminal prints them): not those told
/// to one seat, as the tile a seat draws is told to it.
fn lines_of(g: &mut Game, i: usize) -> Vec<String> {
    g.drain_events();
    g.apply_index(i).unwrap();
    (g.drain_events().iter())
        .filter(|e| e.seen_by(None))
        .map(|e| e.to_string())
        .collect()
}

/// Noninterference, channel by channel: at every position of seeded games, each channel a
/// person at seat `v` reads is the same in the true world and in one where everything `v`
/// cannot see is dealt another way; and so are the log lines of each of `v`'s moves on its
/// turn, and the label `v` reads for every move. So no line, text or window shows
/// `v` another seat's concealed tiles or the wall's order.
#[test]
fn no_channel_tells_a_seat_what_it_cannot_see() {
    let seats: Vec<Seat> = vec![Seat::Human, Seat::Random, Seat::Random, Seat::Random];
    let mut positions = 0;
    for seed in 0..leak_games() {
        let v = seed as usize % 4;
        let mut g = start("mahjong", "table", 4, seed, &["ai_trials=4"]);
        let mut t = Game::new(g.pkg.clone(), g.config.clone()).unwrap();
        let mut bots: Vec<_> = (0..4).map(|s| Seat::Random.bot(seed, s).unwrap()).collect();
        while let Some(p) = g.pending() {
            let seat = p.seat;
            twin(&mut g, &mut t, v, seed ^ 0x5eed);
            let seen = channels(&mut g, v, &seats);
            assert_eq!(
                seen,
                channels(&mut t, v, &seats),
                "seed {seed}, seat P{}",
                v + 1
            );
            positions += 1;
            let i = bots[seat].choose(&mut g).unwrap().index;
            let action = g.pending().unwrap().options()[i].clone();
            let label = g.shown(Some(v)).labels[i].clone();
            let same = t
                .pending()
                .and_then(|p| p.options().iter().position(|o| *o == action));
            if let Some(j) = same.filter(|_| t.pending().is_some_and(|p| p.seat == seat)) {
                assert_eq!(label, t.shown(Some(v)).labels[j], "seed {seed}: {action}");
                // v's own move on its turn (a claim's last answer tells the claim's outcome,
                // which everyone learns).
                if seat == v && g.waiting().is_empty() {
                    assert_eq!(
                        lines_of(&mut g, i),
                        lines_of(&mut t, j),
                        "seed {seed}: {action}"
                    );
                    continue;
                }
            }
            g.apply_index(i).unwrap();
        }
    }
    assert!(
        positions > 20 * leak_games() as usize,
        "{positions} positions"
    );
}

/// `meeple play` with `typed` at its prompts: what it printed.
fn play(args: &[&str], typed: &str) -> String {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_meeple"));
    cmd.args([
        "play",
        "mahjong",
        "--no-watch",
        "--text",
        "--answer-seconds",
        "0",
    ])
    .args(args);
    String::from_utf8(typing(&mut cmd, typed).stdout).unwrap()
}

/// Plays random moves in `g` (seed 3) until P1 has drawn and is to discard again.
fn to_p1s_next_discard(g: &mut Game) {
    g.enable_undo();
    let mut bots: Vec<_> = (0..4).map(|s| Seat::Random.bot(3, s).unwrap()).collect();
    let p1_to_discard =
        |g: &Game| g.state_name() == "turn" && g.pending().is_some_and(|p| p.seat == 0);
    while g.history.is_empty() || !p1_to_discard(g) {
        let seat = g.pending().unwrap().seat;
        let i = bots[seat].choose(g).unwrap().index;
        g.apply_index(i).unwrap();
    }
}

/// A die's face the rules add to a pile everyone sees was made, not revealed: undo takes the
/// roll back (the same face comes again, from the same generator).
#[test]
fn undo_takes_back_a_roll_shown_in_a_public_pile() {
    let dir = tempfile::tempdir().unwrap();
    let manifest =
        "players = { min = 2, max = 2 }\nitems = [\"1\", \"2\", \"3\", \"4\", \"5\", \"6\"]\n\
                    [zones]\ndice = { visibility = \"public\" }\n\
                    [flow]\nstart = \"turn\"\n[flow.states]\n\
                    turn = { next = [\"over\"], decide = true }\nover = { final = true }\n";
    let rules = "local R = { states = {} }\n\
                 R.states.turn = {\n  options = function() return { { \"roll\" }, { \"stop\" } } end,\n  \
                 act = function(G, ctx, o)\n    if o[1] == \"stop\" then return \"over\" end\n    \
                 ctx.zone.dice:add(ctx.dice:sum(\"1d6\") - 1)\n  end,\n}\nreturn R\n";
    let game = table_game(dir.path(), "dice", manifest, &[("rules.lua", rules)]);
    let text = play_typed(&game, "human,human", 2, "roll\nundo\nquit\n");
    assert!(text.contains("> undid 1 decision"), "{text}");
}

/// A tile a person has seen cannot be unseen: undo stops at the draw (unless game.toml says
/// `undo_past_reveals = true`), so nobody learns the wall's order by undoing a draw.
#[test]
fn undo_stops_where_a_person_saw_a_hidden_tile() {
    let out = play(
        &["--players", "human,random,random,random", "--seed", "3"],
        "1\nundo\nquit\n",
    );
    assert!(
        out.contains("cannot undo: P1 saw something hidden then (a draw, a deal, a card played from a hand), which an undo cannot take back (unless game.toml says undo_past_reveals = true)"),
        "{out}"
    );
    // Undo again at a claim whose last step P1 may not undo: nothing is undone, and redo still
    // brings back the claim undone before. Each says the public lines of what it took or
    // brought back.
    let out = play(
        &["--players", "human,ai,ai,ai", "--seed", "11"],
        "2\n1\nundo\nundo\nredo\nquit\n",
    );
    let said: Vec<&str> = (out.lines())
        .filter_map(|l| l.strip_prefix("> "))
        .filter(|l| l.starts_with("undid") || l.starts_with("cannot") || l.starts_with("redid"))
        .collect();
    assert_eq!(
        said,
        [
            "undid 1 decision:",
            "cannot undo: P1 saw something hidden then (a draw, a deal, a card played from a hand), which an undo cannot take back (unless game.toml says undo_past_reveals = true)",
            "redid 1 decision:"
        ],
        "{out}"
    );
    assert_eq!(
        out.matches(":\n  · P1 claims P2's 北: pung\n").count(),
        2,
        "{out}"
    );
    let mut g = start("mahjong", "table", 4, 3, &[]);
    to_p1s_next_discard(&mut g);
    assert!(
        g.undo_would_unteach().contains(&0),
        "P1 drew a tile after the last decision"
    );
    // A game may let undo pass over what was seen.
    let free = variant(
        "mahjong",
        "",
        "",
        Some(("api = 1", "api = 1\nundo_past_reveals = true")),
    );
    let mut h = start_with(&free.pkg, "table", 4, 3, &[]);
    to_p1s_next_discard(&mut h);
    assert_eq!(h.undo_would_unteach(), Vec::<usize>::new());
}

/// A fresh seed tells every hidden tile: a person who cannot see them all hears it once the
/// game is over, not at the start.
#[test]
fn the_seed_of_a_game_with_hidden_hands_is_told_at_the_end_unless_a_file_resumes_it() {
    let out = play(&["--players", "human,random,random,random"], "quit\n");
    let first = out.lines().next().unwrap();
    assert!(
        first.contains("· seed told when the game ends ·"),
        "{first}"
    );
    let told = (out.lines()).find_map(|l| {
        l.trim_start_matches("> ")
            .strip_prefix("the game's seed was ")
    });
    let seed = told.and_then(|l| l.split(':').next()).expect(&out);
    assert_eq!(
        told.unwrap(),
        format!(
            "{seed}: play it again with meeple play games/mahjong --map table \
             --players human,random,random,random --seed {seed}"
        )
    );
    // Saved, resumed from its save or recorded, the game can go on: its seed stays untold.
    let dir = tempfile::tempdir().unwrap();
    let (save, record) = (dir.path().join("s.json"), dir.path().join("r.json"));
    let typed = format!("save {}\nquit\n", save.display());
    let saved = play(&["--players", "human,random,random,random"], &typed);
    let resumed = play(&["--load", save.to_str().unwrap()], "quit\n");
    let recording = ["--players", "human,random,random,random", "--record"];
    let recorded = play(
        &[&recording[..], &[record.to_str().unwrap()]].concat(),
        "quit\n",
    );
    for out in [saved, resumed, recorded] {
        assert!(!out.contains("the game's seed was "), "{out}");
        assert!(
            out.contains("the seed stays untold: the game can go on from its file"),
            "{out}"
        );
    }
    let given = play(
        &["--players", "human,random,random,random", "--seed", "9"],
        "quit\n",
    );
    assert!(
        given.lines().next().unwrap().contains("· seed 9 ·"),
        "{given}"
    );
}

/// At a claim, `why_not` answers about the seat asking and on what it may know: a discard
/// typed there (by code or by name) says nothing of the discarder's hand.
#[test]
fn why_not_speaks_of_the_asking_seat_only() {
    let mut g = start("mahjong", "table", 4, 1, &[]);
    act(&mut g, "discard 0");
    assert_eq!(g.state_name(), "claim");
    let p = g.pending().unwrap().seat;
    let own = g.world().unwrap().zones[HAND][p].clone();
    for t in 0..34 {
        let said = g.why_not(p, &Action::parse(&format!("discard {t}")).unwrap());
        let other = (0..4)
            .filter(|q| *q != p)
            .any(|q| said.contains(&format!("P{} has", q + 1)));
        assert!(!other, "{said}");
        if !own.contains(&t) {
            assert!(said.contains(&format!("P{} has no", p + 1)), "{said}");
            // A tile typed by its name is the same tile.
            let name = g.eval(&format!("return ctx.items[{}]", t + 1)).unwrap();
            let typed = format!("discard {}", name.as_str().unwrap());
            let by_name = g.why_not(p, &Action::parse(&typed).unwrap());
            assert_eq!(by_name.split(": ").last(), said.split(": ").last());
        }
    }
}

/// While a claim window is open, what the table waits for names no seat: a spinner or a HUD
/// line naming the bot that thinks would tell who could claim the discard.
#[test]
fn who_thinks_in_a_claim_window_stays_secret() {
    use meeple::replay::Record;
    use meeple::session::Session;
    let game = start("mahjong", "table", 4, 5, &[]);
    let seats = vec![Seat::Human, Seat::Random, Seat::Random, Seat::Random];
    let hash = game.snapshot().unwrap().hash();
    let kinds = seats.iter().map(|s| s.to_string()).collect();
    let record = Record::new(&game, kinds, hash);
    let mut s = Session::new(game, seats, record);
    let mut said = std::collections::BTreeSet::new();
    let mut bot = Seat::Random.bot(5, 0).unwrap();
    while s.game.pending().is_some() && said.len() < 2 {
        let p = s.game.pending().unwrap();
        let (seat, claim) = (p.seat, !p.waiting.is_empty());
        if seat != 0 {
            let what = s.thinking();
            match claim {
                true => assert_eq!(what, "the table is answering"),
                false => assert_eq!(what, format!("P{} (random) is thinking", seat + 1)),
            }
            said.insert(what.starts_with("the table"));
        }
        let i = bot.choose(&mut s.game).unwrap().index;
        s.apply(seat, i).unwrap();
    }
    assert_eq!(said.len(), 2, "both a turn and a claim window were seen");
}

/// A person's time to answer a claim: `--answer-seconds` when given, else the state's
/// `seconds`, else 15; a negative `seconds` is an error at its key.
#[test]
fn the_time_to_answer_is_the_flags_else_the_states() {
    use meeple::session::Session;
    use std::time::Duration;
    let (_tmp, root) = copy_game("mahjong", "games/mj");
    let toml = std::fs::read_to_string(root.join("game.toml")).unwrap();
    let claim = "priority = { win = 3, kong = 2, pung = 2, chow = 1 }, default = \"pass\"";
    let timed = toml.replace(claim, &format!("{claim}, seconds = 40"));
    std::fs::write(root.join("game.toml"), &timed).unwrap();
    let pkg = std::sync::Arc::new(meeple::def::load_package(&root).unwrap());
    let mut g = start_with(&pkg, "table", 4, 1, &[]);
    g.apply_index(0).unwrap();
    assert_eq!(
        (g.state_name(), g.answer_seconds()),
        ("claim".to_string(), Some(40))
    );
    let start = g.snapshot().unwrap().hash();
    let record = meeple::replay::Record::new(&g, vec!["human".into(); 4], start);
    let seats = vec![Seat::Human; 4];
    let mut s = Session::new(g, seats, record);
    assert_eq!(s.answer_limit(), Some(Duration::from_secs(40)));
    s.answer_seconds = Some(5);
    assert_eq!(s.answer_limit(), Some(Duration::from_secs(5)));
    s.answer_seconds = Some(0);
    assert_eq!(s.answer_limit(), None);
    // Time running out takes the default answer; the first option when none has its verb.
    assert_eq!(s.game.default_missing(), None);
    assert_eq!(s.default_label(), "'pass'");
    std::fs::write(
        root.join("game.toml"),
        timed.replace("seconds = 40", "seconds = -1"),
    )
    .unwrap();
    let Err(diags) = meeple::def::load_package(&root) else {
        panic!("a negative seconds is refused")
    };
    let said = meeple::diag::render(&diags);
    assert!(
        said.contains("error: state 'claim': 'seconds' is -1: give 0 or more (0 waits for ever)"),
        "{said}"
    );
}

/// When no option of the seat asked has the state's default verb, the clock says the first
/// option is taken, and why.
#[test]
fn a_default_no_option_has_is_said_with_the_first_option() {
    use meeple::session::Session;
    let (_tmp, root) = copy_game("mahjong", "games/mj");
    let toml = std::fs::read_to_string(root.join("game.toml")).unwrap();
    let skip = toml.replace("default = \"pass\"", "default = \"skip\"");
    std::fs::write(root.join("game.toml"), skip).unwrap();
    let pkg = std::sync::Arc::new(meeple::def::load_package(&root).unwrap());
    // The first seed whose first claim asks a seat the rules name (it could claim).
    let named = (1..200).find_map(|seed| {
        let mut g = start_with(&pkg, "table", 4, seed, &[]);
        g.apply_index(0).unwrap();
        let options = g.pending()?.options().to_vec();
        (g.state_name() == "claim" && options.iter().all(|o| o.verb != "skip")).then_some(g)
    });
    let g = named.expect("a claim a named seat answers within 200 seeds");
    assert_eq!(g.default_missing().as_deref(), Some("skip"));
    let start = g.snapshot().unwrap().hash();
    let record = meeple::replay::Record::new(&g, vec!["human".into(); 4], start);
    let mut s = Session::new(g, vec![Seat::Human; 4], record);
    let first = s.label(0);
    assert_eq!(
        s.default_label(),
        format!("the first option, '{first}' (none is 'skip', the state's default)")
    );
}
