//! Diagnostics as a modder or player sees them: each test copies games/monopoly to a temp
//! folder, breaks exactly one thing, runs the real `meeple` binary from the copy's parent folder
//! (so paths print as `mono/...`) and asserts the exact stderr, a failing exit status and no
//! panic. Line numbers are looked up in the edited file, so the tests survive unrelated edits
//! of the game.

mod common;

use common::*;
use meeple::core::action::Action;
use meeple::engine::GameError;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Name of the copy of the property game; paths in messages start with it.
const GAME: &str = "mono";

/// A hang (the bug test 9 guards against) fails the test after this long instead of blocking
/// the test run. A passing test never comes near it.
const HANG_LIMIT: Duration = Duration::from_secs(300);

/// A copy of games/monopoly at `<tmp>/games/mono`. The binary runs in `<tmp>/games`; the
/// shared-scripts folder it would look for (`<tmp>/scripts`) does not exist.
struct Copy {
    _tmp: tempfile::TempDir,
    cwd: PathBuf,
    root: PathBuf,
    name: &'static str,
}

impl Copy {
    fn new() -> Copy {
        Copy::of("monopoly", GAME)
    }

    /// A copy of games/`game` at `<tmp>/games/<name>`.
    fn of(game: &str, name: &'static str) -> Copy {
        let (tmp, root) = copy_game(game, &format!("games/{name}"));
        let cwd = tmp.path().join("games");
        Copy {
            _tmp: tmp,
            cwd,
            root,
            name,
        }
    }

    fn read(&self, file: &str) -> String {
        std::fs::read_to_string(self.root.join(file))
            .unwrap_or_else(|e| panic!("reading {file}: {e}"))
    }

    /// Replaces the first occurrence of `from` in `file` by `to`.
    fn edit(&self, file: &str, from: &str, to: &str) {
        let text = self.read(file);
        assert!(text.contains(from), "{file} does not contain {from:?}");
        std::fs::write(self.root.join(file), text.replacen(from, to, 1)).expect("writing the edit");
    }

    /// 1-based line of the only line of `file` containing `needle`.
    fn line_of(&self, file: &str, needle: &str) -> usize {
        line_in(&self.read(file), needle)
    }

    /// Runs `meeple <args>` in the copy's parent folder.
    fn run(&self, args: &[&str]) -> Output {
        run_in(&self.cwd, args)
    }

    /// `meeple play <copy> --players <players> --seed 1 --text --no-watch <extra>`, with
    /// `typed` on its standard input.
    fn play_text(&self, players: &str, extra: &[&str], typed: &str) -> Output {
        let args = [
            "play",
            self.name,
            "--players",
            players,
            "--seed",
            "1",
            "--text",
            "--no-watch",
        ];
        run_typing(&self.cwd, &[&args[..], extra].concat(), typed)
    }

    fn check(&self) -> Output {
        self.check_named(self.name)
    }

    fn check_named(&self, game: &str) -> Output {
        self.run(&["check", game])
    }
}

struct Output {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run_in(cwd: &Path, args: &[&str]) -> Output {
    run_typing(cwd, args, "")
}

/// Fails the test unless `text` holds `part`, showing the whole text.
fn assert_has(text: &str, part: &str) {
    assert!(text.contains(part), "{part:?} is not in:\n{text}");
}

/// Runs `meeple <args>` in `cwd` with `typed` as its standard input.
fn run_typing(cwd: &Path, args: &[&str], typed: &str) -> Output {
    run_command(Command::new(env!("CARGO_BIN_EXE_meeple")), cwd, args, typed)
}

/// `run_typing` with `DISPLAY` set to `display`, or unset for `None`.
fn run_on_display(display: Option<&str>, args: &[&str], typed: &str) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_meeple"));
    match display {
        Some(d) => c.env("DISPLAY", d),
        None => c.env_remove("DISPLAY"),
    };
    run_command(c, Path::new(env!("CARGO_MANIFEST_DIR")), args, typed)
}

/// `meeple <args>` started in `cwd`, every stream piped.
fn spawn_in(cwd: &Path, args: &[&str]) -> std::process::Child {
    spawn(Command::new(env!("CARGO_BIN_EXE_meeple")), cwd, args)
}

/// `c <args>` started in `cwd`, every stream piped.
fn spawn(mut c: Command, cwd: &Path, args: &[&str]) -> std::process::Child {
    (c.args(args).current_dir(cwd))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the meeple binary starts")
}

