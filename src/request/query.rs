//! A query read once: its `(name, value)` pairs in order, and the value of a parameter
//! under any of its spellings (the spellings come from the parameter tables).
//!
//! Leniency: a name written `amp;size` is read as `size`, so a URL copied out of HTML with
//! its `&` still escaped as `&amp;` keeps every parameter.
//!
//! Strictness: the text of a query is UTF-8, percent-encoded. [`Query::decode`], which the
//! service reads every query with, refuses escapes that decode to bytes that are not UTF-8
//! (a lone surrogate `%ED%A0%80`, an overlong `%C0%AF`, Latin-1's `%E9`) naming the
//! parameter, rather than reading them as U+FFFD: a value is never drawn, keyed or cached
//! otherwise than it was sent.

use super::error::RequestError;
use super::params::Param;
use crate::echo::{Echo, Escaped, not_utf8};
use std::borrow::Cow;

/// One name or value of a query, `+` and `%XX` decoded: borrowed when it needed neither;
/// the decoded bytes as the error when they are not UTF-8. A `%` without two hex digits
/// after it stays as written (as browsers and `form_urlencoded` leave it).
fn decoded(text: &str) -> Result<Cow<'_, str>, Vec<u8>> {
    if !text.contains(['+', '%']) {
        return Ok(Cow::Borrowed(text));
    }
    let bytes = text.as_bytes();
    let hex = |at: usize| {
        let digit = |i: usize| char::from(*bytes.get(i)?).to_digit(16);
        Some(digit(at)? * 16 + digit(at + 1)?)
    };
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], hex(i + 1)) {
            (b'+', _) => out.push(b' '),
            (b'%', Some(byte)) => {
                out.push(byte as u8);
                i += 2;
            }
            (b, _) => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out)
        .map(Cow::Owned)
        .map_err(|e| e.into_bytes())
}

/// [`decoded`], with bytes that are not UTF-8 as U+FFFD.
fn lossy(text: &str) -> Cow<'_, str> {
    decoded(text).unwrap_or_else(|bytes| Cow::Owned(String::from_utf8_lossy(&bytes).into_owned()))
}

/// The pairs of a URL query string (without the `?`), each as written: split at `&`
/// (empty ones skipped), then at the first `=` (a pair without one has an empty value).
fn split(query: &str) -> impl Iterator<Item = (&str, &str)> {
    query
        .split('&')
        .filter(|s| !s.is_empty())
        .map(|pair| pair.split_once('=').unwrap_or((pair, "")))
}

/// The `(name, value)` pairs of a URL query string (without the `?`), percent- and
/// `+`-decoded (bytes that are not UTF-8 as U+FFFD), each name without the `amp;` an
/// HTML-escaped `&amp;` leaves. Borrows from `query` unless a pair needed decoding.
pub fn pairs(query: &str) -> impl Iterator<Item = (Cow<'_, str>, Cow<'_, str>)> {
    split(query).map(|(name, value)| (unescaped(lossy(name)), lossy(value)))
}

/// The names of a URL query string's pairs, decoded as the pairs are; values are
/// skipped, not decoded (so nothing is allocated unless a name needs decoding).
pub fn names(query: &str) -> impl Iterator<Item = Cow<'_, str>> {
    split(query).map(|(name, _)| unescaped(lossy(name)))
}

/// The error of a name or value whose decoded `bytes` are not UTF-8: of the parameter
/// `name`, or of a name when `None`.
fn not_utf8_error(name: Option<&str>, bytes: &[u8]) -> RequestError {
    let (at, bad) = not_utf8(bytes).unwrap_or((0, bytes));
    let what = match name {
        Some(name)
            if (1..=40).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_graphic()) =>
        {
            format!("{name} has a value")
        }
        Some(name) => format!("the parameter named {} has a value", Echo(name)),
        None => "a parameter's name".to_string(),
    };
    RequestError::new(
        "query",
        format!(
            "{what} that is not UTF-8 text: the bytes {} at byte {} are not UTF-8; a query's text is UTF-8, percent-encoded (é is %C3%A9)",
            Escaped(bad),
            at + 1
        ),
    )
}

/// `name` without leading `amp;` (any case, repeated: `&amp;amp;` was escaped twice).
fn unescaped(name: Cow<'_, str>) -> Cow<'_, str> {
    let mut skip = 0;
    while name
        .get(skip..skip + 4)
        .is_some_and(|p| p.eq_ignore_ascii_case("amp;"))
    {
        skip += 4;
    }
    if skip == 0 {
        return name;
    }
    match name {
        Cow::Borrowed(b) => Cow::Borrowed(&b[skip..]),
        Cow::Owned(o) => Cow::Owned(o[skip..].to_string()),
    }
}

/// A query's pairs, in the order given. Names are compared with a parameter's spellings
/// case-insensitively; a later pair overrides an earlier one ([`Query::last`]), and a
/// repeated parameter keeps every value ([`Query::all`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query {
    pairs: Vec<(String, String)>,
}

impl Query {
    /// A URL query string (without the `?`), percent- and `+`-decoded (a name written
    /// `amp;x` is `x`), bytes that are not UTF-8 read as U+FFFD. The service reads with
    /// [`Query::decode`], which refuses them.
    pub fn parse(query: &str) -> Query {
        Query::from_pairs(pairs(query))
    }

    /// [`Query::parse`], strictly: a name or value whose escapes decode to bytes that are
    /// not UTF-8 is an error naming the parameter and showing the bytes (`%ED%A0%80`).
    pub fn decode(query: &str) -> Result<Query, RequestError> {
        let mut pairs = Vec::new();
        for (name, value) in split(query) {
            let name = unescaped(decoded(name).map_err(|b| not_utf8_error(None, &b))?);
            let value = decoded(value).map_err(|b| not_utf8_error(Some(name.as_ref()), &b))?;
            pairs.push((name.into_owned(), value.into_owned()));
        }
        Ok(Query { pairs })
    }

