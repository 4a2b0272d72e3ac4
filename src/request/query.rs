//! A query read once: its `(name, value)` pairs in order, and the value of a parameter
//! under any of its spellings (the spellings come from the parameter tables).
//!
//! Leniency: a name written `amp;size` is read as `size`, so a URL copied out of HTML with
//! its `&` still escaped as `&amp;` keeps every parameter.

use super::Param;
use std::borrow::Cow;

/// The `(name, value)` pairs of a URL query string (without the `?`), percent- and
/// `+`-decoded, each name without the `amp;` an HTML-escaped `&amp;` leaves. Borrows
/// from `query` unless a pair needed decoding.
pub fn pairs(query: &str) -> impl Iterator<Item = (Cow<'_, str>, Cow<'_, str>)> {
    form_urlencoded::parse(query.as_bytes()).map(|(name, value)| (unescaped(name), value))
}

/// The names of a URL query string's pairs, decoded as the pairs are; values are
/// skipped, not decoded (so nothing is allocated unless a name needs decoding).
pub fn names(query: &str) -> impl Iterator<Item = Cow<'_, str>> {
    query.split('&').filter(|s| !s.is_empty()).map(|pair| {
        let name = pair.split_once('=').map_or(pair, |(name, _)| name);
        let decoded = form_urlencoded::parse(name.as_bytes()).next();
        unescaped(decoded.map_or(Cow::Borrowed(""), |(name, _)| name))
    })
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
    /// A URL query string (without the `?`), percent- and `+`-decoded (a name written `amp;x` is `x`).
    pub fn parse(query: &str) -> Query {
        Query::from_pairs(pairs(query))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::named;

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
    fn names_are_the_names_of_the_pairs() {
        let query = "fen=a%2Fb&amp;size=2&&x%5By%5D=1&plain&=v&AMP;AMP;k+k=3";
        let from_pairs: Vec<String> = pairs(query).map(|(k, _)| k.into_owned()).collect();
        let named: Vec<String> = names(query).map(Cow::into_owned).collect();
        assert_eq!(named, from_pairs);
        assert_eq!(named, ["fen", "size", "x[y]", "plain", "", "k k"]);
    }
}
