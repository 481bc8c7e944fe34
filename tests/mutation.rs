//! Seeded mutations of every shipped TOML file, save file and replay file, each loaded and
//! played the way the commands do: none may panic or hang, and every problem found is a
//! diagnostic that names its file (and, in a TOML file, its line). The seed of a failing case
//! is printed. MEEPLE_MUTATIONS sets the cases of each kind (default 240).

mod common;
use common::*;
use meeple::core::rng::GameRng;
use meeple::diag::Diagnostic;
use meeple::engine::{Game, GameConfig};
use meeple::replay::Record;
use std::path::Path;
use std::sync::{mpsc, Arc};
use std::time::Duration;

fn cases() -> u64 {
    games_from_env("MEEPLE_MUTATIONS", 240)
}

/// How long one case may take before it counts as a hang (a debug build on a loaded machine).
const HANG: Duration = Duration::from_secs(60);

/// Runs `f` on its own thread: its result, or a failure naming `what` if it panics or hangs.
fn guarded<T: Send + 'static>(what: String, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)));
    });
    match rx.recv_timeout(HANG) {
        Ok(Ok(v)) => v,
        Ok(Err(_)) => panic!("panicked: {what}"),
        Err(_) => panic!("hangs: {what}"),
    }
}

/// Every TOML file of every shipped game: (game id, path inside its folder).
fn toml_files() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for pkg in all_games() {
        let mut stack = vec![pkg.root.clone()];
        while let Some(dir) = stack.pop() {
            for e in std::fs::read_dir(&dir).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "toml") {
                    let rel = p.strip_prefix(&pkg.root).unwrap().display().to_string();
                    out.push((pkg.id.clone(), rel));
                }
            }
        }
    }
    out.sort();
    out
}

/// Values a mutation puts where a value was.
const VALUES: &[&str] = &[
    "0",
    "-1",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999",
    "1e308",
    "nan",
    "inf",
    "\"\"",
    "\"x\"",
    "true",
    "[]",
    "{}",
    "[1, \"a\"]",
    "{ x = 1 }",
];

/// Lines a mutation inserts.
const LINES: &[&str] = &[
    "zzz = 1",
    "[[",
    "[x.y]",
    "= 3",
    "id = \"dup\"",
    "[[spaces]]",
];

/// `text` mutated one way, chosen by `rng`, and what was done.
fn mutate(text: &str, rng: &mut GameRng) -> (Vec<u8>, String) {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let n = lines.len().max(1);
    let at = rng.below(n as u64) as usize;
    let pick =
        |list: &[&str], rng: &mut GameRng| list[rng.below(list.len() as u64) as usize].to_string();
    let what = match rng.below(9) {
        0 if at < lines.len() => {
            lines.remove(at);
            format!("line {} deleted", at + 1)
        }
        1 if at < lines.len() => {
            lines.insert(at, lines[at].clone());
            format!("line {} doubled", at + 1)
        }
        2 if at + 1 < lines.len() => {
            lines.swap(at, at + 1);
            format!("lines {} and {} swapped", at + 1, at + 2)
        }
        3 => {
            let cut = text.len() * at / n;
            let cut = (0..=cut)
                .rev()
                .find(|c| text.is_char_boundary(*c))
                .unwrap_or(0);
            return (
                text.as_bytes()[..cut].to_vec(),
                format!("cut at byte {cut}"),
            );
        }
        4 | 7 => {
            let with_value: Vec<usize> = (0..lines.len())
                .filter(|i| lines[*i].contains(" = "))
                .collect();
            let Some(&i) = with_value.get(at % with_value.len().max(1)) else {
                return (text.as_bytes().to_vec(), "unchanged".into());
            };
            let key = lines[i].split(" = ").next().unwrap().to_string();
            let value = pick(VALUES, rng);
            lines[i] = format!("{key} = {value}");
            format!("line {}: {key} = {value}", i + 1)
        }
        5 => {
            let i = at.min(lines.len().saturating_sub(1));
            if let Some(line) = lines.get_mut(i) {
                if let Some(pos) = line.find(" = ") {
                    line.insert(pos, 'q');
                }
            }
            format!("line {}: a key misspelt", i + 1)
        }
        6 => {
            let line = pick(LINES, rng);
            lines.insert(at.min(lines.len()), line.clone());
            format!("line {} inserted: {line}", at + 1)
        }
        _ => {
            let mut bytes = text.as_bytes().to_vec();
            let pos = bytes.len() * at / n;
            let byte = [0xff_u8, 0x00, b'"', b'[', b'\n'][rng.below(5) as usize];
            bytes.insert(pos, byte);
            return (bytes, format!("byte 0x{byte:02x} inserted at {pos}"));
        }
    };
    let mut out = lines.join("\n");
    out.push('\n');
    (out.into_bytes(), what)
}

