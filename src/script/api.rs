//! `ctx`: the table rules use to read and change the runtime's components. Seats and space
//! indices are 1-based in Lua. Static data (settings, spaces, cards) are plain tables built
//! once. The parts backed by the generator and decks (dice, random, deck draws) and the outcome
//! are Rust functions here; turn order, tokens, owners, levels and counters are installed by
//! `prelude.lua` over the live state it keeps in Lua (fast to read from rules).

use super::host::api_error;
use super::method::This;
use crate::core::event::{Event, Outcome};
use crate::core::live::Live;
use crate::def::board::Board;
use crate::def::cards::{fill, shown};
use crate::def::items::Items;
use mlua::{Function, Lua, Table, Value, Variadic};
use std::cell::RefCell;
use std::rc::Rc;

type W = Rc<RefCell<Live>>;

pub fn build_ctx(
    lua: &Lua,
    board: &Board,
    settings: &toml::Table,
    melds: Option<&crate::core::meld::Shapes>,
    world: W,
) -> mlua::Result<Table> {
    let ctx = lua.create_table()?;
    ctx.raw_set(
        "settings",
        toml_to_lua(lua, &toml::Value::Table(settings.clone()))?,
    )?;
    let map = lua.create_table()?;
    map.raw_set("id", board.id.as_str())?;
    map.raw_set("name", board.name.as_str())?;
    map.raw_set("kind", board.kind.as_str())?;
    ctx.raw_set("map", map)?;
    add_outcome_api(lua, &ctx, &world)?;
    let dice = lua.create_table()?;
    super::rawdice::install(lua, &dice, &world)?;
    ctx.raw_set("dice", dice)?;
    ctx.raw_set("random", random_api(lua, &world)?)?;
    ctx.raw_set("board", board_api(lua, board)?)?;
    let size = board
        .grid_size(settings)
        .map_err(mlua::Error::RuntimeError)?;
    ctx.raw_set("grid", super::grid::grid_api(lua, &world, size)?)?;
    let (decks_static, deck_api) = deck_api(lua, board, settings, &world)?;
    ctx.raw_set("decks", decks_static)?;
    ctx.raw_set("deck", deck_api)?;
    ctx.raw_set("melds", super::melds::melds_api(lua, melds)?)?;
    Ok(ctx)
}

/// Converts a TOML value to a Lua value (tables for arrays and tables).
pub fn toml_to_lua(lua: &Lua, v: &toml::Value) -> mlua::Result<Value> {
    Ok(match v {
        toml::Value::String(s) => Value::String(lua.create_string(s)?),
        toml::Value::Integer(i) => Value::Integer(*i),
        toml::Value::Float(f) => Value::Number(*f),
        toml::Value::Boolean(b) => Value::Boolean(*b),
        toml::Value::Datetime(d) => Value::String(lua.create_string(d.to_string())?),
        toml::Value::Array(items) => {
            let t = lua.create_table()?;
            for (i, item) in items.iter().enumerate() {
                t.raw_set(i + 1, toml_to_lua(lua, item)?)?;
            }
            Value::Table(t)
        }
        toml::Value::Table(map) => {
            let t = lua.create_table()?;
            for (k, item) in map {
                t.raw_set(k.as_str(), toml_to_lua(lua, item)?)?;
            }
            Value::Table(t)
        }
    })
}

fn seat(lua: &Lua, w: &Live, p: i64) -> mlua::Result<usize> {
    if p >= 1 && (p as usize) <= w.seats {
        Ok(p as usize - 1)
    } else {
        Err(api_error(
            lua,
            format!("seat {p} out of range (1..{})", w.seats),
        ))
    }
}

/// The outcome functions: a win or a draw ends the game.
fn add_outcome_api(lua: &Lua, ctx: &Table, world: &W) -> mlua::Result<()> {
    let w = world.clone();
    ctx.raw_set(
        "win",
        lua.create_function(move |lua, (_, ps): (This, Variadic<i64>)| {
            if ps.is_empty() {
                let message = "ctx:win names the winning seats (ctx:win(1)); with no winner, \
                               the game ends with ctx:draw()";
                return Err(api_error(lua, message.into()));
            }
            let mut w = w.borrow_mut();
            let winners = ps
                .iter()
                .map(|p| seat(lua, &w, *p))
                .collect::<mlua::Result<Vec<_>>>()?;
            w.finish(Outcome::Won { winners });
            Ok(())
        })?,
    )?;
    let w = world.clone();
    ctx.raw_set(
        "draw",
        lua.create_function(move |_, _: This| {
            w.borrow_mut().finish(Outcome::Draw);
            Ok(())
        })?,
    )?;
    Ok(())
}

