//! `items` in game.toml: the names of the item codes kept in zones, either listed
//! (`items = ["a", { name = "N", label = "北" }]`) or generated from a product of field values (`[items] product`,
//! `name`, `label`, `fields`). Codes run in product order, the first field outermost; every
//! item has a name (as typed), a label (as shown) and a value for every field.

use super::Loc;
use crate::core::action::{Action, Arg};
use crate::diag::{did_you_mean, hint, Diagnostic};
use std::fmt::Write;
use toml::Value;

/// The keys of an `[items]` table.
pub const KEYS: &[&str] = &["product", "name", "label", "fields"];
/// Names an item's Lua table already has.
pub const RESERVED: &[&str] = &["code", "name", "label"];

/// Every item: its name, and its value of each field (in `fields` order).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Items {
    pub names: Vec<String>,
    /// How each item is shown (`label`; its name without one).
    pub labels: Vec<String>,
    pub fields: Vec<String>,
    /// `values[code][field]`.
    pub values: Vec<Vec<Value>>,
}

impl Items {
    /// Each item's value of `field` as a name shows it (`name` gives the names), by code;
    /// None when the items have no such field.
    pub fn texts_of(&self, field: &str) -> Option<Vec<String>> {
        if field == "name" {
            return Some(self.names.clone());
        }
        let f = self.fields.iter().position(|x| x == field)?;
        Some(self.values.iter().map(|row| plain(&row[f])).collect())
    }

    /// An action as a person reads it: each argument that names an item shows the item's
    /// label (`play 2C` reads `play 2♣`; see `label_of`).
    pub fn shown(&self, action: &Action) -> String {
        let mut text = action.verb.clone();
        for arg in &action.args {
            let label = match arg {
                Arg::Str(s) => self.label_of(s),
                _ => None,
            };
            let _ = match label {
                Some(label) => write!(text, " {label}"),
                None => write!(text, " {arg}"),
            };
        }
        text
    }

    /// A typed line with each word after the first that names an item read as the item's
    /// label: `discard 5m` reads `discard 5万`, as the options are shown.
    pub fn labelled(&self, line: &str) -> String {
        let mut words = line.split_whitespace();
        let verb = words.next().unwrap_or("").to_string();
        words.fold(verb, |text, word| {
            text + " " + self.label_of(word).unwrap_or(word)
        })
    }

    /// `action` with each argument that names an item (see `index_of`) written as the item's
    /// name, as the options name it: rules read `play qs` and `play Q♠` as `play QS`.
    pub fn named(&self, action: &Action) -> Action {
        let mut named = action.clone();
        for arg in &mut named.args {
            if let Arg::Str(s) = arg {
                if let Some(i) = self.index_of(s) {
                    *s = self.names[i].clone();
                }
            }
        }
        named
    }

    fn label_of(&self, word: &str) -> Option<&str> {
        self.index_of(word).map(|i| self.labels[i].as_str())
    }

    /// The item `word` names: by its name, else by its label, else by the one name or the one
    /// label that is `word` in other letter cases (`2c` for `2C`, `q♠` for `Q♠`).
    fn index_of(&self, word: &str) -> Option<usize> {
        let exact = |texts: &[String]| texts.iter().position(|t| t == word);
        let folded = |texts: &[String]| {
            crate::diag::sole(texts.iter().map(|t| t.eq_ignore_ascii_case(word)))
        };
        (exact(&self.names))
            .or_else(|| exact(&self.labels))
            .or_else(|| folded(&self.names))
            .or_else(|| folded(&self.labels))
    }

    /// The fields an item can be told by: `name`, then the fields in order.
    pub fn field_names(&self) -> Vec<&str> {
        std::iter::once("name")
            .chain(self.fields.iter().map(String::as_str))
            .collect()
    }
}

