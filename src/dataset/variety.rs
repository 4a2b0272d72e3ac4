//! The variety of a dataset: every way its images differ, each a named part with a value
//! (`arrows=0.3`, `size=192-640`, `theme=brown:1,random:6`), set by `--vary PART=VALUE` on
//! the command line, keyword arguments in Python and [`Variety::set`] in Rust: one
//! vocabulary, read here.
//!
//! Owns the parts' table ([`PARTS`]: names, kinds, full and plain values, what each does),
//! reading values, and the sentences that refuse a bad one. What a value does to an image
//! is `sample`'s.

use std::fmt;

/// What kind of value a part takes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// A probability, 0 to 1: how often the part is drawn.
    Chance,
    /// A number or a range `LOW-HIGH`, within these bounds.
    Range(f64, f64),
    /// Names with weights: `name` alone, or `name:weight,name:weight`.
    Choice(&'static [&'static str]),
}

/// One part of the variety.
#[derive(Debug, Clone, Copy)]
pub struct Part {
    /// Its name (kebab-case; `_` is read as `-`).
    pub name: &'static str,
    /// Its kind of value.
    pub kind: Kind,
    /// Its value in a full-variety set (the default).
    pub full: &'static str,
    /// Its value with `--plain`.
    pub plain: &'static str,
    /// What it does, one line.
    pub about: &'static str,
}

/// The themes `theme` chooses among: the built-in ones, and `random`, a palette drawn for
/// the image (light and dark squares at least `contrast` apart).
pub const THEMES: &[&str] = &[
    "brown",
    "blue",
    "green",
    "gray",
    "wikipedia",
    "print",
    "random",
];

/// Every part, in the order help texts list them. `pieces`' names are the piece sets
/// (checked against the renderer's when the dataset is made).
pub const PARTS: &[Part] = &[
    part(
        "theme",
        Kind::Choice(THEMES),
        "brown:1,blue:1,green:1,gray:1,wikipedia:1,print:1,random:6",
        "brown",
        "board colours: a built-in theme, or random (a palette of its own)",
    ),
    part(
        "contrast",
        Kind::Range(1.05, 21.0),
        "1.3",
        "1.3",
        "the least contrast ratio between a random palette's light and dark squares",
    ),
    part(
        "pieces",
        Kind::Choice(&[]),
        "",
        "staunton",
        "piece sets: the built-in staunton and staunton-classic, and every set in --pieces DIR (empty: all, equally)",
    ),
    part(
        "size",
        Kind::Range(64.0, 1024.0),
        "192-640",
        "400",
        "the diagram's width in pixels",
    ),
    part(
        "coordinates",
        Kind::Choice(&["none", "outside", "inside"]),
        "none:1,outside:1,inside:1",
        "outside",
        "coordinate labels: none, in a margin outside the board, or inside on the edge squares",
    ),
    part(
        "orientation",
        Kind::Choice(&["white", "black"]),
        "white:1,black:1",
        "white",
        "which side is at the bottom",
    ),
    part(
        "last-move",
        Kind::Chance,
        "0.5",
        "0",
        "tint the last move's squares (when the position's source knows it)",
    ),
    part(
        "check",
        Kind::Chance,
        "0.8",
        "0",
        "the glow on a king in check",
    ),
    part(
        "arrows",
        Kind::Chance,
        "0.3",
        "0",
        "one to three arrows or circles, in the four mark colours",
    ),
    part(
        "highlights",
        Kind::Chance,
        "0.3",
        "0",
        "one to four squares filled with a translucent colour",
    ),
    part(
        "markers",
        Kind::Chance,
        "0.2",
        "0",
        "one to three square markers (circle, dotted, square, triangle, dot, ring)",
    ),
    part(
        "hatching",
        Kind::Chance,
        "0.1",
        "0",
        "dark squares hatched as in print (the print theme always is)",
    ),
    part(
        "margin",
        Kind::Range(0.0, 0.5),
        "0-0.15",
        "0",
        "background around the diagram, a fraction of its width on each side",
    ),
    part(
        "background",
        Kind::Choice(&["plain", "noise", "pictures"]),
        "plain:1,noise:1,pictures:2",
        "plain",
        "what lies around the diagram: a plain colour, soft noise, or a crop of a picture from --backgrounds DIR",
    ),
    part(
        "rotation",
        Kind::Chance,
        "0.3",
        "0",
        "turn the image a little",
    ),
    part(
        "rotation-degrees",
        Kind::Range(0.0, 45.0),
        "0.5-5",
        "0",
        "how far, either way",
    ),
    part(
        "perspective",
        Kind::Chance,
        "0.25",
        "0",
        "look at the board from a little off its axis",
    ),
    part(
        "perspective-amount",
        Kind::Range(0.0, 0.25),
        "0.02-0.1",
        "0",
        "how much the far edge shrinks",
    ),
    part(
        "blur",
        Kind::Chance,
        "0.2",
        "0",
        "blur the image (a Gaussian)",
    ),
    part(
        "blur-sigma",
        Kind::Range(0.0, 5.0),
        "0.3-1.2",
        "0",
        "the blur's sigma in pixels",
    ),
    part("noise", Kind::Chance, "0.3", "0", "sensor noise"),
    part(
        "noise-sigma",
        Kind::Range(0.0, 64.0),
        "2-10",
        "0",
        "the noise's sigma in levels of 255",
    ),
    part(
        "brightness",
        Kind::Chance,
        "0.3",
        "0",
        "a darker or brighter exposure",
    ),
    part(
        "brightness-range",
        Kind::Range(0.2, 3.0),
        "0.75-1.25",
        "1",
        "the factor every channel is multiplied by",
    ),
    part(
        "jpeg",
        Kind::Chance,
        "0.5",
        "0",
        "write the image as JPEG (else PNG)",
    ),
    part(
        "jpeg-quality",
        Kind::Range(1.0, 100.0),
        "40-95",
        "90",
        "the JPEG quality",
    ),
];