/// Functions the Lua side of the components calls to log events (only while recording);
/// `secret`: the game keeps piles some seat cannot see (the driver reads it too). A forced
/// option the rules do not label is shown with its items' labels (`items`).
pub fn emit_api(
    lua: &Lua,
    board: &Board,
    items: &Items,
    world: &W,
    secret: bool,
) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set("secret", secret)?;
    let w = world.clone();
    t.raw_set(
        "note",
        lua.create_function(move |_, text: String| {
            w.borrow_mut().log(Event::Note { text });
            Ok(())
        })?,
    )?;
    let w = world.clone();
    t.raw_set(
        "told",
        lua.create_function(move |_, (seat, text): (usize, String)| {
            let seat = seat - 1;
            w.borrow_mut().log(Event::Told { seat, text });
            Ok(())
        })?,
    )?;
    let (w, names) = (
        world.clone(),
        board
            .spaces
            .iter()
            .map(|s| s.name.clone())
            .collect::<Vec<_>>(),
    );
    t.raw_set(
        "move",
        lua.create_function(move |_, (seat, to, laps): (usize, usize, u32)| {
            let to = names.get(to.wrapping_sub(1)).cloned().unwrap_or_default();
            w.borrow_mut().log(Event::Move {
                seat: seat - 1,
                to,
                laps,
            });
            Ok(())
        })?,
    )?;
    let (w, items) = (world.clone(), items.clone());
    t.raw_set(
        "action",
        lua.create_function(
            move |_, (seat, option, forced, label): (usize, Table, bool, Option<String>)| {
                let action =
                    super::rules::read_option_table(&option).map_err(mlua::Error::external)?;
                let seat = seat - 1;
                let label = label.or_else(|| {
                    let shown = items.shown(&action);
                    (shown != action.to_string()).then_some(shown)
                });
                w.borrow_mut().log(match forced {
                    true => Event::Forced {
                        seat,
                        action,
                        label,
                        lone: !secret,
                    },
                    false => Event::Action { seat, action },
                });
                Ok(())
            },
        )?,
    )?;
    // The turn passed to seat `s`: the rolls and draws that follow are its own.
    let w = world.clone();
    t.raw_set(
        "passed",
        lua.create_function(move |_, s: usize| {
            w.borrow_mut().acting = s.checked_sub(1);
            Ok(())
        })?,
    )?;
    let w = world.clone();
    t.raw_set(
        "eliminated",
        lua.create_function(move |_, seat: usize| {
            w.borrow_mut().log(Event::Eliminated { seat: seat - 1 });
            Ok(())
        })?,
    )?;
    Ok(t)
}

fn random_api(lua: &Lua, world: &W) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let w = world.clone();
    t.raw_set(
        "int",
        lua.create_function(move |lua, (_, lo, hi): (This, i64, i64)| {
            if lo > hi {
                return Err(api_error(
                    lua,
                    format!("random:int({lo}, {hi}): empty range"),
                ));
            }
            let mut w = w.borrow_mut();
            let value = w.rng.range(lo, hi);
            let seat = w.acting;
            w.log(Event::Random {
                seat,
                lo,
                hi,
                value,
            });
            Ok(value)
        })?,
    )?;
    let w = world.clone();
    t.raw_set(
        "shuffle",
        lua.create_function(move |_, (_, list): (This, Table)| {
            let mut items: Vec<Value> = list
                .sequence_values::<Value>()
                .collect::<mlua::Result<_>>()?;
            w.borrow_mut().rng.shuffle(&mut items);
            for (i, v) in items.into_iter().enumerate() {
                list.raw_set(i + 1, v)?;
            }
            Ok(list)
        })?,
    )?;
    let w = world.clone();
    t.raw_set(
        "sample",
        lua.create_function(move |lua, (_, list, k): (This, Table, Value)| {
            let k = match k {
                Value::Integer(n) if n >= 0 => n as usize,
                Value::Number(f) if f >= 0.0 && f.fract() == 0.0 && f < 1e15 => f as usize,
                other => {
                    let got = match other {
                        Value::Integer(n) => n.to_string(),
                        Value::Number(f) => f.to_string(),
                        v => v.type_name().to_string(),
                    };
                    let message =
                        format!("random:sample: k must be a whole number of 0 or more, got {got}");
                    return Err(api_error(lua, message));
                }
            };
            let items: Vec<Value> = list
                .sequence_values::<Value>()
                .collect::<mlua::Result<_>>()?;
            let picked = w.borrow_mut().rng.sample(items, k);
            lua.create_sequence_from(picked)
        })?,
    )?;
    Ok(t)
}

