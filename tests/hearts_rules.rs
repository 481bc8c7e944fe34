//! Hearts: three cards passed left, right, across, then none; the two of clubs leads; suit
//! followed; no hearts led before they break and no points on the first trick; the highest
//! card of the suit led takes the trick; shooting the moon; the lowest score wins at the
//! target. And the pass as the window plays it: `R.spot` names the three cards together.

mod common;
use common::{act, counter, eval, exec, options, play_typed, start, typing};
use meeple::core::action::Arg;
use meeple::engine::Game;

/// Hands dealt by name (P1 first), the rest of the hand's state as Lua sets it (`setup`), and
/// seat `to_play` (1-based) to play.
fn position(g: &mut Game, hands: [&str; 4], setup: &str, to_play: usize) {
    let mut lua = String::from(
        "local function code(n) for i, v in ipairs(ctx.items) do if v == n then return i - 1 end end end\n",
    );
    for (p, hand) in hands.iter().enumerate() {
        lua += &format!("ctx.zone.hand[{}]:clear()\n", p + 1);
        for card in hand.split_whitespace() {
            lua += &format!("ctx.zone.hand[{}]:add(code('{card}'))\n", p + 1);
        }
    }
    lua += &format!("{setup}\nctx:next_player({to_play})\n");
    exec(g, &lua);
}

/// The game after everyone passed their first option (the first three cards of the hand).
fn passed(seed: u64) -> Game {
    let mut g = start("hearts", "table", 4, seed, &[]);
    for _ in 0..4 {
        let first = options(&g)[0].clone();
        act(&mut g, &first);
    }
    g
}

/// The cards in seat `p`'s (1-based) pile of `zone`.
fn pile(g: &Game, zone: &str, p: usize) -> Vec<i64> {
    let items = eval(g, &format!("ctx.zone.{zone}[{p}]:items()"));
    // (An empty Lua table reads as an empty JSON object.)
    serde_json::from_value(items).unwrap_or_default()
}

fn hand(g: &Game, p: usize) -> Vec<i64> {
    pile(g, "hand", p)
}

fn seat_to_play(g: &Game) -> usize {
    g.pending().expect("a decision").seat + 1
}

fn log(g: &Game) -> Vec<String> {
    (g.events().iter())
        .filter(|e| e.is_line())
        .map(|e| e.to_string())
        .collect()
}

#[test]
fn the_first_hand_passes_three_cards_to_the_left() {
    let g0 = start("hearts", "table", 4, 1, &[]);
    let before: Vec<Vec<i64>> = (1..=4).map(|p| hand(&g0, p)).collect();
    assert!(before.iter().all(|h| h.len() == 13), "{before:?}");
    assert_eq!(options(&g0).len(), 286, "three of 13 cards");
    let g = passed(1);
    for (p, dealt) in before.iter().enumerate() {
        let left = (p + 1) % 4;
        // (The two of clubs may already lie in its holder's trick pile.)
        let now = [hand(&g, left + 1), pile(&g, "trick", left + 1)].concat();
        let got: Vec<i64> = dealt[..3].to_vec();
        assert!(
            got.iter().all(|c| now.contains(c)),
            "P{} got {got:?}",
            left + 1
        );
        let kept = hand(&g, p + 1);
        assert!(
            got.iter().all(|c| !kept.contains(c)),
            "P{} kept none",
            p + 1
        );
    }
    let lines = log(&g);
    assert!(
        lines.contains(&"everyone passed three cards left".to_string()),
        "{lines:?}"
    );
    // Each seat is told the cards it passed, and to whom.
    let told = |p: usize| format!("(P{p} only) you passed ");
    for p in 1..=4 {
        let line = lines
            .iter()
            .find(|l| l.starts_with(&told(p)))
            .expect("told");
        assert!(line.ends_with(&format!(" to P{}", p % 4 + 1)), "{line}");
    }
}