/// Reads `items` (`None`: the game keeps no items); `key_loc` locates a key path below
/// `items` (falling back to `items` itself).
pub fn check_items(
    def: Option<&Value>,
    key_loc: &dyn Fn(&[&str]) -> Loc,
    diags: &mut Vec<Diagnostic>,
) -> Items {
    let at = |segs: &[&str]| key_loc(&[&["items"], segs].concat());
    match def {
        None => Items::default(),
        Some(Value::Array(names)) => listed(names, &at, diags),
        Some(Value::Table(t)) => generated(t, &at, diags).unwrap_or_default(),
        Some(_) => {
            diags.push(at(&[]).error(
                "items: expected a list of names or a table with a product (see docs/making-games.md)",
            ));
            Items::default()
        }
    }
}

/// The keys of an item in the list form, written as a table.
const ITEM_KEYS: &[&str] = &["name", "label"];

/// The list form: each item its name (`"北"`), or its name and label
/// (`{ name = "N", label = "北" }`: typed as N, shown as 北).
fn listed(list: &[Value], at: &dyn Fn(&[&str]) -> Loc, diags: &mut Vec<Diagnostic>) -> Items {
    let mut items = Items::default();
    for (i, entry) in list.iter().enumerate() {
        let here = |key: &[&str]| at(&[&[i.to_string().as_str()], key].concat());
        let (name, label) = match entry {
            Value::String(s) if s.trim().is_empty() => {
                diags.push(here(&[]).error("items: a name must not be empty"));
                (String::new(), String::new())
            }
            Value::String(s) => (s.clone(), s.clone()),
            Value::Table(t) => named_item(t, &here, diags),
            other => {
                let message = format!(
                    "items: expected a name (text) or {{ name = .., label = .. }}, got {other}"
                );
                diags.push(here(&[]).error(message));
                (String::new(), String::new())
            }
        };
        // (An item without a name has had its error.)
        if !name.is_empty() && items.names.contains(&name) {
            diags.push(here(&[]).error(format!("items: the name '{name}' is given twice")));
        }
        items.names.push(name);
        items.labels.push(label);
    }
    items
}

/// An item of the list form written as a table: its name and its label (its name without one).
fn named_item(
    t: &toml::Table,
    here: &dyn Fn(&[&str]) -> Loc,
    diags: &mut Vec<Diagnostic>,
) -> (String, String) {
    for key in t.keys().filter(|k| !ITEM_KEYS.contains(&k.as_str())) {
        let message = format!(
            "unknown key '{key}' in an item (expected name, label){}",
            hint(key, ITEM_KEYS.iter().copied())
        );
        diags.push(here(&[key]).error(message));
    }
    let mut text = |key: &str| match t.get(key) {
        Some(Value::String(s)) if s.trim().is_empty() => {
            diags.push(here(&[key]).error(format!("items: {key}: must not be empty")));
            None
        }
        Some(Value::String(s)) => Some(s.clone()),
        None => None,
        Some(other) => {
            let message = format!("items: {key}: expected text, got {other}");
            diags.push(here(&[key]).error(message));
            None
        }
    };
    let (name, label) = (text("name"), text("label"));
    let Some(name) = name else {
        if !t.contains_key("name") {
            let first: Vec<&str> = t.keys().take(1).map(String::as_str).collect();
            diags.push(here(&first).error("items: an item written as a table needs a name"));
        }
        return (String::new(), String::new());
    };
    let label = label.unwrap_or_else(|| name.clone());
    (name, label)
}

/// One field of the product: its name and its values.
type Axis = (String, Vec<Value>);