/// Loads the game folder at `root` and plays a short random game on every map, as `check`
/// would: its diagnostics, if any.
fn load_and_play(root: &Path, seed: u64) -> Result<(), Vec<Diagnostic>> {
    let pkg = Arc::new(meeple::def::load_package(root)?);
    meeple::def::style::check_styles(&pkg)?;
    for map in pkg.maps.keys() {
        let config = GameConfig {
            map: Some(map.clone()),
            seats: pkg.players.0.max(2).min(pkg.players.1),
            seed,
            settings: Vec::new(),
        };
        let mut game = Game::new(pkg.clone(), config)?;
        play_a_little(&mut game, seed).map_err(|e| vec![e.into_diagnostic("meeple")])?;
    }
    Ok(())
}

/// Up to 40 random decisions, a snapshot and its restore.
fn play_a_little(game: &mut Game, seed: u64) -> Result<(), meeple::engine::GameError> {
    let mut rng = GameRng::from_seed(seed);
    for _ in 0..40 {
        let Some(n) = game.pending().map(|p| p.len()) else {
            break;
        };
        game.apply_index(rng.below(n as u64) as usize)?;
    }
    let snap = game.snapshot()?;
    game.restore(&snap)
}

/// What is wrong with `diags` for `case`: every diagnostic names a file, and one about a
/// TOML file its line.
fn unlocated(diags: &[Diagnostic], case: &str) -> Vec<String> {
    if diags.is_empty() {
        return vec![format!("{case}: an error without a diagnostic")];
    }
    (diags.iter())
        .filter(|d| {
            d.path.is_empty()
                || d.message.is_empty()
                || (d.path.ends_with(".toml") && d.line.is_none())
        })
        .map(|d| format!("{case}: not located: {d}"))
        .collect()
}

#[test]
fn mutated_toml_files_never_panic_or_hang_and_every_problem_is_located() {
    let files = toml_files();
    assert!(files.len() >= 10, "{files:?}");
    let mut problems = Vec::new();
    for seed in 0..cases() {
        let (id, rel) = files[seed as usize % files.len()].clone();
        let (tmp, root) = copy_game(&id, &format!("games/{id}"));
        let text = std::fs::read_to_string(root.join(&rel)).unwrap();
        let (bytes, what) = mutate(&text, &mut GameRng::from_seed(seed));
        std::fs::write(root.join(&rel), bytes).unwrap();
        let case = format!("seed {seed}: {id}/{rel}: {what}");
        let result = guarded(case.clone(), move || load_and_play(&root, seed));
        if let Err(diags) = result {
            problems.extend(unlocated(&diags, &case));
        }
        drop(tmp);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A save (mid-game, with its snapshot) and a replay of each game with a table, a grid and a
/// track, written as `meeple play` writes them.
fn records() -> Vec<(String, Record)> {
    let mut out = Vec::new();
    for (id, map, seats) in [
        ("monopoly", "demo", 3),
        ("gomoku", "board", 2),
        ("mahjong", "table", 4),
    ] {
        let mut game = start(id, map, seats, 5, &[]);
        game.enable_undo();
        let start_hash = game.snapshot().unwrap().hash();
        let players = vec!["random".to_string(); seats];
        let mut record = Record::new(&game, players, start_hash);
        let mut rng = GameRng::from_seed(9);
        for _ in 0..30 {
            let Some(p) = game.pending().map(|p| (p.seat, p.len())) else {
                break;
            };
            let i = rng.below(p.1 as u64) as usize;
            game.apply_index(i).unwrap();
            let action = game.history.last().unwrap().action.clone();
            let hash = game.snapshot().unwrap().hash();
            record.steps.push(meeple::replay::RecordStep {
                seat: p.0,
                action,
                hash,
                log: Vec::new(),
            });
        }
        out.push((format!("{id} replay"), record.clone()));
        record.snapshot = Some(game.snapshot().unwrap());
        record.layout = game.layout();
        out.push((format!("{id} save"), record));
    }
    out
}

/// Replacements for a JSON value.
fn json_values() -> Vec<serde_json::Value> {
    use serde_json::json;
    vec![
        json!(null),
        json!(0),
        json!(-1),
        json!(99),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(1.5),
        json!("x"),
        json!("/etc/passwd"),
        json!(true),
        json!([]),
        json!({}),
        json!([0, 1]),
    ]
}

/// Every path to a value inside `v`.
fn paths(v: &serde_json::Value, at: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    out.push(at.clone());
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                at.push(k.clone());
                paths(x, at, out);
                at.pop();
            }
        }
        serde_json::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                at.push(i.to_string());
                paths(x, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn at_path<'a>(v: &'a mut serde_json::Value, path: &[String]) -> &'a mut serde_json::Value {
    path.iter().fold(v, |v, k| match v {
        serde_json::Value::Array(a) => &mut a[k.parse::<usize>().unwrap()],
        other => &mut other[k.as_str()],
    })
}

