//! `/article.pdf`, `/article.html` and `/article.svg`: an annotated game typeset (the game
//! in `pgn`, or the PGN POSTed as the body), read and laid out (on the blocking pool when
//! it is long), drawn on the blocking pool, cached like a diagram. The answer says how
//! many pages and diagrams it has.

use super::super::answer::Image;
use super::super::error::AppError;
use super::super::extract::Asked;
use super::super::state::AppState;
use super::endpoint::{Endpoint, Terms, diagram_params};
use super::operation::{answers, parameters};
use super::skeleton::{Job, Outlined, drawn, get_or_post, known_set};
use crate::render::options::Format;
use crate::render::{Renderer, article};
use crate::request::Param;
use crate::request::article::{ARTICLE_PARAMS, ArticleFormat, ArticleRequest, DIAGRAM_PARAMS, marks};
use axum::body::Body;
use axum::http::HeaderValue;
use axum::response::Response;
use axum::routing::MethodRouter;
use serde_json::{Value, json};
use std::sync::Arc;

/// An annotated game typeset; the path fixes the format (PDF, HTML or SVG).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Article(pub ArticleFormat);

impl Endpoint for Article {
    fn router(&self) -> MethodRouter<Arc<AppState>> {
        let format = self.0;
        get_or_post(move |asked, body| typeset(asked, body, format))
    }

    fn reads(&self) -> Vec<&'static Param> {
        ARTICLE_PARAMS
            .iter()
            .chain(diagram_params(DIAGRAM_PARAMS))
            .collect()
    }

    fn operation(&self, terms: Terms<'_>, _: &str) -> (Vec<Value>, Value) {
        let parameters = parameters(self.reads(), terms, |_| true, |_, _| {});
        let responses = answers(
            "The article; cacheable for a year. `X-Article-Pages` and `X-Article-Diagrams` say how many pages and diagrams it has.",
            json!({ self.0.content_type(): { "schema": { "type": "string" } } }),
            "A bad parameter or game: one sentence naming it, the value and what is allowed (for a move: its number, as written, and why; a limit: which).",
            &["304", "413", "414", "503"],
        );
        (parameters, responses)
    }

    fn posts(&self) -> bool {
        true
    }
}

/// The article of the game in the query or the POSTed `body`, in `format`.
async fn typeset(
    asked: Asked,
    body: Option<Body>,
    format: ArticleFormat,
) -> Result<Response, AppError> {
    drawn(asked, body, move |r, query, text, limits| {
        let request =
            ArticleRequest::read(query, text, format, limits).map_err(AppError::bad_request)?;
        known_set(r, &request.options.diagram)?;
        let key = request.cache_key();
        let article = article::Article::new(r, &request.game, request.options, &marks)
            .map_err(|e| AppError::internal(e.to_string()))?;
        let (pages, diagrams) = (article.pages.len(), article.flow.diagrams.len());
        let image = Image::new(key, format.content_type())
            .with_header("x-article-pages", HeaderValue::from(pages))
            .with_header("x-article-diagrams", HeaderValue::from(diagrams));
        // An HTML page's words are text; a PDF's and an SVG's are drawn (see `cost`).
        let drawn_as = match format {
            ArticleFormat::Pdf => Format::Pdf,
            ArticleFormat::Svg => Format::Svg,
            ArticleFormat::Html => Format::Txt,
        };
        let (units, glyphs) = (article.units(drawn_as), article.glyphs());
        let job = move |renderer: &Renderer| match format {
            ArticleFormat::Pdf => article.pdf(renderer),
            ArticleFormat::Html => article.html(renderer).map(String::into_bytes),
            ArticleFormat::Svg => article.svg(renderer).map(String::into_bytes),
        };
        let job = Job(units, ("article", format.extension()), job);
        Ok((
            image,
            Outlined(
                job,
                (glyphs, drawn_as),
                "this article's text (its headers, moves and comments)",
            ),
        ))
    })
    .await
}
