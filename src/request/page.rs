//! The page around a diagram: `background` (what lies outside the squares), `labels`
//! (their ink) and `caption` (text under the board).

use super::chosen::Chosen;
use super::error::RequestError;
use super::values::parse_color;
use crate::chess::describe::{Lang, after_move};
use crate::chess::position::Position;
use crate::echo::Echo;
use crate::render::options::{Format, RenderOptions};
use crate::render::scene::caption;
use crate::render::theme::{DARK_PAGE, Rgba, Theme, label_for};

/// Longest caption, in characters: three lines at most are drawn, and a longer text would
/// be cut there anyway.
pub const MAX_CAPTION_CHARS: usize = 200;

/// The words `background` takes besides a colour.
pub const BACKGROUNDS: [&str; 5] = ["light", "dark", "transparent", "auto", "page"];

/// `background` and `labels` over `theme`: the margin's colour, and the labels' ink (the
/// one asked for, or the theme's when it keeps 4.5:1 against the background, else a light
/// or dark ink that does).
pub(super) fn apply<'a>(
    get: &impl Fn(&str) -> Option<&'a str>,
    theme: &mut Theme,
) -> Result<(), RequestError> {
    if let Some(value) = get("background") {
        match value.to_ascii_lowercase().as_str() {
            "light" | "white" => {}
            "dark" => {
                theme.margin = DARK_PAGE.background;
                theme.label = DARK_PAGE.label;
            }
            // The theme's own margin colour, invisible: a PNG keeps no colour under alpha 0.
            "transparent" | "none" => theme.margin = Rgba::hex(0xffffff).with_alpha(0),
            "auto" => theme.dark_page = Some(DARK_PAGE),
            // An inline SVG on a site: the site's background shows through, and the
            // labels take its text colour, light or dark as the site's theme switches.
            "page" => {
                theme.margin = Rgba::hex(0xffffff).with_alpha(0);
                theme.page_ink = true;
            }
            _ => {
                let colour = parse_color("background", value).map_err(|_| {
                    RequestError::bad_value(
                        "background",
                        value,
                        "expected light, dark, transparent, auto, page or a colour #rgb or #rrggbb",
                    )
                })?;
                theme.margin = colour;
                theme.label = label_for(colour, theme.label);
            }
        }
    }
    if let Some(value) = get("labels") {
        let ink = parse_color("labels", value)?;
        theme.label = ink;
        if let Some(dark) = theme.dark_page.as_mut() {
            dark.label = label_for(dark.background, ink);
        }
    }
    Ok(())
}

/// `background=auto` follows the reader's colour scheme through a style sheet, and
/// `background=page` the page's through `currentColor`, which only an SVG carries; a
/// transparent one needs an alpha channel, which GIF and WebP are not drawn with here
/// (they come from a palette of opaque colours).
pub(super) fn check_format(theme: &Theme, format: Format) -> Result<(), RequestError> {
    if theme.page_ink && format != Format::Svg {
        return Err(RequestError::new(
            "background",
            format!(
                "background=page takes the labels' colour from the HTML page around an inline SVG, which only an SVG can do, and this request asks for {}: use format=svg (or /diagram.svg), or background=transparent with labels=… for the page's ink",
                format.extension()
            ),
        ));
    }
    if theme.margin.a != 255 && matches!(format, Format::Gif | Format::Webp) {
        return Err(RequestError::new(
            "background",
            format!(
                "background=transparent needs {}, and this request asks for {}, drawn from a palette of opaque colours: pick a colour for the background, or another format",
                Format::labels(&Format::transparent()),
                format.extension()
            ),
        ));
    }
    if theme.dark_page.is_none() || format == Format::Svg {
        return Ok(());
    }
    Err(RequestError::new(
        "background",
        format!(
            "background=auto follows the reader's light or dark colour scheme, which only an SVG can do, and this request asks for {}: use format=svg (or /diagram.svg), or background=light or dark (a <picture> element picks between two images)",
            format.extension()
        ),
    ))
}

/// The caption's text: `fen` (the position's FEN), `move` ("After 23...Qxf2+" in `lang`,
/// from the game the request names) or the text itself, checked.
pub(super) fn caption(
    value: &str,
    position: &Position,
    chosen: Option<&Chosen>,
    lang: Lang,
) -> Result<Option<String>, RequestError> {
    let text = value.trim();
    let text = match text {
        "" => return Ok(None),
        "fen" => fen_caption(position)?,
        "move" => {
            let Some(c) = chosen else {
                return Err(RequestError::new(
                    "caption",
                    "caption=move needs a game to take the move from: give pgn or moves (a FEN alone does not say which move led to it)",
                ));
            };
            match c.game.label(c.ply) {
                // Without a Japanese font (--fonts), the move alone (its letters are the
                // international ones in Japanese too).
                Some(label) => Some(after_move(&label, lang))
                    .filter(|t| caption::missing_glyph(t).is_none())
                    .unwrap_or(label),
                None => {
                    return Err(RequestError::new(
                        "caption",
                        "caption=move has no move to show: the position chosen is the start of the game (give ply or move after it)",
                    ));
                }
            }
        }
        _ => text.to_string(),
    };
    check_text(value, &text)?;
    Ok(Some(text))
}

/// The position's FEN as its caption, when it fits. A FEN cut to fit would be a wrong
/// FEN (a reader copying it gets another position), so a longer one is refused, saying
/// whose length it is: the user wrote `fen`, not 601 characters.
fn fen_caption(position: &Position) -> Result<String, RequestError> {
    let fen = position.to_string();
    let chars = fen.chars().count();
    if chars > MAX_CAPTION_CHARS {
        return Err(RequestError::new(
            "caption",
            format!(
                "caption=fen: this board's FEN is {chars} characters, more than a caption holds (at most {MAX_CAPTION_CHARS}), and a FEN cut short would name another position: write a caption of your own, or leave it out"
            ),
        ));
    }
    Ok(fen)
}

/// A caption is one paragraph of plain text the faces can draw, within the limit.
fn check_text(value: &str, text: &str) -> Result<(), RequestError> {
    let chars = text.chars().count();
    if chars > MAX_CAPTION_CHARS {
        return Err(RequestError::new(
            "caption",
            format!(
                "caption {} is {chars} characters long: at most {MAX_CAPTION_CHARS} are allowed",
                Echo(value)
            ),
        ));
    }
    // What was written, untrimmed: a line break or separator at its end is refused, not
    // cut off.
    RequestError::check_printable(
        "caption",
        "caption",
        value,
        value,
        "a caption is one paragraph of printable text, without control characters (tabs, line breaks)",
    )?;
    RequestError::check_drawable("caption", "caption", value, text)
}

/// An animation's frames are drawn from one palette of opaque colours, with player bars
/// for words: no transparent background, no caption.
pub(super) fn check_animation(options: &RenderOptions) -> Result<(), RequestError> {
    if options.theme.margin.a != 255 {
        let formats = Format::labels(&Format::transparent());
        return Err(RequestError::new(
            "background",
            format!(
                "background=transparent is for one diagram ({formats}): an animation's frames are drawn from a palette of opaque colours, so pick a colour"
            ),
        ));
    }
    if options.caption.is_some() {
        return Err(RequestError::new(
            "caption",
            "caption is for one diagram: an animation shows its players in bars above and below the board (players=1)",
        ));
    }
    Ok(())
}
