//! Names a route does not read: which of a query's names are unknown among the parameters
//! a route takes, the nearest known name to suggest, the `Staunton-Warning` text that
//! names them, and `strict=1`, which turns them into an error.
//!
//! Owns the service-wide parameters ([`SERVICE_PARAMS`]: `strict`, `errors`), known on
//! every route that reads a query. Which parameters a route reads is the route table's to
//! say (`http::routes`); this module only compares names.

use super::error::RequestError;
use super::params::{Param, ParamKind, param};
use super::query::Query;
use super::values::parse_flag;
use std::cmp::Ordering;
use std::fmt::{self, Write as _};

/// The parameters every route that reads a query takes, beside its own.
pub const SERVICE_PARAMS: &[Param] = &[
    param(
        "strict",
        &["strict"],
        ParamKind::Flag,
        "Refuse (400) a query with a name this route does not read, instead of ignoring it; the `Staunton-Warning` header names such names either way.",
    ),
    param(
        "errors",
        &["errors"],
        ParamKind::Choice(&["text", "image"]),
        "How a 4xx is answered: `text`, one sentence in plain text, or `image`, that sentence drawn on a card of the requested format and size (what a browser's `<img>` gets when its `Accept` prefers images).",
    ),
];

/// How many unknown names a warning lists before it says how many more there are.
const LISTED: usize = 5;
/// How much of an unknown name a warning repeats.
const NAME_CHARS: usize = 40;
/// Names longer than this get no suggestion (no parameter is nearly this long).
const LONGEST_COMPARED: usize = 32;

/// The names of the parameters one route reads, every spelling, compared without case.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Known {
    /// `(spelling, canonical name)`, sorted by spelling without case, for binary search.
    spellings: Vec<(&'static str, &'static str)>,
}

/// A name a query gives that its route does not read, and the nearest known name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unknown {
    /// The name as given (decoded).
    pub name: String,
    /// The canonical name of the nearest parameter, if one is near enough.
    pub nearest: Option<&'static str>,
}

/// The names a query gives that its route does not read: the first five, each with the
/// nearest known name, and how many there are in all (each name counted once).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Unknowns {
    /// The first unknown names, in the query's order (at most five).
    pub listed: Vec<Unknown>,
    /// How many unknown names there are, listed or not.
    pub total: usize,
}

impl Known {
    /// The names of `params` and of [`SERVICE_PARAMS`].
    pub fn new<'p>(params: impl IntoIterator<Item = &'p Param>) -> Known {
        let mut spellings: Vec<(&'static str, &'static str)> = params
            .into_iter()
            .chain(SERVICE_PARAMS)
            .flat_map(|p| p.spellings.iter().map(move |s| (*s, p.name)))
            .collect();
        spellings.sort_by(|a, b| caseless(a.0, b.0));
        spellings.dedup_by(|a, b| a.0.eq_ignore_ascii_case(b.0));
        Known { spellings }
    }

    /// Whether `name` is a spelling of one of the parameters (case-insensitive). An empty
    /// name (`=x`, `&&`) names nothing and counts as known.
    pub fn knows(&self, name: &str) -> bool {
        name.is_empty()
            || self
                .spellings
                .binary_search_by(|(s, _)| caseless(s, name))
                .is_ok()
    }

    /// The canonical name of the spelling nearest `name`, if it is near enough to be a
    /// slip: at most 1 edit for names up to 5 letters, 2 beyond (a swap of two letters
    /// is one edit).
    pub fn nearest(&self, name: &str) -> Option<&'static str> {
        let len = name.chars().count();
        if len > LONGEST_COMPARED {
            return None;
        }
        let most = (len / 3).clamp(1, 2);
        self.spellings
            .iter()
            .map(|(s, canonical)| (edits(name, s), *canonical))
            .filter(|(d, _)| *d <= most)
            .min_by_key(|(d, _)| *d)
            .map(|(_, canonical)| canonical)
    }

    /// The names of `names` this route does not read, each once (without case): the
    /// first five in order, with the nearest known name, and how many in all. Allocates
    /// nothing when every name is known; a suggestion is sought for the listed ones only.
    pub fn unknown<'n>(&self, names: impl IntoIterator<Item = &'n str>) -> Unknowns {
        let mut listed: Vec<Unknown> = Vec::new();
        let mut rest: Vec<&'n str> = Vec::new();
        for name in names {
            if self.knows(name) || listed.iter().any(|u| u.name.eq_ignore_ascii_case(name)) {
                continue;
            }
            match listed.len() < LISTED {
                true => listed.push(Unknown {
                    name: name.to_string(),
                    nearest: self.nearest(name),
                }),
                false => rest.push(name),
            }
        }
        rest.sort_unstable_by(|a, b| caseless(a, b));
        rest.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
        Unknowns {
            total: listed.len() + rest.len(),
            listed,
        }
    }

    /// `Ok` unless `query` says `strict=1` and gives a name this route does not read;
    /// then one sentence naming the first such name (with a suggestion) and `route`.
    /// A `strict` value that is not a flag is refused too.
    pub fn check_strict(&self, query: &Query, route: &str) -> Result<(), RequestError> {
        let Some(value) = query.last(&SERVICE_PARAMS[0]) else {
            return Ok(());
        };
        if !parse_flag("strict", value)? {
            return Ok(());
        }
        let unknown = self.unknown(query.names());
        let Some(first) = unknown.listed.first() else {
            return Ok(());
        };
        let mut message = format!(
            "strict=1: {} is not a parameter of {route}",
            Shown(&first.name)
        );
        let _ = match first.nearest {
            Some(near) => write!(message, ": did you mean {near}?"),
            None => write!(message, " (see /openapi.json for its parameters)"),
        };
        if unknown.total > 1 {
            let _ = write!(message, " ({} unknown names in all)", unknown.total);
        }
        Err(RequestError::new("strict", message))
    }
}