fn run_command(c: Command, cwd: &Path, args: &[&str], typed: &str) -> Output {
    let mut child = spawn(c, cwd, args);
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("a stdin pipe");
        stdin.write_all(typed.as_bytes()).expect("typing");
    }
    let read = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            pipe.read_to_string(&mut s).expect("utf-8 output");
            s
        })
    };
    let out = read(Box::new(child.stdout.take().unwrap()));
    let err = read(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for meeple") {
            break status;
        }
        if started.elapsed() > HANG_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("meeple {args:?} did not finish within {HANG_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        code: status.code(),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// The run failed, did not panic, printed no "ok" and printed exactly `lines` on stderr.
fn assert_fails(out: &Output, lines: &[String]) {
    assert!(
        !out.stderr.contains("panicked"),
        "meeple panicked:\n{}",
        out.stderr
    );
    let expected = lines.iter().map(|l| format!("{l}\n")).collect::<String>();
    assert_eq!(out.stderr, expected, "stderr differs");
    assert!(
        !out.stdout.contains("ok:"),
        "a failing check printed ok:\n{}",
        out.stdout
    );
    assert!(
        matches!(out.code, Some(c) if c != 0),
        "exit status should be non-zero, was {:?}",
        out.code
    );
}

/// The note `check` puts under a game's error: the seed and the command that replays it.
fn replayed(name: &str, map: &str, players: &str, seed: u64) -> String {
    format!("    on seed {seed} (replay: meeple play {name} --map {map} --players {players} --seed {seed} --text)")
}

/// `replayed` for the first game `check` plays of the property game's copy.
fn first_game() -> String {
    replayed(GAME, "classic", "random,random", 1)
}

// 1. Malformed TOML ---------------------------------------------------------------------------

/// A game's id names it in saves and replays: the same characters as `meeple new` takes.
#[test]
fn a_game_id_with_a_space_is_an_error() {
    let c = Copy::of("tictactoe", "ttt");
    c.edit("game.toml", "id = \"tictactoe\"", "id = \"tic tac\"");
    let line = c.line_of("game.toml", "id = ");
    assert_fails(
        &c.check(),
        &[format!(
            "ttt/game.toml:{line}:6: error: 'tic tac' is not a game id: use letters, digits, '_' \
             and '-' (saves and replays name the game by it)"
        )],
    );
}

/// TOML takes `nan` and `inf` for floats; a setting must be a number rules can compare.
#[test]
fn a_setting_that_is_not_a_finite_number_is_an_error() {
    let c = Copy::of("tictactoe", "ttt");
    c.edit("game.toml", "[settings]", "[settings]\nratio = nan");
    let line = c.line_of("game.toml", "ratio = nan");
    assert_fails(
        &c.check(),
        &[format!(
            "ttt/game.toml:{line}:1: error: setting 'ratio' is not a finite number: rules can \
             neither compare nor show it"
        )],
    );
}

#[test]
fn malformed_toml_unterminated_string() {
    let c = Copy::new();
    c.edit(
        "game.toml",
        "title = \"大富翁 Monopoly\"",
        "title = \"大富翁 Monopoly",
    );
    let line = c.line_of("game.toml", "title = ");
    // Columns count characters: the three CJK characters are one column each.
    assert_fails(
        &c.check(),
        &[format!(
            "mono/game.toml:{line}:22: error: invalid basic string, expected `\"`"
        )],
    );
}

/// A game.toml that does not parse still has every other TOML file read for its own syntax:
/// one run gives both errors.
#[test]
fn a_broken_manifest_leaves_the_other_files_checked_for_syntax() {
    let c = Copy::new();
    c.edit("game.toml", "title = \"大富翁 Monopoly\"", "title = 大富翁");
    c.edit(
        "maps/demo.toml",
        "name = \"Demo 演示\"",
        "name = \"Demo 演示",
    );
    let (title, name) = (
        c.line_of("game.toml", "title = "),
        c.line_of("maps/demo.toml", "name = \"Demo"),
    );
    assert_fails(
        &c.check(),
        &[
            format!("mono/game.toml:{title}:9: error: string values must be quoted, expected literal string"),
            format!("mono/maps/demo.toml:{name}:16: error: invalid basic string, expected `\"`"),
        ],
    );
}

/// A manifest that misses a required key is still checked for bad player counts in the same
/// run.
#[test]
fn bad_player_counts_are_said_beside_a_missing_key() {
    let c = Copy::new();
    let players = c.read("game.toml");
    let players = players
        .lines()
        .find(|l| l.starts_with("players"))
        .unwrap()
        .to_string();
    c.edit("game.toml", &players, "players = { min = 0, max = 6 }");
    c.edit(
        "game.toml",
        "\n[flow]\n",
        "\n[zones]\nbank = { per_seat = true }\n\n[flow]\n",
    );
    let (players, bank) = (
        c.line_of("game.toml", "players = {"),
        c.line_of("game.toml", "bank = {"),
    );
    assert_fails(
        &c.check(),
        &[
            format!("mono/game.toml:{players}:13: error: bad player counts: a game needs at least 1 player"),
            format!("mono/game.toml:{bank}:8: error: missing key 'visibility'"),
        ],
    );
}

#[test]
fn malformed_toml_unclosed_array() {
    let c = Copy::new();
    c.edit("game.toml", "counters = [\"cash\"]", "counters = [\"cash\"");
    // The parser reads on into the next line (a table header is a valid array element start)
    // and reports where the array cannot continue.
    let line = c.line_of("game.toml", "[maps]");
    assert_fails(
        &c.check(),
        &[format!(
            "mono/game.toml:{line}:1: error: missing comma between array elements, expected `,`"
        )],
    );
}

/// A space id given twice names the line of its first space.
#[test]
fn a_duplicate_space_id_names_its_first_space() {
    let c = Copy::new();
    let first = c.line_of("maps/demo.toml", "id = \"beijing\"");
    c.edit("maps/demo.toml", "id = \"shanghai\"", "id = \"beijing\"");
    let line = c.line_of("maps/demo.toml", "name = \"上海弄堂\"") - 1;
    assert_has(
        &c.check().stderr,
        &format!(
            "mono/maps/demo.toml:{line}:6: error: duplicate space id 'beijing' (its first space \
             is at line {first})\n"
        ),
    );
}

/// A file game.toml names that is not there gets the folder's nearest file of its kind.
#[test]
fn a_misspelt_file_name_gets_the_nearest_file() {
    let c = Copy::new();
    c.edit("game.toml", "ai = \"ai.lua\"", "ai = \"ia.lua\"");
    c.edit(
        "game.toml",
        "demo = \"maps/demo.toml\"",
        "demo = \"maps/deom.toml\"",
    );
    let (ai, map) = (
        c.line_of("game.toml", "ia.lua"),
        c.line_of("game.toml", "deom"),
    );
    assert_fails(
        &c.check(),
        &[
            format!("mono/game.toml:{ai}:6: error: script file 'ia.lua' not found; did you mean 'ai.lua'?"),
            format!(
                "mono/game.toml:{map}:8: error: map file 'maps/deom.toml' not found; did you mean \
                 'maps/demo.toml'?"
            ),
        ],
    );
}

/// A key set twice in one table is named: here a space's `id` line that slipped above the
/// next `[[spaces]]` header, so the space before has two.
#[test]
fn a_duplicate_key_is_named() {
    let c = Copy::new();
    c.edit(
        "maps/demo.toml",
        "[[spaces]]\nid = \"beijing\"\n",
        "id = \"beijing\"\n[[spaces]]\n",
    );
    let line = c.line_of("maps/demo.toml", "id = \"beijing\"");
    assert_fails(
        &c.check(),
        &[format!(
            "mono/maps/demo.toml:{line}:1: error: duplicate key 'id': the table this line is in \
             sets it already"
        )],
    );
    // A table header written twice is named as a table.
    c.edit(
        "maps/demo.toml",
        "id = \"beijing\"\n[[spaces]]\n",
        "[[spaces]]\nid = \"beijing\"\n",
    );
    c.edit("game.toml", "\n[flow]\n", "\n[settings]\n\n[flow]\n");
    let lines: Vec<String> = c.read("game.toml").lines().map(String::from).collect();
    let headers: Vec<usize> = (lines.iter().enumerate())
        .filter(|(_, l)| *l == "[settings]")
        .map(|(i, _)| i + 1)
        .collect();
    let [_, second] = headers[..] else {
        panic!("two [settings] headers: {headers:?}")
    };
    assert_fails(
        &c.check(),
        &[format!(
            "mono/game.toml:{second}:2: error: table 'settings' is defined twice: merge the two \
             into one"
        )],
    );
}

// 2. Unknown keys in game.toml ----------------------------------------------------------------

#[test]
fn unknown_keys_in_manifest_are_all_reported_in_line_order() {
    let c = Copy::new();
    // Two typos: `titel` right below `title`, `playerz` right below `api`.
    c.edit("game.toml", "api = 1\n", "api = 1\nplayerz = 3\n");
    c.edit(
        "game.toml",
        "title = \"大富翁 Monopoly\"\n",
        "title = \"大富翁 Monopoly\"\ntitel = \"x\"\n",
    );
    let titel = c.line_of("game.toml", "titel = ");
    let playerz = c.line_of("game.toml", "playerz = ");
    assert!(titel < playerz);
    assert_fails(
        &c.check(),
        &[
            format!("mono/game.toml:{titel}:1: error: unknown key 'titel'; did you mean 'title'?"),
            format!(
                "mono/game.toml:{playerz}:1: error: unknown key 'playerz'; did you mean 'players'?"
            ),
        ],
    );
}

/// A misspelt required key is told once, as the unknown key with its "did you mean".
#[test]
fn misspelled_required_key_in_manifest() {
    let c = Copy::new();
    c.edit("game.toml", "title = ", "titel = ");
    let titel = c.line_of("game.toml", "titel = ");
    assert_fails(
        &c.check(),
        &[format!(
            "mono/game.toml:{titel}:1: error: unknown key 'titel'; did you mean 'title'?"
        )],
    );
    let line = c
        .read("game.toml")
        .lines()
        .nth(titel - 1)
        .unwrap()
        .to_string();
    c.edit("game.toml", &format!("{line}\n"), "");
    assert_fails(
        &c.check(),
        &["mono/game.toml:1:1: error: missing key 'title' (at the top level of the file)".into()],
    );
}

/// A missing key says which entry lacks it; misspelt there, it is told once too.
#[test]
fn missing_key_names_its_entry() {
    let c = Copy::new();
    c.edit("maps/demo.toml", "name = \"上海弄堂\"\n", "");
    let entry = c.line_of("maps/demo.toml", "id = \"shanghai\"") - 1;
    assert_fails(
        &c.check(),
        &[format!(
            "mono/maps/demo.toml:{entry}:1: error: missing key 'name' in 'spaces[4]'"
        )],
    );
    c.edit(
        "maps/demo.toml",
        "id = \"shanghai\"\n",
        "id = \"shanghai\"\nnmae = \"上海\"\n",
    );
    let nmae = c.line_of("maps/demo.toml", "nmae = ");
    assert_fails(
        &c.check(),
        &[format!(
            "mono/maps/demo.toml:{nmae}:1: error: unknown key 'nmae' in 'spaces[4]'; did you mean 'name'?"
        )],
    );
}

/// A table that starts the file still gives its missing key a line.
#[test]
fn missing_key_in_a_table_at_the_start_of_a_file() {
    let c = Copy::new();
    let text = c.read("cards/demo.toml");
    let from_table = &text[text.find("[[decks]]").expect("a deck table")..];
    std::fs::write(
        c.root.join("cards/demo.toml"),
        from_table.replacen("id = \"chance\"\n", "", 1),
    )
    .expect("writing the edit");
    assert_fails(
        &c.check(),
        &["mono/cards/demo.toml:1:1: error: missing key 'id' in 'decks[1]'".into()],
    );
}

/// One mistake in each of the manifest, a map, the style and the rules: one `check` reports
/// all four, sorted by file and line, though the manifest cannot be read whole.
#[test]
fn one_mistake_in_each_file_is_reported_in_one_check() {
    let c = Copy::of("gomoku", "gomo");
    c.edit(
        "game.toml",
        "players = { min = 2, max = 2 }",
        "players = { min = 2 }",
    );
    c.edit(
        "game.toml",
        "ai = \"ai.lua\"\n",
        "ai = \"ai.lua\"\nrulez = 1\n",
    );
    c.edit(
        "maps/board.toml",
        "cols = \"size\"\n",
        "cols = \"size\"\n[settings]\nsise = 19\n",
    );
    c.edit("style.toml", "line = ", "lien = ");
    c.edit("rules.lua", "return R", "return R R");
    let players = c.line_of("game.toml", "players = ");
    let rulez = c.line_of("game.toml", "rulez = ");
    let sise = c.line_of("maps/board.toml", "sise = ");
    let lien = c.line_of("style.toml", "lien = ");
    let last = c.read("rules.lua").lines().count();
    assert_fails(
        &c.check(),
        &[
            format!("gomo/game.toml:{players}:11: error: missing key 'max' in 'players'"),
            format!("gomo/game.toml:{rulez}:1: error: unknown key 'rulez'; did you mean 'rules'?"),
            format!("gomo/maps/board.toml:{sise}:1: error: unknown setting 'sise'; did you mean 'size'? (settings: attack, playout, rule, size)"),
            format!("gomo/rules.lua:{last}: error: <eof> expected near 'R'"),
            format!("gomo/style.toml:{lien}:1: error: unknown key 'lien'; did you mean 'line'?"),
        ],
    );
}

// 3. Unknown key in a map space ---------------------------------------------------------------

#[test]
fn unknown_key_in_map_space() {
    let c = Copy::new();
    c.edit(
        "maps/demo.toml",
        "kind = \"tax\"\n",
        "kind = \"tax\"\nprise = 1\n",
    );
    let line = c.line_of("maps/demo.toml", "prise = ");
    assert_fails(
        &c.check(),
        &[format!(
            "mono/maps/demo.toml:{line}:1: error: unknown key 'prise' in 'spaces[5]' (expected one of: id, name, kind, group, jump, data)"
        )],
    );
}

// 4. Unknown space kind -----------------------------------------------------------------------

#[test]
fn bad_map_settings_are_located() {
    let c = Copy::new();
    c.edit(
        "maps/demo.toml",
        "currency = \"¥\"\n",
        "currency = \"¥\"\nsalary = \"lots\"\nsalery = 1\n",
    );
    let salary = c.line_of("maps/demo.toml", "salary = \"lots\"");
    let salery = c.line_of("maps/demo.toml", "salery = 1");
    let declared = c.line_of("game.toml", "salary = ");
    assert_fails(
        &c.check(),
        &[
            format!("mono/maps/demo.toml:{salary}:1: error: setting 'salary' is an integer; got \"lots\""),
            // The mistake may be game.toml's: the note says where the game declares it.
            format!("    mono/game.toml:{declared}: the game declares 'salary' as 200"),
            format!(
                "mono/maps/demo.toml:{salery}:1: error: unknown setting 'salery'; did you mean 'salary'? (settings: \
                 ai_bid_share, ai_build_reserve, ai_buy_margin, ai_complete_margin, ai_unmortgage_reserve, auction, \
                 auction_step, currency, doubles_to_jail, jail_fine, jail_turns, max_level, monopoly_multiplier, \
                 mortgage_percent, release_fine, round_cap, salary, sell_percent, start_cash, unmortgage_interest)"
            ),
        ],
    );
}

#[test]
fn unknown_space_kind() {
    let c = Copy::new();
    c.edit(
        "maps/demo.toml",
        "kind = \"property\"",
        "kind = \"propety\"",
    );
    let line = c.line_of("maps/demo.toml", "\"propety\"");
    assert_fails(
        &c.check(),
        &[format!(
            "mono/maps/demo.toml:{line}:8: error: unknown space kind 'propety' (expected: go, property, railroad, \
             utility, chance, community, tax, jail, parking, go_to_jail); did you mean 'property'?"
        )],
    );
}

/// A jump names a space of the map: another id is an error at the name, with the id meant;
/// so is a space that jumps to itself.
#[test]
fn a_jump_to_a_missing_space_is_located() {
    let c = Copy::new();
    c.edit(
        "maps/demo.toml",
        "kind = \"tax\"\n",
        "kind = \"tax\"\njump = \"shangai\"\n",
    );
    c.edit(
        "maps/demo.toml",
        "id = \"jail\"\n",
        "id = \"jail\"\njump = \"jail\"\n",
    );
    let (tax, jail) = (
        c.line_of("maps/demo.toml", "jump = \"shangai\""),
        c.line_of("maps/demo.toml", "jump = \"jail\""),
    );
    assert_fails(
        &c.check(),
        &[
            format!(
                "mono/maps/demo.toml:{tax}:8: error: space 'tax' jumps to 'shangai', which is no space \
                 of this map; did you mean 'shanghai'?"
            ),
            format!("mono/maps/demo.toml:{jail}:8: error: a space cannot jump to itself"),
        ],
    );
}

/// A space whose data has a field no other space of its kind has, in place of one they all
/// have, is warned about; the warning stays beside an error the rules then meet at set-up.
#[test]
fn space_data_unlike_its_kinds_other_spaces_is_a_warning() {
    let c = Copy::new();
    c.edit(
        "maps/demo.toml",
        "data = { price = 200, house_cost = 100,",
        "data = { prise = 200, house_cost = 100,",
    );
    c.edit(
        "rules.lua",
        "function R.setup(G, ctx)\n",
        "function R.setup(G, ctx)\n  error(\"boom\")\n",
    );
    let space = c.line_of("maps/demo.toml", "id = \"beijing\"");
    let out = c.check();
    assert_has(
        &out.stderr,
        &format!(
            "mono/maps/demo.toml:{space}:6: warning: space 'beijing' has data field 'prise' but \
             not 'price', which every other space with kind 'property' has; did you mean \
             'price'?\n"
        ),
    );
    assert_has(&out.stderr, "error: boom");
}

/// `[choices]` lists the values a setting may take: the declared value, a map's and a --set
/// one must be among them; a list for no setting, or of another type, is an error.
#[test]
fn a_setting_outside_its_choices_is_an_error_wherever_it_is_set() {
    let c = Copy::new();
    c.edit(
        "game.toml",
        "\n[flow]\n",
        "\n[choices]\ncurrency = [\"$\", \"€\"]\nauktion = [true]\nsalary = [\"200\"]\n\n[flow]\n",
    );
    let (choices, map, declared) = (
        c.line_of("game.toml", "auktion = [true]"),
        c.line_of("maps/demo.toml", "currency = "),
        c.line_of("game.toml", "currency = \"$\""),
    );
    assert_fails(
        &c.check(),
        &[
            format!(
                "mono/game.toml:{choices}:1: error: choices for 'auktion', which is no setting of \
                 [settings]; did you mean 'auction'?"
            ),
            format!(
                "mono/game.toml:{}:1: error: choices.salary: \"200\" is not an integer like the \
                 setting",
                choices + 1
            ),
            format!(
                "mono/maps/demo.toml:{map}:1: error: setting 'currency' is one of \"$\", \"€\"; \
                 got \"¥\""
            ),
            format!("    mono/game.toml:{declared}: the game declares 'currency' as \"$\""),
        ],
    );
    c.edit("game.toml", "auktion = [true]\nsalary = [\"200\"]\n", "");
    c.edit("maps/demo.toml", "currency = \"¥\"", "currency = \"€\"");
    let out = c.run(&["sim", "mono", "--games", "1", "--set", "currency=E"]);
    assert_eq!(
        out.stderr.trim_end(),
        "--set: error: setting 'currency' is one of \"$\", \"€\"; got \"E\""
    );
    let out = c.run(&["sim", "mono", "--games", "1", "--set", "currency=$"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    // The editor types read the choices.
    assert_eq!(c.run(&["types", "mono"]).code, Some(0));
    assert_has(
        &c.read(".meeple/game.lua"),
        "---@field currency \"$\"|\"€\"\n",
    );
}

// 5. A card naming a missing effect ----------------------------------------------------------

#[test]
fn card_names_missing_effect() {
    let c = Copy::new();
    c.edit(
        "cards/demo.toml",
        "effect = \"advance_to\"",
        "effect = \"advnce_to\"",
    );
    let line = c.line_of("cards/demo.toml", "\"advnce_to\"");
    assert_fails(
        &c.check(),
        &[format!(
            "mono/cards/demo.toml:{line}:10: error: card 'advance_go' names effect 'advnce_to' that mono/rules.lua \
             does not define; did you mean 'advance_to'? (R.effects has: advance_to, advance_to_nearest, collect, \
             collect_from_each, get_out_of_jail, go_back, go_to_jail, pay, pay_each_player, repairs)"
        )],
    );
}

/// A card's text fills in `{name}`s from its data and the settings (`--set` included); a name
/// that is neither is an error at the text.
#[test]
fn card_text_names_are_filled_or_refused() {
    let g = start("monopoly", "classic", 2, 1, &["currency=€", "salary=300"]);
    let texts = eval(
        &g,
        "ctx.decks.chance.cards[2].text .. ' / ' .. ctx.decks.community.cards[3].text",
    );
    assert_eq!(
        texts,
        "Advance to Go (Collect €300). / Doctor's fee. Pay €50."
    );
    let c = Copy::new();
    c.edit(
        "cards/classic.toml",
        "Pay {currency}{amount}.",
        "Pay {currency}{amout}.",
    );
    let line = c.line_of("cards/classic.toml", "{amout}");
    assert_fails(
        &c.check(),
        &[format!(
            "mono/cards/classic.toml:{line}:37: error: card 'doctor_fee': its text names {{amout}}, which is \
             neither a data field of the card nor a setting; did you mean 'amount'?"
        )],
    );
}

/// A card's data field that reads like a slip beside the other cards with its effect is a
/// warning at the card: a field none of them has in place of one they all have, or a value
/// of another type than all of theirs.
#[test]
fn card_data_unlike_its_effects_other_cards_is_a_warning() {
    let c = Copy::new();
    c.edit(
        "cards/classic.toml",
        "data = { target = \"boardwalk\" }",
        "data = { targte = \"boardwalk\" }",
    );
    c.edit(
        "cards/classic.toml",
        "data = { amount = 15 }",
        "data = { amount = \"15\" }",
    );
    let boardwalk = c.line_of("cards/classic.toml", "id = \"advance_boardwalk\"");
    let fine = c.line_of("cards/classic.toml", "id = \"speeding_fine\"");
    let out = c.check();
    assert_has(
        &out.stderr,
        &format!(
            "mono/cards/classic.toml:{boardwalk}:6: warning: card 'advance_boardwalk' has data \
             field 'targte' but not 'target', which every other card with effect 'advance_to' \
             has; did you mean 'target'?\n\
             mono/cards/classic.toml:{fine}:6: warning: card 'speeding_fine' has data field \
             'amount' as a string, where every other card with effect 'pay' has a number\n"
        ),
    );
}

/// `AI.fixed` (and each style's) is checked at load: a table of verb = score (no NaN), beside
/// `score` only; a style is a table that scores.
#[test]
fn ai_fixed_scores_are_checked_at_load() {
    let c = Copy::new();
    c.edit(
        "ai.lua",
        "local FIXED = { roll = 0,",
        "local FIXED = { [3] = 1, roll = \"0\",",
    );
    assert_fails(
        &c.check(),
        &[
            "mono/ai.lua: error: AI.fixed has a key of type integer: its keys are verbs (strings)"
                .into(),
            "mono/ai.lua: error: AI.fixed.roll must be a score (a number), got string".into(),
        ],
    );
    let c = Copy::new();
    c.edit(
        "ai.lua",
        "\nreturn AI",
        "\nAI.scores = function() return {} end\nreturn AI",
    );
    assert_fails(
        &c.check(),
        &["mono/ai.lua: error: AI.fixed is read in place of AI.score, but AI.scores scores whole \
           decisions: drop one of them"
            .into()],
    );
    // A missing AI.score is located at its misspelling, whose warning stands beside it.
    let c = Copy::new();
    c.edit("ai.lua", "function AI.score(", "function AI.scroe(");
    let line = c.line_of("ai.lua", "function AI.scroe(");
    assert_fails(
        &c.check(),
        &[
            format!(
                "mono/ai.lua:{line}: error: the AI table needs a function AI.score(G, ctx, seat, \
                 option) or AI.scores(G, ctx, seat, options)"
            ),
            format!(
                "mono/ai.lua:{line}: warning: AI.scroe is not read by the runtime; did you mean \
                 AI.score?"
            ),
        ],
    );
    let c = Copy::new();
    let styles = "AI.styles = { cautious = { fixed = { [\"buy house\"] = 0 / 0 } }, odd = 5 }";
    c.edit("ai.lua", "\nreturn AI", &format!("\n{styles}\nreturn AI"));
    assert_fails(
        &c.check(),
        &[
            "mono/ai.lua: error: AI.styles.cautious.fixed[\"buy house\"] is NaN, which no score compares with"
                .into(),
            "mono/ai.lua: error: AI.styles.odd must be a table with its own score or scores, got integer".into(),
            "mono/ai.lua: error: the AI table needs a function AI.styles.cautious.score(G, ctx, seat, option) \
             or AI.styles.cautious.scores(G, ctx, seat, options)"
                .into(),
        ],
    );
}

// 6. Lua syntax error -------------------------------------------------------------------------

#[test]
fn lua_syntax_error() {
    let c = Copy::new();
    c.edit("rules.lua", "  G.again = false", "  G.again = = false");
    let line = c.line_of("rules.lua", "G.again = = false");
    assert_fails(
        &c.check(),
        &[format!(
            "mono/rules.lua:{line}: error: unexpected symbol near '='"
        )],
    );
}

// 7. Lua runtime error in a hook --------------------------------------------------------------

const ROLL: &str = "  enter = function(G, ctx, p)\n    local pl, s = G.players[p], ctx.settings\n";

/// Inserts `code` as the first line of the roll (after the first line of the `rolling`
/// state's enter hook) and returns its line.
fn break_roll(c: &Copy, code: &str) -> usize {
    c.edit("rules.lua", ROLL, &format!("{ROLL}  {code}\n"));
    c.line_of("rules.lua", code)
}

/// Breaks the roll with `code` in a fresh copy and asserts that `check` fails with `message`
/// at that line, on the first roll of the first game.
fn assert_roll_fails(code: &str, message: &str) {
    let c = Copy::new();
    let line = break_roll(&c, code);
    assert_fails(
        &c.check(),
        &[
            format!("mono/rules.lua:{line}: error: {message}"),
            "    in state 'rolling' hook 'enter' (player 1, turn 1)".to_string(),
            first_game(),
        ],
    );
}

#[test]
fn lua_runtime_error_in_hook() {
    assert_roll_fails(
        "local x = nil + 1",
        "attempt to perform arithmetic on a nil value",
    );
}

/// `error()` with a table or nil has no message: the error says so instead of printing `nil`
/// or a table's address, at the line that raised it.
#[test]
fn an_error_raised_without_a_message_says_so() {
    for (value, what) in [("{code = 1}", "a table"), ("", "nil")] {
        assert_roll_fails(
            &format!("error({value})"),
            &format!("error() was given {what}, not a message (raise error(\"text\"))"),
        );
    }
}

// 8. Illegal state transition -----------------------------------------------------------------

const BUY_ACT: &str =
    "  act = function(G, ctx, action, p)\n    if action[1] == \"pass\" then\n      ctx:log(\"P%d does not buy";

/// Inserts `code` as the first line of the purchase's act and returns its line.
fn break_buy(c: &Copy, code: &str) -> usize {
    let first = "  act = function(G, ctx, action, p)\n";
    c.edit(
        "rules.lua",
        BUY_ACT,
        &BUY_ACT.replacen(first, &format!("{first}    {code}\n"), 1),
    );
    c.line_of("rules.lua", code)
}

/// A state name a helper returned for its hook (a card's effect) is located at the one line
/// of the file that writes it.
#[test]
fn an_unknown_state_from_a_helper_is_located_where_it_is_written() {
    let c = Copy::new();
    let moved = "  ctx.board:move(p, -card.steps)\n";
    c.edit(
        "rules.lua",
        &format!("{moved}  return \"settlement\""),
        &format!("{moved}  return \"settlemnt\""),
    );
    let line = c.line_of("rules.lua", "return \"settlemnt\"");
    assert_has(
        &c.check().stderr,
        &format!(
            "mono/rules.lua:{line}: error: unknown state 'settlemnt' returned by state \
             'event_card'; did you mean 'settlement'?\n"
        ),
    );
}

/// A state made by a shared helper names the states it moves to (its `exits`): a misspelt one
/// is found when the rules load, at the line that calls the helper, not in a shared script
/// when a game ends.
#[test]
fn a_helper_told_an_unknown_state_fails_where_it_is_called() {
    let c = Copy::of("tictactoe", "ttt");
    c.edit(
        "rules.lua",
        "placing_turn(\"over\")",
        "placing_turn(\"ovr\")",
    );
    let line = c.line_of("rules.lua", "placing_turn(\"ovr\")");
    assert_fails(
        &c.check(),
        &[format!(
            "ttt/rules.lua:{line}: error: state 'turn' may move to 'ovr' (its exits), which is no \
             state in game.toml [flow]; did you mean 'over'?"
        )],
    );
    c.edit(
        "rules.lua",
        "placing_turn(\"ovr\")",
        "placing_turn(\"turn\")",
    );
    assert_fails(
        &c.check(),
        &[format!(
            "ttt/rules.lua:{line}: error: state 'turn' may move to 'turn' (its exits), which \
             game.toml [flow] does not allow (its next states: over)"
        )],
    );
    c.edit("rules.lua", "placing_turn(\"turn\")", "placing_turn()");
    assert_fails(
        &c.check(),
        &[format!(
            "ttt/rules.lua:{line}: error: grid.placing_turn: expected the name of the state to \
             move to when the game is over, got nil"
        )],
    );
    c.edit("rules.lua", "placing_turn()", "placing_turn(\"over\")");
    c.edit(
        "rules.lua",
        "\nreturn R",
        "\nR.states.turn.exits = { 3 }\nreturn R",
    );
    assert_fails(
        &c.check(),
        &[format!(
            "ttt/rules.lua:{line}: error: R.states.turn.exits[1]: expected a state name, got a \
             number (3)"
        )],
    );
}

#[test]
fn illegal_state_transition() {
    let c = Copy::new();
    // Located at the line that returns the state.
    let line = break_buy(&c, "do return \"mortgaging\" end");
    assert_fails(
        &c.check(),
        &[
            format!(
                "mono/rules.lua:{line}: error: illegal transition from 'buying' to 'mortgaging' (allowed: auction, next_player)"
            ),
            "    in state 'buying' hook 'act' (player 1, turn 1)".to_string(),
            first_game(),
        ],
    );
}

// 9. Endless loop -----------------------------------------------------------------------------

#[test]
fn endless_loop_in_hook_is_stopped() {
    assert_roll_fails(
        "while true do end",
        "instruction budget exceeded (an endless loop?)",
    );
}

/// An error in `AI.scores` names that hook, not `AI.score`.
#[test]
fn an_error_in_ai_scores_names_it() {
    let c = Copy::of("mahjong", "mj");
    c.edit(
        "ai.lua",
        "function AI.scores(G, ctx, seat, options)\n",
        "function AI.scores(G, ctx, seat, options)\n  local broken = nil + 1\n",
    );
    let line = c.line_of("ai.lua", "local broken = nil + 1");
    let out = c.check();
    assert_has(
        &out.stderr,
        &format!(
            "mj/ai.lua:{line}: error: attempt to perform arithmetic on a nil value\n    in state "
        ),
    );
    assert_has(&out.stderr, " hook 'AI.scores' (player ");
}

/// `check` plays a game with as few players as game.toml allows, one too: a solo game finds
/// what assumed an opponent.
#[test]
fn check_plays_a_solo_game_when_one_player_may_play() {
    let c = Copy::of("tictactoe", "ttt");
    c.edit(
        "game.toml",
        "players = { min = 2, max = 2 }",
        "players = { min = 1, max = 2 }",
    );
    let out = c.check();
    assert_has(&out.stderr, "error: seat 2 out of range (1..1)\n");
    assert_has(&out.stderr, "--players ai --seed ");
}

/// A loop whose budget runs out inside a method of the runtime's is stopped at the loop's line.
#[test]
fn endless_loop_through_a_runtime_method_is_stopped_at_its_line() {
    assert_roll_fails(
        "while true do ctx:log(\"again\") end",
        "instruction budget exceeded (an endless loop?)",
    );
}

/// A game whose roll never leaves the turn's decision: it can never end.
fn never_ending(c: &Copy) {
    c.edit(
        "rules.lua",
        r#"if verb == "roll" then return "rolling" end"#,
        r#"if verb == "roll" then return nil end"#,
    );
}

/// The error of `never_ending`'s game stopped after `limit` decisions; `causes` depend on
/// whether the game has a round cap.
fn endless_game(limit: u64, causes: &str) -> String {
    format!(
        "mono/game.toml: error: the game did not end within {limit} decisions (now in state \
         'wait_player', round 1, P1 to move): a hook never moves the game on, {causes} (a longer \
         game can be allowed with --max-decisions)"
    )
}

const NO_CAP: &str = "or the game can go on for ever and needs a round_cap in [settings]";
const CAPPED: &str = "or its rounds take so many decisions that round_cap 300 is far off";

#[test]
fn a_game_that_never_ends_is_reported_by_check() {
    let c = Copy::new();
    never_ending(&c);
    assert_fails(&c.check(), &[endless_game(100_000, CAPPED), first_game()]);
    c.edit("game.toml", "round_cap = 300", "");
    let out = c.run(&["check", GAME, "--max-decisions", "500"]);
    // The command that plays the game again keeps the cap it was stopped at.
    let capped = first_game().replace(" --text)", " --max-decisions 500 --text)");
    assert_fails(&out, &[endless_game(500, NO_CAP), capped]);
    let zero = c.run(&["check", GAME, "--max-decisions", "0"]);
    assert_eq!(zero.code, Some(2), "a usage error: {}", zero.stderr);
}

/// Whatever the seats, sim stops it, and names the first game's seed and the command that
/// plays it again.
#[test]
fn a_game_that_never_ends_is_reported_by_sim() {
    let c = Copy::new();
    never_ending(&c);
    for players in ["ai,ai", "random,ai"] {
        let out = c.run(&[
            "sim",
            GAME,
            "--games",
            "2",
            "--players",
            players,
            "--max-decisions",
            "300",
        ]);
        assert_eq!(out.code, Some(1), "{players}: {}", out.stderr);
        let tail: Vec<&str> = out.stderr.lines().rev().take(3).collect();
        let seed = meeple::sim::game_seed(1, 0);
        assert_eq!(
            tail,
            [
                "error: 2 of 2 games stopped on an error (the first is shown above)",
                (replayed(GAME, "demo", players, seed))
                    .replace(" --text)", " --max-decisions 300 --text)")
                    .as_str(),
                endless_game(300, CAPPED).as_str(),
            ],
            "{players}"
        );
    }
}

/// A batch whose first games all stop on an error stops after `GIVE_UP` of them (a loop
/// waits out the watchdog in each); one whose games fail only now and then plays them all.
#[test]
fn sim_gives_up_when_its_first_games_all_fail() {
    let given_up = meeple::sim::GIVE_UP;
    let always = Copy::new();
    break_roll(&always, "if ctx:round() == 1 then error('always') end");
    let sometimes = Copy::new();
    break_roll(
        &sometimes,
        "if ctx:round() == 2 and ctx.dice:sum('1d6') == 6 then error('now and then') end",
    );
    for jobs in ["1", "2"] {
        let out = always.run(&["sim", GAME, "--games", "40", "--jobs", jobs]);
        assert_eq!(out.code, Some(1), "{}", out.stderr);
        let stopped = format!(
            "stopped: each of the first {given_up} games stopped on an error (see below)\n"
        );
        assert_has(&out.stderr, &stopped);
        // Games under way when the tenth failed end too: every game played failed.
        let tail = out.stderr.lines().last().unwrap_or_default();
        let n = tail
            .strip_prefix("error: ")
            .and_then(|t| t.split(' ').next());
        let n: usize = n.and_then(|n| n.parse().ok()).unwrap_or(0);
        let all = format!("error: {n} of {n} games stopped on an error");
        assert!(
            tail.starts_with(&all) && (given_up..40).contains(&n),
            "{tail}"
        );
        let out = sometimes.run(&["sim", GAME, "--games", "40", "--jobs", jobs]);
        let tail = out.stderr.lines().last().unwrap_or_default();
        let some = " of 40 games stopped on an error (the first is shown above)";
        assert!(
            tail.ends_with(some) && !tail.starts_with("error: 40 of"),
            "{tail}"
        );
    }
}

/// At a game's end `play` says its numbers as `R.stats` gives them to `sim`, or the error
/// `R.stats` raises there: the command sim's note gives to play a failed game again shows it.
#[test]
fn play_says_the_stats_at_the_end() {
    let text = play_typed("connect4", "random,random", 3, "");
    assert_has(&text, "game over: P2 won\nstats: moves 14\n");
    let c = Copy::of("tictactoe", "ttt");
    c.edit(
        "rules.lua",
        "\nreturn R",
        "\nfunction R.stats(G, ctx) return { winner = 'P1' } end\nreturn R",
    );
    let line = c.line_of("rules.lua", "function R.stats");
    let args = [
        "play",
        "ttt",
        "--players",
        "random,random",
        "--seed",
        "3",
        "--text",
        "--no-watch",
    ];
    let out = c.run(&args);
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert_has(
        &out.stdout,
        &format!("ttt/rules.lua:{line}: error: R.stats: 'winner' is a string, expected a number\n"),
    );
}

#[test]
fn an_unknown_ai_style_is_refused_before_any_game() {
    let c = Copy::new();
    let refused = |flag: &str| {
        format!("{flag}: error: the ai script of 'monopoly' has no style 'bold' (it defines no AI.styles)")
    };
    let sim = c.run(&["sim", GAME, "--games", "3", "--players", "ai,ai:bold"]);
    assert_fails(&sim, &[refused("--players")]);
    assert_eq!(sim.stdout, "", "no game was played");
    let play = c.run(&["play", GAME, "--players", "human,ai:bold"]);
    assert_fails(&play, &[refused("--players")]);
    assert_eq!(play.stdout, "", "no game was started");
    assert_fails(
        &c.run(&["ai", GAME, "--bot", "ai:bold"]),
        &[refused("--bot")],
    );
}

/// A game id not found names every place looked in, the nearest id and the games there are;
/// a path is looked for there only, and a path to a game.toml names its folder.
#[test]
fn a_missing_game_names_every_place_looked_in() {
    let c = Copy::new();
    let source = concat!(env!("CARGO_MANIFEST_DIR"), "/games");
    let games = "connect4, gomoku, hearts, mahjong, monopoly, tictactoe";
    assert_fails(
        &c.check_named("monoply"),
        &[format!(
            "monoply: error: no game 'monoply'; did you mean 'monopoly'? (looked for \
             monoply/game.toml, games/monoply/game.toml and {source}/monoply/game.toml; \
             games: {games})"
        )],
    );
    let maps = c.root.join("maps").display().to_string();
    assert_fails(
        &c.check_named(&maps),
        &[format!(
            "{maps}: error: no game at '{maps}' ({maps}/game.toml is not there)"
        )],
    );
    let manifest = c.root.join("game.toml").display().to_string();
    let out = c.check_named(&manifest);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
}

/// A record whose config no longer fits the game is reported against the record file, not
/// against a command-line flag the user never gave.
#[test]
fn a_record_with_a_bad_config_names_the_file() {
    let c = Copy::new();
    let out = c.run(&[
        "play",
        GAME,
        "--players",
        "ai,ai",
        "--seed",
        "2",
        "--text",
        "--record",
        "r.json",
    ]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let text = std::fs::read_to_string(c.cwd.join("r.json")).expect("the record");
    let mut record: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    record["config"]["map"] = "moon".into();
    std::fs::write(c.cwd.join("moon.json"), record.to_string()).expect("writing");
    let no_moon = "moon.json: error: game 'monopoly' has no map 'moon' (maps: classic, demo)";
    assert_fails(&c.run(&["replay", "moon.json"]), &[no_moon.to_string()]);
    assert_fails(
        &c.run(&["ai", GAME, "--replay", "moon.json"]),
        &[no_moon.to_string()],
    );
    // `ai` sets the seats with --seats.
    assert_fails(
        &c.run(&["ai", GAME, "--seats", "1"]),
        &["--seats: error: monopoly takes 2 to 6 players, not 1".to_string()],
    );
}

/// `R.status` is shown, not played: one string is one line; a failing hook or a result of
/// another kind is said once for the position (the hook is not called again there) instead
/// of stopping the game.
#[test]
fn status_lines_show_what_the_hook_returned_or_why_not() {
    let rules = "R.status = function(G, ctx, p)\n\
                   if p == 1 then return 'in a hurry' end\n\
                   if p == 2 then return 42 end\n\
                   return nil + p\n\
                 end";
    let v = variant("monopoly", rules, "", None);
    let mut g = v.game("demo", 3);
    let shown = g.shown(Some(0));
    assert_eq!(shown.status[0], ["in a hurry"]);
    assert_eq!(shown.status[1..], [Vec::<String>::new(), Vec::new()]);
    let problem = shown.problem.expect("the failure is said");
    assert!(
        problem.ends_with(
            "rules.lua:2: error: R.status returned a number (42), expected a string or a list of strings · in hook 'R.status' (state 'wait_player', player 1, turn 1)"
        ),
        "{problem}"
    );
    // `check` runs the same hook strictly: the first seat whose status fails is the error.
    let err = g.check_shown().unwrap_err().to_string();
    assert!(err.contains("R.status returned a number (42)"), "{err}");
    // Seat 3's failure, when it comes first.
    let rules = "R.status = function(G, ctx, p) if p == 3 then return nil + p end end";
    let problem = variant("monopoly", rules, "", None)
        .game("demo", 3)
        .shown(None)
        .problem;
    let problem = problem.expect("the failure is said");
    assert!(
        problem.ends_with("attempt to perform arithmetic on a nil value · in hook 'R.status' (state 'wait_player', player 1, turn 1)"),
        "{problem}"
    );
    // A failing label hook does not hide the status hook's failure: both are said.
    let rules = "R.label = function() return nil + 1 end
                 R.status = function() return 42 end";
    let problem = variant("monopoly", rules, "", None)
        .game("demo", 3)
        .shown(Some(0))
        .problem
        .expect("the failures are said");
    let lines: Vec<&str> = problem.lines().collect();
    assert_eq!(lines.len(), 2, "{problem}");
    assert!(lines[0].contains("in hook 'R.label'"), "{problem}");
    assert!(
        lines[1].contains("R.status returned a number (42)"),
        "{problem}"
    );
}

/// `check` saves the game at every decision, so a function put into G is found at the turn it
/// was put there, not when the game ends; a Lua function is named by where it is written.
#[test]
fn check_finds_unsaveable_state_at_the_turn_it_appears() {
    let c = Copy::new();
    c.edit(
        "rules.lua",
        r#"if verb == "roll" then return "rolling" end"#,
        r#"if verb == "roll" then if ctx:turn() == 3 then G.f = print end return "rolling" end"#,
    );
    // Located at the line setting G.f.
    let set = c.line_of("rules.lua", "G.f = print");
    assert_fails(
        &c.check(),
        &[
            format!("mono/rules.lua:{set}: error: G.f: a function cannot be saved (G must be plain data)"),
            "    saving the position in state 'buying' (player 1, turn 3)".into(),
            first_game(),
        ],
    );
    // A Lua function is named by where it is written.
    c.edit("rules.lua", "G.f = print", "G.f = function() end");
    let line = c.line_of("rules.lua", "G.f = function() end");
    assert_fails(
        &c.check(),
        &[
            format!(
                "mono/rules.lua:{line}: error: G.f: a function (made at mono/rules.lua:{line}) \
                 cannot be saved (G must be plain data)"
            ),
            "    saving the position in state 'buying' (player 1, turn 3)".into(),
            first_game(),
        ],
    );
}

// 10. The sandbox: no io/os, require confined to the game folder ------------------------------

const SETUP: &str = "function R.setup(G, ctx)\n";
const AFTER_LOCAL_R: &str = "local R = {}\n";

#[test]
fn os_is_not_available_in_setup() {
    let c = Copy::new();
    c.edit("rules.lua", SETUP, &format!("{SETUP}  os.exit()\n"));
    let line = c.line_of("rules.lua", "os.exit()");
    // An error before the first decision names the first game, as later ones do.
    assert_fails(
        &c.check(),
        &[
            format!("mono/rules.lua:{line}: error: 'os' is not available to game scripts (no files, processes or clocks)"),
            "    in R.setup (before the first turn)".to_string(),
            replayed(GAME, "demo", "random,random", 1),
        ],
    );
}

#[test]
fn io_is_not_available_at_load() {
    let c = Copy::new();
    c.edit(
        "rules.lua",
        AFTER_LOCAL_R,
        &format!("{AFTER_LOCAL_R}local f = io.open(\"/etc/passwd\")\n"),
    );
    let line = c.line_of("rules.lua", "io.open(");
    assert_fails(
        &c.check(),
        &[format!("mono/rules.lua:{line}: error: 'io' is not available to game scripts (no files, processes or clocks)")],
    );
}

#[test]
fn require_cannot_leave_the_game_folder() {
    let c = Copy::new();
    c.edit(
        "rules.lua",
        AFTER_LOCAL_R,
        &format!("{AFTER_LOCAL_R}require(\"../../etc/passwd\")\n"),
    );
    let line = c.line_of("rules.lua", "require(");
    assert_fails(
        &c.check(),
        &[format!(
            "mono/rules.lua:{line}: error: require '../../etc/passwd': module names may only use letters, digits, '_' and '.'"
        )],
    );
}

#[test]
fn require_of_missing_module() {
    let c = Copy::new();
    c.edit(
        "rules.lua",
        AFTER_LOCAL_R,
        &format!("{AFTER_LOCAL_R}local util = require(\"nope\")\n"),
    );
    let line = c.line_of("rules.lua", "require(");
    assert_fails(
        &c.check(),
        &[format!(
            "mono/rules.lua:{line}: error: module 'nope' not found (looked in mono/nope.lua; shared scripts: grid, hands)"
        )],
    );
}

// 11. Illegal actions from a player (library) -------------------------------------------------

#[test]
fn illegal_action_is_rejected_and_changes_nothing() {
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    let before = g.snapshot().unwrap();
    let err = g
        .apply(0, &Action::parse("buy beijing").unwrap())
        .unwrap_err();
    assert_eq!(
        err,
        GameError::Rejected(
            "'buy beijing' is not a legal option for P1 in state 'wait_player' (options: 'roll')"
                .into()
        )
    );
    assert_eq!(err.to_string(), "rejected: 'buy beijing' is not a legal option for P1 in state 'wait_player' (options: 'roll')");
    assert_eq!(g.snapshot().unwrap(), before);
    assert_eq!(options(&g), ["roll"]);

    // On shanghai (a 1 and a 2 from the start) P1 may buy shanghai, not beijing.
    g.force_dice(&[1, 2]);
    act(&mut g, "roll");
    assert_eq!(position(&g, 1), 4);
    let before = g.snapshot().unwrap();
    let err = g
        .apply(0, &Action::parse("buy beijing").unwrap())
        .unwrap_err();
    assert_eq!(
        err,
        GameError::Rejected(
            "'buy beijing' is not a legal option for P1 in state 'buying' (options: 'buy shanghai', 'pass')".into()
        )
    );
    assert_eq!(g.snapshot().unwrap(), before);
    assert_eq!(options(&g), ["buy shanghai", "pass"]);
}

#[test]
fn action_from_the_wrong_seat_is_rejected_and_changes_nothing() {
    let mut g = start("monopoly", "demo", 2, 1, &[]);
    assert_eq!(g.pending().unwrap().seat, 0);
    let before = g.snapshot().unwrap();
    let err = g.apply(1, &Action::parse("roll").unwrap()).unwrap_err();
    assert_eq!(err, GameError::Rejected("it is P1's turn, not P2's".into()));
    assert_eq!(g.snapshot().unwrap(), before);
    assert_eq!(g.pending().unwrap().seat, 0);
}

// 12. --set -----------------------------------------------------------------------------------

fn sim_with(setting: &str) -> Output {
    run_in(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &["sim", "monopoly", "--games", "1", "--set", setting],
    )
}

#[test]
fn set_unknown_setting() {
    assert_fails(
        &sim_with("salery=1"),
        &["--set: error: unknown setting 'salery'; did you mean 'salary'? (settings: ai_bid_share, \
           ai_build_reserve, ai_buy_margin, ai_complete_margin, ai_unmortgage_reserve, auction, auction_step, \
           currency, doubles_to_jail, jail_fine, jail_turns, max_level, monopoly_multiplier, mortgage_percent, \
           release_fine, round_cap, salary, sell_percent, start_cash, unmortgage_interest)"
            .to_string()],
    );
}

#[test]
fn set_wrongly_typed_value() {
    assert_fails(
        &sim_with("salary=lots"),
        &["--set: error: setting 'salary' is an integer; got 'lots'".to_string()],
    );
}

/// A round cap below 1 would stop every game before it starts: refused, where it was set.
#[test]
fn a_round_cap_below_one_is_refused_where_it_was_set() {
    let message = |cap| {
        format!("round_cap must be a whole number, at least 1 (the round after which a game stops, unfinished); got {cap}")
    };
    assert_fails(
        &sim_with("round_cap=0"),
        &[format!("--set: error: {}", message(0))],
    );
    let c = Copy::new();
    c.edit("game.toml", "round_cap = 300", "round_cap = -1");
    let line = c.line_of("game.toml", "round_cap = -1");
    assert_fails(
        &c.check(),
        &[format!("mono/game.toml:{line}:1: error: {}", message(-1))],
    );
    let c = Copy::new();
    c.edit(
        "maps/demo.toml",
        "currency = \"¥\"",
        "currency = \"¥\"\nround_cap = 0",
    );
    let line = c.line_of("maps/demo.toml", "round_cap = 0");
    assert_fails(
        &c.check(),
        &[format!(
            "mono/maps/demo.toml:{line}:1: error: {}",
            message(0)
        )],
    );
}

// Zones, melds and simultaneous decisions (a copy of games/mahjong) ------------------------------

#[test]
fn unknown_zone_visibility_is_located_with_a_hint() {
    let c = Copy::of("mahjong", "mj");
    c.edit(
        "game.toml",
        "visibility = \"count\"",
        "visibility = \"cont\"",
    );
    let line = c.line_of("game.toml", "\"cont\"");
    assert_fails(
        &c.check(),
        &[format!(
            "mj/game.toml:{line}:23: error: zone 'hand': unknown visibility 'cont'; did you mean 'count'? (expected: public, owner, count, hidden, top)"
        )],
    );
}

#[test]
fn a_zone_layout_is_checked_against_its_choices_its_zone_and_the_meld_shapes() {
    let c = Copy::of("mahjong", "mj");
    c.edit("game.toml", "layout = \"melds\"", "layout = \"meld\"");
    let line = c.line_of("game.toml", "\"meld\"");
    assert_fails(
        &c.check(),
        &[format!(
            "mj/game.toml:{line}:60: error: zone 'melds': unknown layout 'meld'; did you mean 'melds'? (expected: pile, melds)"
        )],
    );
    c.edit("game.toml", "layout = \"meld\"", "layout = \"melds\"");
    c.edit(
        "game.toml",
        "wall = { visibility = \"hidden\" }",
        "wall = { visibility = \"hidden\", layout = \"melds\" }",
    );
    let line = c.line_of("game.toml", "wall = ");
    assert_fails(
        &c.check(),
        &[format!(
            "mj/game.toml:{line}:42: error: zone 'wall': layout 'melds' is for a zone with a pile per seat (per_seat = true)"
        )],
    );
    c.edit("game.toml", ", layout = \"melds\" }", " }");
    c.edit("game.toml", "[melds]", "# no [melds] section");
    c.edit("game.toml", "kinds = 34", "");
    c.edit("game.toml", "runs = [[0, 8]", "# runs = [[0, 8]");
    let line = c.line_of("game.toml", "layout = \"melds\"");
    assert_fails(
        &c.check(),
        &[format!(
            "mj/game.toml:{line}:60: error: zone 'melds': layout 'melds' splits the pile by the meld shapes of a [melds] section, which game.toml does not have"
        )],
    );
}

/// A game whose result is recorded must end: a hook that records a win and stays in a decision
/// state is an error at that hook, not a game that goes on after its "game over".
#[test]
fn a_game_that_goes_on_after_its_result_is_an_error() {
    let c = Copy::of("tictactoe", "ttt");
    c.edit(
        "rules.lua",
        "R.states = { turn = grid.placing_turn(\"over\") }",
        "R.states = {
  turn = {
    options = function(G, ctx) return ctx.grid:empty_options() end,
    act = function(G, ctx, a, p)
      ctx.grid:set(a[2], a[3], p)
      if ctx.grid:longest(a[2], a[3], p) >= ctx.settings.line then ctx:win(p) end
      ctx:next_player()
    end,
  },
}",
    );
    let act = c.line_of("rules.lua", "act = function");
    assert_fails(
        &c.check(),
        &[
            format!(
                "ttt/rules.lua:{act}: error: the game's result is recorded (P2 won), yet the flow \
                 went on to decision state 'turn': return a final state (over) from the hook that \
                 records it"
            ),
            "    in state 'turn' hook 'act' (player 2, turn 8)".into(),
            replayed("ttt", "board", "random,random", 1),
        ],
    );
}

/// A final state decides nothing, and claim keys belong to simultaneous states: each error
/// is at its key.
#[test]
fn decision_keys_where_nobody_decides_are_errors_at_their_key() {
    let c = Copy::of("tictactoe", "ttt");
    c.edit(
        "game.toml",
        "over = { final = true }",
        "over = { final = true, decide = true }",
    );
    c.edit(
        "game.toml",
        "decide = true }\nover",
        "decide = true, priority = { place = 1 } }\nover",
    );
    let (turn, over) = (
        c.line_of("game.toml", "turn = {"),
        c.line_of("game.toml", "over = {"),
    );
    assert_fails(
        &c.check(),
        &[
            format!(
                "ttt/game.toml:{turn}:42: error: state 'turn': 'priority' is only for states with \
                 simultaneous = true"
            ),
            format!(
                "ttt/game.toml:{over}:24: error: state 'over' is final: the game is over there, so \
                 nobody decides ('decide')"
            ),
        ],
    );
}

/// Hooks a state's kind never calls are warned of at their function.
#[test]
fn check_warns_of_hooks_a_state_never_calls() {
    let c = Copy::of("tictactoe", "ttt");
    c.edit(
        "rules.lua",
        "return R",
        "R.states.over = { act = function() end }\n\
         R.states.turn.seats = function() return {} end\n\
         return R",
    );
    let (act, seats) = (
        c.line_of("rules.lua", "R.states.over"),
        c.line_of("rules.lua", "R.states.turn.seats"),
    );
    let out = c.check();
    assert_eq!(
        out.stderr,
        format!(
            "ttt/rules.lua:{act}: warning: R.states.over.act is never called: state 'over' is \
             final\n\
             ttt/rules.lua:{seats}: warning: R.states.turn.seats is never called: state 'turn' is \
             a decision of one seat (not simultaneous)\n"
        )
    );
}

#[test]
fn a_simultaneous_state_must_be_a_decision_and_have_a_seats_hook() {
    let c = Copy::of("mahjong", "mj");
    c.edit("game.toml", "decide = true, simultaneous", "simultaneous");
    c.edit(
        "rules.lua",
        "    seats = function(G, ctx)",
        "    seat = function(G, ctx)",
    );
    let line = c.line_of("game.toml", "simultaneous = true");
    assert_fails(
        &c.check(),
        &[format!(
            "mj/game.toml:{line}:57: error: state 'claim' is simultaneous, so it must also be a decision (decide = true)"
        )],
    );
    c.edit("game.toml", "simultaneous", "decide = true, simultaneous");
    // Located at the misspelt hook, the likely cause, with its warning beside it.
    let seat = c.line_of("rules.lua", "seat = function(G, ctx)");
    assert_fails(
        &c.check(),
        &[
            format!(
                "mj/rules.lua:{seat}: error: state 'claim' needs a function R.states.claim.seats"
            ),
            format!(
                "mj/rules.lua:{seat}: warning: R.states.claim.seat is not read by the runtime; \
                 did you mean R.states.claim.seats?"
            ),
        ],
    );
}

/// A decision state game.toml declares with no table in R.states: one error says what the
/// table needs, where R.states is made; a misspelt state's table is an error at its name.
#[test]
fn a_state_without_its_table_in_the_rules_is_one_error() {
    let c = Copy::new();
    c.edit(
        "game.toml",
        "[flow.states]\n",
        "[flow.states]\nextra = { next = [\"wait_player\"], decide = true }\n",
    );
    // At the line that makes R.states; a state named there that is no state, at its name.
    // The flow's warning about the new state stays beside it.
    let (states, extra) = (
        c.line_of("rules.lua", "R.states = {}"),
        c.line_of("game.toml", "extra = {"),
    );
    assert_fails(
        &c.check(),
        &[
            format!(
                "mono/game.toml:{extra}:1: warning: state 'extra' is never reached: no path from \
                 the start state 'wait_player' leads to it"
            ),
            format!(
                "mono/rules.lua:{states}: error: state 'extra' of game.toml [flow] has no \
                 R.states.extra table (it needs options and act)"
            ),
        ],
    );
    // A field of the same name written earlier does not hide where the state is made.
    c.edit(
        "rules.lua",
        "  G.players = {}\n",
        "  G.players, G.bilding = {}, 0\n",
    );
    c.edit("rules.lua", "R.states.building = {", "R.states.bilding = {");
    let (states, named) = (
        c.line_of("rules.lua", "R.states = {}"),
        c.line_of("rules.lua", "R.states.bilding = {"),
    );
    let out = c.check();
    assert_has(
        &out.stderr,
        &format!(
            "mono/rules.lua:{named}: error: R.states.bilding: no such state in game.toml [flow]; \
             did you mean 'building'?"
        ),
    );
    assert_has(
        &out.stderr,
        &format!("mono/rules.lua:{states}: error: state 'building' of game.toml [flow] has no"),
    );
}

/// Player counts that cannot be are shown at the count to change.
#[test]
fn bad_player_counts_are_errors_at_their_key() {
    let c = Copy::new();
    let players = c.read("game.toml");
    let players = players
        .lines()
        .find(|l| l.starts_with("players"))
        .expect("a players line")
        .to_string();
    c.edit("game.toml", &players, "players = { min = 3, max = 2 }");
    let line = c.line_of("game.toml", "players = { min = 3, max = 2 }");
    assert_fails(
        &c.check(),
        &[format!(
            "mono/game.toml:{line}:22: error: bad player counts: max is 2, below min 3"
        )],
    );
    c.edit("game.toml", "min = 3, max = 2", "min = 0, max = 2");
    assert_fails(
        &c.check(),
        &[format!(
            "mono/game.toml:{line}:13: error: bad player counts: a game needs at least 1 player"
        )],
    );
}

#[test]
fn a_run_range_outside_the_item_codes_is_an_error() {
    let c = Copy::of("mahjong", "mj");
    c.edit("game.toml", "[18, 26]", "[18, 36]");
    let line = c.line_of("game.toml", "[18, 36]");
    assert_fails(
        &c.check(),
        &[format!(
            "mj/game.toml:{line}:26: error: run range [18, 36] must be low..high inside the item codes 0..33"
        )],
    );
}

#[test]
fn an_unknown_zone_in_the_rules_names_the_line_and_the_declared_zones() {
    let c = Copy::of("mahjong", "mj");
    c.edit(
        "rules.lua",
        "local wall = ctx.zone.wall",
        "local wall = ctx.zone.wal",
    );
    let line = c.line_of("rules.lua", "local wall = ctx.zone.wal");
    let out = c.check();
    assert!(
        out.stderr.starts_with(&format!(
            "mj/rules.lua:{line}: error: unknown zone 'wal'; did you mean 'wall'? (game.toml [zones] declares: wall, hand, melds, discards)"
        )),
        "{}",
        out.stderr
    );
}

/// Misused piles are errors at the rules line that misused them, saying what was expected.
#[test]
fn pile_misuse_names_the_rules_line() {
    let cases = [
        (
            "hands.deal(wall, ctx.zone.hand, 13)",
            "wall:deal(ctx.zone.hand[1], 13.5)",
            "deal: expected a whole number of at least 0, got 13.5",
        ),
        (
            "hands.deal(wall, ctx.zone.hand, 13)",
            "wall.shuffle()",
            "'shuffle' is a method: call it with a colon (x:shuffle(…)), not a dot",
        ),
        (
            "hands.deal(wall, ctx.zone.hand, 13)",
            "hands.deal(wall, ctx.zone.hand, 13); wall.has(5)",
            "'has' is a method: call it with a colon (x:has(…)), not a dot",
        ),
        (
            "hands.deal(wall, ctx.zone.hand, 13)",
            "hands.deal(wall, ctx.zone.hand, 13); wall.counts(34)",
            "'counts' is a method: call it with a colon (x:counts(…)), not a dot",
        ),
        (
            "hands.deal(wall, ctx.zone.hand, 13)",
            "hands.deal(wall, ctx.zone.hand, 13); wall.count(ctx.zone.hand)",
            "count: call it on a pile with a colon (pile:count(...))",
        ),
        (
            "hands.deal(wall, ctx.zone.hand, 13)",
            "hands.deal(wall, ctx.zone.hand, 13); wall:srot()",
            "a pile has no field 'srot'; did you mean 'sort'?",
        ),
        (
            "hands.deal(wall, ctx.zone.hand, 13)",
            "hands.deal(wall, ctx.zone.hand, 13); wall:add(\"5\")",
            "items are integer codes, got the string \"5\"",
        ),
        (
            "hands.deal(wall, ctx.zone.hand, 13)",
            "hands.deal(wall, ctx.zone.hand, 13); wall:add({ 5, 6 })",
            "items are integer codes, got a table (a list of items is added as \
             pile:add(table.unpack(list)))",
        ),
        (
            "hands.deal(wall, ctx.zone.hand, 13)",
            "hands.deal(wall, ctx.zone.hand, 13); wall:take(5)",
            "pile:take() takes no argument, got 5 (it takes the top item; pile:remove(v) takes \
             out item v, pile:move(v, to) moves it)",
        ),
        (
            "hands.deal(wall, ctx.zone.hand, 13)",
            "hands.deal(wall, ctx.zone.hand, 13); ctx.zone.hand[0]:add(5)",
            "ctx.zone.hand holds a pile per seat, 1 to 2: there is no ctx.zone.hand[0]",
        ),
        (
            "hands.deal(wall, ctx.zone.hand, 13)",
            "hands.deal(wall, ctx.zone.hand, 13); ctx.zone.hand:count()",
            "ctx.zone.hand holds a pile per seat: take one, as ctx.zone.hand[p]:count(…)",
        ),
        (
            "hands.deal(wall, ctx.zone.hand, 13)",
            "hands.deal(wall, ctx.zone.hand, 70)",
            "hands.deal: 2 hands of 70 need 140 items; the pile has 136",
        ),
        (
            "for t = 0, KINDS - 1 do wall:add(t, t, t, t) end",
            "for t = 0, KINDS - 1 do wall:add(t + 1, t, t, t) end",
            "item code 34 out of range (game.toml names 34 items: 0..33)",
        ),
    ];
    for (from, to, message) in cases {
        let c = Copy::of("mahjong", "mj");
        c.edit("rules.lua", from, to);
        let line = c.line_of("rules.lua", to);
        let out = c.check();
        assert!(
            out.stderr
                .starts_with(&format!("mj/rules.lua:{line}: error: {message}\n")),
            "{to}: {}",
            out.stderr
        );
    }
}

/// `check` writes the game's log as `play` does, so a log line whose format does not fit its
/// values is found, at the rules line.
#[test]
fn a_bad_log_format_is_found_by_check_at_the_rules_line() {
    assert_roll_fails(
        "ctx:log('P%d rolls', 'x')",
        "ctx:log(\"P%d rolls\"): bad argument #2 to 'string.format' (number expected, got string)",
    );
}

/// `check` plays a game with the AI script in every seat, so a broken `AI.score` is found.
#[test]
fn check_runs_the_ai_script() {
    let c = Copy::new();
    c.edit(
        "ai.lua",
        "  local verb, s = option[1], ctx.settings\n",
        "  local verb, s = option[1], ctx.settings\n  if verb == 'buy' then return 'high' end\n",
    );
    let line = c.line_of("ai.lua", "function AI.score(");
    let out = c.check();
    let first = out.stderr.lines().next().unwrap_or_default();
    assert_eq!(
        first,
        format!(
            "mono/ai.lua:{line}: error: AI.score returned string for option 1 (buy connecticut), expected a number"
        )
    );
    assert_has(&out.stderr, "in state 'buying' hook 'AI.score'");
    assert_eq!(out.code, Some(1));
}

/// A bot's move the rules fail on does not end `play`: the move is undone with the lines it
/// logged, the bots wait for a line (Enter lets them try again) or a reload, and the record is
/// still written.
#[test]
fn a_bots_failing_move_in_play_waits_and_keeps_the_record() {
    let c = Copy::new();
    let roll = r#"    if verb == "roll" then return "rolling" end"#;
    c.edit(
        "rules.lua",
        roll,
        &format!(
            "    if verb == \"roll\" and p == 2 then ctx:log(\"P2 reaches for the dice\") end\n    \
             if verb == \"roll\" and p == 2 then local x = nil + 1 end\n{roll}"
        ),
    );
    let line = c.line_of("rules.lua", "p == 2 then local x = nil");
    let args = [
        "play",
        GAME,
        "--players",
        "human,ai",
        "--seed",
        "4",
        "--text",
        "--no-watch",
        "--record",
        "r.json",
    ];
    let out = run_typing(&c.cwd, &args, "1\n2\nwhy\n\nquit\n");
    let failed = format!(
        "P2 (ai) → roll the dice\nmono/rules.lua:{line}: error: attempt to perform arithmetic on a nil value\n    \
         in state 'wait_player' hook 'act' (player 2, turn 2)\n\
         the rules failed on that move; it was undone\n\
         P2 (ai) cannot move: fix the rules (saving them reloads the game) or press Enter to let it \
         try again; a number or an action moves for it; undo, save FILE and quit work as ever\n"
    );
    assert_eq!(
        out.stdout.matches(&failed).count(),
        2,
        "failed, then (not after why) again after Enter:\n{}",
        out.stdout
    );
    assert!(
        !out.stdout.contains("reaches for the dice"),
        "an undone move's lines are not shown:\n{}",
        out.stdout
    );
    assert!(
        out.stdout.ends_with("replay written to r.json\n"),
        "{}",
        out.stdout
    );
    assert_eq!(
        out.code,
        Some(1),
        "the session ended on a move the rules could not make"
    );
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(c.cwd.join("r.json")).expect("the record"))
            .expect("JSON");
    assert_eq!(
        record["steps"].as_array().map(|s| s.len()),
        Some(2),
        "P1's roll and decision"
    );
}

/// A person's move the rules fail on is taken back for good: what `undo` took back can still
/// be redone. A move that leaves `G` unsaveable is taken back too, with its log line, and the
/// game plays on (it used to stay on the board, with nothing left to undo).
#[test]
fn a_failed_move_is_taken_back_and_keeps_what_redo_brings_back() {
    let c = Copy::of("tictactoe", "ttt");
    c.edit(
        "rules.lua",
        "R.states = { turn = grid.placing_turn(\"over\") }",
        "local turn = grid.placing_turn(\"over\")\n\
         local act = turn.act\n\
         turn.act = function(G, ctx, action, p)\n  \
           if action[2] == 2 and action[3] == 2 then error(\"the centre is broken\") end\n  \
           if action[2] == 3 and action[3] == 3 then G.f = print end\n  \
           return act(G, ctx, action, p)\n\
         end\n\
         R.states = { turn = turn }",
    );
    let line = c.line_of("rules.lua", "the centre is broken");
    let typed = "place 1 1\nundo\nplace 2 2\nredo\nplace 3 3\nplace 1 3\nundo\nundo\nplace 3 3\nredo\nquit\n";
    let out = c.play_text("human,human", &[], typed);
    let prompts: Vec<&str> = (out.stdout.split("> ").skip(1))
        .map(|s| s.split("\n\n").next().unwrap_or(""))
        .collect();
    let centre = format!(
        "ttt/rules.lua:{line}: error: the centre is broken\n    in state 'turn' hook 'act' \
         (player 1, turn 1)\nthe rules failed on that move; it was undone\nP1, choose:\n"
    );
    let one = "1 decision:\n  · P1 places at (1, 1)";
    assert_eq!(prompts[1], format!("undid {one}"), "{}", out.stdout);
    assert!(prompts[2].starts_with(&centre), "{}", out.stdout);
    assert_eq!(prompts[3], format!("redid {one}"), "{}", out.stdout);
    let board = "     1  2  3\n  1  ●  ·  ·\n  2  ·  ·  ·\n  3  ·  ·  ·";
    assert!(out
        .stdout
        .split("redid 1 decision")
        .nth(1)
        .unwrap()
        .contains(board));
    let set = c.line_of("rules.lua", "G.f = print");
    let unsaved = format!(
        "ttt/rules.lua:{set}: error: G.f: a function cannot be saved (G must be plain data)\n    \
         saving the position in state 'turn' (player 1, turn 3)\n\
         the rules failed on that move; it was undone\nP2, choose:\n"
    );
    assert!(prompts[4].starts_with(&unsaved), "{}", out.stdout);
    assert!(!out.stdout.contains("places at (3, 3)"), "{}", out.stdout);
    // P2's next move stands, and undo takes back that one move.
    assert!(
        prompts[5].starts_with("  · P2 places at (1, 3)"),
        "{}",
        out.stdout
    );
    let p2 = "undid 1 decision:\n  · P2 places at (1, 3)";
    assert_eq!(prompts[6], p2, "{}", out.stdout);
    // Undone again, a move whose position cannot be saved keeps what redo brings back.
    assert_eq!(prompts[7], format!("undid {one}"), "{}", out.stdout);
    assert!(
        prompts[8].starts_with(
            unsaved
                .replace("P2, choose", "P1, choose")
                .replace("player 1, turn 3", "player 2, turn 2")
                .as_str()
        ),
        "{}",
        out.stdout
    );
    assert_eq!(prompts[9], format!("redid {one}"), "{}", out.stdout);
    assert_eq!(out.code, Some(0));
}

/// Two games with one id (a copy whose id was not changed) are an error of `check --all`.
#[test]
fn check_all_refuses_two_games_with_one_id() {
    let c = Copy::new();
    copy_dir(&c.root, &c.cwd.join("mono2"));
    let out = run_in(
        c.cwd.parent().expect("the temp folder"),
        &["check", "--all", "--games", "1"],
    );
    assert_eq!(
        out.stderr,
        "games/mono2/game.toml: error: id 'monopoly' is also the id of games/mono (give each game its own id)\n"
    );
    assert_eq!(
        out.stdout,
        "ok: monopoly (2 maps, 7 games: 5 random at 2 to 4 players and 2 AI at 6 players; states entered: 10 of 10, verbs played: 14 of 14)\n"
    );
    assert_eq!(out.code, Some(1));
}

/// `meeple ai` lists the chosen option first among options that score alike (a random bot
/// gives every option the same chance).
#[test]
fn ai_lists_the_chosen_option_first_among_equals() {
    let out = run_in(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &["ai", "gomoku", "--bot", "random", "--top", "3"],
    );
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(
        doc["candidates"][0]["option"], doc["chosen"],
        "{}",
        out.stdout
    );
    assert_eq!(doc["candidates"].as_array().map(|c| c.len()), Some(3));
}

/// At the prompt an option's label, as listed, picks it as its action text does.
#[test]
fn a_label_typed_at_the_prompt_picks_its_option() {
    let c = Copy::new();
    let args = [
        "play",
        GAME,
        "--seed",
        "4",
        "--text",
        "--no-watch",
        "--record",
        "r.json",
    ];
    let out = run_typing(&c.cwd, &args, "1\ndo not buy\nquit\n");
    assert!(!out.stdout.contains("rejected"), "{}", out.stdout);
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(c.cwd.join("r.json")).expect("the record"))
            .expect("JSON");
    let actions: Vec<&str> = (record["steps"].as_array().expect("steps").iter())
        .filter(|s| s["seat"] == 0)
        .map(|s| s["action"]["verb"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(actions, ["roll", "pass"]);
}

/// A save that cannot be written names the file asked for (not the temporary one beside it).
#[test]
fn a_save_that_cannot_be_written_names_the_file() {
    let c = Copy::new();
    let args = ["play", GAME, "--seed", "4", "--text", "--no-watch"];
    let out = run_typing(&c.cwd, &args, "save no/such/dir/x.json\nquit\n");
    assert_has(
        &out.stdout,
        "> no/such/dir/x.json: cannot write: No such file or directory (os error 2)\n",
    );
    // The temporary file is written, then cannot replace a folder of the same name: removed.
    std::fs::create_dir(c.cwd.join("taken.json")).expect("a folder");
    let out = run_typing(&c.cwd, &args, "save taken.json\nquit\n");
    assert!(
        out.stdout
            .contains("> taken.json: cannot write: Is a directory (os error 21)\n"),
        "{}",
        out.stdout
    );
    assert!(
        !c.cwd.join("taken.tmp").exists(),
        "the temporary file is removed"
    );
}

/// `R.stats` must give numbers by name; `check` asks for them at the end of every game.
#[test]
fn stats_that_are_not_numbers_are_errors_at_the_hook() {
    for (body, message) in [
        (
            "return { houses = 'many' }",
            "R.stats: 'houses' is a string, expected a number",
        ),
        (
            "return 5",
            "R.stats returned a number (5), expected a table of name = number",
        ),
        (
            "return { turns = 0/0 }",
            "R.stats: 'turns' is a number (NaN), expected a finite number",
        ),
    ] {
        let c = Copy::new();
        c.edit(
            "rules.lua",
            "function R.stats(G, ctx)\n",
            &format!("function R.stats(G, ctx)\n  do {body} end\n"),
        );
        let line = c.line_of("rules.lua", "function R.stats(G, ctx)");
        let out = c.check();
        let first = out.stderr.lines().next().unwrap_or_default();
        assert_eq!(
            first,
            format!("mono/rules.lua:{line}: error: {message}"),
            "{}",
            out.stderr
        );
        assert!(
            out.stderr.contains("hook 'R.stats' (state 'game_over'"),
            "{}",
            out.stderr
        );
    }
}

/// `R.setup` fills G or returns the table that becomes G: anything else is an error at it.
#[test]
fn a_setup_that_returns_something_else_is_an_error_at_it() {
    let c = Copy::new();
    let setup = c.line_of("rules.lua", "function R.setup(G, ctx)");
    c.edit(
        "rules.lua",
        "function R.setup(G, ctx)\n",
        "function R.setup(G, ctx)\n  do return 5 end\n",
    );
    let out = c.check();
    assert_eq!(
        out.stderr.lines().next().unwrap_or_default(),
        format!(
            "mono/rules.lua:{setup}: error: R.setup returned a number (5), expected nothing \
             (fill G) or a table that becomes G"
        ),
        "{}",
        out.stderr
    );
}

/// `check` shows every decision as `play` would: a label hook that returns something other
/// than text is found, at the hook, with the decision it was showing.
#[test]
fn check_shows_every_decision() {
    let c = Copy::new();
    c.edit(
        "rules.lua",
        r#"if verb == "roll" then return "roll the dice" end"#,
        r#"if verb == "roll" then return 42 end"#,
    );
    let line = c.line_of("rules.lua", "function R.label(");
    assert_fails(
        &c.check(),
        &[
            format!(
                "mono/rules.lua:{line}: error: R.label returned a number (42), expected a string"
            ),
            "    in hook 'R.label' (state 'wait_player', player 1, turn 1)".to_string(),
            first_game(),
        ],
    );
    // `play` goes on, and says once why the options read as their actions.
    let args = ["play", GAME, "--seed", "4", "--text", "--no-watch"];
    let out = run_typing(&c.cwd, &args, "quit\n");
    assert!(
        out.stdout.contains(&format!(
            "mono/rules.lua:{line}: error: R.label returned a number (42), expected a string · in hook 'R.label' (state 'wait_player', player 1, turn 1)\nP1, choose:\n  1) roll\n"
        )),
        "{}",
        out.stdout
    );
}

/// An error in a function a hook tail-calls (`return ctx:item(0)`) has no line of the hook's:
/// it is put at the line where the hook begins, and a note says why.
#[test]
fn an_error_in_a_tail_call_is_put_where_the_hook_begins() {
    let c = Copy::new();
    c.edit(
        "rules.lua",
        r#"if verb == "roll" then return "roll the dice" end"#,
        r#"if verb == "roll" then return ctx:item(0) end"#,
    );
    let line = c.line_of("rules.lua", "function R.label(");
    let hook = |line: usize, context: &str| {
        vec![
            format!("mono/rules.lua:{line}: error: this game names no items: ctx:item needs [items] in game.toml"),
            format!("    {context}"),
            format!("    line {line} is where the hook begins: a call made by `return f(...)` leaves no line"),
            first_game(),
        ]
    };
    assert_fails(
        &c.check(),
        &hook(
            line,
            "in hook 'R.label' (state 'wait_player', player 1, turn 1)",
        ),
    );
    c.edit(
        "rules.lua",
        r#"if verb == "roll" then return ctx:item(0) end"#,
        r#"if verb == "roll" then return "roll the dice" end"#,
    );
    c.edit(
        "rules.lua",
        "    return { { \"buy\", here(ctx, p).id }, { \"pass\" } }",
        "    return ctx:item(0)",
    );
    let options = c.line_of("rules.lua", "return ctx:item(0)") - 1;
    assert_fails(
        &c.check(),
        &hook(
            options,
            "in state 'buying' hook 'options' (player 1, turn 1)",
        ),
    );
}

/// A bad argument to a `ctx` function written in Rust points at the calling line too.
#[test]
fn a_bad_argument_to_a_rust_ctx_function_names_the_rules_line() {
    assert_roll_fails(
        "ctx.deck:draw()",
        "bad argument #2: error converting Lua nil to String (expected string or number)",
    );
}

// Grid games (a copy of games/gomoku) -----------------------------------------------------------

/// The note under an error in Gomoku's `wins`: `scripts/grid.lua`'s `place_stone` called it,
/// from the act hook `placing_turn` made.
fn grid_callers() -> String {
    let grid = include_str!("../scripts/grid.lua");
    let at = |needle: &str| line_in(grid, needle);
    format!(
        "    called from scripts/grid.lua:{}, scripts/grid.lua:{}",
        at("(wins or grid.makes_line)(ctx, r, c, p)"),
        at("if grid.place_stone(ctx, r, c, p, wins)")
    )
}

#[test]
fn a_grid_call_off_the_board_names_the_rules_line_and_the_board() {
    let c = Copy::of("gomoku", "gk");
    c.edit(
        "rules.lua",
        "ctx.grid:runs(r, c, p)",
        "ctx.grid:runs(16, c - c, p)",
    );
    let line = c.line_of("rules.lua", "ctx.grid:runs(16, c - c, p)");
    assert_fails(
        &c.check(),
        &[
            format!("gk/rules.lua:{line}: error: cell (16, 0) is off the 15×15 board"),
            grid_callers(),
            "    in state 'turn' hook 'act' (player 1, turn 1)".to_string(),
            replayed("gk", "board", "random,random", 1),
        ],
    );
}

#[test]
fn an_error_after_the_turn_passed_names_the_seat_and_turn_that_moved() {
    let c = Copy::of("gomoku", "gk");
    c.edit(
        "rules.lua",
        "R.states = { turn = grid.placing_turn(\"over\", wins) }",
        "R.states = { turn = grid.placing_turn(\"over\", wins) }\n\
         local place = R.states.turn.act\n\
         R.states.turn.act = function(G, ctx, action, p)\n\
           local over = place(G, ctx, action, p)\n\
           if G.moves == 3 then error(\"after the move\") end\n\
           return over\n\
         end",
    );
    let line = c.line_of("rules.lua", "error(\"after the move\")");
    assert_fails(
        &c.check(),
        &[
            format!("gk/rules.lua:{line}: error: after the move"),
            "    in state 'turn' hook 'act' (player 1, turn 3)".to_string(),
            replayed("gk", "board", "random,random", 1),
        ],
    );
}

/// A claim nobody wins runs `act` with no seat: its error names the seat whose turn it is.
#[test]
fn an_error_in_a_claim_nobody_won_names_the_seat_to_move() {
    let c = Copy::of("mahjong", "mj");
    c.edit(
        "rules.lua",
        "      if action == nil or action[1] == \"pass\" then\n        ctx:next_player()",
        "      if action == nil or action[1] == \"pass\" then\n        ctx:next_player()\n        \
         error(\"nobody claimed\")",
    );
    let line = c.line_of("rules.lua", "error(\"nobody claimed\")");
    let out = c.check();
    assert!(
        out.stderr.starts_with(&format!(
            "mj/rules.lua:{line}: error: nobody claimed\n    in state 'claim' hook 'act' (player 1, \
             turn 1)\n"
        )),
        "{}",
        out.stderr
    );
}

#[test]
fn a_grid_call_with_a_bad_seat_names_the_rules_line() {
    let c = Copy::of("gomoku", "gk");
    c.edit(
        "rules.lua",
        "ctx.grid:runs(r, c, p)",
        "ctx.grid:runs(r, c, p + 300)",
    );
    let line = c.line_of("rules.lua", "ctx.grid:runs(r, c, p + 300)");
    assert_fails(
        &c.check(),
        &[
            format!("gk/rules.lua:{line}: error: seat 301 out of range (1..2)"),
            grid_callers(),
            "    in state 'turn' hook 'act' (player 1, turn 1)".to_string(),
            replayed("gk", "board", "random,random", 1),
        ],
    );
}

#[test]
fn a_bad_dice_spec_names_the_rules_line() {
    let c = Copy::of("monopoly", "mono");
    c.edit(
        "rules.lua",
        "doubles = ctx.dice:sum(\"2d6\")",
        "doubles = ctx.dice:sum(\"2d6+-1\")",
    );
    let line = c.line_of("rules.lua", "ctx.dice:sum(\"2d6+-1\")");
    assert_fails(
        &c.check(),
        &[
            format!(
                "mono/rules.lua:{line}: error: bad dice spec '2d6+-1' (expected forms like \"2d6\", \"d20\", \"3d6+2\")"
            ),
            "    in state 'rolling' hook 'enter' (player 1, turn 1)".to_string(),
            first_game(),
        ],
    );
}

// The read-only views of the live components read what the ctx functions read, follow every
// change, and refuse writes with a message naming the function that changes them.
#[test]
fn live_views_read_the_state_and_refuse_writes() {
    let g = start("monopoly", "demo", 2, 1, &[]);
    let read = "return { ctx.board.owners[2] or false, ctx.board.levels[2], ctx.board.positions[2], \
                ctx.counters.cash[2], #ctx.board.owners, #ctx.board.positions, #ctx.counters.cash }";
    assert_eq!(
        g.eval(read).unwrap(),
        serde_json::json!([false, 0, 1, 1500, 10, 2, 2])
    );
    let change = "ctx.board:set_owner(2, 2) ctx.board:set_level('beijing', 3) \
                  ctx.board:move(2, 4) ctx.counter:add(2, 'cash', -100)";
    g.eval(change).unwrap();
    assert_eq!(
        g.eval(read).unwrap(),
        serde_json::json!([2, 3, 5, 1400, 10, 2, 2])
    );
    let agree = "return { ctx.board:owner(2), ctx.board:level(2), ctx.board:position(2), \
                 ctx.counter:get(2, 'cash') }";
    assert_eq!(g.eval(agree).unwrap(), serde_json::json!([2, 3, 5, 1400]));
    let sum = "local n = 0 for _, v in pairs(ctx.counters.cash) do n = n + v end return n";
    assert_eq!(g.eval(sum).unwrap(), serde_json::json!(2900));
    // eval shows a view by what it holds, as the console does.
    let views = "return { ctx.counters, ctx.board.positions }";
    assert_eq!(
        g.eval(views).unwrap(),
        serde_json::json!([{ "cash": [1500, 1400] }, [1, 5]])
    );
    let error = |call: &str| raised(&g, call);
    let cases = [
        (
            "ctx.board.owners[2] = 1",
            "eval:1: ctx.board.owners is read-only: change it with ctx.board:set_owner",
        ),
        (
            "ctx.board.levels[2] = 1",
            "eval:1: ctx.board.levels is read-only: change it with ctx.board:set_level",
        ),
        (
            "ctx.board.positions[1] = 3",
            "eval:1: ctx.board.positions is read-only: change it with ctx.board:move, :advance_to or :place",
        ),
        (
            "ctx.counters.cash[1] = 0",
            "eval:1: ctx.counters.cash is read-only: change it with ctx.counter:set or :add",
        ),
        (
            "ctx.counters.cash = {}",
            "eval:1: ctx.counters is read-only: change it with ctx.counter:set or :add",
        ),
        (
            "return ctx.counters.money",
            "eval:1: unknown counter 'money' (game.toml declares: cash)",
        ),
        (
            "ctx.counter:add(1, 'cahs', 5)",
            "eval:1: unknown counter 'cahs'; did you mean 'cash', or should game.toml say 'cahs'? \
             (game.toml declares: cash)",
        ),
        (
            "ctx.counters:add(1, 'cash', 5)",
            "eval:1: ctx.counters is for reading (ctx.counters.<name>[p]): 'add' is a method of \
             ctx.counter, as ctx.counter:add(...)",
        ),
        (
            "ctx.board:owner(11)",
            "eval:1: space 11 out of range (1..10)",
        ),
        ("ctx.board:owner('moon')", "eval:1: no space 'moon' on this board"),
        (
            "ctx.board:owner('bejing')",
            "eval:1: no space 'bejing' on this board; did you mean 'beijing'?",
        ),
        (
            "ctx.board:place(1, 'bejing')",
            "eval:1: no space 'bejing' on this board; did you mean 'beijing'?",
        ),
        // As near to guangzhou as to hangzhou: the first in board order.
        (
            "ctx.board:owner('gangzhou')",
            "eval:1: no space 'gangzhou' on this board; did you mean 'guangzhou'?",
        ),
    ];
    for (call, message) in cases {
        assert_eq!(error(call), serde_json::json!(message), "{call}");
    }
    assert_eq!(
        g.eval("ctx.board:set_owner('beijing', nil) return ctx.board.owners[2]")
            .unwrap(),
        serde_json::Value::Null
    );
    let hidden = "return { getmetatable(ctx.board.levels), getmetatable(ctx.counters.cash) }";
    assert_eq!(g.eval(hidden).unwrap(), serde_json::json!([false, false]));
}

/// The game's static data (settings, the map, spaces, cards, items) is read-only: a change
/// kept there would be in no snapshot, so undo, saves, replays and a bot's search would miss it
/// and games would depend on what ran before. A view kept in G is saved as what it shows.
#[test]
fn static_data_is_read_only_and_saved_by_content() {
    let g = start("mahjong", "table", 4, 1, &[]);
    let read_only = |what: &str| {
        format!("eval:1: {what} is read-only: it holds what the game's files say; keep what changes in G")
    };
    let cases = [
        ("ctx.settings.ai_trials = 1", read_only("ctx.settings")),
        (
            "ctx.settings.scores.base = 9",
            read_only("ctx.settings.scores"),
        ),
        ("ctx.map.name = 'x'", read_only("ctx.map")),
        ("ctx.items[1] = 'x'", read_only("ctx.items")),
    ];
    for (code, message) in &cases {
        assert_eq!(raised(&g, code), serde_json::json!(message), "{code}");
    }
    let mut m = start("monopoly", "demo", 2, 1, &[]);
    let cases = [
        (
            "ctx.board.spaces[2].price = 1",
            read_only("space 'beijing'"),
        ),
        (
            "ctx.board.by_id.beijing.rent[1] = 0",
            read_only("space 'beijing'.rent"),
        ),
        ("ctx.board.spaces[11] = {}", read_only("ctx.board.spaces")),
        (
            "ctx.board.groups.north[1] = 0",
            read_only("ctx.board.groups.north"),
        ),
        (
            "ctx.decks.chance.cards[1].amount = 0",
            read_only("card 'advance_go' of deck 'chance'"),
        ),
        ("ctx.decks.chance = nil", read_only("ctx.decks")),
    ];
    for (code, message) in &cases {
        assert_eq!(raised(&m, code), serde_json::json!(message), "{code}");
    }
    // One table per space, whichever list it is read from.
    let same = "return ctx.board.by_id.beijing == ctx.board.spaces[2] \
                and ctx.board.groups.north[1] == ctx.board.spaces[2]";
    assert_eq!(m.eval(same).unwrap(), serde_json::json!(true));
    // Kept in G, a card, a space and a counter's view are saved as what they hold.
    exec(
        &mut m,
        "G.kept = { card = ctx.decks.chance.cards[1], space = ctx.board.spaces[2], \
         cash = ctx.counters.cash }",
    );
    let kept = &m.snapshot().unwrap().g["kept"];
    assert_eq!(kept["card"]["id"], "advance_go");
    assert_eq!(kept["space"]["rent"][0], 20);
    assert_eq!(kept["cash"], serde_json::json!([1500, 1500]));
    let settings = "local n = 0 for _ in pairs(ctx.settings) do n = n + 1 end \
                    return { n, #ctx.settings.scores == 0, ctx.settings.ai_trials }";
    assert_eq!(g.eval(settings).unwrap(), serde_json::json!([5, true, 400]));
}

/// ctx and its parts are the runtime's: a value kept there would carry over to the next game
/// played in the same VM (sim, check) and be in no snapshot, so a write is an error.
#[test]
fn ctx_and_its_parts_refuse_a_write() {
    let g = start("monopoly", "demo", 2, 1, &[]);
    let refused = |name: &str, part: &str| {
        format!(
            "eval:1: {name} cannot be set: {part} is the runtime's and lives on from one game \
             to the next; keep what changes in G"
        )
    };
    let cases = [
        ("ctx.cache = {}", refused("ctx.cache", "ctx")),
        (
            "ctx.seats = function() return 9 end",
            refused("ctx.seats", "ctx"),
        ),
        (
            "ctx.board.size = 10",
            refused("ctx.board.size", "ctx.board"),
        ),
        ("ctx.dice.roll = nil", refused("ctx.dice.roll", "ctx.dice")),
        ("ctx.grid.rows = 3", refused("ctx.grid.rows", "ctx.grid")),
    ];
    for (code, message) in &cases {
        assert_eq!(raised(&g, code), serde_json::json!(message), "{code}");
    }
    // What the runtime itself changes in ctx still changes.
    assert_eq!(
        g.eval("return ctx.logging").unwrap(),
        serde_json::json!(true)
    );
}

/// A field or a die a roll lacks is an error at the reading line (a misspelt `doubles` read
/// as nil, that is false); its dice read as a list.
#[test]
fn a_roll_has_its_total_its_doubles_and_its_dice() {
    let g = start("monopoly", "demo", 2, 1, &[]);
    assert_eq!(
        raised(&g, "local r = ctx.dice:roll('2d6') return r.double"),
        serde_json::json!(
            "eval:1: a roll has no field 'double'; did you mean 'doubles'? (it has total, doubles \
             and each die as roll[1], roll[2], ...)"
        )
    );
    let dice = "local r, n, sum = ctx.dice:roll('3d6+1'), 0, 0 \
                for _, v in ipairs(r) do n, sum = n + 1, sum + v end \
                return { n, sum + 1 == r.total, r[4] == nil }";
    assert_eq!(g.eval(dice).unwrap(), serde_json::json!([3, true, true]));
    assert_eq!(
        raised(&g, "local r = ctx.dice:roll('2d6') return r[0]"),
        serde_json::json!("eval:1: a roll of 2 dice has no die 0 (they are roll[1] to roll[2])")
    );
}

/// A pile changes only through its methods: setting its fields, the per-seat list or a zone
/// is an error at the line; a bad item written into its list is named with the pile when the
/// position is saved; a pile kept in G is named as the pile; a misspelt zone gets its match.
#[test]
fn a_pile_changes_only_through_its_methods() {
    let mut g = start("mahjong", "table", 4, 1, &[]);
    let cases = [
        (
            "ctx.zone.wall.list = {}",
            "eval:1: ctx.zone.wall is a pile: its fields cannot be set; change what it holds \
             with its methods (add, take, move, deal, clear, …)",
        ),
        (
            "ctx.zone.hand[2].name = 'x'",
            "eval:1: ctx.zone.hand[2] is a pile: its fields cannot be set; change what it \
             holds with its methods (add, take, move, deal, clear, …)",
        ),
        (
            "ctx.zone.hand[5] = ctx.zone.wall",
            "eval:1: ctx.zone.hand is the runtime's list of the zone's piles, one per seat: it \
             cannot be changed",
        ),
        (
            "ctx.zone.wall = nil",
            "eval:1: ctx.zone holds the zones game.toml declares: zone 'wall' cannot be set",
        ),
        (
            "ctx.zone.wal:count()",
            "eval:1: unknown zone 'wal'; did you mean 'wall'? (game.toml [zones] declares: \
             wall, hand, melds, discards)",
        ),
    ];
    for (code, message) in &cases {
        assert_eq!(raised(&g, code), serde_json::json!(message), "{code}");
    }
    exec(&mut g, "G.kept = ctx.zone.melds");
    let kept = g.snapshot().unwrap_err().to_string();
    assert!(
        kept.contains(
            "G.kept[1]: the pile ctx.zone.melds[1] cannot be saved (G must be plain data): keep \
             the zone's name in G and read ctx.zone[name] where the pile is needed"
        ),
        "{kept}"
    );
    exec(&mut g, "G.kept = nil ctx.zone.hand[3].list[2] = 34");
    let bad = g.snapshot().unwrap_err().to_string();
    assert!(
        bad.contains(
            "ctx.zone.hand[3] holds 34 at position 2, not an item code (game.toml names 34 \
             items: 0..33): a pile changes only through its methods"
        ),
        "{bad}"
    );
}

// `ctx:next_player()` passes the turn round the table past seats out of play, a turn that
// comes back to seat 1 or before starts a round, a claim (`next_player(seat)`) jumps the order,
// the turn given to the seat that has it is a new turn of the same round, and with no seat in
// play the turn stays where it is.
#[test]
fn the_turn_goes_round_the_seats_in_play() {
    let g = start("monopoly", "demo", 4, 1, &[]);
    let turns = "local out = {} \
                 local function step(to) \
                   local s = ctx:next_player(to) \
                   out[#out + 1] = string.format('%d/%d/%d', s, ctx:round(), ctx:turn()) \
                 end \
                 step() ctx:eliminate(3) step() step() step(4) step(2) step(2) \
                 ctx:eliminate(1) ctx:eliminate(2) ctx:eliminate(4) step() \
                 return table.concat(out, ' ')";
    // seat/round/turn after each step
    assert_eq!(
        g.eval(turns).unwrap(),
        serde_json::json!("2/1/2 4/1/3 1/2/4 4/2/5 2/3/6 2/3/7 2/3/8")
    );
}

// The seat after the current one in play, for every table the property game seats (2–6), every
// set of seats in play and every seat to move, checked against a walk round the table: the
// first seat in play after the current one (itself last), the round counted when the turn
// comes back to seat 1 or before; with no seat in play the turn stays where it is.
#[test]
fn the_next_seat_in_play_is_the_first_after_the_current_one() {
    for seats in 2..=6 {
        let mut g = start("monopoly", "demo", seats, 1, &[]);
        for mask in 0..1u32 << seats {
            let in_play = |s: usize| mask & (1 << (s - 1)) != 0;
            for cur in 1..=seats {
                g.restart(1).unwrap();
                let out: String = (1..=seats)
                    .filter(|s| !in_play(*s))
                    .map(|s| format!("ctx:eliminate({s}) "))
                    .collect();
                let code = format!(
                    "ctx:next_player({cur}) {out} \
                     local r, t = ctx:round(), ctx:turn() \
                     local s = ctx:next_player() \
                     return {{ s, ctx:round() - r, ctx:turn() - t }}"
                );
                let walk = (1..=seats).map(|k| (cur + k - 1) % seats + 1);
                let want = match walk.into_iter().find(|s| in_play(*s)) {
                    Some(s) => [s, usize::from(s <= cur), 1],
                    None => [cur, 0, 1],
                };
                let case = format!("{seats} seats, in play {mask:b}, seat {cur} to move");
                assert_eq!(g.eval(&code).unwrap(), serde_json::json!(want), "{case}");
            }
        }
    }
}

// The turn order and the count of seats in play follow the seats in play the runtime
// restores: a restart (all in play) and a restored game (a save, an undo) with another seat
// out than the game before it.
#[test]
fn a_restored_game_passes_the_turn_over_its_own_seats_out_of_play() {
    let mut g = start("monopoly", "demo", 4, 1, &[]);
    let next = "{ ctx:current(), ctx:next_player() }";
    exec(&mut g, "ctx:eliminate(2)");
    let saved = g.snapshot().unwrap();
    g.restart(1).unwrap();
    assert_eq!(eval(&g, "ctx:active_count()"), serde_json::json!(4));
    assert_eq!(eval(&g, next), serde_json::json!([1, 2]));
    exec(&mut g, "ctx:eliminate(3)");
    assert_eq!(eval(&g, "ctx:active_count()"), serde_json::json!(3));
    g.restore(&saved).unwrap();
    assert_eq!(eval(&g, "ctx:active_count()"), serde_json::json!(3));
    assert_eq!(eval(&g, next), serde_json::json!([1, 3]));
}

// Each bad argument of `ctx.dice:roll`, `ctx.dice:sum` and `ctx:tally` is an error at the
// calling line.
/// `ctx:tally` counts a number key as its text, adds an amount, and counts a name and key seen
/// before the same way; `sim` reads the counts back, and a restart clears them.
#[test]
fn tallies_count_and_start_again_with_the_game() {
    let mut g = start("tictactoe", "board", 2, 1, &[]);
    exec(
        &mut g,
        "ctx:tally('n', 5) ctx:tally('n', '5', 2) ctx:tally('n', 5) ctx:tally('m', 'x', 0)",
    );
    let tallies = g.world().unwrap().tallies.clone();
    assert_eq!(tallies["n"]["5"], 4);
    assert_eq!(tallies["m"]["x"], 0);
    g.restart(2).unwrap();
    assert!(
        g.world().unwrap().tallies.is_empty(),
        "{:?}",
        g.world().unwrap().tallies
    );
    exec(&mut g, "ctx:tally('n', 5)");
    assert_eq!(g.world().unwrap().tallies["n"]["5"], 1);
}

#[test]
fn dice_and_tally_arguments_are_checked() {
    let g = start("monopoly", "demo", 2, 1, &[]);
    let error = |call: &str| raised(&g, call);
    let cwd = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (k, got) in [("-3", "-3"), ("1.5", "1.5"), ("'two'", "string")] {
        let code = format!("return ctx.random:sample({{1, 2}}, {k})");
        assert_eq!(
            run_in(cwd, &["eval", "monopoly", &code]).stderr,
            format!(
                "eval:1: error: random:sample: k must be a whole number of 0 or more, got {got}\n    in eval\n"
            )
        );
    }
    let bad = |spec: &str| {
        format!("eval:1: bad dice spec '{spec}' (expected forms like \"2d6\", \"d20\", \"3d6+2\")")
    };
    for spec in ["2x6", "1d6--5", "5"] {
        for f in ["roll", "sum"] {
            let call = format!("ctx.dice:{f}('{spec}')");
            assert_eq!(error(&call), bad(spec), "{call}");
        }
    }
    for (spec, what) in [("0d6", "no dice"), ("2d0", "dice of no sides")] {
        assert_eq!(
            error(&format!("ctx.dice:roll('{spec}')")),
            format!(
                "eval:1: dice spec '{spec}' rolls {what}: roll at least one die of one side or more"
            )
        );
    }
    for spec in ["1000000d6", "1d6-9223372036854775808"] {
        assert_eq!(
            error(&format!("ctx.dice:roll('{spec}')")),
            format!(
                "eval:1: dice spec '{spec}' is too big: at most 100 dice, 1,000,000 sides and a \
                 bonus of 1,000,000"
            )
        );
    }
    let cases = [
        (
            "ctx.dice:roll({})",
            "eval:1: ctx.dice:roll expects a spec like \"2d6\", got table",
        ),
        (
            "ctx.dice:roll()",
            "eval:1: ctx.dice:roll expects a spec like \"2d6\", got no value",
        ),
        (
            "ctx.dice:sum(true)",
            "eval:1: ctx.dice:sum expects a spec like \"2d6\", got boolean",
        ),
        (
            "ctx:tally({}, 'go')",
            "eval:1: ctx:tally expects a statistic name (a string), got table",
        ),
        (
            "ctx:tally('landing')",
            "eval:1: ctx:tally expects a key (a string), got nil",
        ),
        (
            "ctx:tally('landing', 'go', -1)",
            "eval:1: ctx:tally: the amount must be a whole number ≥ 0",
        ),
        (
            "ctx:tally('landing', 'go', 1.5)",
            "eval:1: ctx:tally: the amount must be a whole number ≥ 0",
        ),
        (
            "ctx:tally('landing', '\\xff')",
            "eval:1: ctx:tally expects a key (a string), got invalid UTF-8",
        ),
    ];
    for (call, message) in cases {
        assert_eq!(error(call), serde_json::json!(message), "{call}");
    }
    let roll = g.eval("local r = ctx.dice:roll('3d6+2') return {#r, r.total - r[1] - r[2] - r[3]}");
    assert_eq!(roll.unwrap(), serde_json::json!([3, 2]));
}

// `ctx.board:move` goes round the board (laps counted going forward only) and refuses a bad
// seat or step count at the calling line.
#[test]
fn board_move_goes_round_the_board_and_checks_its_arguments() {
    let g = start("monopoly", "demo", 2, 1, &[]);
    let moves = "local out = {} \
                 for _, m in ipairs({{1, 10}, {1, -3}, {1, 25}, {2.0, '3'}, {2, 7.0}}) do \
                   local to, laps = ctx.board:move(m[1], m[2]) \
                   out[#out + 1] = {to, laps, math.type(to), ctx.board.positions[m[1]]} \
                 end return out";
    assert_eq!(
        g.eval(moves).unwrap(),
        serde_json::json!([
            [1, 1, "integer", 1],
            [8, 0, "integer", 8],
            [3, 3, "integer", 3],
            [4, 0, "integer", 4],
            [1, 1, "integer", 1]
        ])
    );
    let error = |call: &str| raised(&g, call);
    let cases = [
        ("ctx.board:move(1.5, 2)", "expected a seat number, got 1.5"),
        (
            "ctx.board:move('1', 2)",
            "expected a seat number, got string",
        ),
        ("ctx.board:move()", "expected a seat number, got nil"),
        ("ctx.board:move(3, 2)", "seat 3 out of range (1..2)"),
        ("ctx.board:move(0, 2)", "seat 0 out of range (1..2)"),
        (
            "ctx.board:move(1, 2.5)",
            "steps must be an integer, got 2.5",
        ),
        ("ctx.board:move(1, 'x')", "steps must be an integer, got x"),
        ("ctx.board:move(1)", "steps must be an integer, got nil"),
        (
            "ctx.board:move(1, true)",
            "steps must be an integer, got true",
        ),
        (
            "ctx.board:move(math.huge, 1)",
            "expected a seat number, got inf",
        ),
        (
            "ctx.board:place(math.huge, 1)",
            "expected a seat number, got inf",
        ),
    ];
    for (call, message) in cases {
        let message = format!("eval:1: {message}");
        assert_eq!(error(call), serde_json::json!(message), "{call}");
    }
    // The whole value is shown, however long.
    let long = format!("eval:1: steps must be an integer, got {}", "x".repeat(200));
    assert_eq!(
        error("ctx.board:move(1, string.rep('x', 200))"),
        serde_json::json!(long)
    );
    // A grid map has no spaces: every board call is an error, not a crash or a made-up 1.
    let grid = start("tictactoe", "board", 2, 1, &[]);
    for call in [
        "ctx.board:move(1, 3)",
        "ctx.board:position(1)",
        "ctx.board:owned_by(2)",
    ] {
        assert_eq!(
            raised(&grid, call),
            serde_json::json!(
                "eval:1: this map has no spaces: ctx.board needs a track map (kind = \"track\")"
            ),
            "{call}"
        );
    }
    // A game without [items] has no item to read.
    assert_eq!(
        raised(&grid, "ctx:item(0)"),
        serde_json::json!("eval:1: this game names no items: ctx:item needs [items] in game.toml")
    );
    // And a track map has no cells to count.
    let track = start("monopoly", "classic", 2, 1, &[]);
    assert_eq!(
        raised(&track, "ctx.grid:stones()"),
        serde_json::json!("eval:1: this map is not a grid (ctx.grid needs kind = \"grid\")")
    );
}

// `ctx.dice:sum` rolls what `ctx.dice:roll` would from the same generator, returned as the
// total, doubles and the faces instead of a table.
#[test]
fn dice_sum_returns_the_roll_as_values() {
    let rolls = "local out = {} for i = 1, 20 do local r = ctx.dice:roll('3d6+2') \
        out[i] = {r.total, r.doubles, r[1], r[2], r[3]} end return out";
    let sums = "local out = {} for i = 1, 20 do out[i] = {ctx.dice:sum('3d6+2')} end return out";
    let by_roll = start("monopoly", "demo", 2, 7, &[]).eval(rolls).unwrap();
    let by_sum = start("monopoly", "demo", 2, 7, &[]).eval(sums).unwrap();
    assert_eq!(by_roll, by_sum);
    let g = start("monopoly", "demo", 2, 7, &[]);
    let shape = "local t, d, a, b = ctx.dice:sum('2d6') \
        return {select('#', ctx.dice:sum('2d6')), t == a + b, d == (a == b)}";
    assert_eq!(g.eval(shape).unwrap(), serde_json::json!([4, true, true]));
}

#[test]
fn a_seats_hook_naming_a_seat_twice_points_at_the_hook() {
    let c = Copy::of("mahjong", "mj");
    c.edit(
        "rules.lua",
        "    seats = function(G, ctx)",
        "    seats = function(G, ctx) do return { 1, 1 } end",
    );
    let line = c.line_of("rules.lua", "do return { 1, 1 } end");
    assert_fails(
        &c.check(),
        &[
            format!("mj/rules.lua:{line}: error: seats returned seat 1 twice"),
            "    in state 'claim' hook 'seats' (player 1, turn 1)".to_string(),
            replayed("mj", "table", "random,random", 1),
        ],
    );
}

/// A window that cannot open is an error naming the flag that needs it and why, for a
/// scripted run, and a note before the game goes on in the terminal otherwise (it was a panic
/// inside the window library).
#[test]
fn a_display_that_does_not_answer_is_reported() {
    let shot = ["play", "tictactoe", "--screenshot", "x.png"];
    let out = run_on_display(None, &shot, "");
    assert_eq!(out.code, Some(1));
    assert_eq!(
        out.stderr,
        "--screenshot: error: the window cannot open: no display (DISPLAY is not set); \
         on a machine without one, run under `xvfb-run -a`\n"
    );
    // Display 4321 on this machine's socket folder: nothing listens there.
    let out = run_on_display(Some(":4321"), &["play", "tictactoe", "--frames", "3"], "");
    assert_eq!(
        out.stderr,
        "--frames: error: the window cannot open: no X server answers (DISPLAY=:4321); \
         on a machine without one, run under `xvfb-run -a`\n"
    );
    let args = ["play", "tictactoe", "--seed", "1", "--no-watch"];
    let out = run_on_display(Some(":4321"), &args, "quit\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stderr.starts_with("note: the window cannot open: no X server answers (DISPLAY=:4321); playing in the terminal\n"),
        "{}",
        out.stderr
    );
    assert_has(&out.stdout, "P1, choose");
}

/// Two people at tic-tac-toe in the terminal, seed 1.
const TWO_AT_TICTACTOE: [&str; 8] = [
    "play",
    "tictactoe",
    "--players",
    "human,human",
    "--seed",
    "1",
    "--text",
    "--no-watch",
];

/// `play --load` takes a replay too: its decisions are played out, the game goes on from its
/// end, and the opening line names the game, the map and the seed as a new game's does.
#[test]
fn a_replay_loads_at_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.json");
    let rec = rec.to_str().unwrap();
    let record = [&TWO_AT_TICTACTOE[..], &["--record", rec]].concat();
    let out = run_on_display(None, &record, "5\n1\nquit\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let load = ["play", "--load", rec, "--text", "--no-watch"];
    let out = run_on_display(None, &load, "quit\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stdout.starts_with(
            "Tic-tac-toe 井字棋 · map Board · seed 1 · type a number, an action or help\n\
             resumed tictactoe after 2 decisions\n"
        ),
        "{}",
        out.stdout
    );
    assert_has(&out.stdout, ">P1 ● (human)\n");
}

/// An option whose argument is text that reads as a number (`{"drop", "4"}`) is played by
/// typing it as it is listed.
#[test]
fn an_option_with_a_number_as_text_is_played_as_typed() {
    let c = Copy::of("connect4", "c4");
    c.edit(
        "rules.lua",
        "out[#out + 1] = { \"drop\", c }",
        "out[#out + 1] = { \"drop\", tostring(c) }",
    );
    c.edit(
        "rules.lua",
        "local c = action[2]",
        "local c = tonumber(action[2])",
    );
    let out = c.play_text("human,human", &[], "drop 4\nquit\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_has(&out.stdout, ">   · P1 drops into column 4 (row 6)\n");
}

/// A typed action in other letter cases plays the one option it fits.
#[test]
fn an_action_typed_in_capitals_plays_the_option_it_fits() {
    let out = Copy::of("connect4", "c4").play_text("human,human", &[], "Drop 4\nDROP 5\nquit\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_has(&out.stdout, ">   · P1 drops into column 4 (row 6)\n");
    assert_has(&out.stdout, ">   · P2 drops into column 5 (row 6)\n");
}

/// With two people at one terminal, a line told to the one not being asked is held until
/// that person is asked, and shown once then.
#[test]
fn a_line_told_to_the_other_person_waits_for_their_turn() {
    let c = Copy::new();
    c.edit(
        "rules.lua",
        "  G.players = {}\n",
        "  G.players = {}\n  ctx:tell(2, \"a secret for P2\")\n",
    );
    let out = c.play_text("human,human", &[], &"1\n".repeat(6));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let text = &out.stdout;
    let told = text.find("(P2 only) a secret for P2").expect(text);
    let first_p2 = text.find("P2, choose:").expect(text);
    let last_p1 = text[..first_p2].rfind("P1, choose:").expect(text);
    assert!(last_p1 < told && told < first_p2, "{text}");
    assert_eq!(text.matches("a secret for P2").count(), 1, "{text}");
}

/// `eval`, `console` and `ai` start a new game with the fewest players it takes, unless
/// `--seats` says otherwise.
#[test]
fn eval_console_and_ai_seat_the_fewest_players_the_game_takes() {
    let c = Copy::of("mahjong", "mj");
    c.edit(
        "game.toml",
        "players = { min = 2, max = 4 }",
        "players = { min = 3, max = 4 }",
    );
    let seats = |args: &[&str]| {
        run_in(
            &c.cwd,
            &[&["eval", "mj"], args, &["return ctx:seats()"]].concat(),
        )
    };
    assert_eq!(seats(&[]).stdout, "3\n");
    assert_eq!(seats(&["--seats", "4"]).stdout, "4\n");
    let console = run_typing(&c.cwd, &["console", "mj"], "ctx:seats()\n:quit\n");
    assert_has(&console.stdout, "> 3\n");
    let ai = run_in(&c.cwd, &["ai", "mj"]);
    assert_eq!(ai.code, Some(0), "{}", ai.stderr);
}

/// `ai --seat N` explains seat N's answer in an open simultaneous decision (a claim on a
/// discard), and says who is asked when N is not.
#[test]
fn ai_explains_the_seat_named_in_a_simultaneous_decision() {
    let c = Copy::of("mahjong", "mj");
    let args = [
        "play",
        "mj",
        "--players",
        "human,human,human,human",
        "--seed",
        "2",
    ];
    let typed = "1\nsave claim.json\nquit\n";
    let out = run_typing(
        &c.cwd,
        &[&args[..], &["--text", "--no-watch"]].concat(),
        typed,
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let ai = |seat: &str| {
        run_in(
            &c.cwd,
            &["ai", "mj", "--replay", "claim.json", "--seat", seat],
        )
    };
    let p4: serde_json::Value = serde_json::from_str(&ai("4").stdout).expect("json");
    assert_eq!(
        (p4["player"].as_u64(), p4["state"].as_str()),
        (Some(4), Some("claim"))
    );
    assert_eq!(
        ai("1").stderr,
        "--seat: error: P1 is not asked now: P2, P3, P4 are\n"
    );
    assert_eq!(ai("0").stderr, "--seat: error: seats count from 1\n");
}

/// Memory spent in a hook is placed at the hook's first line, saying Lua names no line for
/// it (not blaming a tail call the hook does not make).
#[test]
fn memory_spent_in_a_hook_says_lua_names_no_line() {
    let c = Copy::new();
    c.edit(
        "rules.lua",
        "  G.players = {}\n",
        "  G.players = {}\n  local s = \"x\"\n  for i = 1, 40 do s = s .. s end\n",
    );
    let setup = c.line_of("rules.lua", "function R.setup(G, ctx)");
    let out = c.check();
    assert_has(
        &out.stderr,
        &format!("mono/rules.lua:{setup}: error: out of memory (256 MiB limit)"),
    );
    assert_has(
        &out.stderr,
        &format!("    line {setup} is where the hook begins: Lua names no line for running out of memory\n"),
    );
}

/// A value of the wrong type names the key it is written at, as a path.
#[test]
fn a_value_of_the_wrong_type_names_its_key() {
    let c = Copy::of("mahjong", "mj");
    c.edit(
        "game.toml",
        "hand = { visibility = \"count\", per_seat = true }",
        "hand = { visibility = \"count\", per_seat = \"yes\" }",
    );
    let line = c.line_of("game.toml", "per_seat = \"yes\"");
    let out = c.check_named("mj");
    assert_has(
        &out.stderr,
        &format!("mj/game.toml:{line}:43: error: zones.hand.per_seat: expected true or false, got the text \"yes\"\n"),
    );
    // A table or a list where a value goes names its key too.
    c.edit("game.toml", "per_seat = \"yes\"", "per_seat = []");
    assert_has(
        &c.check_named("mj").stderr,
        &format!("mj/game.toml:{line}:43: error: zones.hand.per_seat: expected true or false, got a list\n"),
    );
}

/// A line break in `R.status` goes on from a new line under the seat's line.
#[test]
fn a_line_break_in_a_status_starts_a_line() {
    let c = Copy::new();
    c.edit(
        "rules.lua",
        "or \"owns nothing\" }",
        "or \"owns nothing\\nsheet: -\" }",
    );
    let out = c.play_text("human,ai", &[], "quit\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_has(
        &out.stdout,
        ">P1 (human) cash 1500 · at 起点 · owns nothing\n     sheet: -\n",
    );
}

/// The log lines a terminal session printed (`  · …`), a prompt's `> ` taken off.
fn log_lines(stdout: &str) -> Vec<&str> {
    (stdout.lines())
        .map(|l| l.strip_prefix("> ").unwrap_or(l))
        .filter(|l| l.starts_with("  · "))
        .collect()
}

/// A resumed save shows the last 12 lines of its own log, after a line counting those before
/// them: the lines its first session printed, none from a fresh start.
#[test]
fn a_resumed_save_shows_the_end_of_its_own_log() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("mid.json");
    let save = save.to_str().unwrap();
    let args = [
        "play",
        "monopoly",
        "--players",
        "human,ai",
        "--seed",
        "3",
        "--text",
        "--no-watch",
    ];
    let first = run_on_display(
        None,
        &args,
        &format!("{}save {save}\nquit\n", "1\n".repeat(8)),
    );
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    let logged = log_lines(&first.stdout);
    assert!(logged.len() > 13, "{}", first.stdout);
    let load = ["play", "--load", save, "--text", "--no-watch"];
    let out = run_on_display(None, &load, "quit\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let backlog = format!(
        "\n  · … {} lines before these\n{}\n\n",
        logged.len() - 12,
        logged[logged.len() - 12..].join("\n")
    );
    assert_has(&out.stdout, &backlog);
}

/// A save keeps the last 12 lines of its log: a game resumed after its files changed (so its
/// steps are not replayed) shows them too.
#[test]
fn a_save_resumed_under_edited_files_shows_its_last_lines() {
    let c = Copy::new();
    let first = c.play_text(
        "human,ai",
        &[],
        &format!("{}save mid.json\nquit\n", "1\n".repeat(8)),
    );
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    let logged = log_lines(&first.stdout);
    assert!(logged.len() > 12, "{}", first.stdout);
    c.edit(
        "rules.lua",
        "function R.setup(G, ctx)",
        "-- edited\nfunction R.setup(G, ctx)",
    );
    let out = run_typing(
        &c.cwd,
        &["play", "--load", "mid.json", "--text", "--no-watch"],
        "quit\n",
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let backlog = format!("\n{}\n\n", logged[logged.len() - 12..].join("\n"));
    assert_has(&out.stdout, &backlog);
    assert!(!out.stdout.contains("before these"), "{}", out.stdout);
}

/// `play --load FILE --players ...` hands the saved game to other players (the save's own
/// players otherwise); a list of the wrong length is refused.
#[test]
fn a_saved_game_resumes_with_the_players_given() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("mid.json");
    let save = save.to_str().unwrap();
    let out = run_on_display(None, &TWO_AT_TICTACTOE, &format!("1\nsave {save}\nquit\n"));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let load = ["play", "--load", save, "--text", "--no-watch"];
    let out = run_on_display(None, &load, "quit\n");
    assert_has(&out.stdout, "resumed tictactoe after 1 decision\n");
    assert_has(&out.stdout, ">P2 ○ (human)\n");
    let bots = [&load[..], &["--players", "ai,ai"]].concat();
    let out = run_on_display(None, &bots, "");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_has(&out.stdout, " P1 ● (ai)\n P2 ○ (ai)\n");
    assert_has(&out.stdout, "game over: draw");
    let one = [&load[..], &["--players", "ai"]].concat();
    let out = run_on_display(None, &one, "");
    assert_eq!(out.code, Some(1));
    assert_eq!(
        out.stderr,
        "--players: error: the saved game has 2 seats; give 2 players, not 1\n"
    );
}

/// Usage mistakes on the command line say what to give instead.
#[test]
fn check_and_sim_say_what_they_lack() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let usage = |cmd: &str, what: &str| {
        format!("\nUsage: meeple {cmd} <{what}>\n\nFor more information, try '--help'.\n")
    };
    let none = run_in(here, &["check"]);
    assert_eq!(none.code, Some(2));
    let lacks = "error: the following required arguments were not provided:\n  <GAME|--all>\n";
    assert_eq!(
        none.stderr,
        format!("{lacks}{}", usage("check", "GAME|--all"))
    );
    let both = run_in(here, &["check", "monopoly", "--all"]);
    assert_eq!(both.code, Some(2));
    let twice = "error: the argument '[GAME]' cannot be used with '--all'\n";
    assert_eq!(
        both.stderr,
        format!("{twice}{}", usage("check", "GAME|--all"))
    );
    let play = run_in(here, &["play"]);
    assert_eq!(play.code, Some(2));
    assert_has(&play.stderr, "  <GAME|--load <FILE>>\n");
    for (flag, shown) in [("--games", "--games <GAMES>"), ("--jobs", "--jobs <JOBS>")] {
        let zero = run_in(here, &["sim", "tictactoe", flag, "0"]);
        assert_eq!(zero.code, Some(2));
        let said = format!(
            "error: invalid value '0' for '{shown}': expected a whole number of 1 or more\n"
        );
        assert!(zero.stderr.starts_with(&said), "{}", zero.stderr);
    }
    // A negative number is the flag's value, refused by the flag's own check; so is one
    // too large.
    for (args, shown, expected) in [
        (
            ["sim", "tictactoe", "--games", "-5"],
            "--games <GAMES>",
            "of 1 or more",
        ),
        (
            ["sim", "tictactoe", "--seed", "-1"],
            "--seed <SEED>",
            "of 0 or more",
        ),
        (
            ["play", "tictactoe", "--answer-seconds", "-1"],
            "--answer-seconds <SECONDS>",
            "of 0 or more",
        ),
        (
            ["play", "tictactoe", "--seed", "18446744073709551616"],
            "--seed <SEED>",
            "up to 18446744073709551615",
        ),
    ] {
        let out = run_in(here, &args);
        let said = format!(
            "error: invalid value '{}' for '{shown}': expected a whole number {expected}\n",
            args[3]
        );
        assert_eq!(out.code, Some(2));
        assert!(out.stderr.starts_with(&said), "{}", out.stderr);
    }
    // The window's own flags are refused in the terminal, and a bad size before any game.
    let text = run_in(here, &["play", "tictactoe", "--text", "--msaa", "4"]);
    assert_has(
        &text.stderr,
        "error: the argument '--text' cannot be used with '--msaa <N>'\n",
    );
    let click = run_in(here, &["play", "tictactoe", "--click", "3,4"]);
    assert_has(
        &click.stderr,
        "required arguments were not provided:\n  --screenshot <FILE>\n",
    );
    let size = run_in(here, &["play", "tictactoe", "--size", "100x100"]);
    let said = "error: invalid value '100x100' for '--size <WxH>': expected WIDTHxHEIGHT, at least 200x150\n";
    assert!(size.stderr.starts_with(said), "{}", size.stderr);
    assert_eq!((size.code, size.stdout.as_str()), (Some(2), ""));
}

/// A `data` key the runtime's own field would hide (a space's `index`, a card's `deck`) is an
/// error at the space or card (it was dropped without a word).
#[test]
fn data_keys_the_runtime_uses_are_refused() {
    let c = Copy::new();
    c.edit(
        "maps/demo.toml",
        "data = { price = 200,",
        "data = { index = 3, price = 200,",
    );
    c.edit(
        "cards/demo.toml",
        "data = { target = \"go\" }",
        "data = { target = \"go\", deck = \"mine\" }",
    );
    let space = c.line_of("maps/demo.toml", "id = \"beijing\"");
    let card = c.line_of("cards/demo.toml", "id = \"advance_go\"");
    let fields = |what: &str, key: &str, list: &str| {
        format!(
            "error: data key '{key}' would be hidden: {what}'s table already has '{key}' (its \
             fields: {list}); give it another name"
        )
    };
    assert_fails(
        &c.check(),
        &[
            format!(
                "mono/cards/demo.toml:{card}:6: {}",
                fields("a card", "deck", "id, text, effect, deck, index")
            ),
            format!(
                "mono/maps/demo.toml:{space}:6: {}",
                fields("a space", "index", "id, name, kind, group, jump, index")
            ),
        ],
    );
}

/// Reading a setting game.toml does not declare is an error at the reading line, with the
/// nearest declared name (it read as nil).
#[test]
fn a_misspelt_setting_is_an_error_where_it_is_read() {
    assert_roll_fails(
        "local fine = ctx.settings.jail_fien",
        "no setting 'jail_fien'; did you mean 'jail_fine', or should game.toml say 'jail_fien'? \
         (game.toml [settings] declares: \
         ai_bid_share, ai_build_reserve, ai_buy_margin, ai_complete_margin, \
         ai_unmortgage_reserve, auction, auction_step, currency, doubles_to_jail, jail_fine, \
         jail_turns, max_level, monopoly_multiplier, mortgage_percent, release_fine, round_cap, \
         salary, sell_percent, start_cash, unmortgage_interest)",
    );
}

/// `meeple ai GAME --replay FILE` explains the record's position with GAME's rules and AI (a
/// copy with another AI), and refuses a GAME of another id.
#[test]
fn ai_explains_a_record_with_the_game_given() {
    let c = Copy::new();
    // Seed 4: P1 rolls onto 广州骑楼 and is asked whether to buy it.
    let args = ["play", GAME, "--seed", "4", "--text", "--no-watch"];
    let out = run_typing(&c.cwd, &args, "1\nsave s.json\nquit\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    copy_dir(&c.cwd.join(GAME), &c.cwd.join("mono2"));
    let ai = c.cwd.join("mono2/ai.lua");
    let text = std::fs::read_to_string(&ai).unwrap();
    let constant = "AI.fixed = nil\nfunction AI.score() return 7 end\nreturn AI";
    std::fs::write(&ai, text.replace("\nreturn AI", &format!("\n{constant}"))).unwrap();
    let out = c.run(&["ai", "mono2", "--replay", "s.json", "--top", "2"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(
        out.stdout.matches("\"score\": 7.0").count(),
        2,
        "{}",
        out.stdout
    );
    assert_fails(
        &c.run(&["ai", "tictactoe", "--replay", "s.json"]),
        &[format!("s.json: error: game: this is a record of game 'monopoly', not of 'tictactoe' (the game in {}/games/tictactoe)", env!("CARGO_MANIFEST_DIR"))],
    );
}

/// `meeple ai GAME --replay FILE` run away from the game's folder finds it where the record was
/// played, when GAME is the record's game, as `meeple replay FILE` does.
#[test]
fn ai_finds_a_records_game_where_it_was_played() {
    let tmp = tempfile::tempdir().unwrap();
    let (cwd, away) = (tmp.path(), tmp.path().join("away"));
    std::fs::create_dir(&away).unwrap();
    assert!(meeple_in(cwd, &["new", "lapx"]).status.success());
    let args = ["play", "lapx", "--seed", "2", "--text", "--no-watch"];
    let out = run_typing(cwd, &args, "1\nsave s.json\nquit\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let out = meeple_in(
        &away,
        &["ai", "lapx", "--replay", "../s.json", "--top", "1"],
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("\"game\": \"lapx\""), "{said}");
    // A folder of that name found from here is the one used, even when it does not load.
    copy_dir(&cwd.join("games/lapx"), &away.join("lapx"));
    let toml = away.join("lapx/game.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    let broken = text.replacen("start = \"turn\"", "start = \"trun\"", 1);
    std::fs::write(&toml, broken).unwrap();
    let out = meeple_in(&away, &["ai", "lapx", "--replay", "../s.json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("lapx/game.toml:"),
        "{err}"
    );
}

/// `check --set` checks the game with a setting changed, and says so; an unknown setting is
/// refused as `play` and `sim` refuse it.
#[test]
fn check_takes_settings() {
    let c = Copy::new();
    let out = c.run(&["check", GAME, "--set", "salary=300", "--games", "1"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "ok: monopoly with salary=300 (2 maps, 7 games: 5 random at 2 to 4 players and 2 AI at 6 players; states entered: 10 of 10, verbs played: 14 of 14)\n"
    );
    // A cap of one round: every game stops capped, which check accepts.
    let out = c.run(&["check", GAME, "--set", "round_cap=1", "--games", "1"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let out = c.run(&["check", GAME, "--set", "salery=3"]);
    assert_eq!(out.code, Some(1));
    assert!(
        out.stderr
            .starts_with("--set: error: unknown setting 'salery'; did you mean 'salary'?"),
        "{}",
        out.stderr
    );
}

/// A `ctx` function that an `eval` chunk tail-calls (`return ctx...`) fails at the chunk, not
/// inside the runtime's own helpers.
#[test]
fn eval_errors_in_a_tail_call_name_the_chunk() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = run_in(
        here,
        &["eval", "monopoly", "return ctx.counter:get(9, 'cash')"],
    );
    assert_eq!(out.code, Some(1));
    assert_eq!(
        out.stderr,
        "eval: error: seat 9 out of range (1..2)\n    in eval\n"
    );
    let out = run_in(
        here,
        &[
            "eval",
            "monopoly",
            "local v = ctx.counter:get(9, 'cash') return v",
        ],
    );
    assert_eq!(
        out.stderr,
        "eval:1: error: seat 9 out of range (1..2)\n    in eval\n"
    );
}

/// An `eval` chunk that is an expression is returned, a call among them, as in the console;
/// a statement runs as written.
#[test]
fn an_eval_expression_is_returned() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = run_in(here, &["eval", "monopoly", "G.players[1].doubles + 2"]);
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), "2\n"));
    let out = run_in(here, &["eval", "monopoly", "ctx.counter:get(1, 'cash')"]);
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), "1500\n"));
    let out = run_in(here, &["eval", "monopoly", "G.x = 1"]);
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), "null\n"));
    let out = run_in(here, &["eval", "monopoly", "x = = 1"]);
    assert_eq!(out.stderr, "eval:1: error: unexpected symbol near '='\n");
}

