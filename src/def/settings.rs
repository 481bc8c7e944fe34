//! Settings overrides, from a map file's `[settings]` or the command line (`--set key=value`):
//! the key must be a setting the game declares, and the value keeps the declared type (an
//! integer stays an integer) and, where `[choices]` lists a setting's values, is one of them.

use crate::diag::did_you_mean;

/// Applies `key=value` to `settings`; the error says what was expected. A key inside a table
/// setting is reached with dots (`--set scores.base=2`).
pub fn apply_override(settings: &mut toml::Table, assignment: &str) -> Result<(), String> {
    let (key, raw) = assignment
        .split_once('=')
        .ok_or_else(|| format!("bad --set '{assignment}' (expected key=value)"))?;
    let (key, raw) = (key.trim(), raw.trim());
    let value = match parse_value(raw) {
        // A bare word for a text setting: `--set rule=standard`.
        v if !v.is_str() && lookup(settings, key).is_some_and(|o| o.is_str()) => {
            toml::Value::String(raw.to_string())
        }
        v => v,
    };
    apply_value(settings, key, value, &format!("'{raw}'"))
}

/// The setting at `key`, a dotted key reaching into table settings.
fn lookup<'a>(settings: &'a toml::Table, key: &str) -> Option<&'a toml::Value> {
    settings.get(key).or_else(|| {
        let (head, rest) = key.split_once('.')?;
        lookup(settings.get(head)?.as_table()?, rest)
    })
}

/// Replaces setting `key` (dotted to reach into a table setting) with `value` of the same type
/// (an integer may set a float setting); a table value changes the entries it names and keeps
/// the others. `shown` is the value as the user wrote it, quoted as the error shows it.
pub fn apply_value(
    settings: &mut toml::Table,
    key: &str,
    value: toml::Value,
    shown: &str,
) -> Result<(), String> {
    apply_at(settings, "", key, value, shown)
}

/// `apply_value` inside the table setting named `prefix` (empty at the top, else ending in a
/// dot), whose full name the errors show.
fn apply_at(
    settings: &mut toml::Table,
    prefix: &str,
    key: &str,
    value: toml::Value,
    shown: &str,
) -> Result<(), String> {
    if !settings.contains_key(key) {
        if let Some((head, rest)) = key.split_once('.') {
            if let Some(toml::Value::Table(inner)) = settings.get_mut(head) {
                return apply_at(inner, &format!("{prefix}{head}."), rest, value, shown);
            }
        }
    }
    let Some(old) = settings.get_mut(key) else {
        let hint = did_you_mean(key, settings.keys().map(|k| k.as_str()))
            .map(|h| format!("; did you mean '{prefix}{h}'?"))
            .unwrap_or_default();
        let mut names: Vec<String> = settings.keys().map(|k| format!("{prefix}{k}")).collect();
        names.sort();
        return Err(format!(
            "unknown setting '{prefix}{key}'{hint} (settings: {})",
            names.join(", ")
        ));
    };
    *old = match (&mut *old, value) {
        (toml::Value::Table(inner), toml::Value::Table(changes)) => {
            let prefix = format!("{prefix}{key}.");
            for (k, v) in changes {
                let shown = v.to_string();
                apply_at(inner, &prefix, &k, v, &shown)?;
            }
            return Ok(());
        }
        (toml::Value::Float(_), toml::Value::Integer(i)) => toml::Value::Float(i as f64),
        (_, v) if !not_finite(&v).is_empty() => {
            return Err(format!(
                "setting '{prefix}{key}' must hold finite numbers; got {shown}"
            ))
        }
        (o, v) if o.same_type(&v) => v,
        (o, _) => {
            return Err(format!(
                "setting '{prefix}{key}' is {} {}; got {shown}",
                article(o.type_str()),
                o.type_str(),
            ))
        }
    };
    Ok(())
}

/// Where `value` holds a float that is not finite (NaN and the infinities, which TOML allows
/// but no rule can compare or show): each place as its keys and 0-based array indices from
/// `value`, and as shown (`limits.top`, `w[2]`).
pub fn not_finite(value: &toml::Value) -> Vec<(Vec<String>, String)> {
    match value {
        toml::Value::Float(f) if !f.is_finite() => vec![(Vec::new(), String::new())],
        toml::Value::Table(t) => (t.iter())
            .flat_map(|(k, v)| within(v, k.clone(), format!(".{k}")))
            .collect(),
        toml::Value::Array(items) => (items.iter().enumerate())
            .flat_map(|(i, v)| within(v, i.to_string(), format!("[{}]", i + 1)))
            .collect(),
        _ => Vec::new(),
    }
}

