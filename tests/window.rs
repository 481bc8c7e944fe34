//! The window, for real: each game is rendered under Xvfb after a scripted sequence
//! (`tests/window/*.txt`) and the PNG is checked pixel by pixel at places computed with the
//! window's own layout arithmetic. A scripted click plays a legal point; a failed reload shows
//! the overlay while the game stays playable. Needs `xvfb-run` (`.ci/run` installs it).

mod common;
use common::{copy_dir, copy_game, load_at, start_with, table_game};
use meeple::app::layout::{
    band_split, board_spaces, buildings, jump_point, owner_strip, track_side, track_spaces,
    GridGeom, Layout, Rect,
};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const SIZE: (f32, f32) = (1280.0, 800.0);

/// One X server at a time: parallel `xvfb-run -a` can race for a display number.
static XVFB: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    XVFB.lock().unwrap_or_else(|e| e.into_inner())
}

struct Shot {
    width: usize,
    rgba: Vec<u8>,
}

impl Shot {
    fn load(path: &Path) -> Shot {
        Shot::load_sized(path, SIZE)
    }

    fn load_sized(path: &Path, size: (f32, f32)) -> Shot {
        let file = std::fs::File::open(path).expect("the screenshot exists");
        let mut reader = png::Decoder::new(file).read_info().expect("a PNG");
        let mut rgba = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut rgba).expect("PNG pixels");
        assert_eq!(info.color_type, png::ColorType::Rgba);
        assert_eq!((info.width, info.height), (size.0 as u32, size.1 as u32));
        Shot {
            width: info.width as usize,
            rgba,
        }
    }

    fn at(&self, (x, y): (f32, f32)) -> [u8; 3] {
        let i = (y as usize * self.width + x as usize) * 4;
        [self.rgba[i], self.rgba[i + 1], self.rgba[i + 2]]
    }

    /// Whether some pixel of `r` is one `like` accepts.
    fn any(&self, r: Rect, like: impl Fn([u8; 3]) -> bool) -> bool {
        (0..r.h as usize)
            .any(|dy| (0..r.w as usize).any(|dx| like(self.at((r.x + dx as f32, r.y + dy as f32)))))
    }

    fn assert_near(&self, pos: (f32, f32), want: [u8; 3], what: &str) {
        let got = self.at(pos);
        let close = got.iter().zip(want).all(|(a, b)| a.abs_diff(b) <= 8);
        assert!(close, "{what} at {pos:?}: got {got:?}, want {want:?}");
    }
}

fn hex(c: &str) -> [u8; 3] {
    let b = |i: usize| u8::from_str_radix(&c[i..i + 2], 16).unwrap();
    [b(1), b(3), b(5)]
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `meeple play ARGS --screenshot OUT` under Xvfb.
fn play(args: &[&str], out: &Path) -> Command {
    let mut c = Command::new("xvfb-run");
    c.args([
        "-a",
        "-s",
        "-screen 0 1280x1024x24",
        env!("CARGO_BIN_EXE_meeple"),
        "play",
    ])
    .args(args)
    .args(["--no-watch", "--screenshot"])
    .arg(out)
    .current_dir(repo());
    c
}

fn run(mut c: Command) -> String {
    let _x = one_at_a_time();
    let out: Output = c
        .output()
        .expect("xvfb-run runs (install it: apt-get install xvfb)");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

fn board() -> Layout {
    Layout::new(SIZE.0, SIZE.1)
}

/// Gomoku with `tests/window/gomoku.txt` played, then a click at the centre of the 0-based
/// point `(row, col)` of `g`.
fn gomoku_click(g: &GridGeom, (row, col): (usize, usize), out: &Path) -> Command {
    let (cx, cy) = g.center(row, col);
    let mut c = play(&["gomoku", "--players", "human,human", "--seed", "1"], out);
    c.args(["--actions", "tests/window/gomoku.txt", "--click"])
        .arg(format!("{cx},{cy}"));
    c
}

#[test]
fn gomoku_stones_sit_on_their_points_and_a_click_plays_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("gomoku.png");
    let g = GridGeom::new(board().board, 15, 15, true);
    let said = run(gomoku_click(&g, (9, 9), &out));
    assert!(
        said.contains("played: place at row 10, column 10"),
        "{said}"
    );
    assert!(said.contains("after 5 decisions; P2 to play"), "{said}");
    let shot = Shot::load(&out);
    let black = hex("#111111");
    let white = hex("#f4f4f0");
    let at = |r, c| {
        let (x, y) = g.center(r, c);
        (x + g.step * 0.25, y + g.step * 0.25)
    };
    shot.assert_near(at(7, 7), black, "black stone at (8, 8)");
    shot.assert_near(at(7, 8), white, "white stone at (8, 9)");
    shot.assert_near(at(8, 8), white, "white stone at (9, 9)");
    shot.assert_near(at(9, 9), black, "the clicked stone at (10, 10)");
    shot.assert_near(at(2, 12), hex("#dcb35c"), "an empty point shows the wood");
}

#[test]
fn a_click_on_an_occupied_point_changes_nothing_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("occupied.png");
    let g = GridGeom::new(board().board, 15, 15, true);
    let said = run(gomoku_click(&g, (7, 7), &out));
    assert!(said.contains("(8, 8) is occupied"), "{said}");
    assert!(said.contains("after 4 decisions; P1 to play"), "{said}");
}

/// The hop fixture for two people from seed 1, to a screenshot at `out`.
fn hop(out: &Path) -> Command {
    play(
        &["tests/games/hop", "--players", "human,human", "--seed", "1"],
        out,
    )
}

/// The hop fixture (moves written from and to, placed on the stone they move; a checkered
/// board of cells) with a click at the centre of each 0-based cell `(row, col)` in turn:
/// what it said.
fn hop_click(cells: &[(usize, usize)], out: &Path) -> String {
    let g = GridGeom::new(board().board, 3, 3, false);
    let mut c = hop(out);
    for &(row, col) in cells {
        let (x, y) = g.center(row, col);
        c.arg("--click").arg(format!("{x},{y}"));
    }
    run(c)
}

