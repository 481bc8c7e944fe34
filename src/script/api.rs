//! `ctx`: the table rules use to read and change the runtime's components. Seats and space
//! indices are 1-based in Lua. Static data (settings, spaces, cards) are plain tables built
//! once; every change goes through a function that updates the world and logs an event.

use super::host::api_error;
use crate::core::dice::{parse_dice, roll, DiceSpec};
use crate::core::event::{Event, Outcome};
use crate::core::world::World;
use crate::def::board::Board;
use crate::def::Package;
use mlua::{Function, Lua, Table, Value, Variadic};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

type W = Rc<RefCell<World>>;

pub fn build_ctx(
    lua: &Lua,
    pkg: &Package,
    board: &Board,
    settings: &toml::Table,
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
    ctx.raw_set("map", map)?;
    add_turn_api(lua, &ctx, &world)?;
    ctx.raw_set("dice", dice_api(lua, &world)?)?;
    ctx.raw_set("random", random_api(lua, &world)?)?;
    let spaces = Rc::new(
        board
            .spaces
            .iter()
            .map(|s| s.id.clone())
            .collect::<Vec<_>>(),
    );
    ctx.raw_set("board", board_api(lua, board, &world, spaces)?)?;
    let counters: Rc<Vec<String>> = Rc::new(pkg.counters.clone());
    ctx.raw_set("counter", counter_api(lua, &world, counters)?)?;
    let (decks_static, deck_api) = deck_api(lua, board, &world)?;
    ctx.raw_set("decks", decks_static)?;
    ctx.raw_set("deck", deck_api)?;
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

fn seat(lua: &Lua, w: &World, p: i64) -> mlua::Result<usize> {
    if p >= 1 && (p as usize) <= w.seats {
        Ok(p as usize - 1)
    } else {
        Err(api_error(
            lua,
            format!("seat {p} out of range (1..{})", w.seats),
        ))
    }
}

fn add_turn_api(lua: &Lua, ctx: &Table, world: &W) -> mlua::Result<()> {
    let w = world.clone();
    ctx.raw_set(
        "seats",
        lua.create_function(move |_, _: Value| Ok(w.borrow().seats))?,
    )?;
    let w = world.clone();
    ctx.raw_set(
        "current",
        lua.create_function(move |_, _: Value| Ok(w.borrow().current + 1))?,
    )?;
    let w = world.clone();
    ctx.raw_set(
        "turn",
        lua.create_function(move |_, _: Value| Ok(w.borrow().turn))?,
    )?;
    let w = world.clone();
    ctx.raw_set(
        "round",
        lua.create_function(move |_, _: Value| Ok(w.borrow().round))?,
    )?;
    let w = world.clone();
    ctx.raw_set(
        "in_play",
        lua.create_function(move |lua, (_, p): (Value, i64)| {
            let w = w.borrow();
            Ok(w.in_play[seat(lua, &w, p)?])
        })?,
    )?;
    let w = world.clone();
    ctx.raw_set(
        "active",
        lua.create_function(move |_, _: Value| {
            Ok(w.borrow()
                .seats_in_play()
                .map(|s| s + 1)
                .collect::<Vec<_>>())
        })?,
    )?;
    let w = world.clone();
    ctx.raw_set(
        "next_player",
        lua.create_function(move |_, _: Value| Ok(w.borrow_mut().next_seat() + 1))?,
    )?;
    let w = world.clone();
    ctx.raw_set(
        "eliminate",
        lua.create_function(move |lua, (_, p): (Value, i64)| {
            let mut w = w.borrow_mut();
            let s = seat(lua, &w, p)?;
            w.eliminate(s);
            Ok(())
        })?,
    )?;
    let w = world.clone();
    ctx.raw_set(
        "win",
        lua.create_function(move |lua, (_, ps): (Value, Variadic<i64>)| {
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
        lua.create_function(move |_, _: Value| {
            w.borrow_mut().finish(Outcome::Draw);
            Ok(())
        })?,
    )?;
    let w = world.clone();
    ctx.raw_set(
        "log",
        lua.create_function(move |_, (_, text): (Value, String)| {
            w.borrow_mut().log(Event::Note { text });
            Ok(())
        })?,
    )?;
    let w = world.clone();
    ctx.raw_set(
        "tally",
        lua.create_function(
            move |_, (_, name, key, by): (Value, String, String, Option<u64>)| {
                w.borrow_mut().tally(&name, &key, by.unwrap_or(1));
                Ok(())
            },
        )?,
    )?;
    Ok(())
}

fn dice_api(lua: &Lua, world: &W) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let w = world.clone();
    let cache: RefCell<HashMap<String, DiceSpec>> = RefCell::new(HashMap::new());
    let roll_fn = lua.create_function(move |lua, (_, spec): (Value, mlua::LuaString)| {
        let spec = spec.to_str()?.to_string();
        let parsed = match cache.borrow().get(&spec) {
            Some(p) => *p,
            None => parse_dice(&spec).map_err(|e| api_error(lua, e))?,
        };
        cache.borrow_mut().insert(spec.clone(), parsed);
        let mut guard = w.borrow_mut();
        let w = &mut *guard;
        let r = roll(parsed, &mut w.rng, &mut w.forced_dice);
        let out = lua.create_table_with_capacity(r.values.len(), 2)?;
        for (i, v) in r.values.iter().enumerate() {
            out.raw_set(i + 1, *v)?;
        }
        out.raw_set("total", r.total)?;
        out.raw_set("doubles", r.doubles())?;
        if w.record_events {
            w.log(Event::Dice {
                spec,
                values: r.values,
                total: r.total,
            });
        }
        Ok(out)
    })?;
    t.raw_set("roll", roll_fn)?;
    Ok(t)
}

fn random_api(lua: &Lua, world: &W) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let w = world.clone();
    t.raw_set(
        "int",
        lua.create_function(move |lua, (_, lo, hi): (Value, i64, i64)| {
            if lo > hi {
                return Err(api_error(
                    lua,
                    format!("random:int({lo}, {hi}): empty range"),
                ));
            }
            let mut w = w.borrow_mut();
            let value = w.rng.range(lo, hi);
            w.log(Event::Random { lo, hi, value });
            Ok(value)
        })?,
    )?;
    let w = world.clone();
    t.raw_set(
        "shuffle",
        lua.create_function(move |_, (_, list): (Value, Table)| {
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
    Ok(t)
}

fn space_arg(lua: &Lua, ids: &[String], v: &Value) -> mlua::Result<usize> {
    match v {
        Value::Integer(i) if *i >= 1 && (*i as usize) <= ids.len() => Ok(*i as usize - 1),
        Value::Integer(i) => Err(api_error(
            lua,
            format!("space {i} out of range (1..{})", ids.len()),
        )),
        Value::String(s) => {
            let s = s.to_str()?;
            ids.iter()
                .position(|id| *id == *s)
                .ok_or_else(|| api_error(lua, format!("no space '{}' on this board", &*s)))
        }
        other => Err(api_error(
            lua,
            format!("expected a space index or id, got {}", other.type_name()),
        )),
    }
}

fn board_api(lua: &Lua, board: &Board, world: &W, ids: Rc<Vec<String>>) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let spaces = lua.create_table()?;
    let by_id = lua.create_table()?;
    for (i, s) in board.spaces.iter().enumerate() {
        let st = lua.create_table()?;
        for (k, v) in &s.data {
            st.raw_set(k.as_str(), toml_to_lua(lua, v)?)?;
        }
        st.raw_set("index", i + 1)?;
        st.raw_set("id", s.id.as_str())?;
        st.raw_set("name", s.name.as_str())?;
        st.raw_set("kind", s.kind.as_str())?;
        if let Some(g) = &s.group {
            st.raw_set("group", g.as_str())?;
        }
        by_id.raw_set(s.id.as_str(), st.clone())?;
        spaces.raw_set(i + 1, st)?;
    }
    t.raw_set("spaces", spaces)?;
    t.raw_set("by_id", by_id)?;
    t.raw_set("size", board.spaces.len())?;
    let names: Rc<Vec<String>> = Rc::new(board.spaces.iter().map(|s| s.name.clone()).collect());
    let (w, ids2) = (world.clone(), ids.clone());
    t.raw_set(
        "position",
        lua.create_function(move |lua, (_, p): (Value, i64)| {
            let w = w.borrow();
            let _ = &ids2;
            Ok(w.board.tokens[seat(lua, &w, p)?] + 1)
        })?,
    )?;
    let (w, n) = (world.clone(), names.clone());
    t.raw_set(
        "move",
        lua.create_function(move |lua, (_, p, steps): (Value, i64, i64)| {
            let mut w = w.borrow_mut();
            let s = seat(lua, &w, p)?;
            let m = w.board.move_by(s, steps);
            w.log(Event::Move {
                seat: s,
                to: n[m.to].clone(),
                laps: m.laps,
            });
            Ok((m.to + 1, m.laps))
        })?,
    )?;
    let (w, n, i2) = (world.clone(), names.clone(), ids.clone());
    t.raw_set(
        "advance_to",
        lua.create_function(move |lua, (_, p, target): (Value, i64, Value)| {
            let target = space_arg(lua, &i2, &target)?;
            let mut w = w.borrow_mut();
            let s = seat(lua, &w, p)?;
            let m = w.board.advance_to(s, target);
            w.log(Event::Move {
                seat: s,
                to: n[m.to].clone(),
                laps: m.laps,
            });
            Ok((m.to + 1, m.laps))
        })?,
    )?;
    let (w, n, i2) = (world.clone(), names.clone(), ids.clone());
    t.raw_set(
        "place",
        lua.create_function(move |lua, (_, p, target): (Value, i64, Value)| {
            let target = space_arg(lua, &i2, &target)?;
            let mut w = w.borrow_mut();
            let s = seat(lua, &w, p)?;
            w.board.place(s, target);
            w.log(Event::Move {
                seat: s,
                to: n[target].clone(),
                laps: 0,
            });
            Ok(target + 1)
        })?,
    )?;
    let (w, i2) = (world.clone(), ids.clone());
    t.raw_set(
        "owner",
        lua.create_function(move |lua, (_, sp): (Value, Value)| {
            let sp = space_arg(lua, &i2, &sp)?;
            Ok(w.borrow().board.owners[sp].map(|s| s + 1))
        })?,
    )?;
    let (w, i2) = (world.clone(), ids.clone());
    t.raw_set(
        "set_owner",
        lua.create_function(move |lua, (_, sp, p): (Value, Value, Option<i64>)| {
            let sp = space_arg(lua, &i2, &sp)?;
            let mut w = w.borrow_mut();
            let owner = p.map(|p| seat(lua, &w, p)).transpose()?;
            w.board.owners[sp] = owner;
            Ok(())
        })?,
    )?;
    let (w, i2) = (world.clone(), ids.clone());
    t.raw_set(
        "level",
        lua.create_function(move |lua, (_, sp): (Value, Value)| {
            let sp = space_arg(lua, &i2, &sp)?;
            Ok(w.borrow().board.levels[sp])
        })?,
    )?;
    let (w, i2) = (world.clone(), ids.clone());
    t.raw_set(
        "set_level",
        lua.create_function(move |lua, (_, sp, level): (Value, Value, i64)| {
            let sp = space_arg(lua, &i2, &sp)?;
            w.borrow_mut().board.levels[sp] = level;
            Ok(())
        })?,
    )?;
    let w = world.clone();
    t.raw_set(
        "owned_by",
        lua.create_function(move |lua, (_, p): (Value, i64)| {
            let w = w.borrow();
            let s = seat(lua, &w, p)?;
            let owned: Vec<usize> = w
                .board
                .owners
                .iter()
                .enumerate()
                .filter(|(_, o)| **o == Some(s))
                .map(|(i, _)| i + 1)
                .collect();
            Ok(owned)
        })?,
    )?;
    Ok(t)
}

fn counter_index(lua: &Lua, names: &[String], name: &str) -> mlua::Result<usize> {
    names.iter().position(|n| n == name).ok_or_else(|| {
        api_error(
            lua,
            format!(
                "unknown counter '{name}' (game.toml declares: {})",
                names.join(", ")
            ),
        )
    })
}

fn counter_api(lua: &Lua, world: &W, names: Rc<Vec<String>>) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let (w, n) = (world.clone(), names.clone());
    t.raw_set(
        "get",
        lua.create_function(move |lua, (_, p, name): (Value, i64, mlua::LuaString)| {
            let c = counter_index(lua, &n, &name.to_str()?)?;
            let w = w.borrow();
            Ok(w.counters[c][seat(lua, &w, p)?])
        })?,
    )?;
    let (w, n) = (world.clone(), names.clone());
    t.raw_set(
        "set",
        lua.create_function(
            move |lua, (_, p, name, v): (Value, i64, mlua::LuaString, i64)| {
                let c = counter_index(lua, &n, &name.to_str()?)?;
                let mut w = w.borrow_mut();
                let s = seat(lua, &w, p)?;
                w.counters[c][s] = v;
                Ok(v)
            },
        )?,
    )?;
    let (w, n) = (world.clone(), names);
    t.raw_set(
        "add",
        lua.create_function(
            move |lua, (_, p, name, by): (Value, i64, mlua::LuaString, i64)| {
                let c = counter_index(lua, &n, &name.to_str()?)?;
                let mut w = w.borrow_mut();
                let s = seat(lua, &w, p)?;
                w.counters[c][s] += by;
                Ok(w.counters[c][s])
            },
        )?,
    )?;
    Ok(t)
}

/// Static deck tables (`ctx.decks.<id>.cards`) and the deck functions (`ctx.deck:draw(id)`).
fn deck_api(lua: &Lua, board: &Board, world: &W) -> mlua::Result<(Table, Table)> {
    let decks = lua.create_table()?;
    let mut card_tables: Vec<Vec<Table>> = Vec::new();
    for d in &board.decks {
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
            ct.raw_set("text", c.text.as_str())?;
            if let Some((e, _)) = &c.effect {
                ct.raw_set("effect", e.as_str())?;
            }
            cards.raw_set(i + 1, ct.clone())?;
            tables.push(ct);
        }
        dt.raw_set("cards", cards)?;
        decks.raw_set(d.id.as_str(), dt)?;
        card_tables.push(tables);
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
    let (w, di, ci, ct) = (
        world.clone(),
        deck_ids.clone(),
        card_ids.clone(),
        card_tables.clone(),
    );
    api.raw_set(
        "draw",
        lua.create_function(move |lua, (_, deck): (Value, String)| {
            let d = deck_index(lua, &di, &deck)?;
            let mut guard = w.borrow_mut();
            let w = &mut *guard;
            let Some(drawn) = w.decks[d].draw(&mut w.rng) else {
                return Ok(Value::Nil);
            };
            if drawn.reshuffled {
                w.log(Event::Shuffle { deck: deck.clone() });
            }
            w.log(Event::Draw {
                deck,
                card: ci[d][drawn.card as usize].clone(),
            });
            Ok(Value::Table(ct[d][drawn.card as usize].clone()))
        })?,
    )?;
    let (w, di, ci) = (world.clone(), deck_ids.clone(), card_ids.clone());
    api.raw_set(
        "keep",
        lua.create_function(
            move |lua, (_, deck, card, p): (Value, String, Value, i64)| {
                let d = deck_index(lua, &di, &deck)?;
                let c = card_arg(lua, &ci[d], &card)?;
                let mut w = w.borrow_mut();
                let s = seat(lua, &w, p)?;
                w.decks[d].keep(c as u16, s).map_err(|e| api_error(lua, e))
            },
        )?,
    )?;
    let (w, di, ci) = (world.clone(), deck_ids.clone(), card_ids.clone());
    api.raw_set(
        "give_back",
        lua.create_function(move |lua, (_, deck, card): (Value, String, Value)| {
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
        lua.create_function(move |lua, (_, p): (Value, i64)| {
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

/// A Lua function from the rules table by dotted path, if present.
pub fn function_at(t: &Table, name: &str) -> Option<Function> {
    t.get::<Option<Function>>(name).ok().flatten()
}