/// The grid takes only the game's seats: seat 3 of a two-player game is an error at the
/// calling line (it was stored, and counted in lines, without a word).
#[test]
fn the_grid_refuses_a_seat_the_game_does_not_have() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    for code in [
        "ctx.grid:set(1, 1, 3)",
        "local n = ctx.grid:longest(1, 1, 3)",
        "local l = ctx.grid:completing(3, 2)",
    ] {
        let out = run_in(here, &["eval", "gomoku", code]);
        assert_eq!(
            out.stderr, "eval:1: error: seat 3 out of range (1..2)\n    in eval\n",
            "{code}"
        );
    }
}

/// `why` lists the candidates best first and, among equal scores, the chosen one first (a
/// random bot scores every option alike; the pick was listed wherever it fell).
#[test]
fn why_lists_the_choice_first_among_equals() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    for seed in ["1", "2", "3"] {
        let args = [
            "play",
            "tictactoe",
            "--players",
            "human,human",
            "--seed",
            seed,
            "--text",
            "--no-watch",
        ];
        let out = run_typing(here, &args, "why random\nquit\n");
        let mut lines = out
            .stdout
            .lines()
            .skip_while(|l| !l.contains("would choose: "));
        let (_, chosen) = lines.next().unwrap().split_once("would choose: ").unwrap();
        // The first listed: "  0.11  place 2 2", the score then the label.
        let (_, first) = lines.next().unwrap().trim().split_once("  ").unwrap();
        let (chosen, first) = (chosen.to_string(), first.trim().to_string());
        assert_eq!(first, chosen, "seed {seed}:\n{}", out.stdout);
    }
}