/// Every other cell is in the style's `checkered` colour, the bottom-left one dark. A stone
/// that can move wears a ring; clicks are made in order: one on that stone offers its moves
/// (and so does a second), one on a cell no move starts from says so (no move of the click's
/// shape is made up).
#[test]
fn a_checkered_board_rings_movable_stones_and_takes_clicks_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("hop.png");
    let said = hop_click(&[(2, 0), (2, 0), (0, 1)], &out);
    let clicks: Vec<&str> = said.lines().filter(|l| l.starts_with("click ")).collect();
    assert_eq!(clicks.len(), 3, "{said}");
    for click in &clicks[..2] {
        assert!(
            click.ends_with(": several options here: pick one on the right"),
            "{said}"
        );
    }
    assert!(
        clicks[2].ends_with(": nothing to do at (1, 2) now"),
        "{said}"
    );
    let g = GridGeom::new(board().board, 3, 3, false);
    let ((x, y), step) = (g.center(2, 0), g.step);
    let shot = Shot::load(&out);
    let corner = |(cx, cy): (f32, f32)| (cx - step * 0.45, cy - step * 0.45);
    shot.assert_near(corner((x, y)), hex("#769656"), "the dark bottom-left cell");
    shot.assert_near(
        corner(g.center(2, 1)),
        hex("#d9e8d2"),
        "a light cell beside it",
    );
    shot.assert_near(
        (x + step * 0.435, y),
        [255, 204, 26],
        "the ring round P1's stone",
    );
    shot.assert_near((x, y), hex("#d62828"), "P1's stone");
    let (p2x, p2y) = g.center(0, 2);
    shot.assert_near(
        (p2x, p2y - step * 0.435),
        hex("#1d4ed8"),
        "no ring round P2's stone",
    );
}

/// A marked stone (`ctx.grid:set_level`, hop's crown) wears a ring inside it; an unmarked one
/// does not.
#[test]
fn a_crowned_stone_wears_a_ring_inside() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("crowned.png");
    let mut c = hop(&out);
    c.args(["--actions", "tests/window/hop_crowned.txt"]);
    run(c);
    let g = GridGeom::new(board().board, 3, 3, false);
    let shot = Shot::load(&out);
    let (x, y) = g.center(0, 0);
    shot.assert_near((x + g.step * 0.275, y), [255, 255, 255], "the crown's ring");
    shot.assert_near(
        (x + g.step * 0.2, y),
        hex("#d62828"),
        "the stone inside the ring",
    );
}

/// On a grid of cells a style's `image` covers the cells exactly: a 3×3 picture's pixels sit
/// each on its cell.
#[test]
fn an_image_on_a_grid_of_cells_lines_up_with_them() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("hop");
    copy_dir(&repo().join("tests/games/hop"), &root);
    std::fs::write(
        root.join("style.toml"),
        "grid = \"cells\"\nimage = \"board.png\"\n",
    )
    .unwrap();
    let pixel = |r: usize, c: usize| [40 + 60 * r as u8, 40 + 60 * c as u8, 200];
    let file = std::fs::File::create(root.join("board.png")).unwrap();
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), 3, 3);
    enc.set_color(png::ColorType::Rgb);
    let data: Vec<u8> = (0..9).flat_map(|i| pixel(i / 3, i % 3)).collect();
    enc.write_header().unwrap().write_image_data(&data).unwrap();
    let out = dir.path().join("image.png");
    run(play(
        &[root.to_str().unwrap(), "--players", "human,human"],
        &out,
    ));
    let g = GridGeom::new(board().board, 3, 3, false);
    let shot = Shot::load(&out);
    // (empty cells no move reaches, so nothing is drawn on them)
    for (r, c) in [(0, 0), (0, 1), (2, 2)] {
        let (x, y) = g.center(r, c);
        shot.assert_near((x, y), pixel(r, c), &format!("cell ({r}, {c})"));
    }
}

/// A step after the game's end stops the run at its line, saying where the game ended.
#[test]
fn a_step_past_the_end_says_where_the_game_ended() {
    let dir = tempfile::tempdir().unwrap();
    let steps = dir.path().join("steps.txt");
    let moves = "place 1 1\nplace 1 2\nplace 2 2\nplace 1 3\nplace 3 3\n\nplace 2 1\n";
    std::fs::write(&steps, moves).unwrap();
    let out = dir.path().join("over.png");
    let mut c = play(
        &["tictactoe", "--players", "human,human", "--seed", "1"],
        &out,
    );
    c.arg("--actions").arg(&steps);
    let _x = one_at_a_time();
    let done = c.output().expect("xvfb-run runs");
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(!done.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{}:7: error: 'place 2 1': the game ended after line 5 (P1 won): \
             remove the lines from here, or undo first",
            steps.display()
        )),
        "{stderr}"
    );
}

#[test]
fn tictactoe_marks_sit_in_their_cells() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tictactoe.png");
    let mut c = play(
        &["tictactoe", "--players", "human,human", "--seed", "1"],
        &out,
    );
    c.args(["--actions", "tests/window/tictactoe.txt"]);
    run(c);
    let shot = Shot::load(&out);
    let g = GridGeom::new(board().board, 3, 3, false);
    let arm = |r, c| {
        let (x, y) = g.center(r, c);
        (x + g.step * 0.15, y + g.step * 0.15)
    };
    shot.assert_near(arm(1, 1), hex("#c62828"), "X in the centre cell");
    shot.assert_near(arm(0, 1), hex("#c62828"), "X on the top edge");
    let (x, y) = g.center(0, 0);
    shot.assert_near(
        (x + g.step * 0.34, y),
        hex("#1565c0"),
        "O's ring in the corner",
    );
    shot.assert_near(g.center(2, 2), hex("#f7f4ea"), "an empty cell");
    let (x, y) = g.center(0, 1);
    let corner = (x + g.step * 0.4, y - g.step * 0.4);
    shot.assert_near(
        corner,
        [229, 25, 25],
        "the last move's dot in its cell's corner",
    );
    // Row numbers in the left margin and column numbers in the top one, none below the grid.
    let (frame, b) = (g.frame(), board().board);
    let beside = |(x, y): (f32, f32), w: f32, h: f32| Rect::new(x - w / 2.0, y - h / 2.0, w, h);
    let margin = frame.x - b.x;
    let has_ink = |shot: &Shot, r: Rect| shot.any(r, |px| px.iter().all(|c| *c < 150));
    let (_, row2) = g.center(1, 0);
    let (col3, _) = g.center(0, 2);
    assert!(
        has_ink(&shot, beside((b.x + margin / 2.0, row2), margin, 40.0)),
        "row 2's number"
    );
    assert!(
        has_ink(&shot, beside((col3, b.y + margin / 2.0), 40.0, margin)),
        "column 3's"
    );
    let below = beside((col3, frame.y + frame.h + margin / 2.0), 40.0, margin - 8.0);
    assert!(!has_ink(&shot, below), "nothing under the grid");
}

