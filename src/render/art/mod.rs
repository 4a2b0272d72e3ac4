//! The artwork and the letters, made once and drawn by every diagram: the [`pieces`] (the
//! built-in sets, sets loaded from a folder and the vetting of their untrusted SVG), the
//! fonts (`font`: the built-in label font and the text faces, [`font_files`]: faces added
//! from a folder), the subset fonts a PDF embeds (`pdf_font`) and the SVG path data both
//! pieces and glyphs are written in (`pathdata`).
//!
//! Reads `spec` (the default set's name) and nothing of the stages after it, but one
//! check: vetting a loaded set renders a trial piece to PDF (`encode::convert`).

pub mod font_files;
pub mod pieces;
internal_mod!(font, pathdata, pdf_font);