/// The board's static tables: `spaces` (array), `by_id`, `groups` (each group's spaces in
/// board order), `group_names` (in board order of their first space) and `size`. The dynamic
/// functions are installed by the prelude over the live state.
fn board_api(lua: &Lua, board: &Board) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let spaces = lua.create_table()?;
    let by_id = lua.create_table()?;
    let groups = lua.create_table()?;
    let group_names = lua.create_table()?;
    for (i, s) in board.spaces.iter().enumerate() {
        let st = lua.create_table()?;
        for (k, v) in &s.data {
            st.raw_set(k.as_str(), toml_to_lua(lua, v)?)?;
        }
        st.raw_set("index", i + 1)?;
        st.raw_set("id", s.id.as_str())?;
        st.raw_set("name", s.name.as_str())?;
        st.raw_set("kind", s.kind.as_str())?;
        if let Some(j) = s.jump {
            st.raw_set("jump", j + 1)?;
        }
        if let Some(g) = &s.group {
            st.raw_set("group", g.as_str())?;
            let members = match groups.raw_get::<Option<Table>>(g.as_str())? {
                Some(m) => m,
                None => {
                    let m = lua.create_table()?;
                    groups.raw_set(g.as_str(), m.clone())?;
                    group_names.raw_push(g.as_str())?;
                    m
                }
            };
            members.raw_push(st.clone())?;
        }
        by_id.raw_set(s.id.as_str(), st.clone())?;
        spaces.raw_set(i + 1, st)?;
    }
    t.raw_set("spaces", spaces)?;
    t.raw_set("by_id", by_id)?;
    t.raw_set("groups", groups)?;
    t.raw_set("group_names", group_names)?;
    t.raw_set("size", board.spaces.len())?;
    Ok(t)
}

