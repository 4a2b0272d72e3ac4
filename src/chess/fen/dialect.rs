//! FEN dialects: which one a text is read in, by name, and what a rank may hold in each,
//! as the errors say.

/// What a standard FEN's rank may hold, as its errors say.
const STANDARD_CHARACTERS: &str = "a piece letter (KQRBNPAC, lower case for black) or a digit";
/// What a rank may hold in the `letters` dialect.
const LETTERS_CHARACTERS: &str = "a letter (upper case for white) or a digit";
/// What a standard FEN's rank may hold, where the character found is a mark of Fairy FEN.
const STANDARD_NOT_FAIRY: &str = "a piece letter (KQRBNPAC, lower case for black) or a digit; '-', '*' and ' mark Fairy FEN's neutral, turned and text pieces, read with dialect=fairy";
/// What a rank may hold in the `letters` dialect, where the character found marks Fairy FEN.
const LETTERS_NOT_FAIRY: &str = "a letter (upper case for white) or a digit; '-', '*' and ' mark Fairy FEN's neutral, turned and text pieces, read with dialect=fairy";
/// What a rank may hold in Fairy FEN.
const FAIRY_CHARACTERS: &str = "a piece letter (KQRBNP), a marker (C X S T), text ('A or ''AB), '-' for neutral or '*1' to '*3' for turned, lower case for black, or a digit";

/// The FEN dialect a text is read in. They differ in what letters mean, so one is chosen;
/// the default reads every FEN, X-FEN and crazyhouse FEN the service has always read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// FEN, X-FEN (`A` archbishop, `C` chancellor), Shredder-FEN and crazyhouse.
    #[default]
    Standard,
    /// Joost de Heer's Fairy FEN: neutral (`-k`), turned (`*2q`), text (`'A`, `''12`) and
    /// markers (`c`, `x`, `s`, `t`); no archbishop or chancellor, no crazyhouse marks.
    Fairy,
    /// The standard dialect, and any other letter a piece drawn as a lettered token.
    Letters,
}

impl Dialect {
    /// The names of the dialects, as the `dialect` parameter takes them.
    pub const NAMES: [&'static str; 3] = ["standard", "fairy", "letters"];

    /// The dialect of a name (`ffen` is `fairy`, `xfen` and `fen` are `standard`).
    pub fn from_name(name: &str) -> Option<Dialect> {
        match name.to_ascii_lowercase().as_str() {
            "standard" | "fen" | "xfen" | "x-fen" => Some(Dialect::Standard),
            "fairy" | "ffen" => Some(Dialect::Fairy),
            "letters" => Some(Dialect::Letters),
            _ => None,
        }
    }

    /// What a rank may hold, as an error about the character `found` says it: outside Fairy
    /// FEN, a character only Fairy FEN gives a meaning names the dialect that reads it.
    pub(super) fn characters(self, found: char) -> &'static str {
        let fairy_mark = matches!(found, '-' | '*' | '\'');
        match self {
            Dialect::Standard if fairy_mark => STANDARD_NOT_FAIRY,
            Dialect::Standard => STANDARD_CHARACTERS,
            Dialect::Fairy => FAIRY_CHARACTERS,
            Dialect::Letters if fairy_mark => LETTERS_NOT_FAIRY,
            Dialect::Letters => LETTERS_CHARACTERS,
        }
    }
}
