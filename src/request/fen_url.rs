//! A FEN inside a URL: `fen` may be a lichess or chess.com analysis or editor URL, pasted
//! whole, and the FEN is taken from it.
//!
//! The shapes read (scheme optional, `www.` or a language subdomain allowed, percent-encoded
//! or not, `?query` and `#fragment` after it ignored unless they hold the FEN):
//! - lichess: `/analysis/<fen>`, `/analysis/<variant>/<fen>` (`standard`, `fromPosition`,
//!   `chess960`, …), `/editor/<fen>`, `/editor/<variant>/<fen>`, with `_` for spaces;
//!   and any lichess page with `?fen=<fen>`.
//! - chess.com: `/analysis?fen=<fen>`, `/editor?fen=<fen>`, or any page with `?fen=`.
//!
//! A URL of those sites that holds no FEN (a game, a study, a bare `/analysis`) is refused
//! with a sentence saying so; a URL of another site is refused as a URL, not read as a
//! bad rank. Whether the FEN itself is valid is `chess::fen`'s to say.

use super::error::RequestError;
use crate::echo::Echo;
use std::borrow::Cow;

/// The sites whose URLs hold a FEN, by host (without `www.`).
const SITES: [(&str, &str); 2] = [("lichess.org", "lichess"), ("chess.com", "chess.com")];

/// lichess's variant segments, which may come between `/analysis/` and the FEN.
const LICHESS_VARIANTS: [&str; 10] = [
    "standard",
    "fromPosition",
    "chess960",
    "crazyhouse",
    "antichess",
    "atomic",
    "horde",
    "kingOfTheHill",
    "racingKings",
    "threeCheck",
];

/// The FEN in `value` when it is a URL: `None` when it is not one (the value is read as a
/// FEN), `Some(Ok(fen))` from a lichess or chess.com URL, and `Some(Err(..))` for a URL
/// that holds no FEN, or of another site.
pub(super) fn fen_in_url(value: &str) -> Option<Result<String, RequestError>> {
    let text = value.trim();
    let scheme = strip_caseless(text, "https://").or_else(|| strip_caseless(text, "http://"));
    let rest = match scheme {
        Some(rest) => rest,
        // `lichess.org/analysis/…` pasted without its scheme.
        None if names_site(text) => text,
        None => return None,
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (host, tail) = rest.split_at(end);
    let host = host.to_ascii_lowercase();
    let site = SITES
        .iter()
        .find(|(h, _)| host == *h || host.ends_with(&format!(".{h}")))
        .map(|(_, name)| *name);
    let Some(site) = site else {
        return Some(Err(RequestError::new(
            "fen",
            format!(
                "fen {} is a URL, not a FEN: give the FEN itself, or a lichess or chess.com analysis or editor URL",
                Echo(value)
            ),
        )));
    };
    Some(fen_of(site, tail).ok_or_else(|| {
        RequestError::new(
            "fen",
            format!(
                "fen {} is a {site} URL with no position in it: open the position in {site}'s analysis board or editor and copy that URL, or copy its FEN",
                Echo(value)
            ),
        )
    }))
}

/// The FEN of a `site` URL's path, query and fragment (`tail`), if it holds one.
fn fen_of(site: &str, tail: &str) -> Option<String> {
    let (before_fragment, _) = tail.split_once('#').unwrap_or((tail, ""));
    let (path, query) = before_fragment
        .split_once('?')
        .unwrap_or((before_fragment, ""));
    let from_query = form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k.eq_ignore_ascii_case("fen"))
        .map(|(_, v)| v.trim().to_string())
        .filter(|v| !v.is_empty());
    if from_query.is_some() || site != "lichess" {
        return from_query;
    }
    let path = decoded(path);
    let path = path.trim_matches('/');
    let rest = ["analysis/", "editor/"]
        .iter()
        .find_map(|page| strip_caseless(path, page))?;
    let rest = match rest.split_once('/') {
        Some((variant, fen))
            if LICHESS_VARIANTS
                .iter()
                .any(|v| v.eq_ignore_ascii_case(variant)) =>
        {
            fen
        }
        _ => rest,
    };
    // `/analysis/pgn/1. e4 …` holds a game, not a position.
    let looks_like_fen = rest.contains('/') && !rest.starts_with("pgn/");
    looks_like_fen.then(|| rest.to_string())
}