fn generated(
    t: &toml::Table,
    at: &dyn Fn(&[&str]) -> Loc,
    diags: &mut Vec<Diagnostic>,
) -> Option<Items> {
    for key in t.keys().filter(|k| !KEYS.contains(&k.as_str())) {
        let message = match did_you_mean(key, KEYS.iter().copied()) {
            Some(near) => format!("unknown key '{key}' in 'items'; did you mean '{near}'?"),
            None => format!(
                "unknown key '{key}' in 'items' (expected one of: {})",
                KEYS.join(", ")
            ),
        };
        diags.push(at(&[key]).error(message));
    }
    let Some(product) = t.get("product") else {
        diags.push(at(&[]).error(
            "items: a table of items needs a product (e.g. product = { suit = [..], rank = [..] })",
        ));
        return None;
    };
    let axes = check_product(product, at, diags)?;
    let derived = match t.get("fields") {
        Some(f) => check_fields(f, &axes, at, diags),
        None => Vec::new(),
    };
    let fields: Vec<String> = (axes.iter().map(|a| a.0.clone()))
        .chain(derived.iter().map(|d| d.0.clone()))
        .collect();
    // Templates may name every field declared, one whose values are wrong (said already) too.
    let declared: Vec<String> = (fields.iter().cloned())
        .chain(
            (t.get("fields")
                .and_then(Value::as_table)
                .into_iter()
                .flat_map(|f| f.keys()))
            .cloned(),
        )
        .fold(Vec::new(), |mut all, f| {
            if !all.contains(&f) {
                all.push(f);
            }
            all
        });
    let name = template(t, "name", &declared, at, diags)?;
    let name = name.unwrap_or_else(|| axes.iter().map(|a| format!("{{{}}}", a.0)).collect());
    let label = template(t, "label", &declared, at, diags)?;
    let values: Vec<Vec<Value>> = combinations(&axes)
        .into_iter()
        .map(|mut row| {
            for (_, by, table) in &derived {
                let key = plain(&row[*by]);
                row.push(table.get(&key).cloned().unwrap_or(Value::Boolean(false)));
            }
            row
        })
        .collect();
    let filled = |template: &str| -> Vec<String> {
        (values.iter())
            .map(|row| {
                super::cards::fill(template, |name| {
                    let f = fields.iter().position(|f| f == name)?;
                    Some(plain(&row[f]))
                })
            })
            .collect()
    };
    let names = filled(&name);
    let labels = label.map_or_else(|| names.clone(), |l| filled(&l));
    Some(Items {
        names,
        labels,
        fields,
        values,
    })
}

/// The template under `key` (`name`, `label`), its `{field}`s checked against `fields`:
/// None when it is not text, Some(None) when absent.
fn template(
    t: &toml::Table,
    key: &str,
    fields: &[String],
    at: &dyn Fn(&[&str]) -> Loc,
    diags: &mut Vec<Diagnostic>,
) -> Option<Option<String>> {
    let template = match t.get(key) {
        Some(Value::String(s)) => s.clone(),
        Some(other) => {
            diags.push(at(&[key]).error(format!("items: {key}: expected text, got {other}")));
            return None;
        }
        None => return Some(None),
    };
    for (_, name) in super::cards::placeholders(&template) {
        if !fields.iter().any(|f| f == name) {
            let hint = hint(name, fields.iter().map(|f| f.as_str()));
            diags.push(at(&[key]).error(format!(
                "items: the {key} names {{{name}}}, which is not a field of the items{hint} (fields: {})",
                fields.join(", ")
            )));
        }
    }
    Some(Some(template))
}

