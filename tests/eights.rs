//! Card games as data, through the Crazy Eights fixture (`tests/fixtures/eights`): 52 cards
//! generated from a product of suits and ranks with a value by rank, read in Lua with
//! `ctx:item`; a discard pile of which every seat sees the top card alone; `R.spot` placing
//! a play on the card in the hand, a draw on the stock and a called suit nowhere; and the
//! real binary's diagnostics for bad item declarations and a bad place from `R.spot`.

mod common;
use common::*;
use meeple::core::action::Arg;
use meeple::def::{load_package, Package};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

const STOCK: usize = 0;
const HAND: usize = 1;
const DISCARDS: usize = 2;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/eights")
}

fn eights() -> Arc<Package> {
    Arc::new(load_package(&fixture()).unwrap_or_else(|d| panic!("{}", meeple::diag::render(&d))))
}

#[test]
fn the_product_makes_52_named_cards_with_their_fields() {
    let pkg = eights();
    assert_eq!(pkg.items.names.len(), 52);
    assert_eq!(pkg.items.names[..3], ["A♠", "2♠", "3♠"]);
    assert_eq!(pkg.items.names[51], "K♣");
    assert_eq!(pkg.items.fields, ["suit", "rank", "value"]);
    let g = start_with(&pkg, "table", 2, 1, &[]);
    assert_eq!(
        eval(&g, "ctx:item(0)"),
        json!({ "code": 0, "name": "A♠", "label": "A♠", "suit": "♠", "rank": "A", "value": 1 })
    );
    assert_eq!(
        eval(&g, "ctx:item(20)"),
        json!({ "code": 20, "name": "8♥", "label": "8♥", "suit": "♥", "rank": "8", "value": 50 })
    );
    assert_eq!(eval(&g, "ctx:item(51).value"), json!(10));
    assert_eq!(eval(&g, "#ctx.items"), json!(52));
    let shown = |code: &str| raised(&g, code).as_str().unwrap_or_default().to_string();
    assert!(
        shown("ctx:item(52)")
            .ends_with("item code 52 out of range (game.toml names 52 items: 0..51)"),
        "{}",
        shown("ctx:item(52)")
    );
    let kept = "local c = ctx:item(0); c.value = 99; return ctx:item(0).value";
    assert_eq!(
        g.eval(kept).unwrap(),
        json!(1),
        "each call gives a new copy"
    );
}

#[test]
fn every_seat_sees_the_top_discard_and_only_a_count_below_it() {
    for seed in 0..3 {
        let mut g = start_with(&eights(), "table", 3, seed, &[]);
        let mut plays = 0;
        while let Some((seat, first)) = g.pending().map(|p| (p.seat, p.options()[0].clone())) {
            let zones = g.world().unwrap().zones.clone();
            let discards = &zones[DISCARDS][0];
            for viewer in [None, Some(0), Some(1), Some(2)] {
                let v = g.view(viewer).unwrap();
                assert_eq!(
                    v["zones"]["discards"],
                    json!({ "top": discards.last(), "count": discards.len() }),
                    "seed {seed}"
                );
                let stock = zones[STOCK][0].len();
                assert_eq!(v["zones"]["stock"], json!({ "count": stock }));
                for q in 0..3 {
                    let hand = &zones[HAND][q];
                    let seen = match viewer == Some(q) {
                        true => json!(hand),
                        false => json!({ "count": hand.len() }),
                    };
                    assert_eq!(v["zones"]["hand"][q], seen, "seed {seed}: P{}", q + 1);
                }
            }
            if discards.len() > 2 {
                plays += 1;
                the_cards_under_the_top_are_re_dealt(&mut g, seat);
            }
            g.apply(seat, &first).unwrap();
        }
        assert!(plays > 0, "seed {seed}: the pile grew past two cards");
    }
}