    /// `(name, value)` pairs, as a query (from command-line options, or a test).
    pub fn from_pairs<K: AsRef<str>, V: AsRef<str>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Query {
        let pairs = pairs
            .into_iter()
            .map(|(k, v)| (k.as_ref().to_string(), v.as_ref().to_string()))
            .collect();
        Query { pairs }
    }

    /// The last value of `param`, under any of its spellings.
    pub fn last(&self, param: &Param) -> Option<&str> {
        self.pairs
            .iter()
            .rev()
            .find(|(k, _)| param.accepts(k))
            .map(|(_, v)| v.as_str())
    }

    /// Every value of `param`, under any of its spellings, in order.
    pub fn all(&self, param: &Param) -> Vec<&str> {
        self.pairs
            .iter()
            .filter(|(k, _)| param.accepts(k))
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// Whether `param` is given, under any spelling.
    pub fn has(&self, param: &Param) -> bool {
        self.pairs.iter().any(|(k, _)| param.accepts(k))
    }

    /// The same query with only the pairs `keep` accepts.
    pub(crate) fn only(&self, keep: impl Fn(&str) -> bool) -> Query {
        let pairs = self
            .pairs
            .iter()
            .filter(|(k, _)| keep(k))
            .cloned()
            .collect();
        Query { pairs }
    }

    /// Its `(name, value)` pairs, in order: what a door hands to `embed` (the command
    /// line's `latex` reads each request line with [`Query::decode`]).
    pub fn into_pairs(self) -> Vec<(String, String)> {
        self.pairs
    }

    /// The names given, in order (repeats included).
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.pairs.iter().map(|(k, _)| k.as_str())
    }

    /// The bytes of its names and values together: what reading it may cost grows with
    /// this (the service reads a long query off its async workers).
    pub fn text_bytes(&self) -> usize {
        self.pairs.iter().map(|(k, v)| k.len() + v.len()).sum()
    }

    /// Add a pair after the others (so it overrides them).
    pub(crate) fn push(&mut self, name: &str, value: &str) {
        self.pairs.push((name.to_string(), value.to_string()));
    }
}

/// `list` as owned query pairs: the shape tests give a request in.
#[cfg(test)]
pub(crate) fn owned(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::params::named;
    use super::*;

    #[test]
    fn the_last_value_under_any_spelling_wins_and_all_keeps_the_order() {
        let q = Query::parse("pieceSet=a&fen=start&PIECES=b&coords=0&fen=x");
        assert_eq!(q.last(named("pieces")), Some("b"));
        assert_eq!(q.last(named("coordinates")), Some("0"));
        assert_eq!(q.all(named("fen")), ["start", "x"]);
        assert!(!q.has(named("theme")));
    }

    #[test]
    fn an_html_escaped_ampersand_still_separates_parameters() {
        let q = Query::parse("fen=start&amp;size=200&AMP;orientation=black&amp;amp;coords=none");
        assert_eq!(q.last(named("size")), Some("200"));
        assert_eq!(q.last(named("orientation")), Some("black"));
        assert_eq!(q.last(named("coordinates")), Some("none"));
        // Percent-encoded, the name is decoded first, then unescaped.
        let q = Query::parse("fen=start&amp%3Bsize=300");
        assert_eq!(q.last(named("size")), Some("300"));
        // A value is left alone: `amp;` only ever prefixes a name.
        let q = Query::parse("fen=amp;x");
        assert_eq!(q.last(named("fen")), Some("amp;x"));
    }

    #[test]
    fn decoding_is_form_urlencoded_and_strict_about_utf8() {
        let query = "a=x+y%2B%zz%4&b=caf%C3%A9&%61mp%3Bc=1&d";
        let strict = Query::decode(query).expect("UTF-8");
        assert_eq!(strict, Query::parse(query));
        let want = Query::from_pairs(form_urlencoded::parse(query.as_bytes()));
        assert_eq!(
            strict.pairs[..2],
            want.pairs[..2],
            "as form_urlencoded reads them"
        );
        assert_eq!(strict.pairs[2].0, "c", "then the name unescaped");
        for (query, says) in [
            (
                "fen=start&caption=%ED%A0%80",
                "caption has a value that is not UTF-8 text: the bytes %ED%A0%80 at byte 1",
            ),
            (
                "title=x%C0%AFy",
                "title has a value that is not UTF-8 text: the bytes %C0%AF at byte 2",
            ),
            (
                "white=Jos%E9+R",
                "white has a value that is not UTF-8 text: the bytes %E9 at byte 4",
            ),
            (
                "x%FF=1",
                "a parameter's name that is not UTF-8 text: the bytes %FF at byte 2",
            ),
        ] {
            let e = Query::decode(query).expect_err(query);
            assert!(e.to_string().starts_with(says), "{e}");
            assert!(e.to_string().ends_with("(é is %C3%A9)"), "{e}");
        }
        assert_eq!(
            Query::parse("caption=%E9").pairs[0].1,
            "\u{FFFD}",
            "parse is lossy"
        );
    }

    #[test]
    fn names_are_the_names_of_the_pairs() {
        let query = "fen=a%2Fb&amp;size=2&&x%5By%5D=1&plain&=v&AMP;AMP;k+k=3";
        let from_pairs: Vec<String> = pairs(query).map(|(k, _)| k.into_owned()).collect();
        let named: Vec<String> = names(query).map(Cow::into_owned).collect();
        assert_eq!(named, from_pairs);
        assert_eq!(named, ["fen", "size", "x[y]", "plain", "", "k k"]);
    }
}