/// `not_finite` of `v`, found at key `seg` (shown as `shown`) of its parent.
fn within(v: &toml::Value, seg: String, shown: String) -> Vec<(Vec<String>, String)> {
    (not_finite(v).into_iter())
        .map(|(mut segs, rest)| {
            segs.insert(0, seg.clone());
            (segs, format!("{shown}{rest}"))
        })
        .collect()
}

fn article(t: &str) -> &'static str {
    if t.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

fn parse_value(raw: &str) -> toml::Value {
    let doc = format!("v = {raw}");
    match doc.parse::<toml::Table>() {
        Ok(mut t) => t
            .remove("v")
            .unwrap_or_else(|| toml::Value::String(raw.to_string())),
        Err(_) => toml::Value::String(raw.to_string()),
    }
}

/// What is wrong with the reserved setting `round_cap` in `settings`, if anything: it must
/// be a whole number, at least 1.
pub fn bad_round_cap(settings: &toml::Table) -> Option<String> {
    match settings.get("round_cap")? {
        toml::Value::Integer(cap) if *cap >= 1 => None,
        v => Some(format!(
            "round_cap must be a whole number, at least 1 (the round after which a game stops, unfinished); got {v}"
        )),
    }
}

/// The values a setting may take (`[choices]` in game.toml), by setting.
pub type Choices = std::collections::BTreeMap<String, Vec<toml::Value>>;

/// `[choices]` read and checked against the declared `settings`: each names a setting, lists
/// at least one value of its type (numbers, text or booleans), and holds its declared value;
/// `at` locates a key path of game.toml.
pub fn check_choices(
    def: &toml::Table,
    settings: &toml::Table,
    at: &dyn Fn(&[&str]) -> super::Loc,
    diags: &mut Vec<crate::diag::Diagnostic>,
) -> Choices {
    let mut out = Choices::new();
    for (key, list) in def {
        let here = || at(&["choices", key]);
        let Some(declared) = settings.get(key) else {
            let hint = crate::diag::hint(key, settings.keys().map(String::as_str));
            diags.push(here().error(format!(
                "choices for '{key}', which is no setting of [settings]{hint}"
            )));
            continue;
        };
        if declared.is_table() || declared.is_array() {
            diags.push(here().error(format!(
                "choices are for number, text or boolean settings; '{key}' is {} {}",
                article(declared.type_str()),
                declared.type_str()
            )));
            continue;
        }
        let values = match list {
            toml::Value::Array(v) if !v.is_empty() => v,
            _ => {
                diags.push(here().error(format!(
                    "choices.{key}: expected a list of the values '{key}' may take, got {list}"
                )));
                continue;
            }
        };
        let odd = values.iter().find(|v| !same_kind(v, declared));
        if let Some(v) = odd {
            diags.push(here().error(format!(
                "choices.{key}: {v} is not {} {} like the setting",
                article(declared.type_str()),
                declared.type_str()
            )));
            continue;
        }
        let values = values.clone();
        if let Some(e) = off_choice(key, declared, &values) {
            diags.push(at(&["settings", key]).error(e));
        }
        out.insert(key.clone(), values);
    }
    out
}

/// Whether `v` may stand for a setting whose declared value is `declared` (an integer for a
/// float setting too).
fn same_kind(v: &toml::Value, declared: &toml::Value) -> bool {
    v.same_type(declared) || (v.is_integer() && declared.is_float())
}

