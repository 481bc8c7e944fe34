//! Free-form `data` tables (a card's, a space's): the slip checks they share. A row whose data
//! differs from every other row of its class (the cards of one effect, the spaces of one
//! kind) the way a slip of the keyboard would is warned about, with the field meant.

use super::Loc;
use crate::diag::Diagnostic;

/// One row's data as the checks read it: what it is (`card 'chance_1'`), its class (`effect
/// 'pay'`), its data and where it is.
pub struct Row<'a> {
    pub what: String,
    pub class: String,
    pub data: &'a toml::Table,
    pub at: Loc,
}

/// Warnings for a row whose `data` differs from every other row of its class in a way a slip
/// would: a field none of them has in place of one all of them have (`amonut` for `amount`),
/// or a field of another type than theirs (`"50"` for `50`). `noun` names the rows ("every
/// other card with effect 'pay'"). A field some rows leave out is no slip; a class of fewer
/// than three rows says nothing.
pub fn odd_data(rows: &[Row], noun: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let others: Vec<&Row> = (rows.iter().enumerate())
            .filter(|(j, r)| *j != i && r.class == row.class)
            .map(|(_, r)| r)
            .collect();
        if others.len() < 2 {
            continue;
        }
        let every = format!("every other {noun} with {}", row.class);
        let all_have = |k: &str| others.iter().all(|r| r.data.contains_key(k));
        let common: Vec<&str> = (others[0].data.keys())
            .map(String::as_str)
            .filter(|k| all_have(k) && !row.data.contains_key(*k))
            .collect();
        for (key, value) in row.data {
            // A slip is a letter or two: near as `did_you_mean` reads it, and at most two off.
            let close = common
                .iter()
                .copied()
                .filter(|m| strsim::damerau_levenshtein(key, m) <= 2);
            let near = crate::diag::did_you_mean(key, close)
                .filter(|_| !others.iter().any(|r| r.data.contains_key(key)));
            if let Some(meant) = near {
                out.push(row.at.warning(format!(
                    "{} has data field '{key}' but not '{meant}', which {every} has; did you \
                     mean '{meant}'?",
                    row.what
                )));
                continue;
            }
            let kinds: Vec<&str> = (others.iter())
                .filter_map(|r| r.data.get(key).map(kind))
                .collect();
            let theirs = kinds
                .first()
                .copied()
                .filter(|k| kinds.iter().all(|o| o == k));
            match theirs {
                Some(theirs) if kinds.len() == others.len() && theirs != kind(value) => {
                    out.push(row.at.warning(format!(
                        "{} has data field '{key}' as {}, where {every} has {theirs}",
                        row.what,
                        kind(value)
                    )))
                }
                _ => {}
            }
        }
    }
    out
}

/// What kind of TOML value `v` is, as a warning names it; integers and floats are both numbers.
fn kind(v: &toml::Value) -> &'static str {
    match v {
        toml::Value::Integer(_) | toml::Value::Float(_) => "a number",
        toml::Value::String(_) => "a string",
        toml::Value::Boolean(_) => "a boolean",
        toml::Value::Datetime(_) => "a date",
        toml::Value::Array(_) => "a list",
        toml::Value::Table(_) => "a table",
    }
}