/// Connect Four after `tests/window/connect4.txt` (red on row 6 of columns 3 and 4, yellow on
/// top of column 4; yellow to play), then a click at the centre of the 0-based cell
/// `(row, col)`.
fn connect4_click(g: &GridGeom, (row, col): (usize, usize), out: &Path) -> String {
    let (cx, cy) = g.center(row, col);
    let mut c = play(
        &["connect4", "--players", "human,human", "--seed", "1"],
        out,
    );
    c.args(["--actions", "tests/window/connect4.txt", "--click"])
        .arg(format!("{cx},{cy}"));
    run(c)
}

/// A drop names only its column: the rules' `R.spot` puts it on the cell its disc would land
/// on, which is marked while a person is to move and plays it when clicked.
#[test]
fn connect4_a_click_on_the_cell_a_disc_lands_on_drops_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("connect4.png");
    let g = GridGeom::new(board().board, 6, 7, false);
    let said = connect4_click(&g, (5, 4), &out);
    assert!(said.contains(": played: drop into column 5\n"), "{said}");
    assert!(said.contains("after 4 decisions; P1 to play"), "{said}");
    let shot = Shot::load(&out);
    let edge = |r, c| {
        let (x, y) = g.center(r, c);
        (x + g.step * 0.3, y)
    };
    shot.assert_near(
        edge(5, 4),
        hex("#fbc02d"),
        "the yellow disc dropped in column 5",
    );
    shot.assert_near(g.center(5, 4), [229, 25, 25], "the last move's red mark");
    shot.assert_near(edge(5, 2), hex("#d32f2f"), "red in column 3");
    shot.assert_near(edge(4, 3), hex("#fbc02d"), "yellow on top of column 4");
    // Where the next disc of column 1 lands is marked (a darker spot on the blue); above it
    // is plain blue.
    let blue = hex("#1e4fb0");
    assert_ne!(
        shot.at(g.center(5, 0)),
        blue,
        "the cell column 1 plays is marked"
    );
    shot.assert_near(g.center(4, 0), blue, "an empty cell that plays nothing");
}

#[test]
fn connect4_a_click_above_the_landing_cell_plays_nothing_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let g = GridGeom::new(board().board, 6, 7, false);
    let said = connect4_click(&g, (2, 4), &dir.path().join("miss.png"));
    assert!(
        said.contains("nothing to play at (3, 5); the cells that play are marked"),
        "{said}"
    );
    assert!(said.contains("after 3 decisions; P2 to play"), "{said}");
}

/// A saved game keeps its last move: resumed, the window marks the disc dropped last (white on
/// red), although the move named only its column.
#[test]
fn a_resumed_game_marks_its_last_move() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("s.json");
    let mut typed = Command::new(env!("CARGO_BIN_EXE_meeple"));
    typed.args([
        "play",
        "connect4",
        "--players",
        "human,human",
        "--text",
        "--no-watch",
    ]);
    let mut child = (typed
        .current_dir(repo())
        .stdin(Stdio::piped())
        .stdout(Stdio::null()))
    .spawn()
    .unwrap();
    let script = format!("drop 4\ndrop 4\ndrop 3\nsave {}\nquit\n", save.display());
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success());
    let out = dir.path().join("resumed.png");
    run(play(&["--load", save.to_str().unwrap()], &out));
    let g = GridGeom::new(board().board, 6, 7, false);
    let shot = Shot::load(&out);
    shot.assert_near(
        g.center(5, 2),
        [255, 255, 255],
        "the mark on the red disc of column 3",
    );
    shot.assert_near(g.center(5, 3), hex("#d32f2f"), "no mark on the first disc");
}

/// A game won by a line draws the winner's line through the last move when its style says so
/// (`winning_line = true`); a game won some other way has no line to show.
#[test]
fn a_won_game_draws_its_winning_line_only_when_the_style_asks() {
    let (dir, game) = copy_game("connect4", "connect4");
    // P1 fills the bottom row's columns 1 to 4.
    let moves = dir.path().join("win.txt");
    std::fs::write(
        &moves,
        "drop 4\ndrop 4\ndrop 3\ndrop 5\ndrop 2\ndrop 6\ndrop 1\n",
    )
    .unwrap();
    let g = GridGeom::new(board().board, 6, 7, false);
    // Where the bottom row's first two cells meet: the line, else the rack's ink.
    let (x, y) = g.center(5, 0);
    let seam = (x + g.step / 2.0, y);
    let shoot = |name: &str| {
        let out = dir.path().join(name);
        let mut c = play(&[game.to_str().unwrap(), "--players", "human,human"], &out);
        c.arg("--actions").arg(&moves);
        assert!(run(c).contains("after 7 decisions; P1 won"));
        Shot::load(&out).at(seam)
    };
    let lined = shoot("line.png");
    assert!(
        lined.iter().all(|c| *c > 200),
        "a white line on red: {lined:?}"
    );
    let style = game.join("style.toml");
    let text = std::fs::read_to_string(&style).unwrap();
    std::fs::write(
        &style,
        text.replace("winning_line = true", "winning_line = false"),
    )
    .unwrap();
    let plain = shoot("plain.png");
    assert!(
        plain.iter().all(|c| *c < 120),
        "the rack's dark ink: {plain:?}"
    );
    // X fills the top row of tic-tac-toe: a red line on the paper, beside the first X.
    let moves = dir.path().join("x.txt");
    std::fs::write(
        &moves,
        "place 1 1\nplace 2 1\nplace 1 2\nplace 2 2\nplace 1 3\n",
    )
    .unwrap();
    let out = dir.path().join("x.png");
    let mut c = play(&["tictactoe", "--players", "human,human"], &out);
    c.arg("--actions").arg(&moves);
    assert!(run(c).contains("after 5 decisions; P1 won"));
    let g = GridGeom::new(board().board, 3, 3, false);
    let (x, y) = g.center(0, 0);
    Shot::load(&out).assert_near((x + g.step * 0.42, y), [232, 58, 56], "the red line");
}

/// The owner strip of space `i` on an `n`-space track, sampled away from tokens.
fn owner_pixel(n: usize, i: usize) -> (f32, f32) {
    let r = owner_strip(track_spaces(board().board, n)[i], track_side(n, i).0);
    (r.x + r.w * 0.1 + 1.0, r.y + r.h * 0.1 + 1.0)
}