const fn part(
    name: &'static str,
    kind: Kind,
    full: &'static str,
    plain: &'static str,
    about: &'static str,
) -> Part {
    Part {
        name,
        kind,
        full,
        plain,
        about,
    }
}

/// A part's value, read.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A probability.
    Chance(f64),
    /// A range, low ≤ high (equal for a single number).
    Range(f64, f64),
    /// Names and their weights, in the order given.
    Choice(Vec<(String, f64)>),
}

/// Why a part's value was refused: one sentence naming the part, the value and what is
/// allowed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct VarietyError(pub String);

/// Every part's value: the full variety, the plain one, or either with parts set.
#[derive(Debug, Clone, PartialEq)]
pub struct Variety {
    values: Vec<Value>,
}

impl Variety {
    /// Every part at its full value (the default).
    pub fn full() -> Variety {
        Variety::from_table(|p| p.full)
    }

    /// Every part off (`--plain`): one theme, one set, 400 px, no marks, no camera, PNG.
    pub fn plain() -> Variety {
        Variety::from_table(|p| p.plain)
    }

    fn from_table(value: impl Fn(&Part) -> &'static str) -> Variety {
        let values = PARTS
            .iter()
            .map(|p| read(p, value(p)).unwrap_or_else(|e| panic!("the table's {}: {e}", p.name)))
            .collect();
        Variety { values }
    }

    /// Set part `name` (`_` read as `-`, case-insensitive) to `text`.
    pub fn set(&mut self, name: &str, text: &str) -> Result<(), VarietyError> {
        let wanted = name.trim().replace('_', "-").to_ascii_lowercase();
        let Some(i) = PARTS.iter().position(|p| p.name == wanted) else {
            let names: Vec<&str> = PARTS.iter().map(|p| p.name).collect();
            return Err(VarietyError(format!(
                "{} is no part of the variety; the parts are {}.",
                Quoted(name),
                names.join(", ")
            )));
        };
        self.values[i] = read(&PARTS[i], text.trim())?;
        Ok(())
    }

    /// Set every `(name, value)` pair in turn.
    pub fn set_all<'a>(
        &mut self,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<(), VarietyError> {
        pairs
            .into_iter()
            .try_for_each(|(name, value)| self.set(name, value))
    }

    fn value(&self, name: &str) -> &Value {
        let i = PARTS.iter().position(|p| p.name == name);
        &self.values[i.unwrap_or_else(|| panic!("no part {name}"))]
    }

    /// A chance part's probability.
    pub fn chance(&self, name: &str) -> f64 {
        match self.value(name) {
            Value::Chance(p) => *p,
            other => panic!("{name} is {other:?}"),
        }
    }

    /// A range part's bounds.
    pub fn range(&self, name: &str) -> (f64, f64) {
        match self.value(name) {
            Value::Range(lo, hi) => (*lo, *hi),
            other => panic!("{name} is {other:?}"),
        }
    }

    /// A choice part's names and weights (empty: every name, equally).
    pub fn choice(&self, name: &str) -> &[(String, f64)] {
        match self.value(name) {
            Value::Choice(c) => c,
            other => panic!("{name} is {other:?}"),
        }
    }

    /// Every part and its value as text, in table order (for `dataset.json`).
    pub fn describe(&self) -> Vec<(&'static str, String)> {
        PARTS
            .iter()
            .zip(&self.values)
            .map(|(p, v)| (p.name, v.to_string()))
            .collect()
    }
}

impl Default for Variety {
    fn default() -> Self {
        Variety::full()
    }
}

/// `text` read as `part`'s value.
fn read(part: &Part, text: &str) -> Result<Value, VarietyError> {
    let name = part.name;
    let refuse =
        |allowed: String| Err(VarietyError(format!("{name}={}: {allowed}.", Quoted(text))));
    match part.kind {
        Kind::Chance => match number(text) {
            Some(p) if (0.0..=1.0).contains(&p) => Ok(Value::Chance(p)),
            _ => refuse(format!("{name} is a chance, a number from 0 to 1")),
        },
        Kind::Range(min, max) => {
            let (lo, hi) = match split_range(text) {
                Some((a, b)) => (number(a), number(b)),
                None => (number(text), number(text)),
            };
            match (lo, hi) {
                (Some(lo), Some(hi)) if min <= lo && lo <= hi && hi <= max => {
                    Ok(Value::Range(lo, hi))
                }
                _ => refuse(format!(
                    "{name} is a number or a range LOW-HIGH, from {min} to {max}"
                )),
            }
        }
        Kind::Choice(names) => read_choice(name, names, text)
            .map(Value::Choice)
            .or_else(refuse),
    }
}