/// The world a seat's bot is shown keeps its hand, the top discard and every pile's size,
/// and deals the cards under the top anew: the same for any order they truly lie in.
fn the_cards_under_the_top_are_re_dealt(g: &mut meeple::engine::Game, seat: usize) {
    let truth = g.snapshot().unwrap();
    let before = truth.world.zones.clone();
    g.determinize(seat, 11).unwrap();
    let seen = g.world().unwrap().zones;
    g.restore(&truth).unwrap();
    assert_eq!(seen[HAND][seat], before[HAND][seat], "the seat's own hand");
    assert_eq!(
        seen[DISCARDS][0].last(),
        before[DISCARDS][0].last(),
        "the top"
    );
    let sizes = |z: &Vec<Vec<Vec<i64>>>| -> Vec<Vec<usize>> {
        z.iter()
            .map(|ps| ps.iter().map(Vec::len).collect())
            .collect()
    };
    assert_eq!(sizes(&seen), sizes(&before));
    let unseen = |z: &Vec<Vec<Vec<i64>>>| -> Vec<i64> {
        let d = &z[DISCARDS][0];
        let mut v: Vec<i64> = (z[STOCK][0].iter().chain(&d[..d.len() - 1]))
            .chain(
                (0..z[HAND].len())
                    .filter(|q| *q != seat)
                    .flat_map(|q| &z[HAND][q]),
            )
            .copied()
            .collect();
        v.sort();
        v
    };
    assert_eq!(unseen(&seen), unseen(&before), "the same unseen cards");
}

/// The first seed from which P1 of two opens with an option of `verb`.
fn seed_opening_with(verb: &str) -> u64 {
    (0..200)
        .find(|s| {
            let g = start_with(&eights(), "table", 2, *s, &[]);
            options(&g).iter().any(|o| o.starts_with(verb))
        })
        .expect("a seed")
}

#[test]
fn r_spot_places_plays_on_the_hand_draws_on_the_stock_and_suits_nowhere() {
    let arg = |s: &str| Arg::Str(s.to_string());
    let mut g = start_with(&eights(), "table", 2, seed_opening_with("play 7"), &[]);
    let spots = g.shown(Some(0)).spots;
    let placed: Vec<Vec<Arg>> = (g.pending().unwrap().options().iter())
        .map(|o| vec![arg("hand"), o.args[0].clone()])
        .collect();
    assert_eq!(spots, placed);
    // An eight calls a suit: {"suit", 3} is a button, not the card whose code is 3.
    act(&mut g, "play 7");
    assert_eq!(options(&g), ["suit 1", "suit 2", "suit 3", "suit 4"]);
    assert_eq!(g.shown(Some(0)).spots, vec![Vec::<Arg>::new(); 4]);
    assert_eq!(g.shown(Some(0)).labels[2], "call ♦");
    let mut g = start_with(&eights(), "table", 2, seed_opening_with("draw"), &[]);
    assert_eq!(g.shown(Some(0)).spots, vec![vec![arg("stock")]]);
}

/// A copy of the fixture at `<tmp>/eights` with `edits` (file, from, to) made, checked by the
/// real binary from `<tmp>`: its exit status and what it printed on stderr.
fn check_edited(edits: &[(&str, &str, &str)]) -> (bool, String) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("eights");
    copy_dir(&fixture(), &root);
    for (file, from, to) in edits {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        assert!(text.contains(from), "{file} has {from:?}");
        std::fs::write(root.join(file), text.replacen(from, to, 1)).unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_meeple"))
        .args(["check", "eights"])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (out.status.success(), stderr)
}

/// A misspelt field of an item (`c.suite`) is an error at the reading line with the field
/// meant: read as nil, it would compare equal to every other nil and `check` would pass.
#[test]
fn a_misspelt_item_field_is_an_error_at_its_line() {
    let edit = ("rules.lua", "c.suit == G.suit", "c.suite == G.suit");
    let (ok, stderr) = check_edited(&[edit]);
    assert!(!ok, "{stderr}");
    let line = at("rules.lua", &[edit], "c.suite")
        .split(':')
        .next()
        .unwrap()
        .to_string();
    let said = format!("eights/rules.lua:{line}: error: item '");
    assert!(stderr.contains(&said), "{stderr}");
    assert!(
        stderr.contains(
            "' has no field 'suite'; did you mean 'suit', or should game.toml say 'suite'?\n"
        ),
        "{stderr}"
    );
    // `label` is every item's own, not game.toml's.
    let g = start_with(&eights(), "table", 2, 1, &[]);
    assert_eq!(
        raised(&g, "local _ = ctx:item(0).lable"),
        json!("eval:1: item 'A♠' has no field 'lable'; did you mean 'label'?")
    );
}