/// A `ctx` function tail-called by a script (`return ctx.counter:get(...)`) fails inside the
/// runtime's prelude, whose line says nothing to a modder: the error names the game's file
/// instead, with the hook in its note.
#[test]
fn an_error_a_script_tail_called_into_is_not_blamed_on_the_prelude() {
    let v = variant(
        "tictactoe",
        "",
        "function AI.score(G, ctx, p, o) return ctx.counter:get(9, 'x') end",
        None,
    );
    let root = v.pkg.root.clone();
    let out = run_in(root.parent().unwrap(), &["check", "tictactoe"]);
    assert_fails(
        &out,
        &[
            "tictactoe/rules.lua: error: unknown counter 'x' (game.toml declares: none)"
                .to_string(),
            "    in state 'turn' hook 'AI.score' (player 1, turn 1)".to_string(),
            replayed("tictactoe", "board", "ai,ai", 2),
        ],
    );
}

/// A save resumed after the game's files changed says so, and its record marks the place: a
/// replay re-runs the steps before it and stops there, as after a live edit. Resumed again
/// under the same files, it says nothing.
#[test]
fn a_save_resumed_under_changed_files_says_so_and_its_replay_stops_there() {
    let c = Copy::of("tictactoe", "tictactoe");
    let start = [
        "play",
        "tictactoe",
        "--players",
        "human,human",
        "--text",
        "--no-watch",
    ];
    let out = run_typing(&c.cwd, &start, "place 2 2\nsave a.json\nquit\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let resume = |file: &str, typed: &str| {
        let out = run_typing(
            &c.cwd,
            &["play", "--load", file, "--text", "--no-watch"],
            typed,
        );
        assert_eq!(out.code, Some(0), "{}", out.stderr);
        out.stdout
    };
    let note = "note: the game's files changed since it was saved";
    assert!(!resume("a.json", "quit\n").contains(note));
    c.edit("rules.lua", "-- Tic-tac-toe:", "-- Tic-tac-toe (edited):");
    assert_has(
        &resume("a.json", "place 1 1\nsave b.json\nquit\n"),
        "resumed tictactoe after 1 decision\nnote: the game's files changed since it was \
         saved; it goes on under the rules as they are now\n",
    );
    assert!(!resume("b.json", "quit\n").contains(note));
    let replay = c.run(&["replay", "b.json"]).stdout;
    let (before, after) = replay.split_once("new files: ").expect(&replay);
    assert_eq!(
        before,
        "note: the game's files changed since this record was made\nok: 1 step reproduced \
         exactly; the game's files changed after step 1 (edited live, or a save resumed under "
    );
    assert!(
        after.ends_with("), later steps are not re-run\n"),
        "{replay}"
    );
}