/// The generator's 128-bit numbers, which a `serde_json::Value` would round, as marked text
/// (`protect`) and back (`unprotect`).
fn protect(text: &str) -> String {
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        match line.split_once(": ") {
            Some((key, rest))
                if (key.ends_with("\"state\"") || key.ends_with("\"increment\""))
                    && rest
                        .trim_end_matches([',', '\n'])
                        .bytes()
                        .all(|b| b.is_ascii_digit()) =>
            {
                let digits = rest.trim_end_matches([',', '\n']);
                out.push_str(&line.replacen(digits, &format!("\"u128:{digits}\""), 1));
            }
            _ => out.push_str(line),
        }
    }
    out
}

fn unprotect(text: &str) -> String {
    let mut out = text.to_string();
    while let Some(at) = out.find("\"u128:") {
        let end = out[at + 6..]
            .find('"')
            .map_or(out.len(), |e| at + 6 + e + 1);
        let digits = out[at + 6..end - 1].to_string();
        out.replace_range(at..end, &digits);
    }
    out
}

/// `text` (a record as JSON) mutated one way, chosen by `rng`, and what was done.
fn mutate_json(text: &str, rng: &mut GameRng) -> (String, String) {
    let text = &protect(text);
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    let mut all = Vec::new();
    paths(&v, &mut Vec::new(), &mut all);
    let path = all[rng.below(all.len() as u64) as usize].clone();
    let shown = path.join(".");
    let what = match (rng.below(5), path.split_last()) {
        (0, Some((last, parent))) => match at_path(&mut v, parent) {
            serde_json::Value::Object(m) => {
                m.remove(last);
                format!("{shown} removed")
            }
            serde_json::Value::Array(a) => {
                a.remove(last.parse().unwrap());
                format!("{shown} removed")
            }
            _ => unreachable!("a parent holds its children"),
        },
        (1, _) => {
            let text = unprotect(text);
            let cut = text.len() * rng.below(100) as usize / 100;
            return (text[..cut].to_string(), format!("cut at byte {cut}"));
        }
        (2, _) => match at_path(&mut v, &path) {
            serde_json::Value::Array(a) if !a.is_empty() => {
                let x = a[0].clone();
                a.push(x);
                format!("{shown}: an entry more")
            }
            serde_json::Value::Number(n) if n.is_u64() => {
                let x = n.as_u64().unwrap() ^ (1 << rng.below(64));
                *at_path(&mut v, &path) = serde_json::json!(x);
                format!("{shown} = {x}")
            }
            other => {
                *other = serde_json::json!(7);
                format!("{shown} = 7")
            }
        },
        _ => {
            let values = json_values();
            let x = values[rng.below(values.len() as u64) as usize].clone();
            *at_path(&mut v, &path) = x.clone();
            format!("{shown} = {x}")
        }
    };
    (unprotect(&serde_json::to_string_pretty(&v).unwrap()), what)
}

/// Loads a record file as `play --load` (a save) or `replay` (a replay) would, and plays on a
/// little from where it ends: its diagnostics, if any.
fn load_record(file: &Path, seed: u64) -> Result<(), Vec<Diagnostic>> {
    let shown = file.display().to_string();
    let record = Record::load(file).map_err(|d| vec![d])?;
    let pkg = meeple::cli::load(&record.game).map_err(|mut d| {
        d.push(Diagnostic::error(&shown, "its game is not found"));
        d
    })?;
    if record.snapshot.is_none() {
        let problems = record.check(&pkg, &shown);
        if !problems.is_empty() {
            return Err(problems);
        }
        meeple::replay::verify(pkg.clone(), &record)?;
    }
    let mut game = meeple::replay::resume(pkg, &record, &shown)?;
    play_a_little(&mut game, seed).map_err(|e| vec![e.into_diagnostic("meeple")])
}

#[test]
fn mutated_saves_and_replays_never_panic_or_hang_and_every_problem_names_its_field() {
    let records = records();
    // Unmutated, each loads.
    let dir = tempfile::tempdir().unwrap();
    for (name, record) in &records {
        let file = dir.path().join("plain.json");
        let text = serde_json::to_string_pretty(record).unwrap();
        assert_eq!(unprotect(&protect(&text)), text);
        std::fs::write(&file, text).unwrap();
        load_record(&file, 1).unwrap_or_else(|d| panic!("{name}: {}", meeple::diag::render(&d)));
    }
    let dir = tempfile::tempdir().unwrap();
    for seed in 0..cases() {
        let (name, record) = &records[seed as usize % records.len()];
        let text = serde_json::to_string_pretty(record).unwrap();
        let (text, what) = mutate_json(&text, &mut GameRng::from_seed(seed));
        let file = dir.path().join(format!("case{seed}.json"));
        std::fs::write(&file, &text).unwrap();
        let case = format!("seed {seed}: {name}: {what}");
        let result = guarded(case.clone(), {
            let file = file.clone();
            move || load_record(&file, seed)
        });
        if let Err(diags) = result {
            assert!(!diags.is_empty(), "{case}: an error without a diagnostic");
            for d in &diags {
                assert!(!d.path.is_empty() && !d.message.is_empty(), "{case}: {d}");
            }
        }
    }
}