#[test]
fn demo_properties_show_their_owners_colours() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("demo.png");
    let mut c = play(&["monopoly", "--players", "human,ai", "--seed", "7"], &out);
    c.args(["--actions", "tests/window/monopoly_demo.txt"]);
    run(c);
    let shot = Shot::load(&out);
    shot.assert_near(owner_pixel(10, 5), hex("#d62828"), "广州骑楼 owned by P1");
    shot.assert_near(owner_pixel(10, 7), hex("#1d4ed8"), "深圳湾 owned by P2");
    let free = track_spaces(board().board, 10)[9];
    shot.assert_near(
        (free.x + free.w - 3.0, free.y + 3.0),
        hex("#faf7ed"),
        "杭州西湖 unowned",
    );
    // The price under 北京胡同 ("¥100") is drawn: dark ink in its lower part.
    let r = track_spaces(board().board, 10)[1];
    let ink = (0..r.w as usize)
        .flat_map(|dx| (0..(r.h * 0.3) as usize).map(move |dy| (dx, dy)))
        .filter(|(dx, dy)| {
            let p = shot.at((r.x + *dx as f32, r.y + r.h * 0.62 + *dy as f32));
            p.iter().all(|c| *c < 140)
        })
        .count();
    assert!(ink > 20, "the price text has ink ({ink} dark pixels)");
}

#[test]
fn classic_properties_show_their_owners_colours() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("classic.png");
    let mut c = play(
        &[
            "monopoly",
            "--map",
            "classic",
            "--players",
            "human,ai,ai,ai",
            "--seed",
            "3",
        ],
        &out,
    );
    c.args(["--actions", "tests/window/monopoly_classic.txt"]);
    run(c);
    let shot = Shot::load(&out);
    shot.assert_near(
        owner_pixel(40, 9),
        hex("#d62828"),
        "Connecticut Avenue owned by P1",
    );
    shot.assert_near(
        owner_pixel(40, 5),
        hex("#1d4ed8"),
        "Reading Railroad owned by P2",
    );
    shot.assert_near(
        owner_pixel(40, 6),
        hex("#e9a100"),
        "Oriental Avenue owned by P4",
    );
    // The strip also says the owner's number, in white: a colour alone can be a group's.
    let strip = owner_strip(track_spaces(board().board, 40)[6], track_side(40, 6).0);
    let white = shot.any(strip, |[a, b, c]| a > 220 && b > 220 && c > 220);
    assert!(white, "a number in P4's strip");
}

#[test]
fn the_font_covers_every_name_and_mixed_cjk_and_digits() {
    let bytes = std::fs::read(repo().join("assets/fonts/wqy-microhei.ttc")).unwrap();
    let face = ttf_parser::Face::parse(&bytes, 0).expect("the bundled font parses");
    let mut text = String::from("北京胡同 ¥200 $1500 P1 → · ●");
    for game in ["monopoly", "gomoku", "tictactoe"] {
        for entry in std::fs::read_dir(repo().join("games").join(game).join("maps")).unwrap() {
            text.push_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap());
        }
    }
    let missing: Vec<char> = text
        .chars()
        .filter(|c| !c.is_control() && face.glyph_index(*c).is_none())
        .collect();
    assert!(missing.is_empty(), "no glyph for {missing:?}");
}

#[test]
fn a_failed_reload_shows_the_overlay_and_the_game_stays_playable() {
    let (dir, game) = copy_game("gomoku", "gomoku");
    let out = dir.path().join("reload.png");
    let mut c = play(&[game.to_str().unwrap(), "--players", "human,human"], &out);
    c.args(["--actions", "tests/window/reload.txt"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let _x = one_at_a_time();
    let mut child = c.spawn().expect("xvfb-run runs");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let waiting = lines
        .by_ref()
        .map_while(Result::ok)
        .find(|l| l.starts_with("waiting"));
    assert!(waiting.is_some(), "the run waits for the edit");
    let rules = game.join("rules.lua");
    let text = std::fs::read_to_string(&rules).unwrap();
    std::fs::write(&rules, text.replace("local R = {}", "local R = {} +")).unwrap();
    writeln!(child.stdin.take().unwrap()).unwrap();
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    assert!(child.wait().unwrap().success(), "{rest:?}");
    assert!(
        rest.iter()
            .any(|l| l.contains("after 2 decisions; P1 to play")),
        "the second stone was played under the last good rules: {rest:?}"
    );
    let shot = Shot::load(&out);
    let b = board().board;
    let [r, g, bl] = shot.at((b.x + 14.0, b.y + 40.0));
    assert!(
        r > 70 && g < 40 && bl < 40,
        "the overlay shows: {:?}",
        [r, g, bl]
    );
    let grid = GridGeom::new(b, 15, 15, true);
    let (x, y) = grid.center(7, 8);
    shot.assert_near(
        (x + grid.step * 0.25, y),
        hex("#f4f4f0"),
        "the white stone after the failed reload",
    );
}

/// When the rules reload but the style fails, the new rules are live (the record notes them,
/// and the overlay says the look kept the old style) while the game plays on.
#[test]
fn a_reload_whose_style_fails_still_swaps_the_rules_and_notes_them() {
    let (dir, game) = copy_game("gomoku", "gomoku");
    let out = dir.path().join("style.png");
    let record = dir.path().join("r.json");
    let mut c = play(&[game.to_str().unwrap(), "--players", "human,human"], &out);
    c.args(["--actions", "tests/window/reload.txt", "--record"])
        .arg(&record)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let _x = one_at_a_time();
    let mut child = c.spawn().expect("xvfb-run runs");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let waiting = (lines.by_ref())
        .map_while(Result::ok)
        .find(|l| l.starts_with("waiting"));
    assert!(waiting.is_some(), "the run waits for the edit");
    let edit = |file: &str, from: &str, to: &str| {
        let text = std::fs::read_to_string(game.join(file)).unwrap();
        assert!(text.contains(from), "{file}: {from}");
        std::fs::write(game.join(file), text.replacen(from, to, 1)).unwrap();
    };
    edit("rules.lua", "local R = {}", "local R = {}\nR.edited = true");
    edit("style.toml", "board = \"", "board = \"#zz");
    writeln!(child.stdin.take().unwrap()).unwrap();
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    assert!(child.wait().unwrap().success(), "{rest:?}");
    assert!(
        rest.iter().any(|l| l.contains("after 2 decisions")),
        "{rest:?}"
    );
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(
        saved["reloads"][0]["after_step"], 1,
        "the record notes the new rules: {saved}"
    );
    let shot = Shot::load(&out);
    let b = board().board;
    let [r, g, bl] = shot.at((b.x + 14.0, b.y + 40.0));
    assert!(
        r > 70 && g < 40 && bl < 40,
        "the overlay shows: {:?}",
        [r, g, bl]
    );
}

#[test]
fn a_hotel_stands_on_its_space() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("houses.png");
    let mut c = play(&["monopoly", "--players", "human,ai", "--seed", "13"], &out);
    c.args(["--actions", "tests/window/monopoly_houses.txt"]);
    let said = run(c);
    assert!(said.contains("after 30 decisions"), "{said}");
    let shot = Shot::load(&out);
    let l = board();
    let space = track_spaces(l.board, 10)[1];
    let side = track_side(10, 1).0;
    let hotel = buildings(band_split(space, side).0, side, 5, l.scale)[0];
    shot.assert_near(hotel.center(), [204, 25, 25], "the hotel on 北京胡同");
    shot.assert_near(owner_pixel(10, 1), hex("#d62828"), "北京胡同 owned by P1");
    // 上海弄堂 stands on a corner: its group band and its hotel are drawn there too.
    let (corner, (side, is_corner)) = (track_spaces(l.board, 10)[3], track_side(10, 3));
    assert!(is_corner);
    let band = band_split(corner, side).0;
    let hotel = buildings(band, side, 5, l.scale)[0];
    shot.assert_near(hotel.center(), [204, 25, 25], "the hotel on 上海弄堂");
    let below = (band.center().0, band.y + band.h - 4.0);
    shot.assert_near(below, hex("#c0392b"), "上海弄堂's group band");
}

#[test]
fn the_layout_scales_with_the_window() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("small.png");
    let mut c = play(&["gomoku", "--players", "human,human", "--seed", "1"], &out);
    c.args(["--actions", "tests/window/gomoku.txt", "--size", "1024x640"]);
    run(c);
    let shot = Shot::load_sized(&out, (1024.0, 640.0));
    let l = Layout::new(1024.0, 640.0);
    assert!((l.scale - 0.8).abs() < 1e-6);
    let g = GridGeom::new(l.board, 15, 15, true);
    let (x, y) = g.center(7, 7);
    let off = g.step * 0.25;
    shot.assert_near((x + off, y + off), hex("#111111"), "black stone at (8, 8)");
    let (x, y) = g.center(7, 8);
    shot.assert_near((x + off, y + off), hex("#f4f4f0"), "white stone at (8, 9)");
}