/// `why` with a bot it cannot make says why, then how to ask; `help` lists the prompt's words.
#[test]
fn why_with_a_bad_bot_says_what_is_wrong_and_help_lists_the_words() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let args = [
        "play",
        "tictactoe",
        "--players",
        "human,human",
        "--text",
        "--no-watch",
    ];
    let out = run_typing(
        here,
        &args,
        "why alphabeta:9\nwhy human\nwhy rnadom\nhelp\nquit\n",
    );
    assert_has(
        &out.stdout,
        "> type an option's number or its text, or:\n  undo        take back",
    );
    let usage = "usage: why [BOT] (the heuristic bot when none is named)";
    assert_has(
        &out.stdout,
        &format!(
            "> bad alphabeta depth '9' (expected moves ahead from 1 to 8, like alphabeta:3)\n{usage}"
        ),
    );
    let bots = concat!("(expected: ", meeple::bot_kinds!(), ")");
    assert_has(
        &out.stdout,
        &format!("> 'human' is a person, not a bot: name a bot {bots}\n{usage}"),
    );
    assert_has(
        &out.stdout,
        &format!("> unknown bot 'rnadom'; did you mean 'random'? {bots}\n{usage}"),
    );
}

/// `sim` takes bots only: an unknown kind is answered with the bots there are, and the
/// nearest one.
#[test]
fn sim_names_the_bots_for_an_unknown_player_kind() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = run_in(here, &["sim", "tictactoe", "--players", "ai,rnadom"]);
    assert_fails(
        &out,
        &[concat!(
            "--players: error: unknown bot 'rnadom'; did you mean 'random'? (expected: ",
            meeple::bot_kinds!(),
            ")"
        )
        .to_string()],
    );
}

