//! `G` as plain data: Lua values to JSON and back. Only nil, booleans, numbers, strings and
//! tables (no functions, userdata or cycles) survive; anything else is an error naming its
//! path (`G.players[2].on_land`). Integer keys of non-sequence tables are written `"#<n>"`.

use mlua::{Lua, Table, Value};
use serde_json::{Map, Number, Value as Json};
use std::fmt::Write;

const MAX_DEPTH: usize = 64;

pub fn to_json(value: &Value, name: &str) -> Result<Json, String> {
    let mut stack = Vec::new();
    convert(value, &mut name.to_string(), &mut stack)
}

fn convert(
    value: &Value,
    path: &mut String,
    stack: &mut Vec<*const std::ffi::c_void>,
) -> Result<Json, String> {
    Ok(match value {
        Value::Nil => Json::Null,
        Value::Boolean(b) => Json::Bool(*b),
        Value::Integer(i) => Json::Number((*i).into()),
        Value::Number(n) => Json::Number(
            Number::from_f64(*n).ok_or_else(|| format!("{path}: {n} is not a finite number"))?,
        ),
        Value::String(s) => Json::String(
            s.to_str()
                .map_err(|_| format!("{path}: string is not valid UTF-8"))?
                .to_string(),
        ),
        Value::Table(t) => table(t, path, stack)?,
        other => {
            let kind = other.type_name();
            return Err(match path.starts_with('G') {
                true => format!("{path}: a {kind} cannot be saved (G must be plain data)"),
                false => format!("{path}: a {kind} cannot be shown (only plain data can)"),
            });
        }
    })
}

fn table(
    t: &Table,
    path: &mut String,
    stack: &mut Vec<*const std::ffi::c_void>,
) -> Result<Json, String> {
    let ptr = t.to_pointer();
    if stack.contains(&ptr) {
        return Err(format!(
            "{path}: table refers back to itself (G must not contain cycles)"
        ));
    }
    if stack.len() >= MAX_DEPTH {
        return Err(format!("{path}: nested deeper than {MAX_DEPTH} tables"));
    }
    stack.push(ptr);
    let len = t.raw_len();
    let mut entries: Vec<(Value, Value)> = Vec::new();
    for pair in t.pairs::<Value, Value>() {
        entries.push(pair.map_err(|e| format!("{path}: {e}"))?);
    }
    // A sequence: its keys are exactly 1..=len (as many keys, each an integer in range).
    let in_range = |k: &Value| matches!(k, Value::Integer(i) if (1..=len as i64).contains(i));
    let out = if len > 0 && entries.len() == len && entries.iter().all(|(k, _)| in_range(k)) {
        let mut items = vec![Json::Null; len];
        for (k, v) in &entries {
            let Value::Integer(i) = k else { continue };
            let keep = path.len();
            let _ = write!(path, "[{i}]");
            items[*i as usize - 1] = convert(v, path, stack)?;
            path.truncate(keep);
        }
        Json::Array(items)
    } else {
        let mut map = Map::new();
        for (k, v) in entries {
            let keep = path.len();
            let key = match &k {
                Value::String(s) => {
                    let text = s
                        .to_str()
                        .map_err(|_| format!("{path}: key is not valid UTF-8"))?;
                    path.push('.');
                    path.push_str(&text);
                    escape(&text)
                }
                Value::Integer(i) => {
                    let _ = write!(path, "[{i}]");
                    format!("#{i}")
                }
                other => {
                    return Err(format!(
                        "{path}: a {} key cannot be saved (use strings or integers)",
                        other.type_name()
                    ))
                }
            };
            map.insert(key, convert(&v, path, stack)?);
            path.truncate(keep);
        }
        Json::Object(map)
    };
    stack.pop();
    Ok(out)
}

fn escape(key: &str) -> String {
    if key.starts_with('#') {
        format!("#{key}")
    } else {
        key.to_string()
    }
}

pub fn from_json(lua: &Lua, json: &Json) -> mlua::Result<Value> {
    Ok(match json {
        Json::Null => Value::Nil,
        Json::Bool(b) => Value::Boolean(*b),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Value::Integer(i),
            None => Value::Number(n.as_f64().unwrap_or(0.0)),
        },
        Json::String(s) => Value::String(lua.create_string(s)?),
        Json::Array(items) => {
            let t = lua.create_table_with_capacity(items.len(), 0)?;
            for (i, item) in items.iter().enumerate() {
                t.raw_set(i + 1, from_json(lua, item)?)?;
            }
            Value::Table(t)
        }
        Json::Object(map) => {
            let t = lua.create_table_with_capacity(0, map.len())?;
            for (k, v) in map {
                let value = from_json(lua, v)?;
                match k.strip_prefix('#') {
                    Some(rest) if rest.starts_with('#') => t.raw_set(rest, value)?,
                    Some(rest) => match rest.parse::<i64>() {
                        Ok(i) => t.raw_set(i, value)?,
                        Err(_) => t.raw_set(k.as_str(), value)?,
                    },
                    None => t.raw_set(k.as_str(), value)?,
                }
            }
            Value::Table(t)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_plain_data() {
        let lua = Lua::new();
        let v: Value = lua
            .load(r##"return { a = 1, b = 2.5, list = {1, "x", true}, sparse = {[3] = "c", [10] = "j"}, ["#tag"] = "t", empty = {} }"##)
            .eval()
            .unwrap();
        let json = to_json(&v, "G").unwrap();
        assert_eq!(
            json.to_string(),
            r###"{"##tag":"t","a":1,"b":2.5,"empty":{},"list":[1,"x",true],"sparse":{"#10":"j","#3":"c"}}"###
        );
        let back = from_json(&lua, &json).unwrap();
        assert_eq!(to_json(&back, "G").unwrap(), json);
        // As many keys as its length, but a hole and a name among them: every key is kept.
        let holed: Value = lua
            .load("local t = {1, 2, 3, x = 'a'}; t[2] = nil; return t")
            .eval()
            .unwrap();
        let json = to_json(&holed, "G").unwrap();
        assert_eq!(json.to_string(), r##"{"#1":1,"#3":3,"x":"a"}"##);
    }

    #[test]
    fn non_data_is_named_by_path() {
        let lua = Lua::new();
        let v: Value = lua
            .load("return { players = { {}, { on_land = print } } }")
            .eval()
            .unwrap();
        assert_eq!(
            to_json(&v, "G").unwrap_err(),
            "G.players[2].on_land: a function cannot be saved (G must be plain data)"
        );
        assert_eq!(
            to_json(&v, "result").unwrap_err(),
            "result.players[2].on_land: a function cannot be shown (only plain data can)"
        );
        let cyc: Value = lua.load("local t = {}; t.me = t; return t").eval().unwrap();
        assert_eq!(
            to_json(&cyc, "G").unwrap_err(),
            "G.me: table refers back to itself (G must not contain cycles)"
        );
    }
}