/// Dark pixels of `r`, cropped to their bounding box: (width, height, mask).
fn ink(shot: &Shot, r: meeple::app::layout::Rect) -> (usize, usize, Vec<bool>) {
    let dark = |x: usize, y: usize| {
        shot.at((r.x + x as f32, r.y + y as f32))
            .iter()
            .all(|c| *c < 120)
    };
    let (w, h) = (r.w as usize - 4, r.h as usize - 4);
    let pts: Vec<(usize, usize)> = (2..w)
        .flat_map(|x| (2..h).map(move |y| (x, y)))
        .filter(|(x, y)| dark(*x, *y))
        .collect();
    assert!(!pts.is_empty(), "no ink in {r:?}");
    let x0 = pts.iter().map(|p| p.0).min().unwrap();
    let y0 = pts.iter().map(|p| p.1).min().unwrap();
    let x1 = pts.iter().map(|p| p.0).max().unwrap();
    let y1 = pts.iter().map(|p| p.1).max().unwrap();
    let (cw, ch) = (x1 - x0 + 1, y1 - y0 + 1);
    let mut mask = vec![false; cw * ch];
    for (x, y) in pts {
        mask[(y - y0) * cw + (x - x0)] = true;
    }
    (cw, ch, mask)
}

#[test]
fn names_mixing_cjk_and_digits_are_drawn_with_glyphs_not_boxes() {
    // Two spaces of the same size and side named alike but for one digit: drawn with boxes
    // for the digits (a font without them) their ink would be identical.
    let (dir, game) = copy_game("monopoly", "mono");
    let map = game.join("maps/demo.toml");
    let text = std::fs::read_to_string(&map).unwrap();
    let guangzhou = "name = \"广州骑楼\"\nkind = \"property\"\ngroup = \"south\"\n\
        data = { price = 240, house_cost = 150, rent = [25, 200, 550, 1300, 1700, 2100] }";
    assert!(text.contains(guangzhou));
    let text = text
        .replace(
            guangzhou,
            "name = \"北京胡同 ¥200\"\nkind = \"tax\"\ndata = { amount = 100 }",
        )
        .replace("name = \"所得税\"", "name = \"北京胡同 ¥800\"");
    std::fs::write(&map, text).unwrap();
    let out = dir.path().join("names.png");
    run(play(
        &[game.to_str().unwrap(), "--players", "human,ai"],
        &out,
    ));
    let shot = Shot::load(&out);
    let spaces = track_spaces(board().board, 10);
    let (a, b) = (ink(&shot, spaces[5]), ink(&shot, spaces[4]));
    assert_eq!((a.0, a.1), (b.0, b.1), "the same text layout");
    let differ = a.2.iter().zip(&b.2).filter(|(x, y)| x != y).count();
    assert!(
        differ > 10,
        "'2' and '8' look the same ({differ} pixels differ)"
    );
}

/// The table as the window lays it out: four seats, the viewer (P1) at the bottom, three
/// per-seat zones (hand, melds, discards).
fn mahjong_band(seat: usize, zone: usize) -> meeple::app::layout::Rect {
    use meeple::app::seating::TableGeom;
    TableGeom::new(board().board, 4, 0).band(seat, zone, 3)
}

/// Whether some pixel inside `r` (its middle half) is dark: the ink of a tile's name.
fn has_ink(shot: &Shot, r: Rect) -> bool {
    let middle = Rect::new(r.x + r.w * 0.25, r.y + r.h * 0.25, r.w * 0.5, r.h * 0.5);
    shot.any(middle, |[a, b, c]| (a as u32 + b as u32 + c as u32) < 200)
}

/// Seed 4 against three AIs after `tests/window/mahjong.txt`, then a click at `x, y`; what
/// the run printed (the screenshot goes to `out`).
fn mahjong_click(x: f32, y: f32, out: &Path) -> String {
    let mut c = play(
        &["mahjong", "--players", "human,ai,ai,ai", "--seed", "4"],
        out,
    );
    c.args(["--actions", "tests/window/mahjong.txt", "--click"])
        .arg(format!("{x},{y}"));
    run(c)
}

/// A click on one of your melded tiles (the same tile is in your hand too) is not a discard:
/// it says there is nothing to play with it, naming the tile, rather than inviting a second
/// click.
#[test]
fn mahjong_a_click_on_a_melded_tile_does_nothing_and_says_so() {
    use meeple::app::seating::{tiles, Side};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("mahjong.png");
    let max_w = board().board.w / 15.0;
    let (cx, cy) = tiles(mahjong_band(0, 1), Side::Bottom, 3, max_w)[0].center();
    let said = mahjong_click(cx, cy, &out);
    assert!(
        said.contains(&format!("click {cx},{cy}: nothing to play with 1饼 now")),
        "{said}"
    );
}

