//! Reading one TOML file into a `*Def` type: syntax and type errors located at
//! `path:line:col`, and every key the engine does not own reported with a "did you mean" hint
//! (all of them, not just the first). Free-form tables (`settings`, `data`) accept any key.

use crate::diag::{did_you_mean, Diagnostic};
use serde::de::DeserializeOwned;
use toml::de::{DeTable, DeValue};

/// Allowed keys per table, by generalized path (`*` stands for any array index or map key).
pub type Schema = &'static [(&'static str, &'static [&'static str])];

/// Parses `text` (the contents of `path`) into `T`. Unknown keys become diagnostics; the value
/// is still returned so later checks can report their problems too.
pub fn parse_toml<T: DeserializeOwned>(
    path: &str,
    text: &str,
    schema: Schema,
    diags: &mut Vec<Diagnostic>,
) -> Option<T> {
    let de = match toml::Deserializer::parse(text) {
        Ok(de) => de,
        Err(e) => {
            diags.push(toml_error(path, text, None, &e));
            return None;
        }
    };
    let mut unknown: Vec<Vec<String>> = Vec::new();
    let parsed: Result<T, _> = serde_ignored::deserialize(de, |p| unknown.push(segments(&p)));
    let root = DeTable::parse(text).ok();
    let root = root.as_ref().map(|r| r.get_ref());
    if let (Err(_), Some(root)) = (&parsed, root) {
        // serde stops at its first error: the keys past it are looked up in the schema.
        let mut past = Vec::new();
        schema_unknowns(root, &mut Vec::new(), schema, &mut past);
        past.retain(|segs| !unknown.contains(segs));
        unknown.extend(past);
    }
    for segs in &unknown {
        diags.push(unknown_key(path, text, root, segs, schema));
    }
    match parsed {
        Ok(v) => Some(v),
        Err(e) => {
            // A missing key that an unknown key beside it misspells is told once, by the
            // unknown key's "did you mean" (`titel` for `title`).
            let misspelt = missing_key(&e, root).is_some_and(|(key, place)| {
                (unknown.iter().filter_map(|segs| segs.split_last()))
                    .filter(|(_, parent)| Some(*parent) == place.as_deref())
                    .any(|(k, parent)| {
                        did_you_mean(k, allowed_keys(parent, schema).iter().copied())
                            == Some(key.as_str())
                    })
            });
            if !misspelt {
                diags.push(toml_error(path, text, root, &e));
            }
            None
        }
    }
}

/// The key serde found missing, and the path of the table that lacks it (empty at the top
/// level; none when `root`, the parsed document, does not tell).
type Missing = (String, Option<Vec<String>>);

fn missing_key(e: &toml::de::Error, root: Option<&DeTable>) -> Option<Missing> {
    let message = e.message().trim();
    let key = message.strip_prefix("missing field `")?.strip_suffix('`')?;
    // An empty span at the start is the document itself (shown at its first line).
    let place = match (e.span().filter(|s| s.end > 0), root) {
        (None, _) => Some(Vec::new()),
        (Some(span), Some(root)) => {
            let mut place = Vec::new();
            table_at(root, span.start, &mut place);
            Some(place).filter(|p| !p.is_empty())
        }
        (Some(_), None) => None,
    };
    Some((key.to_string(), place))
}

/// A TOML error at its place: a syntax error, or a value serde refused (with `root`, the parsed
/// document, a missing key names the table that lacks it).
pub fn toml_error(
    path: &str,
    text: &str,
    root: Option<&DeTable>,
    e: &toml::de::Error,
) -> Diagnostic {
    let mut message = e.message().trim().replace('\n', " ");
    if let Some((key, place)) = missing_key(e, root) {
        message = match place {
            Some(p) if p.is_empty() => {
                format!("missing key '{key}' (at the top level of the file)")
            }
            Some(p) => format!("missing key '{key}' in '{}'", shown_path(&p)),
            None => format!("missing key '{key}'"),
        };
    }
    let offset = e.span().map_or(0, |s| s.start);
    if message == "duplicate key" {
        message = duplicate_key(text, offset.min(text.len()));
    }
    if let Some(plain) = unknown_variant(&message).or_else(|| invalid_type(&message)) {
        // The key the refused value is written at, named as its path (`zones.hand.per_seat`).
        let mut path = Vec::new();
        if let Some(root) = root {
            value_at(root, offset, &mut path);
        }
        message = match path.is_empty() {
            true => plain,
            false => format!("{}: {plain}", shown_path(&path)),
        };
    }
    Diagnostic::at_offset(path, text, offset, message)
}