/// `product = { suit = [..], rank = [..] }`: each field's values, at least one each.
fn check_product(
    product: &Value,
    at: &dyn Fn(&[&str]) -> Loc,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<Axis>> {
    let Value::Table(t) = product else {
        diags.push(at(&["product"]).error(
            "items: product: expected a table of fields and their values (e.g. { suit = [..] })",
        ));
        return None;
    };
    if t.is_empty() {
        diags.push(at(&["product"]).error("items: product: expected at least one field"));
    }
    let mut axes = Vec::new();
    for (name, values) in t {
        let here = at(&["product", name]);
        if RESERVED.contains(&name.as_str()) {
            diags.push(here.error(format!(
                "items: field '{name}' would be hidden: an item's table already has '{name}'"
            )));
            continue;
        }
        match values {
            Value::Array(v) if !v.is_empty() && v.iter().all(is_key) => {
                axes.push((name.clone(), v.clone()))
            }
            _ => diags.push(here.error(format!(
                "items: product field '{name}': expected a list of its values (text or whole numbers)"
            ))),
        }
    }
    (axes.len() == t.len() && !axes.is_empty()).then_some(axes)
}

/// A product field's value: text or a whole number, so that a field can be looked up by it.
fn is_key(v: &Value) -> bool {
    matches!(v, Value::String(_) | Value::Integer(_))
}

/// A value as a name shows it (text without quotes).
fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A field worked out from a product field: its name, the product field (index) and its
/// value for each value of that field.
type Derived = (String, usize, toml::Table);

/// `fields = { value = { rank = { A = 1, .. } } }`: each field, by one product field, with a
/// value (number, text, true/false) for each of that field's values and for nothing else.
fn check_fields(
    fields: &Value,
    axes: &[Axis],
    at: &dyn Fn(&[&str]) -> Loc,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Derived> {
    let Value::Table(t) = fields else {
        diags.push(at(&["fields"]).error("items: fields: expected a table of fields"));
        return Vec::new();
    };
    let names: Vec<&str> = axes.iter().map(|a| a.0.as_str()).collect();
    let mut out = Vec::new();
    for (name, def) in t {
        let here = at(&["fields", name]);
        let by_one = match def {
            Value::Table(by) if by.len() == 1 => by.iter().next(),
            _ => None,
        };
        let Some((by, Value::Table(table))) = by_one else {
            diags.push(here.error(format!(
                "items: field '{name}': expected its value by one product field, e.g. {name} = {{ {} = {{ .. }} }}",
                names[0]
            )));
            continue;
        };
        if RESERVED.contains(&name.as_str()) || names.contains(&name.as_str()) {
            diags.push(here.error(format!(
                "items: field '{name}' is defined twice (a product field, or a name an item's table already has)"
            )));
            continue;
        }
        let Some(axis) = names.iter().position(|n| n == by) else {
            let hint = hint(by, names.iter().copied());
            diags.push(at(&["fields", name, by]).error(format!(
                "items: field '{name}' is given by '{by}', which is not a product field{hint} (product: {})",
                names.join(", ")
            )));
            continue;
        };
        if check_table(
            name,
            by,
            &axes[axis].1,
            table,
            &|k| at(&["fields", name, by, k]),
            diags,
        ) {
            out.push((name.clone(), axis, table.clone()));
        }
    }
    out
}

/// Whether `table` gives `field` a value (number, text, true/false) for every value of
/// product field `by` and for nothing else; each problem is pushed.
fn check_table(
    field: &str,
    by: &str,
    values: &[Value],
    table: &toml::Table,
    at: &dyn Fn(&str) -> Loc,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let before = diags.len();
    let keys: Vec<String> = values.iter().map(plain).collect();
    for (k, v) in table {
        if !keys.contains(k) {
            let hint = hint(k, keys.iter().map(|k| k.as_str()));
            diags.push(at(k).error(format!(
                "items: field '{field}' gives a value for {by} '{k}', which is not one of the {by} values{hint}"
            )));
        } else if matches!(v, Value::Array(_) | Value::Table(_) | Value::Datetime(_)) {
            diags.push(at(k).error(format!(
                "items: field '{field}' for {by} '{k}': expected a number, text or true/false"
            )));
        }
    }
    let missing: Vec<&str> = (keys.iter())
        .filter(|k| !table.contains_key(*k))
        .map(|k| k.as_str())
        .collect();
    if !missing.is_empty() {
        diags.push(at("").error(format!(
            "items: field '{field}' has no value for {by} {}",
            missing.join(", ")
        )));
    }
    diags.len() == before
}

/// Every combination of the axes' values, the first axis outermost.
fn combinations(axes: &[Axis]) -> Vec<Vec<Value>> {
    axes.iter().fold(vec![Vec::new()], |rows, (_, values)| {
        rows.iter()
            .flat_map(|row| {
                values.iter().map(move |v| {
                    let mut r = row.clone();
                    r.push(v.clone());
                    r
                })
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (Items, Vec<String>) {
        let value: toml::Table = toml::from_str(text).unwrap();
        let mut diags = Vec::new();
        let loc = |_: &[&str]| Loc {
            path: "game.toml".into(),
            line: 1,
            col: 1,
        };
        let items = check_items(value.get("items"), &loc, &mut diags);
        (items, diags.iter().map(|d| d.message.clone()).collect())
    }

    #[test]
    fn a_product_runs_its_first_field_outermost_and_names_each_item() {
        let (items, diags) = read(
            "[items]\nproduct = { suit = [\"S\", \"H\"], rank = [1, 2, 3] }\n\
             fields.odd = { rank = { 1 = true, 2 = false, 3 = true } }\n",
        );
        assert_eq!(diags, Vec::<String>::new());
        assert_eq!(items.names, ["S1", "S2", "S3", "H1", "H2", "H3"]);
        assert_eq!(items.fields, ["suit", "rank", "odd"]);
        let h2 = [Value::from("H"), Value::from(2), Value::from(false)];
        assert_eq!(items.values[4], h2);
    }

    #[test]
    fn an_action_shows_the_items_it_names_by_their_labels() {
        let (items, _) = read(
            "[items]\nproduct = { rank = [\"Q\", \"K\"], suit = [\"S\", \"H\"] }\n\
             name = \"{rank}{suit}\"\nlabel = \"{rank}{sym}\"\n\
             fields.sym = { suit = { S = \"♠\", H = \"♥\" } }\n",
        );
        let pass = Action::parse("pass QS KH 2 QX").unwrap();
        assert_eq!(items.shown(&pass), "pass Q♠ K♥ 2 QX");
    }

    #[test]
    fn a_listed_item_may_have_a_label_and_is_typed_by_its_name() {
        let (items, diags) =
            read("items = [\"1m\", { name = \"N\", label = \"北\" }, { name = \"Wd\" }]\n");
        assert_eq!(diags, Vec::<String>::new());
        assert_eq!(
            (items.names.clone(), items.labels.clone()),
            (
                vec!["1m".to_string(), "N".into(), "Wd".into()],
                vec!["1m".to_string(), "北".into(), "Wd".into()]
            )
        );
        assert_eq!(items.labelled("discard n"), "discard 北");
        assert_eq!(items.labelled("N  1M x"), "N 1m x");
        // The rules read an action's items by their names, however typed.
        let typed = Action::parse("pung 北 n 1M wd x 3").unwrap();
        assert_eq!(items.named(&typed).to_string(), "pung N N 1m Wd x 3");
    }

    #[test]
    fn a_listed_item_is_checked() {
        let (_, diags) = read(
            "items = [{ name = \"a\", lable = \"A\" }, { label = \"B\" }, 3, \"a\", \
             { label = \"C\" }, { name = \"w\", label = \" \" }, \"\"]\n",
        );
        assert_eq!(
            diags,
            [
                "unknown key 'lable' in an item (expected name, label); did you mean 'label'?",
                "items: an item written as a table needs a name",
                "items: expected a name (text) or { name = .., label = .. }, got 3",
                "items: the name 'a' is given twice",
                "items: an item written as a table needs a name",
                "items: label: must not be empty",
                "items: a name must not be empty",
            ]
        );
    }

    #[test]
    fn a_list_names_items_without_fields() {
        let (items, diags) = read("items = [\"a\", \"b\"]\n");
        assert!(diags.is_empty());
        assert_eq!(
            (items.names, items.fields.len()),
            (vec!["a".into(), "b".into()], 0)
        );
    }
}