#[test]
fn mahjong_shows_your_tiles_face_up_the_others_face_down_names_piles_and_a_click_discards() {
    use meeple::app::seating::{tiles, Side};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("mahjong.png");
    let max_w = board().board.w / 15.0;
    let hand = tiles(mahjong_band(0, 0), Side::Bottom, 11, max_w);
    let (cx, cy) = hand[0].center();
    let said = mahjong_click(cx, cy, &out);
    assert!(said.contains("played: discard 3万"), "{said}");
    let shot = Shot::load(&out);
    // P1's pung of 1饼 lies face up in its melds band, with its name drawn in ink.
    let meld = tiles(mahjong_band(0, 1), Side::Bottom, 3, max_w)[0];
    shot.assert_near(
        (meld.x + 3.0, meld.y + 3.0),
        [246, 241, 227],
        "a face-up tile",
    );
    assert!(has_ink(&shot, meld), "the tile's name is drawn");
    // P3, across the table, holds 13 tiles face down: backs, no names.
    let across = tiles(mahjong_band(2, 0), Side::Top, 13, board().board.w / 24.0)[0];
    shot.assert_near(
        (across.x + 3.0, across.y + 3.0),
        [51, 115, 158],
        "a face-down tile",
    );
    assert!(!has_ink(&shot, across), "a face-down tile shows no name");
    // Each seat's piles are named with their counts after their last tile (`melds × 3`), in
    // light ink on the table; the table beyond is bare.
    let last = tiles(mahjong_band(0, 1), Side::Bottom, 3, max_w)[2];
    let light = |r: Rect| shot.any(r, |[a, b, c]| a as u32 + b as u32 + c as u32 > 450);
    let caption = Rect::new(last.x + last.w + 4.0, last.y, 70.0, last.h);
    assert!(light(caption), "a caption beside P1's melds");
    let beyond = Rect::new(caption.x + 90.0, last.y, 60.0, last.h);
    assert!(!light(beyond), "nothing further along the row");
}

/// The card game in `dir` (from the repository) for `seats` from `seed`: the game as the
/// library starts it, and where the window lays out the cards and the shared piles for P1.
fn card_table(
    dir: &str,
    seats: usize,
    seed: u64,
) -> (
    meeple::engine::Game,
    Vec<meeple::app::seating::Placed>,
    Vec<Rect>,
) {
    use meeple::app::seating::{placed, TableGeom};
    use meeple::app::tableview::TableView;
    let game = start_with(&load_at(&repo().join(dir)), "table", seats, seed, &[]);
    let view = TableView::read(&game, &game.world().unwrap(), Some(0));
    let b = board().board;
    let bands = view.seat_zones().count();
    let (tiles, shared) = placed(b, &TableGeom::new(b, seats, 0), bands, &view);
    (game, tiles, shared.iter().map(|s| s.band).collect())
}

/// Crazy Eights (`tests/fixtures/eights`) for a person against an AI from `seed`.
fn eights(
    seed: u64,
) -> (
    meeple::engine::Game,
    Vec<meeple::app::seating::Placed>,
    Vec<Rect>,
) {
    card_table("tests/fixtures/eights", 2, seed)
}

/// The first seed from which P1 opens with an option of `verb`.
fn eights_seed(verb: &str) -> u64 {
    (0..200)
        .find(|s| {
            let game = eights(*s).0;
            let p = game.pending().unwrap();
            p.options().iter().any(|o| o.verb == verb)
        })
        .unwrap()
}

/// The face-up or face-down card on top of a shared pile's stack, drawn in `band`.
fn stack_tile(band: Rect) -> Rect {
    let w = 34.0 * board().scale;
    let (cx, cy) = band.center();
    Rect::new(cx - w * 2.2, cy - w * 0.67, w, w * 1.35)
}

fn eights_click(seed: u64, (x, y): (f32, f32), out: &Path) -> String {
    let seed = seed.to_string();
    let args = [
        "tests/fixtures/eights",
        "--players",
        "human,ai",
        "--seed",
        &seed,
    ];
    let mut c = play(&args, out);
    c.arg("--click").arg(format!("{x},{y}"));
    run(c)
}

#[test]
fn eights_shows_the_top_discard_face_up_and_a_click_plays_a_card_from_the_hand() {
    let seed = eights_seed("play");
    let (game, tiles, bands) = eights(seed);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("eights.png");
    run(play(
        &[
            "tests/fixtures/eights",
            "--players",
            "human,ai",
            "--seed",
            &seed.to_string(),
        ],
        &out,
    ));
    let shot = Shot::load(&out);
    let (stock, discards) = (stack_tile(bands[0]), stack_tile(bands[1]));
    shot.assert_near(
        (stock.x + 3.0, stock.y + 3.0),
        [51, 115, 158],
        "the stock face down",
    );
    assert!(!has_ink(&shot, stock), "a face-down card shows no name");
    let top = (discards.x + 3.0, discards.y + 3.0);
    shot.assert_near(top, [246, 241, 227], "the top discard face up");
    assert!(has_ink(&shot, discards), "the top discard's name is drawn");
    let theirs = tiles.iter().find(|t| t.seat == 1).unwrap();
    assert_eq!(theirs.face, None, "P2's cards are face down");
    // The first playable card, clicked in P1's hand, is played.
    let first = game.pending().unwrap().options()[0].clone();
    let code = match first.args[0] {
        meeple::core::action::Arg::Int(c) => c,
        _ => panic!("a card code"),
    };
    let card = tiles
        .iter()
        .find(|t| t.seat == 0 && t.face == Some(code))
        .unwrap();
    let said = eights_click(seed, card.rect.center(), &out);
    let name = game.pkg.item_name(code);
    assert!(said.contains(&format!("played: play {name}")), "{said}");
}

#[test]
fn eights_a_click_on_the_stock_draws_when_no_card_can_be_played() {
    let seed = eights_seed("draw");
    let (_, _, bands) = eights(seed);
    let dir = tempfile::tempdir().unwrap();
    let said = eights_click(seed, bands[0].center(), &dir.path().join("draw.png"));
    assert!(said.contains("played: draw"), "{said}");
}

/// Hearts for a person against three AIs from seed 3, with `clicks` in order: what the run
/// printed.
fn hearts_clicks(clicks: &[(f32, f32)], out: &Path) -> String {
    hearts_after(&[], clicks, out)
}