/// A game of one player count says so plainly when another is asked for.
#[test]
fn a_game_of_one_player_count_names_it() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = run_in(here, &["sim", "tictactoe", "--players", "ai,ai,ai"]);
    assert_eq!(
        out.stderr,
        "--players: error: tictactoe takes 2 players, not 3\n"
    );
}

/// A save whose game folder moved resumes from the folder named before `--load` (or given to
/// `replay --game`); without it, the error says where the game was and how to name it.
#[test]
fn a_save_of_a_moved_game_resumes_from_the_folder_named() {
    let c = Copy::of("tictactoe", "ttt");
    c.edit("game.toml", "id = \"tictactoe\"", "id = \"ttt\"");
    let start = [
        "play",
        "ttt",
        "--players",
        "human,human",
        "--text",
        "--no-watch",
    ];
    let out = run_typing(&c.cwd, &start, "place 2 2\nsave s.json\nquit\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let moved = c.cwd.join("ttt2");
    std::fs::rename(&c.root, &moved).unwrap();
    let lost = c.run(&["play", "--load", "s.json", "--text", "--no-watch"]);
    assert_eq!(lost.code, Some(1));
    assert_has(
        &lost.stderr,
        &format!(
            "s.json: error: the game was played from {}; if it moved, name its folder: `meeple \
             play FOLDER --load s.json`, `meeple replay s.json --game FOLDER` or `meeple ai \
             FOLDER --replay s.json`\n",
            c.root.canonicalize().unwrap_or(c.root.clone()).display()
        ),
    );
    let resume = ["play", "ttt2", "--load", "s.json", "--text", "--no-watch"];
    let found = run_typing(&c.cwd, &resume, "save s2.json\nquit\n");
    assert_has(&found.stdout, "resumed ttt after 1 decision\n");
    // A save made after that remembers the new folder.
    let again = c.run(&["play", "--load", "s2.json", "--text", "--no-watch"]);
    assert_has(&again.stdout, "resumed ttt after 1 decision\n");
    let replayed = c.run(&["replay", "s.json", "--game", "ttt2"]);
    assert_eq!(
        replayed.stdout,
        "ok: 1 step reproduced exactly (ttt s.json)\n"
    );
    let other = c.run(&["play", "gomoku", "--load", "s.json", "--text", "--no-watch"]);
    assert_eq!(
        other.stderr,
        format!("s.json: error: game: this is a record of game 'ttt', not of 'gomoku' (the game in {}/games/gomoku)\n", env!("CARGO_MANIFEST_DIR"))
    );
    // A folder of the same id found from here instead is used, and named.
    copy_dir(&moved, &c.cwd.join("games/ttt"));
    let found = c.run(&["replay", "s.json"]);
    assert_eq!(found.code, Some(0), "{}", found.stderr);
    assert_eq!(
        found.stdout,
        format!(
            "note: the game was played from {}, which is gone; using the game 'ttt' found at \
             games/ttt (to use another folder: `meeple play FOLDER --load s.json`, `meeple \
             replay s.json --game FOLDER` or `meeple ai FOLDER --replay s.json`)\n\
             ok: 1 step reproduced exactly (ttt s.json)\n",
            c.root.canonicalize().unwrap_or(c.root.clone()).display()
        )
    );
}

// The docs' examples ---------------------------------------------------------------------------

/// The README and every page of docs/, one after another.
fn readme() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages: Vec<_> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    pages.sort();
    pages.insert(0, root.join("README.md"));
    pages
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("a page of the docs"))
        .collect()
}