/// The text of a `Staunton-Warning` header naming `unknown` (none when it is empty):
/// `orientaton: did you mean orientation?; sise: did you mean size?`, at most five names
/// then `and N more`, printable ASCII only, each name shortened to 40 characters.
pub fn warning(unknown: &Unknowns) -> Option<String> {
    if unknown.listed.is_empty() {
        return None;
    }
    let mut text = String::new();
    for (i, u) in unknown.listed.iter().enumerate() {
        if i > 0 {
            text.push_str("; ");
        }
        let _ = match u.nearest {
            Some(near) => write!(text, "{}: did you mean {near}?", Shown(&u.name)),
            None => write!(text, "{}: unknown parameter, ignored", Shown(&u.name)),
        };
    }
    if unknown.total > unknown.listed.len() {
        let _ = write!(text, "; and {} more", unknown.total - unknown.listed.len());
    }
    Some(text)
}

/// A user's parameter name made safe for a header and a message: bare when it is plain
/// (letters, digits, `_`, `-`, `.`, `[`, `]`), else quoted with every character that is
/// not printable ASCII as `?`; at most 40 characters, then `...`.
struct Shown<'a>(&'a str);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plain = self
            .0
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-.[]".contains(&b));
        let quote = if plain { "" } else { "\"" };
        f.write_str(quote)?;
        for (i, c) in self.0.chars().enumerate() {
            if i == NAME_CHARS {
                f.write_str("...")?;
                break;
            }
            let printable = (c.is_ascii_graphic() && c != '"') || c == ' ';
            f.write_char(if printable { c } else { '?' })?;
        }
        f.write_str(quote)
    }
}

/// `a` against `b`, ASCII letters compared without case.
fn caseless(a: &str, b: &str) -> Ordering {
    a.bytes()
        .map(|c| c.to_ascii_lowercase())
        .cmp(b.bytes().map(|c| c.to_ascii_lowercase()))
}

/// The edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`,
/// letters compared without case: the optimal string alignment distance.
fn edits(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    // Three rows of the table: two back (for swaps), the last, and this one.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut last: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut row = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            row[j] = (last[j] + 1).min(row[j - 1] + 1).min(last[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(before[j - 2] + 1);
            }
        }
        before = std::mem::replace(&mut last, row);
    }
    last[b.len()]
}

#[cfg(test)]
mod tests {
    use super::super::params::PARAMS;
    use super::*;

    fn diagram() -> Known {
        Known::new(PARAMS)
    }

    #[test]
    fn edits_count_inserts_deletes_substitutions_and_swaps() {
        for (a, b, d) in [
            ("size", "size", 0),
            ("sise", "size", 1),
            ("orientaton", "orientation", 1),
            ("oreintation", "orientation", 1),
            ("SIZE", "size", 0),
            ("fen", "", 3),
            ("", "fen", 3),
            ("colour", "colors", 2),
            ("abc", "xyz", 3),
        ] {
            assert_eq!(edits(a, b), d, "{a} → {b}");
        }
    }