/// Hearts from seed 3 after the steps of `actions` (extra arguments), then `clicks`.
fn hearts_after(actions: &[&str], clicks: &[(f32, f32)], out: &Path) -> String {
    let args = ["hearts", "--players", "human,ai,ai,ai", "--seed", "3"];
    let mut c = play(&[&args[..], actions].concat(), out);
    for (x, y) in clicks {
        c.arg("--click").arg(format!("{x},{y}"));
    }
    run(c)
}

/// Three cards to pass are picked by clicking them: each pick is lifted and says how many
/// options take the cards picked so far; a picked card clicked again is put back; a card no
/// option takes with the picked ones is refused; the one option the three make gets a
/// button, which passes them.
#[test]
fn hearts_three_cards_are_picked_one_by_one_and_passed_by_their_button() {
    let (game, tiles, _) = card_table("games/hearts", 4, 3);
    let zone = game
        .pkg
        .zones
        .iter()
        .position(|z| z.name == "hand")
        .unwrap();
    let hand: Vec<_> = tiles
        .iter()
        .filter(|t| (t.seat, t.zone) == (0, zone))
        .collect();
    let card = |n: usize| hand[n].rect.center();
    let name = |n: usize| game.pkg.item_label(hand[n].face.unwrap());
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("picked.png");
    let said = hearts_clicks(&[card(0), card(1), card(0), card(0), card(2)], &out);
    let lines: Vec<&str> = said.lines().filter(|l| l.starts_with("click ")).collect();
    let (a, b, c) = (name(0), name(1), name(2));
    let want = [
        format!("picked {a}: 66 options take them; pick more"),
        format!("picked {a} {b}: 11 options take them; pick more"),
        format!("put back {a}"),
        format!("picked {b} {a}: 11 options take them; pick more"),
        format!("picked {b} {a} {c}: its button plays it"),
    ];
    assert_eq!(lines.len(), want.len(), "{said}");
    for (line, want) in lines.iter().zip(&want) {
        assert!(line.ends_with(want.as_str()), "{line}: want {want}");
    }
    // The picked cards stand lifted above the row; the others stay in it.
    let shot = Shot::load(&out);
    let lifted = |n: usize| {
        let r = hand[n].rect;
        (r.x + r.w / 2.0, r.y - r.h * 0.3 + 4.0)
    };
    let face = shot.at(lifted(2));
    assert!(
        face.iter().all(|c| *c > 170),
        "a picked card, lifted: {face:?}"
    );
    shot.assert_near(
        lifted(3),
        hex("#2f6b4f"),
        "the felt above a card not picked",
    );
    // The one option of the three has a button (its place printed); a fourth card is refused.
    let button = said
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix(&format!("button 'pass {a} {b} {c}' at "))
        })
        .unwrap_or_else(|| panic!("the pass button: {said}"));
    let (x, y) = button.split_once(',').unwrap();
    let button = (x.parse().unwrap(), y.parse().unwrap());
    let clicks = [card(0), card(1), card(2), card(3), button];
    let said = hearts_clicks(&clicks, &dir.path().join("passed.png"));
    let d = name(3);
    assert!(
        said.contains(&format!(
            ": no option takes {d} with {a} {b} {c}; click a picked one to put it back"
        )),
        "{said}"
    );
    assert!(
        said.contains(&format!(": played: pass {a} {b} {c}")),
        "{said}"
    );
}

/// A click on a card that may not be played now asks the rules why, naming the card as the
/// options do (`play 5S`): after the pass, P1 must follow the clubs led.
#[test]
fn hearts_a_click_on_a_card_that_may_not_follow_says_the_rules_reason() {
    let (_, tiles, _) = card_table("games/hearts", 4, 3);
    let hand: Vec<_> = tiles
        .iter()
        .filter(|t| (t.seat, t.zone) == (0, 1))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let actions = ["--actions", "tests/window/hearts_pass.txt"];
    // The fifth card of the hand after the pass (13 cards again, laid out as before): a spade.
    let said = hearts_after(
        &actions,
        &[hand[4].rect.center()],
        &dir.path().join("why.png"),
    );
    let click = said
        .lines()
        .find(|l| l.starts_with("click "))
        .unwrap_or_default();
    assert!(
        click.contains(": rejected: 'play ")
            && click.ends_with("♠' is not allowed: you must follow suit"),
        "{said}"
    );
}

/// Two copies of a tile are two picks: the copy clicked is the one lifted, and the one a
/// second click puts back, wherever the copies lie in the hand (`a a b c a`), and a lifted
/// tile answers a click where it stands.
#[test]
fn copies_of_a_tile_are_picked_and_put_back_one_by_one() {
    use meeple::app::seating::{placed, TableGeom};
    use meeple::app::tableview::TableView;
    let dir = tempfile::tempdir().unwrap();
    let manifest = "players = { min = 1, max = 1 }\nitems = [\"a\", \"b\", \"c\"]\n\
                    [zones]\nhand = { visibility = \"owner\", per_seat = true }\n\
                    [flow]\nstart = \"turn\"\n[flow.states]\n\
                    turn = { next = [\"over\"], decide = true }\nover = { final = true }\n";
    let rules = "local R = { states = {} }\n\
                 function R.setup(G, ctx) ctx.zone.hand[1]:add(0, 0, 1, 2, 0) end\n\
                 R.states.turn = {\n\
                 \x20 options = function() return { { \"pair\" }, { \"triple\" } } end,\n\
                 \x20 act = function() return \"over\" end,\n}\n\
                 function R.spot(G, ctx, o)\n\
                 \x20 if o[1] == \"pair\" then return \"hand\", 0, 0 end\n\
                 \x20 return \"hand\", 0, 0, 0\nend\nreturn R\n";
    let game = table_game(dir.path(), "dup", manifest, &[("rules.lua", rules)]);
    let g = start_with(&load_at(&game), "table", 1, 1, &[]);
    let view = TableView::read(&g, &g.world().unwrap(), Some(0));
    let b = board().board;
    let (tiles, _) = placed(b, &TableGeom::new(b, 1, 0), 1, &view);
    let at = |i: usize| tiles.iter().find(|t| t.index == i).unwrap().rect;
    let centre = |i: usize| at(i).center();
    let lifted = |i: usize| {
        let r = at(i);
        (r.x + r.w / 2.0, r.y - r.h * 0.2)
    };
    let out = dir.path().join("dup.png");
    let path = game.display().to_string();
    let mut c = play(&[path.as_str(), "--players", "human"], &out);
    for (x, y) in [centre(4), lifted(4), centre(0), centre(4), lifted(0)] {
        c.arg("--click").arg(format!("{x},{y}"));
    }
    let said = run(c);
    let clicks: Vec<&str> = said.lines().filter(|l| l.starts_with("click ")).collect();
    let want = [
        "picked a: 2 options take them; pick more",
        "put back a",
        "picked a: 2 options take them; pick more",
        "picked a a: a button plays them, or pick more",
        "put back a",
    ];
    assert_eq!(clicks.len(), want.len(), "{said}");
    for (click, want) in clicks.iter().zip(want) {
        assert!(click.ends_with(want), "{click}: want {want}");
    }
    // The fifth tile stands lifted; above the first, back in its row, is the table.
    let shot = Shot::load(&out);
    let table = shot.at((b.x + b.w - 20.0, lifted(0).1));
    assert_ne!(shot.at(lifted(4)), table, "the last a stands lifted");
    shot.assert_near(lifted(0), table, "the table above the first a");
}