/// The error for setting `key` set to `value` when it is none of `choices`.
pub fn off_choice(key: &str, value: &toml::Value, choices: &[toml::Value]) -> Option<String> {
    let numeric = |v: &toml::Value| v.as_float().or_else(|| v.as_integer().map(|i| i as f64));
    let same =
        |c: &toml::Value| c == value || numeric(c).is_some_and(|c| Some(c) == numeric(value));
    if choices.iter().any(same) {
        return None;
    }
    let shown: Vec<String> = choices.iter().map(|c| c.to_string()).collect();
    let hint = match value.as_str() {
        // A hint for words: any one symbol is one letter off any other.
        Some(text) if text.chars().count() > 2 => {
            let texts = choices.iter().filter_map(|c| c.as_str());
            crate::diag::did_you_mean(text, texts)
                .map(|m| format!("; did you mean \"{m}\"?"))
                .unwrap_or_default()
        }
        _ => String::new(),
    };
    Some(format!(
        "setting '{key}' is one of {}; got {value}{hint}",
        shown.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> toml::Table {
        "salary = 200\nrule = \"free\"\nfactor = 1.1\n[scores]\nbase = 1\nwin = 2\n"
            .parse()
            .unwrap()
    }

    #[test]
    fn choices_name_plain_settings_and_hold_their_values() {
        let def: toml::Table = "rule = [\"free\", \"strict\"]\nscores = [1]\n\
                                factor = [1, 1.5]\nsalary = [100, 300]\nfree = [2, \"x\"]\n"
            .parse()
            .unwrap();
        let mut diags = Vec::new();
        let at = |segs: &[&str]| super::super::Loc {
            path: segs.join("."),
            line: 1,
            col: 1,
        };
        let choices = check_choices(&def, &settings(), &at, &mut diags);
        let said: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
        assert_eq!(
            said,
            [
                "choices.scores:1:1: error: choices are for number, text or boolean settings; \
                 'scores' is a table",
                "settings.factor:1:1: error: setting 'factor' is one of 1, 1.5; got 1.1",
                "settings.salary:1:1: error: setting 'salary' is one of 100, 300; got 200",
                "choices.free:1:1: error: choices for 'free', which is no setting of [settings]",
            ]
        );
        assert_eq!(
            choices.keys().collect::<Vec<_>>(),
            ["factor", "rule", "salary"]
        );
        // A whole number stands for a float setting's value.
        assert_eq!(
            off_choice("factor", &toml::Value::Float(1.0), &choices["factor"]),
            None
        );
    }

    #[test]
    fn numbers_that_are_not_finite_are_found_in_arrays_and_tables() {
        let v: toml::Value = toml::from_str("w = [1.0, nan]\nt = { x = -inf, y = 2.0 }").unwrap();
        let mut found = not_finite(&v);
        found.sort();
        let place = |segs: &[&str], shown: &str| {
            (
                segs.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                shown.to_string(),
            )
        };
        assert_eq!(
            found,
            [place(&["t", "x"], ".t.x"), place(&["w", "1"], ".w[2]")]
        );
    }

    #[test]
    fn overrides_keep_types() {
        let mut s = settings();
        apply_override(&mut s, "salary=300").unwrap();
        apply_override(&mut s, "rule=standard").unwrap();
        apply_override(&mut s, "factor=2").unwrap();
        assert_eq!(s["salary"].as_integer(), Some(300));
        assert_eq!(s["rule"].as_str(), Some("standard"));
        assert_eq!(s["factor"].as_float(), Some(2.0));
    }

    #[test]
    fn bad_overrides_say_why() {
        let mut s = settings();
        assert_eq!(
            apply_override(&mut s, "salary=lots"),
            Err("setting 'salary' is an integer; got 'lots'".into())
        );
        assert_eq!(
            apply_override(&mut s, "salery=1"),
            Err(
                "unknown setting 'salery'; did you mean 'salary'? (settings: factor, rule, salary, scores)"
                    .into()
            )
        );
        assert_eq!(
            apply_override(&mut s, "salary"),
            Err("bad --set 'salary' (expected key=value)".into())
        );
        for bad in ["nan", "inf", "-inf"] {
            assert_eq!(
                apply_override(&mut s, &format!("factor={bad}")),
                Err(format!(
                    "setting 'factor' must hold finite numbers; got '{bad}'"
                ))
            );
        }
    }

    #[test]
    fn dotted_keys_reach_into_table_settings() {
        let mut s = settings();
        apply_override(&mut s, "scores.base=3").unwrap();
        assert_eq!(s["scores"]["base"].as_integer(), Some(3));
        assert_eq!(s["scores"]["win"].as_integer(), Some(2));
        // A table changes the entries it names and keeps the others.
        apply_override(&mut s, "scores={win = 5}").unwrap();
        assert_eq!(s["scores"]["base"].as_integer(), Some(3));
        assert_eq!(s["scores"]["win"].as_integer(), Some(5));
        assert_eq!(
            apply_override(&mut s, "scores.bse=1"),
            Err("unknown setting 'scores.bse'; did you mean 'scores.base'? (settings: scores.base, scores.win)".into())
        );
        assert_eq!(
            apply_override(&mut s, "scores={win = 'big'}"),
            Err("setting 'scores.win' is an integer; got \"big\"".into())
        );
        assert_eq!(
            apply_override(&mut s, "scores=4"),
            Err("setting 'scores' is a table; got '4'".into())
        );
    }
}