#[test]
fn the_two_of_clubs_leads_the_first_trick_as_a_forced_play() {
    let g = passed(1);
    let holder = (1..=4).find(|p| eval(&g, &format!("ctx.zone.trick[{p}]:has(0)")) == 1);
    let holder = holder.expect("someone led the two of clubs");
    assert_eq!(seat_to_play(&g), holder % 4 + 1, "the next seat follows");
    let lead = format!("P{holder} plays 2♣");
    assert!(log(&g).contains(&lead), "{:?}", log(&g));
}

#[test]
fn suit_is_followed_hearts_wait_to_break_and_the_highest_of_the_suit_led_takes() {
    let mut g = passed(2);
    let hands = ["5C 9C 2H QS", "3C KC 4H", "2D AH QH", "JC 7S"];
    position(
        &mut g,
        hands,
        "G.trick, G.lead, G.tricks, G.broken = {}, nil, 1, false",
        1,
    );
    assert_eq!(
        options(&g),
        ["play 5C", "play 9C", "play QS"],
        "no heart led"
    );
    act(&mut g, "play 5C");
    assert_eq!(options(&g), ["play 3C", "play KC"], "clubs followed");
    act(&mut g, "play KC");
    assert_eq!(
        options(&g),
        ["play 2D", "play AH", "play QH"],
        "void: any card"
    );
    act(&mut g, "play AH");
    // P4's lone club is played for it, said once; the king of clubs takes the trick and its
    // heart.
    assert_eq!(eval(&g, "G.pts"), serde_json::json!([0, 1, 0, 0]));
    assert_eq!(seat_to_play(&g), 2, "the taker leads");
    let lines = log(&g);
    let tail = &lines[lines.len() - 4..];
    assert_eq!(
        tail,
        [
            "P2 plays K♣",
            "P3 plays A♥: hearts are broken",
            "P4 plays J♣",
            "P2 takes trick 2 (1 point)"
        ]
    );
}

#[test]
fn no_points_go_on_the_first_trick_unless_a_hand_holds_nothing_else() {
    let mut g = passed(2);
    let hands = ["5C", "2D QS 5H", "5H QH", "9C"];
    let first_trick =
        "ctx.zone.trick[1]:clear() ctx.zone.trick[1]:add(0) G.trick = { { seat = 1, card = 0 } } \
         G.lead, G.tricks, G.broken = 'C', 0, false";
    position(&mut g, hands, first_trick, 2);
    // P2's one card without points is its lone option, played for it; P3 holds only points.
    assert_eq!(log(&g).last().map(String::as_str), Some("P2 plays 2♦"));
    assert_eq!(options(&g), ["play 5H", "play QH"], "only points left");
}

/// Taking every point shoots the moon: the others take 26 each. A score past the target ends
/// the game, and the lowest score wins.
#[test]
fn shooting_the_moon_gives_the_others_26_and_the_lowest_score_wins() {
    let mut g = passed(3);
    exec(
        &mut g,
        "ctx.counter:set(1, 'score', 5) ctx.counter:set(2, 'score', 70)",
    );
    let last_trick =
        "G.trick, G.lead, G.tricks, G.broken = {}, nil, 12, true G.pts = { 22, 0, 0, 0 }";
    position(&mut g, ["AH", "2H", "3H", "4H"], last_trick, 1);
    let scores: Vec<i64> = (1..=4).map(|p| counter(&g, p, "score")).collect();
    assert_eq!(scores, [5, 96, 26, 26]);
    assert!(log(&g).contains(&"P1 shoots the moon!".to_string()));
    assert_eq!(g.outcome().map(|o| o.to_string()), None, "96 is under 100");
    let mut g = passed(3);
    exec(
        &mut g,
        "ctx.counter:set(1, 'score', 5) ctx.counter:set(2, 'score', 80)",
    );
    position(&mut g, ["AH", "2H", "3H", "4H"], last_trick, 1);
    assert_eq!(g.outcome().map(|o| o.to_string()), Some("P1 won".into()));
}