/// `line:col` of the first `needle` in the fixture's `file` after `edits`, as diagnostics
/// count (from 1, in characters).
fn at(file: &str, edits: &[(&str, &str, &str)], needle: &str) -> String {
    let mut text = std::fs::read_to_string(fixture().join(file)).unwrap();
    for (f, from, to) in edits {
        if *f == file {
            text = text.replacen(from, to, 1);
        }
    }
    let offset = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} in {file}"));
    let line = text[..offset].matches('\n').count() + 1;
    let col = text[..offset].rsplit('\n').next().unwrap().chars().count() + 1;
    format!("{line}:{col}")
}

#[test]
fn bad_item_declarations_are_all_reported_where_they_are() {
    let edits = [
        (
            "game.toml",
            "name = \"{rank}{suit}\"",
            "nmae = \"{rank}{suit}\"",
        ),
        ("game.toml", "Q = 10, ", ""),
        ("game.toml", "K = 10 }", "K = 10, Kk = 10 }"),
    ];
    let (ok, stderr) = check_edited(&edits);
    assert!(!ok);
    let rank = at("game.toml", &edits, "rank = { A = 1");
    assert_eq!(
        stderr,
        format!(
            "eights/game.toml:{}: error: unknown key 'nmae' in 'items'; did you mean 'name'?\n\
             eights/game.toml:{rank}: error: items: field 'value' has no value for rank Q\n\
             eights/game.toml:{}: error: items: field 'value' gives a value for rank 'Kk', which is not one of the rank values; did you mean 'K'?\n",
            at("game.toml", &edits, "nmae"),
            at("game.toml", &edits, "Kk"),
        )
    );
}

#[test]
fn a_name_or_a_field_naming_an_unknown_field_is_reported() {
    let edits = [
        ("game.toml", "{rank}{suit}", "{rank}{suite}"),
        ("game.toml", "rank = { A = 1", "rnak = { A = 1"),
    ];
    let (ok, stderr) = check_edited(&edits);
    assert!(!ok);
    assert_eq!(
        stderr,
        format!(
            "eights/game.toml:{}: error: items: the name names {{suite}}, which is not a field of the items; did you mean 'suit'? (fields: suit, rank, value)\n\
             eights/game.toml:{}: error: items: field 'value' is given by 'rnak', which is not a product field; did you mean 'rank'? (product: suit, rank)\n",
            at("game.toml", &edits, "name ="),
            at("game.toml", &edits, "rnak"),
        )
    );
}

#[test]
fn a_place_off_the_table_from_r_spot_is_an_error_at_its_return() {
    let edits = [("rules.lua", "return \"stock\"", "return \"stok\"")];
    let (ok, stderr) = check_edited(&edits);
    assert!(!ok);
    // At the line that returns it.
    let at = at("rules.lua", &edits, "return \"stok\"");
    let line = at.split(':').next().unwrap();
    assert!(
        stderr.contains(&format!(
            "eights/rules.lua:{line}: error: R.spot returned ('stok'): no zone 'stok'; did you mean 'stock'? (zones: stock, hand, discards)"
        )),
        "{stderr}"
    );
}

/// A derived field with a wrong value is one error, with the value meant (letter case
/// aside); a label naming that field is not blamed for it.
#[test]
fn a_wrong_field_value_is_not_blamed_on_the_label_naming_the_field() {
    let edits = [
        ("game.toml", "rank = { A = 1", "rank = { a = 1"),
        (
            "game.toml",
            "name = \"{rank}{suit}\"",
            "name = \"{rank}{suit}\"\nlabel = \"{rank}{suit}{value}\"",
        ),
    ];
    let (ok, stderr) = check_edited(&edits);
    assert!(!ok);
    let rank = at("game.toml", &edits, "rank = { a = 1");
    assert_eq!(
        stderr,
        format!(
            "eights/game.toml:{rank}: error: items: field 'value' has no value for rank A\n\
             eights/game.toml:{}: error: items: field 'value' gives a value for rank 'a', which is not one of the rank values; did you mean 'A'?\n",
            at("game.toml", &edits, "a = 1"),
        )
    );
}

