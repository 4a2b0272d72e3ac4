//! The error of a request: [`RequestError`], one sentence naming the parameter at fault,
//! the value as sent and what is allowed, and the checks of a line of user text that every
//! part of a request shares. Owns no parameter: each part says its own.

use crate::echo::Echo;
use thiserror::Error;

/// A bad parameter: its name, the value as sent (shortened), and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{message}")]
pub struct RequestError {
    /// The parameter at fault (canonical name).
    pub param: &'static str,
    message: String,
}

/// What a one-line text parameter (a sheet's `caption`, a card's `title`) must be.
pub(crate) const ONE_LINE: &str =
    "expected one line of printable text, without control characters (tabs, line breaks)";

impl RequestError {
    /// The error of `param` saying `message`, in which a character a sentence may not repeat
    /// as itself (a control, a separator, a bidirectional control, one no font draws) is
    /// written as its code point (see [`crate::echo::tame`]).
    pub(crate) fn new(param: &'static str, message: impl Into<String>) -> RequestError {
        let message = message.into();
        let message = match crate::echo::tame(&message) {
            std::borrow::Cow::Borrowed(_) => message,
            std::borrow::Cow::Owned(tamed) => tamed,
        };
        RequestError { param, message }
    }

    /// `param` was not given: "{param} is missing: {hint}".
    pub(crate) fn missing(param: &'static str, hint: impl std::fmt::Display) -> RequestError {
        RequestError::new(param, format!("{param} is missing: {hint}"))
    }

    /// Two parameters that exclude each other were both given, named by `param`:
    /// "{both} cannot both be given: {why}".
    pub(crate) fn not_both(param: &'static str, both: &str, why: &str) -> RequestError {
        RequestError::new(param, format!("{both} cannot both be given: {why}"))
    }

    pub(crate) fn bad_value(param: &'static str, value: &str, allowed: &str) -> RequestError {
        RequestError::new(
            param,
            format!("{param} {} is not allowed: {allowed}", Echo(value)),
        )
    }

    /// `text` is one line of printable text, or the error of `param` naming its first
    /// character that may not stand in one ([`crate::echo::unfit_in_line`]: a control
    /// character, a line or paragraph separator, a bidirectional control): "`label` `value`
    /// has the character U+2028 at character 3, a line separator, which breaks the line:
    /// `rule`". `value` is what was written, `text` what is checked (often the same).
    pub(crate) fn check_printable(
        param: &'static str,
        label: &str,
        value: &str,
        text: &str,
        rule: &str,
    ) -> Result<(), RequestError> {
        match crate::echo::first_unfit_in_line(text) {
            Some((at, c, why)) => Err(RequestError::new(
                param,
                format!(
                    "{label} {} has the character {} at character {at}, {why}: {rule}",
                    Echo(value),
                    crate::echo::CodePoint(c)
                ),
            )),
            None => Ok(()),
        }
    }

    /// Every character of `text` is drawn by some face (the built-in one, an added font,
    /// an installed one), or the error of `param` naming the first that is not: "`label`
    /// `value` has the character U+767D at character 3, which cannot be drawn: …".
    /// `value` is what was written, `text` what is drawn (often the same).
    pub(crate) fn check_drawable(
        param: &'static str,
        label: &str,
        value: &str,
        text: &str,
    ) -> Result<(), RequestError> {
        use crate::render::scene::caption;
        let Some(c) = caption::missing_glyph(text) else {
            return Ok(());
        };
        let at = text.chars().position(|t| t == c).map_or(1, |i| i + 1);
        Err(RequestError::new(
            param,
            format!(
                "{label} {} has the character {} at character {at}, which cannot be drawn: {}",
                Echo(value),
                crate::echo::CodePoint(c),
                caption::no_glyph_reason()
            ),
        ))
    }

    /// [`RequestError::check_printable`], then [`RequestError::check_drawable`], of `value`
    /// itself: one line of text every character of which is drawn.
    pub(crate) fn check_line(
        param: &'static str,
        label: &str,
        value: &str,
        rule: &str,
    ) -> Result<(), RequestError> {
        RequestError::check_printable(param, label, value, value, rule)?;
        RequestError::check_drawable(param, label, value, value)
    }
}
