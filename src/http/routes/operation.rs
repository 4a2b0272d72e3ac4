//! The parts of an OpenAPI operation that routes share: a parameter's document (its schema
//! with the service's limits and piece sets), the answers every route describes alike
//! (304, 413, 414, 503, a 400's sentence) and a 200's content by format. Each route's file
//! puts its own operation together from them.

use super::endpoint::Terms;
use crate::render::options::{DEFAULT_PIECE_SET, DEFAULT_SIZE, Format, MIN_SIZE};
use crate::request::{Param, ParamKind};
use serde_json::{Map, Value, json};

/// The JSON schema of one parameter, with the service's limits and loaded piece sets.
pub(super) fn schema(param: &Param, terms: Terms<'_>) -> Value {
    match param.kind {
        ParamKind::Fen => json!({
            "type": "string",
            "maxLength": terms.limits.fen_bytes,
            "example": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        }),
        ParamKind::Size => json!({
            "type": "integer",
            "minimum": MIN_SIZE,
            "maximum": terms.limits.max_size,
            "default": DEFAULT_SIZE,
        }),
        ParamKind::Choice(words) => json!({
            "type": "string",
            "enum": words,
            "default": words[0],
        }),
        ParamKind::PieceSet => json!({
            "type": "string",
            "enum": terms.piece_sets,
            "default": DEFAULT_PIECE_SET,
        }),
        ParamKind::Color => json!({
            "type": "string",
            "pattern": "^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$",
            "example": "e0c8a0",
            "description": "rgb or rrggbb in hex digits; the # is optional (written in a URL it must be %23, else it starts the fragment).",
        }),
        ParamKind::Flag => json!({ "type": "boolean", "default": false }),
        ParamKind::Text { example } => json!({ "type": "string", "example": example }),
    }
}

/// The document of one query parameter: its name, its sentence (with its other
/// spellings), whether it is `required`, and its [`schema`].
pub(super) fn parameter(param: &Param, terms: Terms<'_>, required: bool) -> Value {
    let mut description = param.doc.to_string();
    let others: Vec<&str> = param
        .spellings
        .iter()
        .copied()
        .filter(|s| !s.eq_ignore_ascii_case(param.name))
        .collect();
    if !others.is_empty() {
        description.push_str(&format!(" Also spelled: {}.", others.join(", ")));
    }
    json!({
        "name": param.name,
        "in": "query",
        "required": required,
        "description": description,
        "schema": schema(param, terms),
    })
}

/// The documents of the parameters of `reads` (a route's, see `Endpoint::reads`) that
/// `keep` keeps: each the common one (see [`parameter`]), then changed by `edit` where the
/// route documents it its own way.
pub(super) fn parameters(
    reads: Vec<&'static Param>,
    terms: Terms<'_>,
    keep: impl Fn(&Param) -> bool,
    edit: impl Fn(&Param, &mut Value),
) -> Vec<Value> {
    reads
        .into_iter()
        .filter(|p| keep(p))
        .map(|p| {
            let mut v = parameter(p, terms, false);
            edit(p, &mut v);
            v
        })
        .collect()
}

/// `own` answers, and each of `codes` that routes share (304, 413, 414, 503), described
/// as they all describe it.
fn shared(mut own: Value, codes: &[&str]) -> Value {
    for &code in codes {
        own[code] = match code {
            "304" => json!({ "description": "Not modified (the `If-None-Match` ETag matched)." }),
            "413" => error("The POSTed PGN is too long."),
            "414" => error("The query string is too long."),
            _ => error("Too many renders waiting; retry after the `Retry-After` seconds."),
        };
    }
    own
}

/// An answer described by `description`, its body text of `content_type`.
pub(super) fn text(description: &str, content_type: &str) -> Value {
    json!({
        "description": description,
        "content": { content_type: { "schema": { "type": "string" } } },
    })
}

/// An operation's answers: 200 (`ok`, its body `content`), 400 (`bad`) and the shared
/// `codes`.
pub(super) fn answers(ok: &str, content: Value, bad: &str, codes: &[&str]) -> Value {
    shared(
        json!({ "200": { "description": ok, "content": content }, "400": error(bad) }),
        codes,
    )
}

/// The `content` of a 200 answer: a schema for each of `formats` that `path_format` (the
/// format a route's path fixes, if any) allows; binary but for text.
pub(super) fn content(formats: &[Format], path_format: Option<Format>) -> Value {
    let mut content = Map::new();
    for &format in formats {
        if path_format.is_none_or(|f| f == format) {
            let schema = match format {
                Format::Txt => json!({ "type": "string" }),
                _ => json!({ "type": "string", "format": "binary" }),
            };
            content.insert(format.content_type().into(), json!({ "schema": schema }));
        }
    }
    Value::Object(content)
}

/// An error answer: its sentence as plain text, described by `description`.
pub(super) fn error(description: &str) -> Value {
    text(description, "text/plain")
}
