//! `/sheet` and the paths that fix its format (`/sheet.pdf`, `.svg`, `.png`): a worksheet of
//! 1 to 12 numbered, captioned diagrams on pages, read and laid out (on the blocking pool
//! when its query is long), drawn on the blocking pool, cached like a diagram. SVG and PNG
//! are one page (`pageNumber`); every answer says how many pages there are.

use super::super::answer::Image;
use super::super::error::AppError;
use super::super::extract::Asked;
use super::super::state::AppState;
use super::endpoint::{Endpoint, Terms, diagram_params};
use super::operation::{answers, content, parameters, schema};
use super::skeleton::{Job, Outlined, drawn, known_set};
use crate::render::options::Format;
use crate::render::{Renderer, sheet};
use crate::request::Param;
use crate::request::sheet::{
    DIAGRAM_PARAMS, MAX_SHEET_DIAGRAMS, READING_PARAMS, SHEET_PARAMS, SheetRequest,
};
use axum::http::{HeaderValue, StatusCode};
use axum::response::Response;
use axum::routing::{MethodRouter, get};
use serde_json::{Value, json};
use std::sync::Arc;

/// A worksheet of many diagrams; the path may fix the format (PDF, SVG or PNG).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sheet(pub Option<Format>);

impl Endpoint for Sheet {
    fn router(&self) -> MethodRouter<Arc<AppState>> {
        let path_format = self.0;
        get(move |asked| worksheet(asked, path_format))
    }

    fn reads(&self) -> Vec<&'static Param> {
        SHEET_PARAMS
            .iter()
            .chain(diagram_params(DIAGRAM_PARAMS))
            .chain(diagram_params(&READING_PARAMS))
            .collect()
    }

    fn operation(&self, terms: Terms<'_>, _: &str) -> (Vec<Value>, Value) {
        let path_format = self.0;
        let keep = |p: &Param| !(p.name == "format" && path_format.is_some());
        let edit = |p: &Param, v: &mut Value| {
            if p.name == "fen" {
                v["required"] = json!(true);
                v["explode"] = json!(true);
                v["schema"] = json!({
                    "type": "array",
                    "minItems": 1,
                    "maxItems": MAX_SHEET_DIAGRAMS,
                    "items": schema(p, terms),
                });
            }
        };
        let parameters = parameters(self.reads(), terms, keep, edit);
        let responses = answers(
            "The sheet; cacheable for a year. `X-Sheet-Pages` says how many pages it has.",
            content(&[Format::Pdf, Format::Svg, Format::Png], path_format),
            "A bad parameter: one sentence naming it, the value and what is allowed (too many positions, an unknown page size, a page number past the end).",
            &["304", "414", "503"],
        );
        (parameters, responses)
    }

    fn image(&self, asked: Option<Format>) -> Option<Format> {
        Some(self.0.or(asked).unwrap_or(Format::Pdf))
    }
}

/// The worksheet the query asks for, in the format the path fixes (`path_format`) or the
/// query's.
async fn worksheet(asked: Asked, path_format: Option<Format>) -> Result<Response, AppError> {
    drawn(asked, None, move |r, query, _, limits| {
        let request = SheetRequest::read(query, path_format, MAX_SHEET_DIAGRAMS, true, limits)
            .map_err(AppError::bad_request)?;
        known_set(r, &request.options.diagram)?;
        let (format, page, key) = (request.format, request.page, request.cache_key());
        let sheet = sheet::Sheet::new(r, request.entries, request.options)
            .map_err(|e| AppError::new(StatusCode::BAD_REQUEST, e.to_string()))?;
        let pages = sheet.pages.len();
        if format != Format::Pdf && page >= pages {
            return Err(AppError::new(
                StatusCode::BAD_REQUEST,
                format!(
                    "pageNumber {} is not allowed: this sheet has {pages} page{}",
                    page + 1,
                    if pages == 1 { "" } else { "s" }
                ),
            ));
        }
        let image = Image::new(key, format.content_type())
            .with_header("x-sheet-pages", HeaderValue::from(pages));
        let units = sheet.units(format, page);
        let glyphs = match format {
            Format::Pdf => sheet.glyphs(&sheet.pages),
            _ => sheet.glyphs(&sheet.pages[page..=page]),
        };
        let job = move |renderer: &Renderer| match format {
            Format::Svg => sheet.svg(renderer, page).map(String::into_bytes),
            Format::Png => sheet.png(renderer, page),
            _ => sheet.pdf(renderer),
        };
        let job = Job(units, ("sheet", format.extension()), job);
        Ok((
            image,
            Outlined(
                job,
                (glyphs, format),
                "this worksheet's text (its title, captions and answers)",
            ),
        ))
    })
    .await
}