/// The duplicate-key error for the key at byte `offset` of `text`, named: a key set twice in
/// one table, or a table header written twice.
fn duplicate_key(text: &str, offset: usize) -> String {
    let rest = &text[offset..];
    let key: String = match rest.chars().next() {
        Some(q @ ('"' | '\'')) => rest[1..].chars().take_while(|c| *c != q).collect(),
        _ => (rest.chars())
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
            .collect(),
    };
    let line = text[..offset].rsplit('\n').next().unwrap_or("");
    match (key.is_empty(), line.trim_start().starts_with('[')) {
        (true, _) => "duplicate key".into(),
        (false, true) => format!("table '{key}' is defined twice: merge the two into one"),
        (false, false) => {
            format!("duplicate key '{key}': the table this line is in sets it already")
        }
    }
}

/// serde's "unknown variant `cels`, expected `points` or `cells`" (or "expected one of `a`,
/// `b`, `c`") as this project says it, with a did-you-mean.
fn unknown_variant(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown variant `")?;
    let (given, expected) = rest.split_once("`, expected ")?;
    let expected = expected.strip_prefix("one of ").unwrap_or(expected);
    let names: Vec<&str> = (expected.split(['`', ',']))
        .map(|p| p.trim())
        .filter(|p| !p.is_empty() && *p != "or")
        .collect();
    Some(crate::diag::not_one_of(given, &names))
}

/// serde's "invalid type: string \"1\", expected i64" (or "invalid value: integer `-1`,
/// expected usize") in plain words: "expected an integer, got the text \"1\"".
fn invalid_type(message: &str) -> Option<String> {
    let rest = (message.strip_prefix("invalid type: "))
        .or_else(|| message.strip_prefix("invalid value: "))?;
    let (given, expected) = rest.rsplit_once(", expected ")?;
    let expected = match expected {
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "an integer",
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "a whole number of at least 0",
        "f32" | "f64" => "a number",
        "a boolean" => "true or false",
        "a sequence" => "a list",
        "a map" => "a table",
        e if e.starts_with("struct ") => "a table",
        e => e,
    };
    let quoted =
        |prefix: &str| (given.strip_prefix(prefix)).map(|v| v.trim_matches('`').to_string());
    let given = if let Some(text) = given.strip_prefix("string ") {
        format!("the text {text}")
    } else if let Some(v) = quoted("integer ").or_else(|| quoted("floating point ")) {
        format!("the number {v}")
    } else if let Some(v) = quoted("boolean ") {
        v
    } else {
        match given {
            "map" => "a table".to_string(),
            "sequence" => "a list".to_string(),
            other => other.to_string(),
        }
    };
    Some(format!("expected {expected}, got {given}"))
}

fn segments(path: &serde_ignored::Path) -> Vec<String> {
    use serde_ignored::Path;
    match path {
        Path::Root => Vec::new(),
        Path::Seq { parent, index } => push(segments(parent), index.to_string()),
        Path::Map { parent, key } => push(segments(parent), key.clone()),
        Path::Some { parent }
        | Path::NewtypeStruct { parent }
        | Path::NewtypeVariant { parent } => segments(parent),
    }
}

fn push(mut v: Vec<String>, s: String) -> Vec<String> {
    v.push(s);
    v
}

fn unknown_key(
    path: &str,
    text: &str,
    root: Option<&DeTable>,
    segs: &[String],
    schema: Schema,
) -> Diagnostic {
    let (key, parent) = segs.split_last().expect("an ignored key has a name");
    let allowed = allowed_keys(parent, schema);
    let mut message = format!("unknown key '{key}'");
    if !parent.is_empty() {
        message.push_str(&format!(" in '{}'", shown_path(parent)));
    }
    if let Some(hint) = did_you_mean(key, allowed.iter().copied()) {
        message.push_str(&format!("; did you mean '{hint}'?"));
    } else if !allowed.is_empty() {
        message.push_str(&format!(" (expected one of: {})", allowed.join(", ")));
    }
    match root.and_then(|r| key_offset(r, segs)) {
        Some(offset) => Diagnostic::at_offset(path, text, offset, message),
        None => Diagnostic::error(path, message),
    }
}