fn deck_api(
    lua: &Lua,
    board: &Board,
    settings: &toml::Table,
    world: &W,
) -> mlua::Result<(Table, Table)> {
    let decks = lua.create_table()?;
    let mut card_tables: Vec<Vec<Table>> = Vec::new();
    // What the log says of a draw: the deck's name and the card's text (else its id).
    let mut shown_cards: Vec<(String, Vec<String>)> = Vec::new();
    for d in &board.decks {
        let mut texts = Vec::new();
        let dt = lua.create_table()?;
        dt.raw_set("id", d.id.as_str())?;
        dt.raw_set("name", d.name.as_str())?;
        let cards = lua.create_table()?;
        let mut tables = Vec::new();
        for (i, c) in d.cards.iter().enumerate() {
            let ct = lua.create_table()?;
            for (k, v) in &c.data {
                ct.raw_set(k.as_str(), toml_to_lua(lua, v)?)?;
            }
            ct.raw_set("deck", d.id.as_str())?;
            ct.raw_set("index", i + 1)?;
            ct.raw_set("id", c.id.as_str())?;
            // `{name}`s in the text: the card's own data, else the game's settings.
            let value = |name: &str| c.data.get(name).or_else(|| settings.get(name)).map(shown);
            let text = fill(&c.text, value);
            texts.push(match text.is_empty() {
                true => c.id.clone(),
                false => text.clone(),
            });
            ct.raw_set("text", text)?;
            if let Some((e, _)) = &c.effect {
                ct.raw_set("effect", e.as_str())?;
            }
            cards.raw_set(i + 1, ct.clone())?;
            tables.push(ct);
        }
        dt.raw_set("cards", cards)?;
        decks.raw_set(d.id.as_str(), dt)?;
        card_tables.push(tables);
        shown_cards.push((d.name.clone(), texts));
    }
    let deck_ids: Rc<Vec<String>> = Rc::new(board.decks.iter().map(|d| d.id.clone()).collect());
    let card_ids: Rc<Vec<Vec<String>>> = Rc::new(
        board
            .decks
            .iter()
            .map(|d| d.cards.iter().map(|c| c.id.clone()).collect())
            .collect(),
    );
    let card_tables = Rc::new(card_tables);
    let api = lua.create_table()?;
    let (w, di, ct) = (world.clone(), deck_ids.clone(), card_tables.clone());
    api.raw_set(
        "draw",
        lua.create_function(move |lua, (_, deck): (This, String)| {
            let d = deck_index(lua, &di, &deck)?;
            let mut guard = w.borrow_mut();
            let w = &mut *guard;
            let Some(drawn) = w.decks[d].draw(&mut w.rng) else {
                return Ok(Value::Nil);
            };
            let (name, texts) = &shown_cards[d];
            if drawn.reshuffled {
                w.log(Event::Shuffle { deck: name.clone() });
            }
            w.log(Event::Draw {
                seat: w.acting,
                deck: name.clone(),
                card: texts[drawn.card as usize].clone(),
            });
            Ok(Value::Table(ct[d][drawn.card as usize].clone()))
        })?,
    )?;
    let (w, di, ci) = (world.clone(), deck_ids.clone(), card_ids.clone());
    api.raw_set(
        "keep",
        lua.create_function(move |lua, (_, deck, card, p): (This, String, Value, i64)| {
            let d = deck_index(lua, &di, &deck)?;
            let c = card_arg(lua, &ci[d], &card)?;
            let mut w = w.borrow_mut();
            let s = seat(lua, &w, p)?;
            w.decks[d].keep(c as u16, s).map_err(|e| api_error(lua, e))
        })?,
    )?;
    let (w, di, ci) = (world.clone(), deck_ids.clone(), card_ids.clone());
    api.raw_set(
        "give_back",
        lua.create_function(move |lua, (_, deck, card): (This, String, Value)| {
            let d = deck_index(lua, &di, &deck)?;
            let c = card_arg(lua, &ci[d], &card)?;
            w.borrow_mut().decks[d]
                .give_back(c as u16)
                .map(|s| s + 1)
                .map_err(|e| api_error(lua, e))
        })?,
    )?;
    let w = world.clone();
    api.raw_set(
        "held",
        lua.create_function(move |lua, (_, p): (This, i64)| {
            let w = w.borrow();
            let s = seat(lua, &w, p)?;
            let mut out = Vec::new();
            for (d, deck) in w.decks.iter().enumerate() {
                out.extend(deck.held_by(s).map(|c| card_tables[d][c as usize].clone()));
            }
            Ok(out)
        })?,
    )?;
    Ok((decks, api))
}

fn deck_index(lua: &Lua, ids: &[String], deck: &str) -> mlua::Result<usize> {
    ids.iter().position(|d| d == deck).ok_or_else(|| {
        api_error(
            lua,
            format!("no deck '{deck}' on this map (decks: {})", ids.join(", ")),
        )
    })
}

fn card_arg(lua: &Lua, ids: &[String], card: &Value) -> mlua::Result<usize> {
    let id = match card {
        Value::Table(t) => t.raw_get::<String>("id")?,
        Value::String(s) => s.to_str()?.to_string(),
        other => {
            return Err(api_error(
                lua,
                format!("expected a card or card id, got {}", other.type_name()),
            ))
        }
    };
    ids.iter()
        .position(|c| *c == id)
        .ok_or_else(|| api_error(lua, format!("no card '{id}' in this deck")))
}

/// The function at key `name` of table `t`, if it is one.
pub fn function_at(t: &Table, name: &str) -> Option<Function> {
    t.get::<Option<Function>>(name).ok().flatten()
}