/// Whether `text` starts with a site's host (`www.` optional), then `/` or `?`.
fn names_site(text: &str) -> bool {
    let text = strip_caseless(text, "www.").unwrap_or(text);
    SITES.iter().any(|(host, _)| {
        strip_caseless(text, host).is_some_and(|rest| rest.starts_with(['/', '?']))
    })
}

/// `text` without `prefix`, compared without case.
fn strip_caseless<'t>(text: &'t str, prefix: &str) -> Option<&'t str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

/// A URL path with its `%XX` escapes decoded (a bad escape is kept as written).
fn decoded(path: &str) -> Cow<'_, str> {
    if !path.contains('%') {
        return Cow::Borrowed(path);
    }
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    const FEN: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR";

    fn fen(url: &str) -> String {
        match fen_in_url(url) {
            Some(Ok(fen)) => fen,
            other => panic!("{url}: {other:?}"),
        }
    }

    fn refused(url: &str) -> String {
        match fen_in_url(url) {
            Some(Err(e)) => e.to_string(),
            other => panic!("{url}: {other:?}"),
        }
    }

    #[test]
    fn lichess_analysis_and_editor_urls_give_their_fen() {
        let tail = "_b_KQkq_-_0_1";
        for url in [
            format!("https://lichess.org/analysis/{FEN}{tail}"),
            format!("https://lichess.org/analysis/standard/{FEN}{tail}"),
            format!("https://lichess.org/analysis/fromPosition/{FEN}{tail}"),
            format!("https://lichess.org/editor/{FEN}{tail}"),
            format!("https://lichess.org/editor/{FEN}{tail}?color=black"),
            format!("https://lichess.org/analysis/{FEN}{tail}#12"),
            format!("http://www.lichess.org/analysis/{FEN}{tail}/"),
            format!("lichess.org/analysis/{FEN}{tail}"),
            format!("HTTPS://LICHESS.ORG/analysis/{FEN}{tail}"),
        ] {
            assert_eq!(fen(&url), format!("{FEN}{tail}"), "{url}");
        }
        let encoded = format!(
            "https://lichess.org/analysis/{}%20b%20KQkq%20-%200%201",
            FEN
        );
        assert_eq!(fen(&encoded), format!("{FEN} b KQkq - 0 1"));
        let slashes = format!("https://lichess.org/editor/{}", FEN.replace('/', "%2F"));
        assert_eq!(fen(&slashes), FEN);
        let query = format!("https://lichess.org/analysis?fen={FEN}+b+KQkq+-+0+1");
        assert_eq!(fen(&query), format!("{FEN} b KQkq - 0 1"));
    }

    #[test]
    fn chess_com_urls_give_the_fen_of_their_query() {
        let encoded = FEN.replace('/', "%2F");
        for url in [
            format!("https://www.chess.com/analysis?fen={encoded}+b+KQkq+-+0+1&flip=false"),
            format!("https://www.chess.com/editor?fen={encoded}%20b%20KQkq%20-%200%201"),
            format!("https://chess.com/analysis?tab=analysis&fen={FEN}+b+KQkq+-+0+1"),
        ] {
            assert_eq!(fen(&url), format!("{FEN} b KQkq - 0 1"), "{url}");
        }
    }

    #[test]
    fn urls_without_a_position_are_refused_with_a_reason() {
        for url in [
            "https://lichess.org/abcdEFGH",
            "https://lichess.org/analysis",
            "https://lichess.org/analysis/pgn/1.e4_e5",
            "https://lichess.org/study/abc/def",
            "https://www.chess.com/analysis/game/live/123?tab=analysis",
            "https://www.chess.com/analysis",
        ] {
            let e = refused(url);
            assert!(e.contains("URL with no position in it"), "{url}: {e}");
        }
        let e = refused("https://example.com/x.fen");
        assert!(e.contains("is a URL, not a FEN"), "{e}");
    }

    #[test]
    fn a_fen_is_not_a_url() {
        for value in [
            FEN,
            "start",
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "[FEN \"8/8/8/8/8/8/8/8\"]",
        ] {
            assert!(fen_in_url(value).is_none(), "{value}");
        }
    }
}