/// A place on items the seat does not hold is an error at `R.spot` under `check`: the window
/// would make a button of the option, and a click on the card would do nothing.
#[test]
fn a_place_on_a_card_not_in_the_hand_is_an_error_at_r_spot() {
    let edits = [(
        "rules.lua",
        "return \"hand\", option[2]",
        "return \"hand\", (option[2] + 1) % 52",
    )];
    let (ok, stderr) = check_edited(&edits);
    assert!(!ok);
    // At the hook: the hand is checked after it returned.
    let at = at("rules.lua", &[], "function R.spot");
    let line = at.split(':').next().unwrap();
    let first = stderr.lines().next().unwrap_or_default();
    assert!(
        first.starts_with(&format!(
            "eights/rules.lua:{line}: error: R.spot places 'play "
        )),
        "{stderr}"
    );
    assert!(
        first.contains(") in 'hand', but P") && first.contains("'s 'hand' lacks "),
        "{stderr}"
    );
    // A card's name where its code belongs is told apart.
    let named = [(
        "rules.lua",
        "return \"hand\", option[2]",
        "return \"hand\", ctx.items[option[2] + 1]",
    )];
    let (ok, stderr) = check_edited(&named);
    assert!(!ok);
    assert!(
        stderr.contains("'s name: return its code (")
            && stderr.contains("), expected a zone's name (and item codes in it); '"),
        "{stderr}"
    );
}

/// `meeple play` of a copy of the fixture with `names` in place of its cards' name pattern
/// (`name = "…"`, and a `label` line if any), P1 a person against the AI on seed 1, quit at
/// once: what the terminal printed.
fn terminal_with_names(names: &str) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("eights");
    copy_dir(&fixture(), &root);
    let manifest = std::fs::read_to_string(root.join("game.toml")).unwrap();
    let renamed = manifest.replacen("name = \"{rank}{suit}\"", names, 1);
    std::fs::write(root.join("game.toml"), renamed).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_meeple"));
    cmd.args([
        "play",
        "eights",
        "--players",
        "human,ai",
        "--seed",
        "1",
        "--text",
        "--no-watch",
    ])
    .current_dir(tmp.path());
    String::from_utf8(typing(&mut cmd, "quit\n").stdout).unwrap()
}

/// The terminal shows a discard pile of one card as that card, and a hand of cards whose
/// names have spaces with commas between them.
#[test]
fn the_terminal_shows_piles_plainly() {
    let plain = terminal_with_names("name = \"{rank}{suit}\"");
    assert!(plain.contains("\ndiscards: K♥\n"), "{plain}");
    assert!(
        plain.contains("\n     hand      2♥ 5♥ A♦ 4♣ 10♣\n"),
        "{plain}"
    );
    let spaced = terminal_with_names("name = \"{rank} of {suit}\"");
    assert!(
        spaced.contains("\n     hand      2 of ♥, 5 of ♥, A of ♦, 4 of ♣, 10 of ♣\n"),
        "{spaced}"
    );
}

/// Cards named plainly for typing (`KH`) and labelled for the eye (`K of ♥`): piles show the
/// labels, and the rules read both.
#[test]
fn piles_show_item_labels_and_options_keep_the_names() {
    let names = "name = \"{rank}{suit}\"\nlabel = \"{rank} of {suit}\"";
    let shown = terminal_with_names(names);
    assert!(shown.contains("\ndiscards: K of ♥\n"), "{shown}");
    assert!(
        shown.contains("\n     hand      2 of ♥, 5 of ♥, A of ♦"),
        "{shown}"
    );
    let label = "name = \"{rank}{suit}\"\nlabel = \"{rank} of {suiit}\"";
    let (ok, stderr) = check_edited(&[("game.toml", "name = \"{rank}{suit}\"", label)]);
    assert!(!ok);
    assert!(
        stderr.contains(": error: items: the label names {suiit}, which is not a field of the items; did you mean 'suit'? (fields: suit, rank, value)"),
        "{stderr}"
    );
}