/// Every screenshot command docs/playing.md lists (after "The screenshots above come from
/// these commands") still runs: its scripted actions are legal in today's games, and it saves
/// its picture.
#[test]
fn the_documented_screenshot_commands_run() {
    let doc = std::fs::read_to_string(repo().join("docs/playing.md")).expect("docs/playing.md");
    let from = doc
        .find("The screenshots above come from these commands")
        .expect("the screenshot commands in docs/playing.md");
    let commands: Vec<&str> = doc[from..]
        .lines()
        .skip_while(|l| !l.starts_with("```sh"))
        .skip(1)
        .take_while(|l| !l.starts_with("```"))
        .collect();
    assert_eq!(commands.len(), 7, "{commands:?}");
    let dir = tempfile::tempdir().unwrap();
    for (i, line) in commands.iter().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let shot = words.iter().position(|w| *w == "--screenshot");
        let (Some(at), ["meeple", "play", ..]) = (shot, &words[..]) else {
            panic!("not a `meeple play … --screenshot FILE` command: {line}");
        };
        let out = dir.path().join(format!("{i}.png"));
        let args: Vec<&str> = [&words[2..at], &words[at + 2..]].concat();
        let said = run(play(&args, &out));
        let saved = format!("screenshot {} (1280x800) after ", out.display());
        assert!(said.contains(&saved), "{line}:\n{said}");
        Shot::load(&out);
    }
}

/// A table with no shared pile (a dice game) shows the map's name and the last roll in its
/// middle, as a board does.
#[test]
fn a_dice_game_on_a_table_shows_its_roll() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = "players = { min = 2, max = 2 }\n\
                    [flow]\nstart = \"turn\"\n[flow.states]\n\
                    turn = { next = [\"turn\", \"over\"], decide = true }\n\
                    over = { final = true }\n";
    let rules = "local R = { states = {} }\n\
                 R.states.turn = {\n  options = function() return { { \"roll\" } } end,\n  \
                 act = function(G, ctx) ctx.dice:roll(\"1d6\") end,\n}\nreturn R\n";
    let game = table_game(dir.path(), "pig", manifest, &[("rules.lua", rules)]);
    let out = dir.path().join("pig.png");
    let moves = dir.path().join("moves.txt");
    std::fs::write(&moves, "roll\n").unwrap();
    let path = game.display().to_string();
    let mut c = play(&[path.as_str(), "--players", "human,human"], &out);
    c.arg("--actions").arg(&moves);
    run(c);
    let shot = Shot::load(&out);
    let l = board();
    let middle = meeple::app::seating::TableGeom::new(l.board, 2, 0).center;
    let size = (middle.w * 0.14).min(70.0 * l.scale);
    let (cx, cy) = middle.center();
    // The die's top edge, between any pips.
    shot.assert_near((cx, cy + size * 0.3), [255, 255, 255], "the die");
}

/// A space's jump is an arrow across the middle: green up a ladder, red down a chute (each
/// looked at away from where they cross).
#[test]
fn jumps_are_drawn_as_arrows_green_forward_and_red_back() {
    let out = std::env::temp_dir().join("meeple-window-chutes.png");
    run(play(
        &["tests/games/chutes", "--players", "human,human"],
        &out,
    ));
    let shot = Shot::load(&out);
    let l = board();
    let rects = board_spaces(l.board, 12, false);
    let [r, g, b] = shot.at(jump_point(l.board, rects[3], rects[8], 0.75, false));
    assert!(
        g > r + 40 && g > b + 40,
        "the ladder from 3 to 8: {:?}",
        [r, g, b]
    );
    let [r, g, b] = shot.at(jump_point(l.board, rects[10], rects[4], 0.25, false));
    assert!(
        r > g + 60 && r > b + 60,
        "the chute from 10 to 4: {:?}",
        [r, g, b]
    );
}

/// A face-up shared pile shows its items as readable tiles, named above them: none is drawn
/// smaller than a stack's top tile while few lie there.
#[test]
fn a_face_up_shared_pile_shows_its_items_at_full_size() {
    use meeple::app::seating::{placed, shared_tiles, TableGeom};
    use meeple::app::tableview::TableView;
    let dir = tempfile::tempdir().unwrap();
    let manifest = "players = { min = 2, max = 2 }\nitems = [\"A\", \"B\", \"C\"]\n\
                    [zones]\nheap = { visibility = \"public\" }\n\
                    [flow]\nstart = \"turn\"\n[flow.states]\n\
                    turn = { next = [\"turn\", \"over\"], decide = true }\n\
                    over = { final = true }\n";
    let rules = "local R = { states = {} }\n\
                 function R.setup(G, ctx) ctx.zone.heap:add(0, 2) end\n\
                 R.states.turn = {\n  options = function() return { { \"wait\" } } end,\n  \
                 act = function() end,\n}\nreturn R\n";
    let game = table_game(dir.path(), "heap", manifest, &[("rules.lua", rules)]);
    let out = dir.path().join("heap.png");
    let path = game.display().to_string();
    run(play(&[path.as_str(), "--players", "human,human"], &out));
    let shot = Shot::load(&out);
    let g = start_with(&load_at(&game), "table", 2, 1, &[]);
    let view = TableView::read(&g, &g.world().unwrap(), Some(0));
    let l = board();
    let (_, shared) = placed(l.board, &TableGeom::new(l.board, 2, 0), 0, &view);
    let (_, tiles) = shared_tiles(shared[0].band, 2, 34.0 * l.scale);
    assert_eq!(tiles.len(), 2);
    assert!((tiles[0].w - 34.0 * l.scale).abs() < 0.01, "{:?}", tiles[0]);
    for t in &tiles {
        shot.assert_near((t.x + 3.0, t.y + 3.0), [246, 241, 227], "a face-up tile");
        assert!(has_ink(&shot, *t), "its name is drawn");
    }
}