/// Fails unless `out` wrote `lines` lines to stderr, each of them in the docs, with the copy's
/// folder (in a path or a command) read as the docs' `/tmp/mono` (their examples copy the game
/// there).
fn shown_in_readme(out: &Output, lines: usize) {
    let readme = readme();
    assert_eq!(out.stderr.lines().count(), lines, "{}", out.stderr);
    for line in out.stderr.lines() {
        let line = line.replace("mono/", "/tmp/mono/");
        assert_has(&readme, &line.replace(" mono ", " /tmp/mono "));
    }
}

/// A list AI.scores held when it failed is let go at the next move: rules that keep one list
/// and refill it on every ask go on when a person moves for the stalled bot.
#[test]
fn a_list_held_by_a_failed_score_is_let_go() {
    let c = Copy::of("tictactoe", "ttt");
    std::fs::write(c.root.join("rules.lua"), ONE_LIST_RULES).unwrap();
    std::fs::write(c.root.join("ai.lua"), FAILING_AI).unwrap();
    let out = c.play_text("human,ai", &[], &format!("{}quit\n", "1\n".repeat(6)));
    assert_has(&out.stdout, "game over: P1 won");
    assert!(!out.stdout.contains("read-only"), "{}", out.stdout);
}

/// Rules that keep one options list and refill it on every ask.
const ONE_LIST_RULES: &str = r#"local grid = require("grid")
local R = {}
function R.setup(G, ctx) G.moves = 0 end
local LIST = {}
R.states = { turn = {
  options = function(G, ctx, seat)
    for i = #LIST, 1, -1 do LIST[i] = nil end
    for r = 1, 3 do for c = 1, 3 do
      if ctx.grid:get(r, c) == nil then LIST[#LIST + 1] = { "place", r, c } end
    end end
    return LIST
  end,
  act = function(G, ctx, option, seat)
    G.moves = G.moves + 1
    if grid.place_stone(ctx, option[2], option[3], seat) then return "over" end
  end,
} }
return R
"#;

/// An AI whose scores fail once, after the first move.
const FAILING_AI: &str = r#"local AI = {}
function AI.scores(G, ctx, p, options)
  local out = {}
  for i, o in ipairs(options) do out[i] = 1 end
  if G.moves == 1 then error("boom") end
  return out
end
return AI
"#;

/// After the game's end a person may still undo (back into the game) or save; other input is
/// answered with what the prompt takes (piped lines are skipped: the line above says why),
/// help lists the words for the end, and quit ends the session. The end is said once, under
/// the board.
#[test]
fn a_person_may_undo_or_save_after_the_game_ends() {
    let tmp = tempfile::tempdir().unwrap();
    let typed = format!(
        "{}place 9 9\nplace 8 8\n1\nhelp\nundo\nsave end.json\nquit\n",
        "1\n".repeat(5)
    );
    let args = [
        "play",
        "tictactoe",
        "--players",
        "human,ai",
        "--seed",
        "2",
        "--text",
    ];
    let out = run_typing(tmp.path(), &args, &typed);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let end = out.stdout.find("game over: ").expect("the game ends");
    let ends = out.stdout.lines().filter(|l| l.starts_with("game over: "));
    assert_eq!(ends.count(), 1, "{}", out.stdout);
    let after = &out.stdout[end..];
    assert_has(
        after,
        "the game is over: undo, save FILE or quit\n> the game is over; type:\n  undo        take back the last decision, back into the game\n\
         \x20 redo        bring back what undo took back\n\
         \x20 save FILE   save the game (resume it with meeple play --load FILE)\n\
         \x20 quit        stop playing\n> undid",
    );
    let saved = std::fs::read_to_string(tmp.path().join("end.json")).expect("saved");
    assert!(
        !saved.contains("\"outcome\": {"),
        "the saved game is not over: {saved}"
    );
}

/// A verb the AI scores in `AI.fixed` that no decision offered is warned about at its line,
/// with the verb meant.
#[test]
fn check_warns_of_a_fixed_score_for_a_verb_never_offered() {
    let c = Copy::new();
    c.edit("ai.lua", "use_card = 2,", "use_crad = 2,");
    let line = c.line_of("ai.lua", "use_crad = 2,");
    assert_has(
        &c.check().stderr,
        &format!(
            "mono/ai.lua:{line}: warning: AI.fixed.use_crad scores verb 'use_crad', but no \
             decision offered it in 20 games; did you mean 'use_card'?\n"
        ),
    );
}

/// A script error as the game starts comes with the rules' warnings: a misspelt hook that is
/// never called is often its cause.
#[test]
fn a_start_error_comes_with_the_misspelt_hook_that_caused_it() {
    let c = Copy::new();
    c.edit(
        "rules.lua",
        "function R.setup(G, ctx)",
        "function R.stup(G, ctx)",
    );
    let (setup, options) = (
        c.line_of("rules.lua", "function R.stup(G, ctx)"),
        c.line_of("rules.lua", "then out[#out + 1] = { \"pay_fine\" } end") - 1,
    );
    let out = c.check();
    assert!(
        out.stderr.starts_with(&format!(
            "mono/rules.lua:{setup}: warning: R.stup is not read by the runtime; did you mean \
             R.setup?\nmono/rules.lua:{options}: error: attempt to index a nil value (field \
             'players')\n"
        )),
        "{}",
        out.stderr
    );
}

/// The docs' Diagnostics section shows these errors with their lines, which move whenever the
/// property game's files change: the same edits, and its text must match.
#[test]
fn the_readme_shows_the_diagnostics_of_its_examples_as_they_read() {
    let c = Copy::new();
    c.edit(
        "maps/demo.toml",
        "kind = \"property\"",
        "kind = \"propety\"",
    );
    c.edit(
        "maps/demo.toml",
        "\ngroup = \"south\"",
        "\ngruop = \"south\"",
    );
    shown_in_readme(&c.check(), 2);
    let c = Copy::new();
    c.edit("rules.lua", "\"cash\", -sp.price)", "\"cash\", -sp.prize)");
    shown_in_readme(&c.check(), 3);
    let c = Copy::new();
    let rules = c.read("rules.lua");
    std::fs::write(c.root.join("rules.lua"), format!("{rules}x = = 1\n")).expect("writing");
    let out = c.check();
    let line = out.stderr.replace("mono/", "games/mymono/");
    assert_has(&readme(), line.trim());
}

/// A batch's heading names the settings changed for it.
#[test]
fn sim_names_the_settings_it_changed() {
    let cwd = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = run_in(
        cwd,
        &["sim", "tictactoe", "--games", "2", "--set", "line=3"],
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let heading = "Tic-tac-toe 井字棋 · map Board · players ai,ai · seed 1 · line=3 · ";
    assert!(out.stdout.starts_with(heading), "{}", out.stdout);
}

/// Ctrl-C stops a batch: the games finished are reported, in the table and in the JSON file,
/// and the status is an interrupted one.
#[test]
fn ctrl_c_stops_a_batch_with_the_games_finished() {
    let dir = tempfile::tempdir().expect("a temp folder");
    let game = concat!(env!("CARGO_MANIFEST_DIR"), "/games/tictactoe");
    let args = ["sim", game, "--games", "10000000", "--json", "out.json"];
    let child = spawn_in(dir.path(), &args);
    std::thread::sleep(std::time::Duration::from_secs(2));
    // SAFETY: a plain signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().expect("meeple ends");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert_has(
        &stderr,
        "interrupted: the figures below are those of the games finished\n",
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out.json")).unwrap())
            .expect("the JSON file");
    let played = doc["games"].as_array().map_or(0, Vec::len);
    assert!((1..10000000).contains(&played), "{played} games");
    let games = ["games".to_string(), played.to_string()];
    assert!(
        (stdout.lines()).any(|l| l.split_whitespace().eq(games.iter().map(String::as_str))),
        "{stdout}"
    );
    assert_has(&stderr, &format!("{played} games in "));
}

/// `sim --json -` and `--csv -` write to standard output, and the table to standard error.
#[test]
fn sim_writes_json_or_csv_to_standard_output_for_a_dash() {
    let cwd = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sim = |to: &str| run_in(cwd, &["sim", "tictactoe", "--games", "2", to, "-"]);
    let json = sim("--json");
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON on stdout");
    assert_eq!(doc["games"].as_array().map(Vec::len), Some(2));
    assert_has(&json.stderr, "games             2\n");
    let csv = sim("--csv");
    assert_eq!(
        csv.stdout.lines().next(),
        Some("game,seed,result,winners,rounds,decisions")
    );
    assert_eq!(csv.stdout.lines().count(), 3);
    let both = run_in(
        cwd,
        &[
            "sim",
            "tictactoe",
            "--games",
            "2",
            "--json",
            "-",
            "--csv",
            "-",
        ],
    );
    assert_eq!(
        (both.code, both.stderr.as_str()),
        (
            Some(1),
            "--csv: error: only one of --json and --csv can write to standard output (-)\n"
        )
    );
}

/// A file sim or play cannot write is refused before any game is played: nothing is run for
/// nothing.
#[test]
fn sim_refuses_a_file_it_cannot_write_before_playing() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let cwd = Path::new(env!("CARGO_MANIFEST_DIR"));
    let missing = dir.path().join("no/such/folder/x.json");
    let folder = dir.path().to_path_buf();
    for (flag, path, why) in [
        ("--json", &missing, "its folder does not exist"),
        ("--csv", &folder, "it is a folder"),
    ] {
        let path = path.to_str().expect("a UTF-8 path");
        let out = run_in(cwd, &["sim", "tictactoe", "--games", "2", flag, path]);
        assert_eq!(
            (out.code, out.stderr.as_str(), out.stdout.as_str()),
            (
                Some(1),
                format!("{path}: error: cannot write: {why}\n").as_str(),
                ""
            ),
            "{flag}"
        );
    }
    let path = missing.to_str().expect("a UTF-8 path");
    let args = [
        "play",
        "tictactoe",
        "--players",
        "ai,ai",
        "--text",
        "--record",
        path,
    ];
    let out = run_in(cwd, &args);
    assert_eq!(
        (out.code, out.stderr.as_str(), out.stdout.as_str()),
        (
            Some(1),
            format!("{path}: error: cannot write: its folder does not exist\n").as_str(),
            ""
        )
    );
}

/// At the prompt, text that is none of the listed options points at the list (whose labels
/// may differ from the actions behind them), and the list's numbers line up.
#[test]
fn a_typed_option_not_listed_points_at_the_list() {
    let cwd = Path::new(env!("CARGO_MANIFEST_DIR"));
    let args = [
        "play",
        "mahjong",
        "--players",
        "human,ai,ai,ai",
        "--seed",
        "4",
        "--text",
        "--no-watch",
    ];
    let out = run_typing(cwd, &args, "discard 99\nquit\n");
    assert_has(
        &out.stdout,
        "> rejected: 'discard 99' is not one of P1's options: type its number or its text as \
         listed\n",
    );
    assert_has(&out.stdout, "P1, choose:\n   1) discard 3万\n");
    assert_has(&out.stdout, "\n  12) discard 中\n");
}

/// A typed line that is not UTF-8 is refused like any text that is no option, and the game
/// goes on (it used to end the input, and the game with it).
#[test]
fn a_line_that_is_not_utf8_is_refused_and_play_goes_on() {
    use std::io::Write;
    let args = ["play", "tictactoe", "--players", "human,ai", "--seed", "3"];
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut child = spawn_in(root, &[&args[..], &["--text", "--no-watch"]].concat());
    let mut input = child.stdin.take().expect("a piped stdin");
    input.write_all(b"caf\xe9\r\n1\nquit\n").expect("writing");
    drop(input);
    let out = child.wait_with_output().expect("meeple ends");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_has(
        &stdout,
        "> rejected: 'caf\u{fffd}' is not one of P1's options: type its number or its text as \
         listed\n",
    );
    assert_has(&stdout, "· P1 places at (1, 1)\n");
}

/// Ctrl-C at the prompt ends the session as `quit` would: the record is written, and the
/// status says it was interrupted.
#[test]
fn ctrl_c_at_the_prompt_writes_the_record() {
    use std::io::Read;
    let dir = tempfile::tempdir().expect("a temp folder");
    let game = concat!(env!("CARGO_MANIFEST_DIR"), "/games/tictactoe");
    let args = [
        "play",
        game,
        "--players",
        "human,ai",
        "--seed",
        "3",
        "--text",
    ];
    let mut child = spawn_in(
        dir.path(),
        &[&args[..], &["--no-watch", "--record", "r.json"]].concat(),
    );
    let mut stdout = child.stdout.take().expect("a piped stdout");
    let mut seen = Vec::new();
    let mut byte = [0u8];
    while !seen.ends_with(b"> ") && stdout.read(&mut byte).expect("reading meeple") == 1 {
        seen.push(byte[0]);
    }
    // SAFETY: a plain signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).expect("reading meeple");
    let status = child.wait().expect("meeple ends");
    assert_eq!(status.code(), Some(130), "{rest}");
    assert_has(&rest, "replay written to r.json");
    let record = std::fs::read_to_string(dir.path().join("r.json")).expect("the record");
    assert_has(&record, "\"game\": \"tictactoe\"");
}

/// Output piped into a reader that goes away (`meeple play … | head`) ends the game as a quit
/// would: the record is written and said on standard error, and the status is a broken pipe's.
#[test]
fn a_game_whose_reader_goes_away_keeps_its_record() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().expect("a temp folder");
    let game = concat!(env!("CARGO_MANIFEST_DIR"), "/games/monopoly");
    let args = [
        "play",
        game,
        "--players",
        "ai,ai",
        "--seed",
        "1",
        "--text",
        "--no-watch",
    ];
    let cash = ["--set", "start_cash=100000000", "--record", "r.json"];
    let mut child = spawn_in(dir.path(), &[&args[..], &cash].concat());
    let mut first = String::new();
    let stdout = child.stdout.take().expect("a piped stdout");
    BufReader::new(stdout)
        .read_line(&mut first)
        .expect("reading meeple");
    assert_has(&first, "大富翁 Monopoly · map Demo 演示 · seed 1");
    // The reader is gone: the next line meeple writes fails.
    let out = child.wait_with_output().expect("meeple ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(141), "{stderr}");
    assert_eq!(stderr, "replay written to r.json\n");
    let record = std::fs::read_to_string(dir.path().join("r.json")).expect("the record");
    assert_has(&record, "\"game\": \"monopoly\"");
}

/// A game of bots that never ends stops at --max-decisions with the usual error, and its
/// record is kept.
#[test]
fn a_bots_only_game_that_never_ends_stops_with_its_record() {
    let dir = tempfile::tempdir().expect("a temp folder");
    let game = concat!(env!("CARGO_MANIFEST_DIR"), "/games/monopoly");
    let out = run_typing(
        dir.path(),
        &[
            "play",
            game,
            "--players",
            "ai,ai",
            "--seed",
            "1",
            "--text",
            "--no-watch",
            "--set",
            "start_cash=100000000",
            "--set",
            "round_cap=100000000",
            "--max-decisions",
            "500",
            "--record",
            "r.json",
        ],
        "",
    );
    assert_eq!(out.code, Some(1), "{}", out.stdout);
    assert!(
        out.stderr
            .contains("game.toml: error: the game did not end within 500 decisions (now in state"),
        "{}",
        out.stderr
    );
    assert_has(&out.stdout, "replay written to r.json");
}

/// A file that is no record, or a record with a field missing or of the wrong kind, is said
/// so at its line and column, naming the field.
#[test]
fn a_file_that_is_no_record_is_said_so() {
    let dir = tempfile::tempdir().expect("a temp folder");
    let cases = [
        ("toml.json", "id = \"x\"\n", "toml.json: error: not a replay or save file (meeple writes them as JSON: play --record FILE, or save FILE at the prompt)"),
        ("cut.json", "{\n", "cut.json:2:1: error: EOF while parsing an object"),
        ("empty.json", "{}", "empty.json:1:2: error: not a record meeple can read: missing field `format`"),
    ];
    for (file, text, said) in cases {
        std::fs::write(dir.path().join(file), text).unwrap();
        let out = run_in(dir.path(), &["replay", file]);
        assert_eq!(out.stderr, format!("{said}\n"), "{file}");
        assert_eq!(out.code, Some(1), "{file}");
    }
}

/// `save` takes a file name in quotes as a shell would (without them).
#[test]
fn save_takes_a_quoted_name() {
    let dir = tempfile::tempdir().expect("a temp folder");
    let game = concat!(env!("CARGO_MANIFEST_DIR"), "/games/tictactoe");
    let args = [
        "play",
        game,
        "--players",
        "human,ai",
        "--text",
        "--no-watch",
    ];
    let out = run_typing(dir.path(), &args, "save \"a b.json\"\nquit\n");
    assert_has(
        &out.stdout,
        "> saved to a b.json (resume with: meeple play --load 'a b.json')\n",
    );
    assert!(dir.path().join("a b.json").is_file());
}

/// `check` reads style.toml for every map and reports every map's problems at once.
#[test]
fn check_reports_the_style_problems_of_every_map_at_once() {
    let c = Copy::new();
    let style = c.read("style.toml");
    let broken =
        format!("{style}\n[maps.demo]\nline = \"#zz0000\"\n[maps.classic]\ntext = \"red\"\n");
    std::fs::write(c.root.join("style.toml"), &broken).expect("writing");
    let demo = c.line_of("style.toml", "#zz0000");
    let classic = c.line_of("style.toml", "\"red\"");
    assert_fails(
        &c.check(),
        &[
            format!("mono/style.toml:{demo}:1: error: maps.demo.line: '#zz0000' is not a colour (expected #rrggbb or #rrggbbaa)"),
            format!("mono/style.toml:{classic}:1: error: maps.classic.text: 'red' is not a colour (expected #rrggbb or #rrggbbaa)"),
        ],
    );
}

/// A style key of `[kinds]` or `[groups]` that names no space kind or group of the game would
/// colour nothing: an error at the key, with the name meant.
#[test]
fn a_style_colour_for_no_kind_or_group_is_an_error() {
    let c = Copy::new();
    c.edit("style.toml", "\njail = ", "\njial = ");
    c.edit("style.toml", "\nbrown = ", "\nbrwon = ");
    let (jail, brown) = (
        c.line_of("style.toml", "jial = "),
        c.line_of("style.toml", "brwon = "),
    );
    let out = c.check();
    assert_has(
        &out.stderr,
        &format!(
            "mono/style.toml:{jail}:1: error: no space kind 'jial' in the game (its files name: "
        ),
    );
    assert_has(&out.stderr, "); did you mean 'jail'?\n");
    assert_has(
        &out.stderr,
        &format!("mono/style.toml:{brown}:1: error: no space group 'brwon' in the game (its files name: "),
    );
    assert_has(&out.stderr, "); did you mean 'brown'?\n");
}

/// A save made before the map gained a space resumes on the new map (its world matched onto
/// the spaces by id, as a reload does); a save whose snapshot was edited by hand, or whose
/// steps no longer lead to it, is refused with the field named.
#[test]
fn a_save_follows_an_edited_map_and_a_tampered_one_is_refused() {
    let c = Copy::new();
    let args = ["play", GAME, "--seed", "7", "--text", "--no-watch"];
    let out = run_typing(&c.cwd, &args, "1\n1\nsave s.json\nquit\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let saved = std::fs::read_to_string(c.cwd.join("s.json")).unwrap();
    // A hand-edited snapshot: one owner fewer than the map has spaces.
    let owners = "\"owners\": [\n          null,\n";
    assert!(saved.contains(owners), "{saved}");
    let edited = saved.replacen(owners, "\"owners\": [\n", 1);
    std::fs::write(c.cwd.join("edited.json"), edited).unwrap();
    assert_fails(
        &c.run(&["play", "--load", "edited.json", "--text", "--no-watch"]),
        &["edited.json: error: snapshot.world.board.owners holds 9, not 10 (one per space of the map)".to_string()],
    );
    // A step hash changed: the steps no longer lead to the snapshot.
    let tampered = saved.replacen("\"hash\": \"", "\"hash\": \"0", 1);
    std::fs::write(c.cwd.join("tampered.json"), tampered).unwrap();
    let refused = c.run(&["play", "--load", "tampered.json", "--text", "--no-watch"]);
    assert_has(
        &refused.stderr,
        "tampered.json: error: steps: step 1: P1 'roll' leads to a different state",
    );
    // The map gains a space at its start: the game goes on, every token where it stood.
    c.edit(
        "maps/demo.toml",
        "[[spaces]]",
        "[[spaces]]\nid = \"gate\"\nname = \"Gate\"\nkind = \"parking\"\n\n[[spaces]]",
    );
    let resumed = run_typing(
        &c.cwd,
        &["play", "--load", "s.json", "--text", "--no-watch"],
        "quit\n",
    );
    assert_eq!(resumed.code, Some(0), "{}", resumed.stderr);
    assert_has(
        &resumed.stdout,
        "note: the game's files changed since it was saved",
    );
    assert_has(&resumed.stdout, "  1 Gate");
}

/// A grid side read from a setting that is out of range names the setting, once for a square
/// board whose rows and columns both read it.
#[test]
fn a_grid_side_out_of_range_names_its_setting_once() {
    let c = Copy::of("gomoku", "go");
    c.edit("game.toml", "size = 15 ", "size = 0 ");
    let line = c.line_of("maps/board.toml", "rows = \"size\"");
    let size = c.line_of("game.toml", "size = 0 ");
    assert_fails(
        &c.check(),
        &[
            format!("go/maps/board.toml:{line}:8: error: setting 'size' is 0, and a grid side must be 1 to 100 cells"),
            format!("    go/game.toml:{size}: the game declares 'size' as 0"),
        ],
    );
}

/// A grid map's kind and sides, and the default map, say what they expect and the nearest
/// name; a game with no map says what a game without a board lists.
#[test]
fn map_kinds_sides_the_default_map_and_no_map_say_what_they_expect() {
    let c = Copy::of("gomoku", "go");
    c.edit("maps/board.toml", "kind = \"grid\"", "kind = \"gird\"");
    let kind = c.line_of("maps/board.toml", "kind = ");
    assert_fails(
        &c.check(),
        &[format!(
            "go/maps/board.toml:{kind}:8: error: map kind 'gird' is not one of: track, grid, \
             table; did you mean 'grid'?"
        )],
    );
    c.edit("maps/board.toml", "kind = \"gird\"", "kind = \"grid\"");
    c.edit("maps/board.toml", "cols = \"size\"", "cols = 3.5");
    let cols = c.line_of("maps/board.toml", "cols = ");
    assert_fails(
        &c.check(),
        &[format!(
            "go/maps/board.toml:{cols}:8: error: cols: expected a whole number or the name of an \
             integer setting, got the number 3.5"
        )],
    );
    c.edit("maps/board.toml", "cols = 3.5", "cols = \"sise\"");
    assert_fails(
        &c.check(),
        &[format!(
            "go/maps/board.toml:{cols}:8: error: grid size names 'sise', which is not an \
             integer setting; did you mean 'size'?"
        )],
    );
    c.edit("maps/board.toml", "cols = \"sise\"", "cols = \"size\"");
    c.edit("game.toml", "default = \"board\"", "default = \"bord\"");
    let default = c.line_of("game.toml", "default = ");
    assert_fails(
        &c.check(),
        &[format!(
            "go/game.toml:{default}:11: error: default map 'bord' is not listed in [maps]; did \
             you mean 'board'?"
        )],
    );
    // A game without a map, [maps] or not, is told where they go and what a boardless game
    // lists.
    let none = "no map is listed in [maps]: every game is played on one (a game without a \
                board lists a map whose kind is \"table\")";
    c.edit(
        "game.toml",
        "default = \"bord\"\nboard = \"maps/board.toml\"\n",
        "",
    );
    let maps = c.line_of("game.toml", "[maps]");
    assert_fails(
        &c.check(),
        &[format!("go/game.toml:{maps}:2: error: {none}")],
    );
    c.edit("game.toml", "[maps]\n", "");
    assert_fails(&c.check(), &[format!("go/game.toml:1:1: error: {none}")]);
}

/// A verb must be one word a player can type, and a number a finite one a save can keep: an
/// option that breaks either is an error at the line of the options hook that lists it.
#[test]
fn an_option_verb_must_be_one_word_and_its_numbers_finite() {
    let spaced = |v: &str| {
        format!("the verb '{v}' has a space in it (arguments go after the verb: {{verb, args...}})")
    };
    let finite = |what: &str| {
        format!("an argument is {what} (use finite numbers: saves and replays keep no other)")
    };
    // As a table or as a bare string; an ideographic space splits a typed action too.
    for (listed, problem) in [
        ("{ \"roll dice\" }", spaced("roll dice")),
        ("\"roll dice\"", spaced("roll dice")),
        ("{ \"roll\u{3000}dice\" }", spaced("roll\u{3000}dice")),
        ("{ \"\" }", "the verb is empty".to_string()),
        ("\"\"", "the verb is empty".to_string()),
        ("{ \"roll\", 0/0 }", finite("NaN")),
        ("{ \"roll\", math.huge }", finite("infinite")),
        ("{ \"roll\", 1, -math.huge }", finite("minus infinite")),
    ] {
        let c = Copy::new();
        let list = format!("local out = {{ {listed} }}");
        c.edit("rules.lua", "local out = { { \"roll\" } }", &list);
        let line = c.line_of("rules.lua", &list);
        let out = c.check();
        let first = out.stderr.lines().next().unwrap_or_default();
        assert_eq!(
            first,
            format!("mono/rules.lua:{line}: error: option 1: {problem}"),
            "{listed}"
        );
    }
}

/// `check` finds an option listed twice (a random player would pick it twice as often), at
/// the options hook, with the game that shows it.
#[test]
fn check_finds_an_option_listed_twice() {
    let c = Copy::new();
    let twice = "local out = { { \"roll\" }, { \"roll\" } }";
    c.edit("rules.lua", "local out = { { \"roll\" } }", twice);
    let line = c.line_of("rules.lua", twice) - 1;
    assert_fails(
        &c.check(),
        &[
            format!(
                "mono/rules.lua:{line}: error: option 'roll' is listed twice: a random player \
                 picks it twice as often as the others"
            ),
            "    in state 'wait_player' hook 'options' (player 1, turn 1)".to_string(),
            first_game(),
        ],
    );
}

/// A `ctx` method called with a dot instead of a colon takes its first argument for its table:
/// every kind of method (Lua, Rust, raw C) says so at the caller's line instead of doing
/// something else. `ctx:win()` without a seat is an error too.
#[test]
fn a_method_called_with_a_dot_says_to_use_a_colon() {
    let said = |id: &str, map: &str, code: &str| {
        let game = start(id, map, 2, 1, &[]);
        let e = game.eval(&format!("local x = 0\n{code}")).unwrap_err();
        e.to_string().lines().next().unwrap_or_default().to_string()
    };
    let colon = |name: &str| {
        format!(
            "eval:2: error: '{name}' is a method: call it with a colon (x:{name}(…)), not a dot"
        )
    };
    for (code, name) in [
        ("ctx.grid.set(3, 1, 2)", "set"),
        ("ctx.grid.cells()", "cells"),
        ("ctx.win(1)", "win"),
        ("ctx.random.int(1, 6)", "int"),
        ("ctx.log(\"P%d\", 1)", "log"),
        ("ctx.next_player(2)", "next_player"),
    ] {
        assert_eq!(said("tictactoe", "board", code), colon(name), "{code}");
    }
    for (code, name) in [
        ("ctx.board.move(1, 3)", "move"),
        ("ctx.board.place(1, 5)", "place"),
        ("ctx.counter.add(1, \"cash\", 5)", "add"),
        ("ctx.dice.roll(\"2d6\")", "roll"),
        ("ctx.deck.held(1)", "held"),
    ] {
        assert_eq!(said("monopoly", "demo", code), colon(name), "{code}");
    }
    assert_eq!(
        said(
            "tictactoe",
            "board",
            "local set = ctx.grid.set; set(3, 1, 2)"
        ),
        "eval:2: error: a method called without its table: call it with a colon (x:f(…))"
    );
}

/// A hook whose name is close to one the runtime reads is never called: `check` warns at its
/// line and names the hook it may have meant; a key in a state's table that is not a hook is
/// warned about too. Helpers far from every hook name (`R.helper`) are the rules' own.
#[test]
fn check_warns_of_a_misspelled_hook() {
    let c = Copy::of("tictactoe", "ttt");
    c.edit(
        "rules.lua",
        "return R",
        "function R.lable(G, ctx, o) return \"x\" end\n\
         R.helper = function() end\n\
         R.states.turn.entr = function() end\n\
         R.states.turn.note = \"a note\"\n\
         return R",
    );
    let (lable, entr) = (
        c.line_of("rules.lua", "R.lable"),
        c.line_of("rules.lua", "entr"),
    );
    let out = c.check();
    assert_eq!(
        out.stderr,
        format!(
            "ttt/rules.lua: warning: R.states.turn.note is not read by the runtime: a state's \
             keys are enter, options, act, seats, exits\n\
             ttt/rules.lua:{lable}: warning: R.lable is not read by the runtime; did you mean \
             R.label?\n\
             ttt/rules.lua:{entr}: warning: R.states.turn.entr is not read by the runtime; did \
             you mean R.states.turn.enter?\n"
        )
    );
    assert_eq!(out.code, Some(0));
}

/// A record's game is read as `play GAME` reads it: every problem of every file at once,
/// the scripts' syntax among them.
#[test]
fn a_replays_broken_game_lists_every_problem() {
    let c = Copy::of("tictactoe", "ttt");
    let played = c.play_text("ai,ai", &["--record", "r.json"], "");
    assert_eq!(played.code, Some(0), "{}", played.stderr);
    c.edit("game.toml", "title", "titel = \"x\"\ntitle");
    c.edit("rules.lua", "return R", "return R\nlocal x = = 1");
    let (key, syntax) = (
        c.line_of("game.toml", "titel"),
        c.line_of("rules.lua", "= = 1"),
    );
    let out = c.run(&["replay", "r.json"]);
    assert_eq!(
        out.stderr,
        format!(
            "ttt/game.toml:{key}:1: error: unknown key 'titel'; did you mean 'title'?\n\
             ttt/rules.lua:{syntax}: error: <eof> expected near 'local'\n"
        )
    );
    assert_eq!(out.code, Some(1));
}

/// A record's players are read as `play --load` reads them: an unknown kind is an error.
#[test]
fn a_record_with_an_unknown_player_kind_is_refused() {
    let c = Copy::of("tictactoe", "ttt");
    let played = c.play_text("ai,ai", &["--record", "r.json"], "");
    assert_eq!(played.code, Some(0), "{}", played.stderr);
    let record = c.cwd.join("r.json");
    let text = std::fs::read_to_string(&record).expect("the record");
    std::fs::write(&record, text.replacen("\"ai\"", "\"wizard\"", 1)).expect("writing it");
    let out = c.run(&["replay", "r.json"]);
    assert_eq!(
        out.stderr,
        "r.json: error: players[0]: unknown player kind 'wizard' (expected: human, ai \
         (heuristic), ai:STYLE, random, mcts, mcts:N, mcts:Nms, montecarlo, montecarlo:N, \
         alphabeta, alphabeta:N)\n"
    );
    assert_eq!(out.code, Some(1));
}

/// A field `ctx` or one of its parts lacks, close to one it has, is an error at the reading
/// line naming that one, not a nil that fails later. Other missing fields read as nil: rules
/// keep fields of their own, and a track map's grid has no size.
#[test]
fn a_misspelled_ctx_field_names_the_closest() {
    let said = |id: &str, map: &str, code: &str| {
        let game = start(id, map, 2, 1, &[]);
        let e = game.eval(&format!("local x = 0\n{code}")).unwrap_err();
        e.to_string().lines().next().unwrap_or_default().to_string()
    };
    for (code, message) in [
        (
            "x = ctx.grid.row",
            "ctx.grid has no field 'row'; did you mean 'rows'?",
        ),
        (
            "x = ctx.bord",
            "ctx has no field 'bord'; did you mean 'board'?",
        ),
        (
            "x = ctx.random.itn",
            "ctx.random has no field 'itn'; did you mean 'int'?",
        ),
    ] {
        assert_eq!(
            said("gomoku", "board", code),
            format!("eval:2: error: {message}")
        );
    }
    let game = start("monopoly", "demo", 2, 1, &[]);
    let e = game
        .eval("local x = 0\nx = ctx.counter.cash[1]")
        .unwrap_err();
    assert_eq!(
        e.to_string().lines().next().unwrap_or_default(),
        "eval:2: error: ctx.counter has the methods that change counters: read 'cash' as \
         ctx.counters.cash[p]"
    );
    let read = "return { rows = ctx.grid.rows == nil, kind = ctx.map.kind, own = ctx.own == nil }";
    let said = serde_json::json!({"rows": true, "kind": "track", "own": true});
    assert_eq!(game.eval(read).unwrap(), said);
}

/// A state with nowhere to go is pointed at where it is declared, not at the flow's start.
#[test]
fn a_state_without_next_states_is_located_at_its_key() {
    let c = Copy::of("tictactoe", "ttt");
    c.edit("game.toml", "over = { final = true }", "over = { }");
    let (start, over) = (
        c.line_of("game.toml", "start = "),
        c.line_of("game.toml", "over = { }"),
    );
    let out = c.check();
    assert_eq!(
        out.stderr,
        format!(
            "ttt/game.toml:{start}:9: error: the flow has no final state (add one with `final = \
             true`)\nttt/game.toml:{over}:1: error: state 'over' has no next states and is not \
             final\n"
        )
    );
    assert_eq!(out.code, Some(1));
}

/// A number typed at the prompt is an option's number, unless it is only a label: a number
/// that is both one option's number and another's label is refused as ambiguous.
#[test]
fn a_typed_number_that_is_another_options_label_is_refused() {
    let c = Copy::of("tictactoe", "ttt");
    let label = "function R.label(G, ctx, o) return tostring((o[2] - 1) * 3 + o[3] + 1) end";
    c.edit("rules.lua", "return R", &format!("{label}\nreturn R"));
    let out = c.play_text("human,human", &[], "3\n10\nquit\n");
    assert_has(
        &out.stdout,
        "> rejected: '3' is option 3 and the label of option 2: type the action of the one you \
         mean\n",
    );
    assert_has(&out.stdout, ">   · P1 places at (3, 3)\n");
}
