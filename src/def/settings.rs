//! Settings overrides, from a map file's `[settings]` or the command line (`--set key=value`):
//! the key must be a setting the game declares, and the value keeps the declared type (an
//! integer stays an integer).

use crate::diag::did_you_mean;

/// Applies `key=value` to `settings`; the error says what was expected.
pub fn apply_override(settings: &mut toml::Table, assignment: &str) -> Result<(), String> {
    let (key, raw) = assignment
        .split_once('=')
        .ok_or_else(|| format!("bad --set '{assignment}' (expected key=value)"))?;
    let raw = raw.trim();
    let value = match parse_value(raw) {
        // A bare word for a text setting: `--set rule=standard`.
        v if !v.is_str() && settings.get(key.trim()).is_some_and(|o| o.is_str()) => {
            toml::Value::String(raw.to_string())
        }
        v => v,
    };
    apply_value(settings, key.trim(), value, raw)
}

/// Replaces setting `key` with `value` of the same type (an integer may set a float setting);
/// `shown` is the value as the user wrote it, for the error.
pub fn apply_value(
    settings: &mut toml::Table,
    key: &str,
    value: toml::Value,
    shown: &str,
) -> Result<(), String> {
    let Some(old) = settings.get(key) else {
        let hint = did_you_mean(key, settings.keys().map(|k| k.as_str()))
            .map(|h| format!("; did you mean '{h}'?"))
            .unwrap_or_default();
        let mut names: Vec<&str> = settings.keys().map(|k| k.as_str()).collect();
        names.sort();
        return Err(format!(
            "unknown setting '{key}'{hint} (settings: {})",
            names.join(", ")
        ));
    };
    let value = match (old, value) {
        (toml::Value::Float(_), toml::Value::Integer(i)) => toml::Value::Float(i as f64),
        (o, v) if o.same_type(&v) => v,
        (o, _) => {
            return Err(format!(
                "setting '{key}' is {} {}; got '{shown}'",
                article(o.type_str()),
                o.type_str(),
            ))
        }
    };
    settings.insert(key.to_string(), value);
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> toml::Table {
        "salary = 200\nrule = \"free\"\nfactor = 1.1\n"
            .parse()
            .unwrap()
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
                "unknown setting 'salery'; did you mean 'salary'? (settings: factor, rule, salary)"
                    .into()
            )
        );
        assert_eq!(
            apply_override(&mut s, "salary"),
            Err("bad --set 'salary' (expected key=value)".into())
        );
    }
}
