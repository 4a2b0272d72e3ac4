//! `/diagram` and the paths that fix its format (`/diagram.png`, `.svg`, `.pdf`, `.webp`,
//! `.gif`, `.txt`, and web-boardimage's `/board.png` and `/board.svg`): one position drawn,
//! cached, and drawn right on the async worker when it is quick.

use super::super::answer::Image;
use super::super::error::AppError;
use super::super::extract::Asked;
use super::super::pool::{Deadline, render};
use super::super::state::AppState;
use super::endpoint::{Endpoint, Terms};
use super::operation::{answers, content, parameters};
use super::skeleton::{Made, drawn, known_set};
use crate::render::options::Format;
use crate::render::pieces::PieceSet;
use crate::request::{PARAMS, Param, Request};
use axum::response::Response;
use axum::routing::{MethodRouter, get};
use bytes::Bytes;
use serde_json::Value;
use std::future::Future;
use std::sync::Arc;

/// A diagram; the path may fix the format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Diagram(pub Option<Format>);

impl Endpoint for Diagram {
    fn router(&self) -> MethodRouter<Arc<AppState>> {
        let path_format = self.0;
        get(move |asked| diagram(asked, path_format))
    }

    fn reads(&self) -> Vec<&'static Param> {
        PARAMS.iter().collect()
    }

    fn operation(&self, terms: Terms<'_>, _: &str) -> (Vec<Value>, Value) {
        let path_format = self.0;
        // `style` only matters to text: left out where the path fixes an image format.
        let image_path = path_format.is_some_and(|f| f != Format::Txt);
        let keep = |p: &Param| match p.name {
            "format" => path_format.is_none(),
            "style" => !image_path,
            // `lang` only matters to an SVG's title, `svg` to an SVG.
            "lang" | "svg" => path_format.is_none_or(|f| f == Format::Svg),
            _ => true,
        };
        let parameters = parameters(self.reads(), terms, keep, |_, _| {});
        let responses = answers(
            "The diagram; cacheable for a year (the URL decides the bytes).",
            content(&Format::ALL, path_format),
            "A bad parameter: one sentence naming it, the value and what is allowed.",
            &["304", "414", "503"],
        );
        (parameters, responses)
    }

    fn image(&self, asked: Option<Format>) -> Option<Format> {
        Some(self.0.or(asked).unwrap_or(Format::Png))
    }
}

/// A diagram, with its piece set: priced, and drawn right on the async worker when it is
/// quick, by `pool::render`.
struct Drawing(Request, Arc<PieceSet>);

impl Made for Drawing {
    fn made(
        self,
        state: Arc<AppState>,
        deadline: Deadline,
    ) -> impl Future<Output = Result<Bytes, AppError>> + Send {
        render(state, (self.0, self.1), deadline)
    }
}

/// The diagram the query asks for, in the format the path fixes (`path_format`) or the
/// query's.
async fn diagram(asked: Asked, path_format: Option<Format>) -> Result<Response, AppError> {
    drawn(asked, None, move |r, query, _, limits| {
        let request = Request::read(query, path_format, limits).map_err(AppError::bad_request)?;
        let set = known_set(r, &request.options)?;
        let image = Image::new(request.cache_key(), request.format.content_type());
        Ok((image, Drawing(request, set)))
    })
    .await
}
