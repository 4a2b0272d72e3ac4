//! The artwork and the letters, made once and drawn by every diagram: the [`pieces`] (the
//! built-in sets, sets loaded from a folder and the vetting of their untrusted SVG), the
//! fonts (`font`: the built-in label font and the text faces, [`font_files`]: faces added
//! from a folder, [`font_system`]: the machine's installed faces, `font_coverage`: which face draws each
//! character, `font_held`: the faces and glyphs held within a budget), the subset fonts a PDF embeds (`pdf_font`) and the SVG path data both
//! pieces and glyphs are written in (`pathdata`).
//!
//! Reads `ground` (vetting a loaded set converts a trial piece to PDF with `ground::pdf`,
//! as the encoders do) and `spec` (the default set's name), and nothing of the stages
//! after it.

pub mod font_files;
pub mod font_system;
pub mod pieces;
internal_mod!(font, font_coverage, font_held, pathdata, pdf_font);
