//! A query read once: its `(name, value)` pairs in order, and the value of a parameter
//! under any of its spellings (the spellings come from the parameter tables).

use super::Param;

/// A query's pairs, in the order given. Names are compared with a parameter's spellings
/// case-insensitively; a later pair overrides an earlier one ([`Query::last`]), and a
/// repeated parameter keeps every value ([`Query::all`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query {
    pairs: Vec<(String, String)>,
}

impl Query {
    /// A URL query string (without the `?`), percent- and `+`-decoded.
    pub fn parse(query: &str) -> Query {
        Query::from_pairs(form_urlencoded::parse(query.as_bytes()))
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
}