    #[test]
    fn known_names_are_every_spelling_without_case() {
        let known = diagram();
        for name in [
            "fen", "FEN", "pieceSet", "coords", "lastMove", "strict", "Errors", "",
        ] {
            assert!(known.knows(name), "{name}");
        }
        for name in ["sise", "orientaton", "white", "amp;size"] {
            assert!(!known.knows(name), "{name}");
        }
        let none = Known::new(std::iter::empty());
        assert!(!none.knows("fen"), "a route without parameters");
        assert!(none.knows("strict"), "service-wide");
    }

    #[test]
    fn the_nearest_name_is_a_slip_away_and_canonical() {
        let known = diagram();
        assert_eq!(known.nearest("orientaton"), Some("orientation"));
        assert_eq!(known.nearest("sise"), Some("size"));
        assert_eq!(known.nearest("Sise"), Some("size"));
        assert_eq!(known.nearest("last_mvoe"), Some("lastMove"));
        assert_eq!(
            known.nearest("cords"),
            Some("coordinates"),
            "coords is an alias"
        );
        assert_eq!(known.nearest("xyz"), None);
        assert_eq!(
            known.nearest("sz"),
            None,
            "two edits are too many for a short name"
        );
        assert_eq!(known.nearest(&"q".repeat(5000)), None);
    }

    #[test]
    fn unknown_names_are_listed_once_in_order() {
        let query = Query::parse("fen=start&sise=200&orientaton=black&SISE=3&size=400&xyz=1");
        let unknown = diagram().unknown(query.names());
        let names: Vec<&str> = unknown.listed.iter().map(|u| u.name.as_str()).collect();
        assert_eq!(names, ["sise", "orientaton", "xyz"]);
        assert_eq!(unknown.listed[2].nearest, None);
        assert_eq!(unknown.total, 3);
        let none = diagram().unknown(Query::parse("fen=start&size=1").names());
        assert_eq!(none, Unknowns::default());
        // Past five, names are counted once each, not listed.
        let many = Query::parse("a1=1&a2=1&a3=1&a4=1&a5=1&b=1&B=2&c=1&a1=3&b=4");
        let many = diagram().unknown(many.names());
        assert_eq!((many.listed.len(), many.total), (5, 7));
    }

    #[test]
    fn the_warning_is_printable_ascii_and_bounded() {
        let query = Query::parse("orientaton=1&xyz=2");
        let text = warning(&diagram().unknown(query.names())).expect("a warning");
        assert_eq!(
            text,
            "orientaton: did you mean orientation?; xyz: unknown parameter, ignored"
        );
        assert_eq!(warning(&Unknowns::default()), None);
        let many: String = (0..20).map(|i| format!("&zz{i}=1")).collect();
        let text = warning(&diagram().unknown(Query::parse(&many).names())).expect("warning");
        assert!(text.ends_with("; and 15 more"), "{text}");
        assert_eq!(text.matches("unknown parameter").count(), 5);
        let odd = Query::parse("caf%C3%A9%0D%0AX-Evil:%201=1&");
        let text = warning(&diagram().unknown(odd.names())).expect("warning");
        assert!(text.bytes().all(|b| (b' '..=b'~').contains(&b)), "{text}");
        assert!(text.starts_with("\"caf?"), "{text}");
        let long = format!("{}=1", "n".repeat(500));
        let text = warning(&diagram().unknown(Query::parse(&long).names())).expect("warning");
        assert!(text.len() < 100, "{text}");
    }

    #[test]
    fn strict_refuses_unknown_names_and_bad_values() {
        let known = diagram();
        let check = |q: &str| known.check_strict(&Query::parse(q), "/diagram");
        assert!(check("fen=start&orientaton=black").is_ok(), "not strict");
        assert!(check("fen=start&strict=0&orientaton=black").is_ok());
        assert!(check("fen=start&strict=1&size=300").is_ok());
        let e = check("fen=start&strict=1&orientaton=black").expect_err("strict");
        assert_eq!(
            e.to_string(),
            "strict=1: orientaton is not a parameter of /diagram: did you mean orientation?"
        );
        let e = check("strict=yes&xyz=1&sise=2").expect_err("strict");
        assert!(
            e.to_string().contains("xyz is not a parameter of /diagram"),
            "{e}"
        );
        assert!(e.to_string().contains("2 unknown names"), "{e}");
        let e = check("strict=maybe").expect_err("bad flag");
        assert_eq!(e.param, "strict");
        assert!(
            e.to_string().contains("expected 1/true/yes or 0/false/no"),
            "{e}"
        );
    }
}