/// Every key of `table` (at `path`) and of the tables below it that its schema pattern does
/// not allow. Tables no pattern names (settings, data) may hold any key.
fn schema_unknowns(
    table: &DeTable,
    path: &mut Vec<String>,
    schema: Schema,
    out: &mut Vec<Vec<String>>,
) {
    let allowed = (schema.iter())
        .find(|(pattern, _)| matches(pattern, path))
        .map(|(_, keys)| *keys);
    for (key, value) in table {
        path.push(key.get_ref().to_string());
        if allowed.is_some_and(|keys| !keys.contains(&key.get_ref().as_ref())) {
            out.push(path.clone());
        } else {
            match value.get_ref() {
                DeValue::Table(t) => schema_unknowns(t, path, schema, out),
                DeValue::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        if let DeValue::Table(t) = item.get_ref() {
                            path.push(i.to_string());
                            schema_unknowns(t, path, schema, out);
                            path.pop();
                        }
                    }
                }
                _ => {}
            }
        }
        path.pop();
    }
}

/// The path of the innermost table of `table` whose text holds byte `offset`, pushed on `path`.
/// A table begun by a header (`[[spaces]]`) spans its header only, as does its array.
fn table_at(table: &DeTable, offset: usize, path: &mut Vec<String>) {
    for (key, value) in table {
        let (index, inner) = match value.get_ref() {
            DeValue::Table(t) if value.span().contains(&offset) => (None, t),
            DeValue::Array(items) => {
                let item = (items.iter().enumerate()).find(|(_, v)| v.span().contains(&offset));
                match item.map(|(i, v)| (i, v.get_ref())) {
                    Some((i, DeValue::Table(t))) => (Some(i), t),
                    _ => continue,
                }
            }
            _ => continue,
        };
        path.push(key.get_ref().to_string());
        path.extend(index.map(|i| i.to_string()));
        return table_at(inner, offset, path);
    }
}

/// The path of keys (and list positions) to the innermost value holding byte `offset`;
/// whether one was found. (A table's own span need not cover its keys: `[zones]` spans its
/// header, so every table is searched.)
fn value_at(table: &DeTable, offset: usize, path: &mut Vec<String>) -> bool {
    table.iter().any(|(key, value)| {
        path.push(key.get_ref().to_string());
        let found = within(value, offset, path);
        if !found {
            path.pop();
        }
        found
    })
}

/// Whether `value`, or a value inside it, holds byte `offset` (its path pushed on `path`).
fn within(value: &toml::Spanned<DeValue>, offset: usize, path: &mut Vec<String>) -> bool {
    match value.get_ref() {
        DeValue::Table(t) => value_at(t, offset, path) || value.span().contains(&offset),
        DeValue::Array(items) => {
            let inner = items.iter().enumerate().any(|(i, item)| {
                path.push(i.to_string());
                let found = within(item, offset, path);
                if !found {
                    path.pop();
                }
                found
            });
            inner || value.span().contains(&offset)
        }
        _ => value.span().contains(&offset),
    }
}

/// `spaces.4.data` as `spaces[5].data`: array positions counted from 1, as a person counts.
fn shown_path(segs: &[String]) -> String {
    let mut out = String::new();
    for seg in segs {
        match seg.parse::<usize>() {
            Ok(i) => out.push_str(&format!("[{}]", i + 1)),
            Err(_) if out.is_empty() => out.push_str(seg),
            Err(_) => out.push_str(&format!(".{seg}")),
        }
    }
    out
}

fn allowed_keys(parent: &[String], schema: Schema) -> &'static [&'static str] {
    schema
        .iter()
        .find(|(pattern, _)| matches(pattern, parent))
        .map(|(_, keys)| *keys)
        .unwrap_or(&[])
}

fn matches(pattern: &str, parent: &[String]) -> bool {
    let parts: Vec<&str> = if pattern.is_empty() {
        Vec::new()
    } else {
        pattern.split('.').collect()
    };
    parts.len() == parent.len() && parts.iter().zip(parent).all(|(p, s)| *p == "*" || p == s)
}

/// Byte offset of the key at `segs` (e.g. `["settings", "salary"]`) in `text`, if present.
pub fn key_position(text: &str, segs: &[&str]) -> Option<usize> {
    let root = DeTable::parse(text).ok()?;
    let segs: Vec<String> = segs.iter().map(|s| s.to_string()).collect();
    key_offset(root.get_ref(), &segs)
}