/// The hand after the first passes right; the window plays a pass on its three cards.
#[test]
fn a_pass_is_played_on_its_three_cards_and_the_next_hand_passes_right() {
    let mut g = start("hearts", "table", 4, 1, &[]);
    let seat = seat_to_play(&g);
    let shown = g.shown(Some(seat - 1));
    let first: Vec<i64> = hand(&g, seat)[..3].to_vec();
    let place: Vec<Arg> = std::iter::once(Arg::Str("hand".into()))
        .chain(first.iter().map(|c| Arg::Int(*c)))
        .collect();
    assert_eq!(shown.spots[0], place);
    let names: Vec<String> = first.iter().map(|c| g.pkg.item_label(*c)).collect();
    assert_eq!(shown.labels[0], format!("pass {}", names.join(" ")));
    let to = seat % 4 + 1;
    assert_eq!(
        shown.status[seat - 1],
        [format!("0 points this hand · passes left to P{to}")]
    );
    let mut g = passed(3);
    exec(&mut g, "ctx.counter:set(1, 'score', 5)");
    let last_trick =
        "G.trick, G.lead, G.tricks, G.broken = {}, nil, 12, true G.pts = { 0, 0, 0, 0 }";
    position(&mut g, ["AH", "2H", "3H", "4H"], last_trick, 1);
    let seat = seat_to_play(&g);
    let to = (seat + 2) % 4 + 1;
    assert_eq!(
        g.shown(Some(seat - 1)).status[seat - 1],
        [format!("0 points this hand · passes right to P{to}")]
    );
}

/// At the terminal a pass is typed by the cards' names or as the labels show them, in any
/// order and letter case (P1 holds Q♠ K♠ A♥ on seed 3, and no A♠).
#[test]
fn a_pass_is_typed_in_any_order_by_names_or_as_shown() {
    for typed in ["pass as qs ks", "pass A♥ K♠ Q♠", "PASS KS AH QS"] {
        let text = play_typed("hearts", "human,ai,ai,ai", 3, &format!("{typed}\nquit\n"));
        let passed = text.contains("everyone passed three cards left");
        assert_eq!(passed, typed != "pass as qs ks", "{typed}:\n{text}");
    }
}

/// A refused action is shown with its cards' labels, whether the rules say why or the
/// options are listed.
#[test]
fn a_refused_action_names_its_cards_as_labelled() {
    let text = play_typed(
        "hearts",
        "human,ai,ai,ai",
        3,
        "play 2C\npass QS QS AH\nquit\n",
    );
    let rejected: Vec<&str> = (text.lines())
        .filter_map(|l| l.strip_prefix("> rejected: "))
        .collect();
    assert_eq!(rejected.len(), 2, "{text}");
    assert!(
        rejected[0].starts_with(
            "'play 2♣' is not a legal option for P1 in state 'pass' (options: 'pass 5♣ 9♣ 2♦', "
        ),
        "{text}"
    );
    assert_eq!(
        rejected[1],
        "'pass Q♠ Q♠ A♥' is not allowed: name three different cards"
    );
}

/// Without --players, a game of four gets four seats: `sim` seats the AI in each, `play` a
/// person and three AIs.
#[test]
fn a_four_player_game_seats_four_by_default() {
    let meeple = |args: &[&str]| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_meeple"));
        cmd.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
        let out = typing(&mut cmd, "quit\n");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let sim = meeple(&["sim", "hearts", "--games", "2", "--jobs", "1"]);
    assert!(sim.contains(" · players ai,ai,ai,ai · "), "{sim}");
    let play = meeple(&["play", "hearts", "--seed", "3", "--text", "--no-watch"]);
    for seat in [">P1 (human)", " P2 (ai)", " P3 (ai)", " P4 (ai)"] {
        assert!(play.contains(seat), "{play}");
    }
    // The deck is dealt out: an empty pile reads as a dash, not as "0 face down".
    assert!(play.contains("\ndeck: —\n"), "{play}");
}
