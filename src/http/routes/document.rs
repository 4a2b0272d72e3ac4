//! `/openapi.json`'s document, made from the route table: for each route its summary, the
//! operation its file describes (see `Endpoint::operation`) with `Staunton-Warning` on
//! every answer of a route that reads a query, a second operation for a route that POSTs,
//! and the service-wide parameters once per path.

use super::endpoint::{Route, Terms};
use super::operation::parameter;
use super::table::ROUTES;
use crate::request::{Limits, SERVICE_PARAMS};
use serde_json::{Map, Value, json};

/// The OpenAPI 3.0 description of every route, with this service's limits and piece sets.
pub fn openapi(limits: &Limits, piece_sets: &[String]) -> Value {
    let terms = Terms { limits, piece_sets };
    let mut paths = Map::new();
    for route in ROUTES {
        let get = operation(route, terms);
        let mut item = match route.endpoint.posts() {
            true => {
                let mut post = get.clone();
                post["summary"] = json!(format!(
                    "{} The PGN as the request body (at most the service's body limit).",
                    route.summary
                ));
                post["requestBody"] = json!({
                    "required": true,
                    "content": {
                        "application/x-chess-pgn": { "schema": { "type": "string" } },
                        "text/plain": { "schema": { "type": "string" } },
                    },
                });
                json!({ "get": get, "post": post })
            }
            false => json!({ "get": get }),
        };
        if !route.endpoint.reads().is_empty() {
            // For every operation of the path: OpenAPI's path-level parameters.
            item["parameters"] = SERVICE_PARAMS
                .iter()
                .map(|p| parameter(p, terms, false))
                .collect();
        }
        paths.insert(route.path.into(), item);
    }
    json!({
        "openapi": "3.0.3",
        "info": {
            "title": "Staunton",
            "version": env!("CARGO_PKG_VERSION"),
            "description": env!("CARGO_PKG_DESCRIPTION"),
            "license": { "name": "MIT OR Apache-2.0" },
        },
        "paths": paths,
    })
}

/// The operation (GET) of one route.
fn operation(route: &Route, terms: Terms<'_>) -> Value {
    let mut op = Map::new();
    op.insert("summary".into(), json!(route.summary));
    let (parameters, mut responses) = route.endpoint.operation(terms, route.summary);
    if !parameters.is_empty() {
        op.insert("parameters".into(), Value::Array(parameters));
        warned(&mut responses);
    }
    op.insert("responses".into(), responses);
    Value::Object(op)
}

/// `Staunton-Warning` documented on each of `responses`.
fn warned(responses: &mut Value) {
    let header = json!({
        "description": "The query's names this route does not read (ignored), each with the nearest parameter name when one is near: `orientaton: did you mean orientation?; xyz: unknown parameter, ignored` (at most five, then `and N more`). Absent when every name is known.",
        "schema": { "type": "string" },
    });
    if let Some(map) = responses.as_object_mut() {
        for answer in map.values_mut() {
            answer["headers"] = json!({ "Staunton-Warning": header.clone() });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::PARAMS;

    #[test]
    fn every_route_and_parameter_is_described() {
        let sets = vec!["staunton".to_string(), "merida".to_string()];
        let doc = openapi(&Limits::default(), &sets);
        let paths = doc["paths"].as_object().expect("paths");
        assert_eq!(paths.len(), ROUTES.len());
        let diagram = &paths["/diagram"]["get"]["parameters"];
        let names: Vec<&str> = diagram
            .as_array()
            .expect("parameters")
            .iter()
            .map(|p| p["name"].as_str().expect("name"))
            .collect();
        let expected: Vec<&str> = PARAMS.iter().map(|p| p.name).collect();
        assert_eq!(names, expected);
        let service: Vec<&str> = paths["/diagram"]["parameters"]
            .as_array()
            .expect("path-level parameters")
            .iter()
            .map(|p| p["name"].as_str().expect("name"))
            .collect();
        assert_eq!(service, ["strict", "errors"]);
        assert!(paths["/health"]["parameters"].is_null(), "reads no query");
        let svg = &paths["/diagram.svg"]["get"];
        assert!(svg["responses"]["200"]["content"]["image/svg+xml"].is_object());
        assert!(svg["responses"]["200"]["content"]["image/png"].is_null());
        let txt = &paths["/diagram.txt"]["get"];
        let text = &txt["responses"]["200"]["content"]["text/plain; charset=utf-8"];
        assert_eq!(text["schema"], json!({ "type": "string" }));
        let named = |op: &Value, name: &str| {
            op["parameters"]
                .as_array()
                .is_some_and(|ps| ps.iter().any(|p| p["name"] == name))
        };
        assert!(named(txt, "style") && !named(txt, "format"));
        assert!(!named(svg, "style"), "style is for text only");
        let style = diagram
            .as_array()
            .and_then(|a| a.iter().find(|p| p["name"] == "style"))
            .expect("style");
        assert_eq!(style["schema"]["enum"], json!(["letters", "figurines"]));
        assert_eq!(style["schema"]["default"], "letters");
        let format = diagram
            .as_array()
            .and_then(|a| a.iter().find(|p| p["name"] == "format"))
            .expect("format");
        assert!(
            format["schema"]["enum"]
                .as_array()
                .is_some_and(|e| e.contains(&json!("txt")))
        );
        let pieces = diagram
            .as_array()
            .and_then(|a| a.iter().find(|p| p["name"] == "pieces"))
            .expect("pieces");
        assert_eq!(pieces["schema"]["enum"], json!(sets));
        assert_eq!(paths["/describe"]["get"]["parameters"][0]["name"], "fen");
        let lang = paths["/describe"]["get"]["parameters"]
            .as_array()
            .and_then(|a| a.iter().find(|p| p["name"] == "lang"))
            .expect("lang on /describe");
        assert_eq!(
            lang["schema"]["enum"],
            json!(crate::chess::describe::LANG_CODES)
        );
        assert_eq!(lang["schema"]["default"], "en");
        assert!(named(svg, "lang"), "an SVG's title has a language");
        assert!(
            !named(&paths["/diagram.png"]["get"], "lang"),
            "pixels have none"
        );
    }

    #[test]
    fn limits_reach_the_description() {
        let limits = Limits {
            fen_bytes: 100,
            max_size: 900,
            ..Limits::default()
        };
        let doc = openapi(&limits, &[]);
        let params = doc["paths"]["/diagram"]["get"]["parameters"]
            .as_array()
            .expect("parameters")
            .clone();
        let by_name = |n: &str| {
            params
                .iter()
                .find(|p| p["name"] == n)
                .cloned()
                .expect("param")
        };
        assert_eq!(by_name("size")["schema"]["maximum"], 900);
        assert_eq!(by_name("fen")["schema"]["maxLength"], 100);
        assert_eq!(
            by_name("fen")["required"],
            false,
            "a game (pgn, moves) stands in for it"
        );
        let game = &doc["paths"]["/game.gif"];
        assert!(game["post"]["requestBody"].is_object(), "{game}");
        let names: Vec<&str> = game["get"]["parameters"]
            .as_array()
            .expect("parameters")
            .iter()
            .filter_map(|p| p["name"].as_str())
            .collect();
        for name in [
            "pgn",
            "moves",
            "delay",
            "lastDelay",
            "loop",
            "from",
            "to",
            "players",
        ] {
            assert!(names.contains(&name), "{name} in {names:?}");
        }
        assert!(!names.contains(&"ply"), "a whole game has no one ply");
    }
}