/// Byte offset of the key named by `segs` in the parsed document.
fn key_offset(root: &DeTable, segs: &[String]) -> Option<usize> {
    let (last, parents) = segs.split_last()?;
    let mut table = root;
    let mut value: Option<&DeValue> = None;
    for seg in parents {
        let next = match value {
            Some(DeValue::Array(items)) => items.get(seg.parse::<usize>().ok()?)?.get_ref(),
            _ => table.get(seg.as_str())?.get_ref(),
        };
        if let DeValue::Table(t) = next {
            table = t;
        }
        value = Some(next);
    }
    table
        .keys()
        .find(|k| k.get_ref() == last)
        .map(|k| k.span().start)
}

/// The text of the file at `path` (shown as `shown`): its bytes must be UTF-8, and a byte that
/// is not is reported at its line and column.
pub fn read_text(path: &std::path::Path, shown: &str) -> Result<String, Diagnostic> {
    let bytes =
        std::fs::read(path).map_err(|e| Diagnostic::error(shown, format!("cannot read: {e}")))?;
    decode(bytes, shown)
}

/// The text of file `shown` from its bytes: UTF-8, or the byte that is not, at its line and
/// column.
pub fn decode(bytes: Vec<u8>, shown: &str) -> Result<String, Diagnostic> {
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let before = String::from_utf8_lossy(&bytes[..good]);
        let (line, col) = crate::diag::line_col(&before, before.len());
        let msg = format!(
            "invalid UTF-8 (byte 0x{:02x}): game files are UTF-8 text",
            bytes[good]
        );
        Diagnostic::error(shown, msg).at(line, col)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[test]
    fn an_unknown_choice_lists_the_choices_and_the_nearest() {
        assert_eq!(
            unknown_variant("unknown variant `cels`, expected `points` or `cells`").unwrap(),
            "'cels' is not one of: points, cells; did you mean 'cells'?"
        );
        assert_eq!(
            unknown_variant("unknown variant `quux`, expected one of `a`, `bb`, `cc`").unwrap(),
            "'quux' is not one of: a, bb, cc"
        );
        assert_eq!(unknown_variant("missing key 'id'"), None);
    }
    #[test]
    fn type_errors_read_in_plain_words() {
        let plain = |m: &str| invalid_type(m).unwrap();
        assert_eq!(
            plain("invalid type: string \"1\", expected i64"),
            "expected an integer, got the text \"1\""
        );
        assert_eq!(
            plain("invalid value: integer `-1`, expected usize"),
            "expected a whole number of at least 0, got the number -1"
        );
        assert_eq!(
            plain("invalid type: floating point `1.5`, expected a string"),
            "expected a string, got the number 1.5"
        );
        assert_eq!(
            plain("invalid type: boolean `true`, expected a sequence"),
            "expected a list, got true"
        );
        assert_eq!(
            plain("invalid type: map, expected a boolean"),
            "expected true or false, got a table"
        );
        assert_eq!(invalid_type("missing field `id`"), None);
    }

    #[derive(Deserialize, Debug)]
    struct Item {
        id: String,
    }

    #[derive(Deserialize, Debug)]
    struct Doc {
        name: String,
        items: Vec<Item>,
    }

    const SCHEMA: Schema = &[("", &["name", "items"]), ("items.*", &["id"])];

    #[test]
    fn every_unknown_key_is_reported_where_it_is() {
        let text =
            "name = \"x\"\nnmae = 1\n[[items]]\nid = \"a\"\n[[items]]\nid = \"b\"\nidd = 2\n";
        let mut diags = Vec::new();
        let doc: Option<Doc> = parse_toml("f.toml", text, SCHEMA, &mut diags);
        let doc = doc.expect("the known keys are read");
        let ids: Vec<&str> = doc.items.iter().map(|i| i.id.as_str()).collect();
        assert_eq!((doc.name.as_str(), ids), ("x", vec!["a", "b"]));
        crate::diag::sort(&mut diags);
        let shown: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
        assert_eq!(
            shown,
            vec![
                "f.toml:2:1: error: unknown key 'nmae'; did you mean 'name'?",
                "f.toml:7:1: error: unknown key 'idd' in 'items[2]'; did you mean 'id'?",
            ]
        );
    }

    #[test]
    fn syntax_error_is_located() {
        let mut diags = Vec::new();
        let doc: Option<Doc> =
            parse_toml("f.toml", "name = \"x\"\nitems = [\n", SCHEMA, &mut diags);
        assert!(doc.is_none());
        assert_eq!(diags.len(), 1);
        assert!(diags[0].to_string().starts_with("f.toml:"), "{}", diags[0]);
    }
}