/// A range's two ends: `a-b`, where `a` may not be empty (so `-3` alone is not split).
fn split_range(text: &str) -> Option<(&str, &str)> {
    let at = text.get(1..)?.find('-')? + 1;
    Some((&text[..at], &text[at + 1..]))
}

/// A finite number, written plainly.
fn number(text: &str) -> Option<f64> {
    let ok = !text.is_empty()
        && text.len() <= 24
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-');
    ok.then(|| text.parse::<f64>().ok())
        .flatten()
        .filter(|n| n.is_finite())
}

/// Most names a choice may list.
const MAX_CHOICES: usize = 64;

/// `name:weight,…` (a name alone weighs 1); an empty text is every name, equally.
fn read_choice(part: &str, names: &[&str], text: &str) -> Result<Vec<(String, f64)>, String> {
    let allowed = |what: &str| {
        let list = if names.is_empty() {
            "piece set names".to_string()
        } else {
            names.join(", ")
        };
        format!(
            "{part} takes {what}: NAME or NAME:WEIGHT,NAME:WEIGHT, with names from {list} and weights from 0 to 1000000"
        )
    };
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let mut chosen = Vec::new();
    for item in text.split(',') {
        let (name, weight) = match item.split_once(':') {
            Some((n, w)) => (n.trim(), number(w.trim())),
            None => (item.trim(), Some(1.0)),
        };
        let known = names.is_empty() && valid_set_name(name)
            || names.iter().any(|n| n.eq_ignore_ascii_case(name));
        match weight {
            Some(w) if known && (0.0..=1e6).contains(&w) => {
                chosen.push((name.to_ascii_lowercase(), w));
            }
            _ => return Err(allowed("names with weights")),
        }
    }
    if chosen.len() > MAX_CHOICES || chosen.iter().all(|(_, w)| *w == 0.0) {
        return Err(allowed(&format!(
            "at most {MAX_CHOICES} names, one weighing more than 0"
        )));
    }
    Ok(chosen)
}

/// A piece set's name as folders may have it (`PieceSets::with_dir`).
fn valid_set_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Chance(p) => write!(f, "{p}"),
            Value::Range(lo, hi) if lo == hi => write!(f, "{lo}"),
            Value::Range(lo, hi) => write!(f, "{lo}-{hi}"),
            Value::Choice(items) => {
                let items: Vec<String> = items.iter().map(|(n, w)| format!("{n}:{w}")).collect();
                f.write_str(&items.join(","))
            }
        }
    }
}

/// A value shown in a sentence: in quotes, clipped, control characters escaped.
struct Quoted<'a>(&'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", crate::echo::Echo(self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_values_read_and_plain_turns_everything_off() {
        let (full, plain) = (Variety::full(), Variety::plain());
        for p in PARTS.iter().filter(|p| p.kind == Kind::Chance) {
            assert!(full.chance(p.name) > 0.0, "{}", p.name);
            assert_eq!(plain.chance(p.name), 0.0, "{}", p.name);
        }
        assert_eq!(plain.range("size"), (400.0, 400.0));
        assert_eq!(full.range("size"), (192.0, 640.0));
        assert_eq!(plain.choice("theme"), [("brown".to_string(), 1.0)]);
        assert!(full.choice("pieces").is_empty());
    }

    #[test]
    fn values_are_set_by_name_and_bad_ones_are_refused_with_a_sentence() {
        let mut v = Variety::full();
        v.set("last_move", "0.25").unwrap();
        assert_eq!(v.chance("last-move"), 0.25);
        v.set("Size", "300").unwrap();
        assert_eq!(v.range("size"), (300.0, 300.0));
        v.set("theme", "blue:2, random:1").unwrap();
        assert_eq!(v.choice("theme").len(), 2);
        let error = |name: &str, value: &str| Variety::full().set(name, value).unwrap_err().0;
        assert_eq!(
            error("arrows", "2"),
            "arrows=\"2\": arrows is a chance, a number from 0 to 1."
        );
        assert!(error("size", "10-5000").contains("from 64 to 1024"));
        assert!(error("size", "500-300").contains("LOW-HIGH"));
        assert!(error("theme", "purple").contains("brown, blue"));
        assert!(error("theme", "blue:0").contains("one weighing more than 0"));
        assert!(error("pieces", "../x").contains("piece set names"));
        assert!(error("nonsense", "1").contains("no part of the variety"));
        assert!(error("margin", "nan").contains("from 0 to 0.5"));
    }

    #[test]
    fn every_value_reads_back_from_its_text() {
        let v = Variety::full();
        let mut again = Variety::plain();
        for (name, text) in v.describe() {
            again.set(name, &text).unwrap();
        }
        assert_eq!(again, v);
    }
}
