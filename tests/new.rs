//! `meeple new`: each kind of template makes a game folder that passes `check`, simulates,
//! plays to the end in the terminal and opens in the window (under Xvfb); an existing folder
//! or a bad id is refused with its reason and nothing written.

mod common;
use common::{meeple_in, typing};

use std::path::Path;
use std::process::{Command, Stdio};

fn ok(cwd: &Path, args: &[&str]) -> String {
    let out = meeple_in(cwd, args);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(
        out.status.success(),
        "meeple {args:?} failed:\n{text}\n{err}"
    );
    text + &err
}

#[test]
fn every_kind_of_new_game_checks_simulates_plays_and_opens() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    for (kind, players) in [
        ("grid", "ai,random"),
        ("track", "ai,random,ai"),
        ("table", "random,ai,ai,random"),
    ] {
        let name = format!("my{kind}");
        let made = ok(cwd, &["new", &name, "--kind", kind, "--title", "My 游戏"]);
        assert!(
            made.starts_with(&format!("made games/{name}: a {kind} game, 'My 游戏'\n")),
            "{made}"
        );
        let dir = format!("games/{name}");
        let checked = ok(cwd, &["check", &dir]);
        // Every state entered and every verb played within the fewest games: no warning.
        assert!(
            checked.starts_with(&format!("ok: {name} (1 map, 20 games: 16 random"))
                && checked.lines().count() == 1,
            "{checked}"
        );
        let sim = ok(cwd, &["sim", &dir, "--players", players, "--games", "20"]);
        assert!(sim.contains("finished         20  (100.0%)"), "{sim}");
        let play = ok(
            cwd,
            &[
                "play",
                &dir,
                "--players",
                players,
                "--seed",
                "2",
                "--text",
                "--no-watch",
            ],
        );
        assert!(play.lines().any(|l| l.starts_with("game over: ")), "{play}");
        if kind == "table" {
            // A round is each player's turn: five cards a hand, five rounds.
            assert!(
                sim.contains("rounds     mean 5.0  median 5  p90 5"),
                "{sim}"
            );
            // Every card played is told, whether it scores or not.
            let chosen = play.matches(") → play the ").count();
            let told = play.lines().filter(|l| l.contains(" plays ")).count();
            assert_eq!((chosen > 0, told), (true, chosen), "{play}");
            // An option's text is the card as the player reads it: `play 2` plays the 2.
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_meeple"));
            cmd.args(["play", &dir, "--players", "human,human", "--seed", "3"])
                .args(["--text", "--no-watch"])
                .current_dir(cwd);
            let typed = String::from_utf8_lossy(&typing(&mut cmd, "play 2\n").stdout).to_string();
            assert!(
                typed.contains("hand   2 3 6 7 9") && typed.contains("· P1 plays 2 and scores 2"),
                "{typed}"
            );
        }
        let shot = cwd.join(format!("{kind}.png"));
        let seats = format!("human{}", &players[players.find(',').unwrap()..]);
        let out = Command::new("xvfb-run")
            .args([
                "-a",
                "-s",
                "-screen 0 1280x1024x24",
                env!("CARGO_BIN_EXE_meeple"),
            ])
            .args([
                "play",
                &dir,
                "--players",
                &seats,
                "--seed",
                "3",
                "--no-watch",
            ])
            .arg("--screenshot")
            .arg(&shot)
            .current_dir(cwd)
            .stdin(Stdio::null())
            .output()
            .expect("xvfb-run runs (install it: apt-get install xvfb)");
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            said.contains("(1280x800) after 0 decisions; P1 to play"),
            "{said}"
        );
        assert!(shot.is_file(), "{kind}: no screenshot");
    }
}

#[test]
fn an_existing_folder_or_a_bad_name_is_refused_and_a_path_names_the_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    std::fs::create_dir_all(cwd.join("games/taken")).unwrap();
    std::fs::write(cwd.join("games/taken/notes.txt"), "mine").unwrap();
    let out = meeple_in(cwd, &["new", "taken"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "meeple new: error: games/taken already exists: nothing was written (choose another name or --dir)\n"
    );
    assert_eq!(out.status.code(), Some(1));
    let left: Vec<_> = std::fs::read_dir(cwd.join("games/taken"))
        .unwrap()
        .collect();
    assert_eq!(left.len(), 1, "the folder was changed");
    let out = meeple_in(cwd, &["new", "my game"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "meeple new: error: 'my game' is not a game id: use letters, digits, '_' and '-' (or a \
         path whose last part is one)\n"
    );
    assert!(!cwd.join("games/my game").exists());
    // A path names the folder, and its last part the id; not beside --dir.
    let out = meeple_in(cwd, &["new", "work/climb", "--dir", "elsewhere"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "meeple new: error: 'work/climb' is a folder and --dir another: give the id (climb) \
         with --dir, or the path alone\n"
    );
    let out = meeple_in(cwd, &["new", "work/climb"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let toml = std::fs::read_to_string(cwd.join("work/climb/game.toml")).unwrap();
    assert!(toml.contains("id = \"climb\""), "{toml}");
}

/// A new game under `games/` here with a shipped game's id hides that game from here on, and
/// `new` says so; another id, or a folder elsewhere, gets no note.
#[test]
fn a_new_game_that_hides_a_shipped_one_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    let note = "note: run from here, 'connect4' names this game, not the shipped game 'connect4'";
    assert!(ok(cwd, &["new", "connect4"]).ends_with(&format!("{note}\n")));
    assert!(!ok(cwd, &["new", "climb"]).contains("note:"));
    assert!(!ok(cwd, &["new", "work/connect4"]).contains("note:"));
}

/// A person waiting for a bot in the table template's game sees the bot's options placed
/// nowhere: its `R.spot` looks cards up in a hand the viewer only guesses, and is asked only
/// for the viewer's own options (where it places each card in the hand).
#[test]
fn another_seats_options_are_not_placed_on_a_hand_the_viewer_guesses() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    ok(cwd, &["new", "cards", "--kind", "table"]);
    let pkg = common::load_at(&cwd.join("games/cards"));
    let mut g = common::start_with(&pkg, "table", 2, 1, &[]);
    let first = g.pending().unwrap().seat;
    let mine = g.shown(Some(first));
    assert_eq!(mine.spot_error, None);
    assert!(
        (mine.spots.iter())
            .all(|s| s.len() == 2 && s[0] == meeple::core::action::Arg::Str("hand".into())),
        "{:?}",
        mine.spots
    );
    let other = g.shown(Some(1 - first));
    assert_eq!(other.spot_error, None);
    assert!(
        other.spots.iter().all(|s| s.is_empty()),
        "{:?}",
        other.spots
    );
}
