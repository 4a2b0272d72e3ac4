//! Positions in words: the alt text of a diagram, for screen readers and search engines.
//!
//! Owns the description of a position in each language Staunton writes ([`Lang`]): one
//! table of words per language (`Words`), one writer that follows it. `/describe` answers
//! it, the SVG carries it as its `<title>`, and the front page puts it in the `alt` of the
//! tags it writes. Square names stay as they are (`e4`) in every language.

use crate::chess::fairy::{FairyMarker, FigureKind, Side, SquareText, Turn};
use crate::chess::letters::Letters;
use crate::chess::piece::{Color, Piece, Role};
use crate::chess::position::{Position, Square};

/// The order pieces are listed in: most valuable first, pawns last.
const ROLES: [Role; 8] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Archbishop,
    Role::Chancellor,
    Role::Pawn,
];

/// The language codes of [`Lang`], the default first, as `lang=` takes them.
pub const LANG_CODES: [&str; 7] = ["en", "de", "it", "fr", "es", "nl", "ja"];

/// A language a description is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// English (the default).
    #[default]
    En,
    /// German.
    De,
    /// Italian.
    It,
    /// French.
    Fr,
    /// Spanish.
    Es,
    /// Dutch.
    Nl,
    /// Japanese.
    Ja,
}

impl Lang {
    /// Every language, in the order of [`LANG_CODES`].
    pub const ALL: [Lang; 7] = [
        Lang::En,
        Lang::De,
        Lang::It,
        Lang::Fr,
        Lang::Es,
        Lang::Nl,
        Lang::Ja,
    ];

    /// The code: `en`, `de`, ….
    pub fn code(self) -> &'static str {
        self.words().code
    }

    /// The language of a code, case-insensitively; a region is ignored (`de-CH` is `de`).
    pub fn from_code(code: &str) -> Option<Lang> {
        let primary = code.trim().split(['-', '_']).next().unwrap_or_default();
        Lang::ALL
            .into_iter()
            .find(|l| l.code().eq_ignore_ascii_case(primary))
    }

    /// The piece letters this language's moves are written in (English and Japanese
    /// write and read the English letters).
    pub fn letters(self) -> Letters {
        match self {
            Lang::En | Lang::Ja => Letters::English,
            Lang::De => Letters::German,
            Lang::It => Letters::Italian,
            Lang::Fr => Letters::French,
            Lang::Es => Letters::Spanish,
            Lang::Nl => Letters::Dutch,
        }
    }

    fn words(self) -> &'static Words {
        match self {
            Lang::En => &EN,
            Lang::De => &DE,
            Lang::It => &IT,
            Lang::Fr => &FR,
            Lang::Es => &ES,
            Lang::Nl => &NL,
            Lang::Ja => &JA,
        }
    }
}

/// A piece's name: one, several, and the mark after the square of a promoted one (which
/// agrees with the noun where the language wants it).
struct Noun {
    one: &'static str,
    many: &'static str,
    promoted: &'static str,
}

impl Noun {
    /// The name of one, or of several.
    fn pick(&self, many: bool) -> &'static str {
        if many { self.many } else { self.one }
    }
}

const fn noun(one: &'static str, many: &'static str, promoted: &'static str) -> Noun {
    Noun {
        one,
        many,
        promoted,
    }
}

/// Where a count in hand goes: `2 Pawns`, or after the noun with a counter (`ポーン2個`).
enum Count {
    Before,
    After(&'static str),
}

/// Everything a language says in a description. The writer only joins these.
struct Words {
    code: &'static str,
    /// Piece names in the order of [`ROLES`].
    pieces: [Noun; 8],
    /// White, Black and the neutral pieces (Fairy FEN's `-k`) as they head their list.
    sides: [&'static str; 3],
    /// White's and Black's pocket as they head their list (crazyhouse).
    in_hand: [&'static str; 2],
    /// `White to move` and `Black to move`, without the full stop.
    to_move: [&'static str; 2],
    /// A side with no pieces at all.
    no_pieces: &'static str,
    /// A board with no pieces at all.
    empty: &'static str,
    /// Before and after the move that led to the position: `After ` … ``.
    after: (&'static str, &'static str),
    /// After a heading.
    colon: &'static str,
    /// Between a piece's name and its squares.
    space: &'static str,
    /// Between items of a list.
    comma: &'static str,
    /// Before the last item of a list, and before one that starts with an /i/ sound.
    and: &'static str,
    and_before_i: &'static str,
    /// The end of a sentence, and what separates two.
    stop: &'static str,
    gap: &'static str,
    count: Count,
    /// A piece drawn as a lettered token (`Piece “E”`): its name, one and several.
    lettered: Noun,
    /// The markers, in the order of [`FairyMarker::ALL`] (circle, cross, square, triangle).
    markers: [Noun; 4],
    /// After a turned figure's name: a quarter turn right, upside down, a quarter turn left.
    turns: [&'static str; 3],
    /// Quotation marks around a letter or a square's text.
    quotes: (&'static str, &'static str),
    /// The heading of the text written on squares.
    text: &'static str,
    /// Before and after a board's size when it is not 8×8: `A ` … ` board`.
    board: (&'static str, &'static str),
}

const EN: Words = Words {
    code: "en",
    pieces: [
        noun("King", "Kings", " (promoted)"),
        noun("Queen", "Queens", " (promoted)"),
        noun("Rook", "Rooks", " (promoted)"),
        noun("Bishop", "Bishops", " (promoted)"),
        noun("Knight", "Knights", " (promoted)"),
        noun("Archbishop", "Archbishops", " (promoted)"),
        noun("Chancellor", "Chancellors", " (promoted)"),
        noun("Pawn", "Pawns", " (promoted)"),
    ],
    sides: ["White", "Black", "Neutral"],
    in_hand: ["White in hand", "Black in hand"],
    to_move: ["White to move", "Black to move"],
    no_pieces: "no pieces",
    empty: "Empty board",
    after: ("After ", ""),
    colon: ": ",
    space: " ",
    comma: ", ",
    and: " and ",
    and_before_i: " and ",
    stop: ".",
    gap: " ",
    count: Count::Before,
    lettered: noun("Piece", "Pieces", ""),
    markers: [
        noun("Circle", "Circles", ""),
        noun("Cross", "Crosses", ""),
        noun("Square", "Squares", ""),
        noun("Triangle", "Triangles", ""),
    ],
    turns: [
        " (turned a quarter to the right)",
        " (upside down)",
        " (turned a quarter to the left)",
    ],
    quotes: ("\u{201c}", "\u{201d}"),
    text: "Text",
    board: ("A ", " board"),
};

const DE: Words = Words {
    code: "de",
    pieces: [
        noun("König", "Könige", " (umgewandelt)"),
        noun("Dame", "Damen", " (umgewandelt)"),
        noun("Turm", "Türme", " (umgewandelt)"),
        noun("Läufer", "Läufer", " (umgewandelt)"),
        noun("Springer", "Springer", " (umgewandelt)"),
        noun("Erzbischof", "Erzbischöfe", " (umgewandelt)"),
        noun("Kanzler", "Kanzler", " (umgewandelt)"),
        noun("Bauer", "Bauern", " (umgewandelt)"),
    ],
    sides: ["Weiß", "Schwarz", "Neutral"],
    in_hand: ["Weiß in der Hand", "Schwarz in der Hand"],
    to_move: ["Weiß am Zug", "Schwarz am Zug"],
    no_pieces: "keine Steine",
    empty: "Leeres Brett",
    after: ("Nach ", ""),
    colon: ": ",
    space: " ",
    comma: ", ",
    and: " und ",
    and_before_i: " und ",
    stop: ".",
    gap: " ",
    count: Count::Before,
    lettered: noun("Stein", "Steine", ""),
    markers: [
        noun("Kreis", "Kreise", ""),
        noun("Kreuz", "Kreuze", ""),
        noun("Quadrat", "Quadrate", ""),
        noun("Dreieck", "Dreiecke", ""),
    ],
    turns: [
        " (um 90° nach rechts gedreht)",
        " (auf dem Kopf)",
        " (um 90° nach links gedreht)",
    ],
    quotes: ("\u{201e}", "\u{201c}"),
    text: "Text",
    board: ("Brett mit ", " Feldern"),
};

const IT: Words = Words {
    code: "it",
    pieces: [
        noun("re", "re", " (promosso)"),
        noun("donna", "donne", " (promossa)"),
        noun("torre", "torri", " (promossa)"),
        noun("alfiere", "alfieri", " (promosso)"),
        noun("cavallo", "cavalli", " (promosso)"),
        noun("arcivescovo", "arcivescovi", " (promosso)"),
        noun("cancelliere", "cancellieri", " (promosso)"),
        noun("pedone", "pedoni", " (promosso)"),
    ],
    sides: ["Bianco", "Nero", "Neutrali"],
    in_hand: ["Riserva del Bianco", "Riserva del Nero"],
    to_move: ["Tratto al Bianco", "Tratto al Nero"],
    no_pieces: "nessun pezzo",
    empty: "Scacchiera vuota",
    after: ("Dopo ", ""),
    colon: ": ",
    space: " ",
    comma: ", ",
    and: " e ",
    and_before_i: " e ",
    stop: ".",
    gap: " ",
    count: Count::Before,
    lettered: noun("pezzo", "pezzi", ""),
    markers: [
        noun("cerchio", "cerchi", ""),
        noun("croce", "croci", ""),
        noun("quadrato", "quadrati", ""),
        noun("triangolo", "triangoli", ""),
    ],
    turns: [
        " (un quarto di giro a destra)",
        " (a testa in giù)",
        " (un quarto di giro a sinistra)",
    ],
    quotes: ("«", "»"),
    text: "Testo",
    board: ("Scacchiera ", ""),
};

const FR: Words = Words {
    code: "fr",
    pieces: [
        noun("roi", "rois", " (promu)"),
        noun("dame", "dames", " (promue)"),
        noun("tour", "tours", " (promue)"),
        noun("fou", "fous", " (promu)"),
        noun("cavalier", "cavaliers", " (promu)"),
        noun("archevêque", "archevêques", " (promu)"),
        noun("chancelier", "chanceliers", " (promu)"),
        noun("pion", "pions", " (promu)"),
    ],
    sides: ["Blancs", "Noirs", "Neutres"],
    in_hand: ["Réserve des Blancs", "Réserve des Noirs"],
    to_move: ["Trait aux Blancs", "Trait aux Noirs"],
    no_pieces: "aucune pièce",
    empty: "Échiquier vide",
    after: ("Après ", ""),
    // French puts a (no-break) space before a colon.
    colon: "\u{a0}: ",
    space: " ",
    comma: ", ",
    and: " et ",
    and_before_i: " et ",
    stop: ".",
    gap: " ",
    count: Count::Before,
    lettered: noun("pièce", "pièces", ""),
    markers: [
        noun("cercle", "cercles", ""),
        noun("croix", "croix", ""),
        noun("carré", "carrés", ""),
        noun("triangle", "triangles", ""),
    ],
    turns: [
        " (quart de tour à droite)",
        " (à l\u{2019}envers)",
        " (quart de tour à gauche)",
    ],
    quotes: ("«\u{a0}", "\u{a0}»"),
    text: "Texte",
    board: ("Échiquier de ", " cases"),
};

const ES: Words = Words {
    code: "es",
    pieces: [
        noun("rey", "reyes", " (coronado)"),
        noun("dama", "damas", " (coronada)"),
        noun("torre", "torres", " (coronada)"),
        noun("alfil", "alfiles", " (coronado)"),
        noun("caballo", "caballos", " (coronado)"),
        noun("arzobispo", "arzobispos", " (coronado)"),
        noun("canciller", "cancilleres", " (coronado)"),
        noun("peón", "peones", " (coronado)"),
    ],
    sides: ["Blancas", "Negras", "Neutras"],
    in_hand: ["Reserva de las blancas", "Reserva de las negras"],
    to_move: ["Juegan las blancas", "Juegan las negras"],
    no_pieces: "sin piezas",
    empty: "Tablero vacío",
    after: ("Tras ", ""),
    colon: ": ",
    space: " ",
    comma: ", ",
    and: " y ",
    // "y" becomes "e" before an /i/ sound: "h1 e i1" on a ten-file board.
    and_before_i: " e ",
    stop: ".",
    gap: " ",
    count: Count::Before,
    lettered: noun("pieza", "piezas", ""),
    markers: [
        noun("círculo", "círculos", ""),
        noun("cruz", "cruces", ""),
        noun("cuadrado", "cuadrados", ""),
        noun("triángulo", "triángulos", ""),
    ],
    turns: [
        " (un cuarto de vuelta a la derecha)",
        " (boca abajo)",
        " (un cuarto de vuelta a la izquierda)",
    ],
    quotes: ("«", "»"),
    text: "Texto",
    board: ("Tablero de ", " casillas"),
};

const NL: Words = Words {
    code: "nl",
    pieces: [
        noun("koning", "koningen", " (gepromoveerd)"),
        noun("dame", "dames", " (gepromoveerd)"),
        noun("toren", "torens", " (gepromoveerd)"),
        noun("loper", "lopers", " (gepromoveerd)"),
        noun("paard", "paarden", " (gepromoveerd)"),
        noun("aartsbisschop", "aartsbisschoppen", " (gepromoveerd)"),
        noun("kanselier", "kanseliers", " (gepromoveerd)"),
        noun("pion", "pionnen", " (gepromoveerd)"),
    ],
    sides: ["Wit", "Zwart", "Neutraal"],
    in_hand: ["Reserve van Wit", "Reserve van Zwart"],
    to_move: ["Wit aan zet", "Zwart aan zet"],
    no_pieces: "geen stukken",
    empty: "Leeg bord",
    after: ("Na ", ""),
    colon: ": ",
    space: " ",
    comma: ", ",
    and: " en ",
    and_before_i: " en ",
    stop: ".",
    gap: " ",
    count: Count::Before,
    lettered: noun("stuk", "stukken", ""),
    markers: [
        noun("cirkel", "cirkels", ""),
        noun("kruis", "kruisen", ""),
        noun("vierkant", "vierkanten", ""),
        noun("driehoek", "driehoeken", ""),
    ],
    turns: [
        " (kwartslag naar rechts)",
        " (ondersteboven)",
        " (kwartslag naar links)",
    ],
    quotes: ("\u{201c}", "\u{201d}"),
    text: "Tekst",
    board: ("Bord van ", " velden"),
};

/// Japanese: katakana piece names, full-width punctuation, no spaces between words; moves
/// keep the international letters.
const JA: Words = Words {
    code: "ja",
    pieces: [
        noun("キング", "キング", "（昇格）"),
        noun("クイーン", "クイーン", "（昇格）"),
        noun("ルーク", "ルーク", "（昇格）"),
        noun("ビショップ", "ビショップ", "（昇格）"),
        noun("ナイト", "ナイト", "（昇格）"),
        noun("アーチビショップ", "アーチビショップ", "（昇格）"),
        noun("チャンセラー", "チャンセラー", "（昇格）"),
        noun("ポーン", "ポーン", "（昇格）"),
    ],
    sides: ["白", "黒", "中立"],
    in_hand: ["白の持ち駒", "黒の持ち駒"],
    to_move: ["白番", "黒番"],
    no_pieces: "駒なし",
    empty: "盤上に駒なし",
    after: ("", "の後"),
    colon: "：",
    space: "",
    comma: "、",
    and: "、",
    and_before_i: "、",
    stop: "。",
    gap: "",
    count: Count::After("個"),
    lettered: noun("駒", "駒", ""),
    markers: [
        noun("丸", "丸", ""),
        noun("バツ", "バツ", ""),
        noun("四角", "四角", ""),
        noun("三角", "三角", ""),
    ],
    turns: ["（右に90度回転）", "（逆さ）", "（左に90度回転）"],
    quotes: ("「", "」"),
    text: "文字",
    board: ("", "の盤"),
};

/// A plain-English description of `position`: [`describe_in`] English.
pub fn describe(position: &Position) -> String {
    describe_in(position, Lang::En)
}

/// A description of `position` in `lang`: each side's pieces by kind with their squares,
/// what each side holds in hand (crazyhouse), and the side to move, e.g. in English
/// `White: King g1, Rooks a1 and f1, Pawns f2, g2 and h2. Black: King g8, Pawns f7, g7
/// and h7. White to move.`
pub fn describe_in(position: &Position, lang: Lang) -> String {
    describe_after(position, None, lang)
}

/// "After 23...Qxf2+" in `lang`, the move's piece letters written as `lang` writes them:
/// a caption under a diagram of the position.
pub fn after_move(label: &str, lang: Lang) -> String {
    let w = lang.words();
    let (before, after) = w.after;
    format!("{before}{}{after}", move_letters(label, lang))
}

/// `san`'s piece letters as `lang` writes them (`Nf3` → `Sf3` in German).
pub fn move_letters_in(san: &str, lang: Lang) -> String {
    move_letters(san, lang)
}

/// "White to move" in `lang`.
pub fn to_move(side: Color, lang: Lang) -> &'static str {
    lang.words().to_move[side_index(side)]
}

/// [`describe_in`], after the move that led to the position (`23...Qxf2+`, its piece
/// letters written as `lang` writes them) when there is one: what `/describe` says of a
/// game.
///
/// A board of another size than the 8×8 and the 10×8 (Capablanca) board, whose words stay
/// as they always were, is named first (`A 10×10 board.`). Fairy figures are listed with
/// the pieces: neutral ones under a heading of their own (`Neutral: King e4.`), a turned
/// one with its turn after its name (`Queen (upside down) d1`), a letter piece by its
/// letter (`Piece “E” e4`), markers by their shape (`Circle c3`), and text last
/// (`Text: “12” d5.`).
pub fn describe_after(position: &Position, last_move: Option<&str>, lang: Lang) -> String {
    let w = lang.words();
    let mut text = String::with_capacity(256);
    let classic = position.ranks() == 8 && matches!(position.files(), 8 | 10);
    if !classic {
        let (before, after) = w.board;
        sentence(&mut text, w, &format!("{before}{}{after}", position.size()));
    }
    if let Some(label) = last_move {
        let (before, after) = w.after;
        sentence(
            &mut text,
            w,
            &format!("{before}{}{after}", move_letters(label, lang)),
        );
    }
    let (entries, texts) = entries(position);
    if entries.is_empty() && texts.is_empty() {
        sentence(&mut text, w, w.empty);
    }
    for side in [SIDE_WHITE, SIDE_BLACK, SIDE_NEUTRAL] {
        let start = entries.partition_point(|e| e.side < side);
        let end = entries.partition_point(|e| e.side <= side);
        let own = &entries[start..end];
        if !own.is_empty() {
            let body = side_list(position, own, w);
            sentence(&mut text, w, &format!("{}{}{body}", w.sides[side], w.colon));
        } else if !entries.is_empty() && side != SIDE_NEUTRAL {
            sentence(
                &mut text,
                w,
                &format!("{}{}{}", w.sides[side], w.colon, w.no_pieces),
            );
        }
        let color = [Color::White, Color::Black].get(side);
        if let Some(hand) = color.and_then(|&c| in_hand(position, c, w)) {
            sentence(
                &mut text,
                w,
                &format!("{}{}{hand}", w.in_hand[side], w.colon),
            );
        }
    }
    if !texts.is_empty() {
        let (open, close) = w.quotes;
        let items: Vec<String> = texts
            .iter()
            .map(|(sq, t, turn)| format!("{open}{t}{close}{}{}{sq}", turned(*turn, w), w.space))
            .collect();
        let mut body = format!("{}{}", w.text, w.colon);
        listed(&mut body, &items, w);
        sentence(&mut text, w, &body);
    }
    sentence(&mut text, w, w.to_move[side_index(position.turn)]);
    text
}

/// The index of a side in [`Words::sides`].
const SIDE_WHITE: usize = 0;
const SIDE_BLACK: usize = 1;
const SIDE_NEUTRAL: usize = 2;

/// What a listed thing is, in the order things are listed: orthodox kinds (by [`ROLES`]),
/// then letter pieces (by letter), then markers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Role(usize),
    Letter(char),
    Marker(usize),
}

/// One piece, figure or marker on the board, as the description lists it.
#[derive(Debug, Clone, Copy)]
struct Entry {
    side: usize,
    kind: Kind,
    turn: Turn,
    sq: Square,
}

/// Everything on the board but text, sorted as it is listed (side, kind, turn, file, rank),
/// and the text on squares by square.
fn entries(position: &Position) -> (Vec<Entry>, Vec<(Square, SquareText, Turn)>) {
    let mut entries: Vec<Entry> = position
        .pieces()
        .map(|(sq, p)| Entry {
            side: side_index(p.color),
            kind: Kind::Role(role_order(p.role)),
            turn: Turn::None,
            sq,
        })
        .collect();
    let mut texts = Vec::new();
    for (sq, figure) in position.figures() {
        let kind = match figure.shape {
            FigureKind::Piece(role) => Kind::Role(role_order(role)),
            FigureKind::Letter(c) => Kind::Letter(c.to_ascii_uppercase()),
            FigureKind::Marker(m) => {
                Kind::Marker(FairyMarker::ALL.iter().position(|&x| x == m).unwrap_or(0))
            }
            FigureKind::Text(t) => {
                texts.push((sq, t, figure.turn));
                continue;
            }
        };
        let side = match figure.side {
            Side::White => SIDE_WHITE,
            Side::Black => SIDE_BLACK,
            Side::Neutral => SIDE_NEUTRAL,
        };
        entries.push(Entry {
            side,
            kind,
            turn: figure.turn,
            sq,
        });
    }
    entries.sort_unstable_by_key(|e| (e.side, e.kind, e.turn, e.sq.file, e.sq.rank));
    (entries, texts)
}

/// One side's things: `King g1, Queen (upside down) d1, Rooks a1 and f1`.
fn side_list(position: &Position, own: &[Entry], w: &Words) -> String {
    let mut s = String::new();
    for (i, group) in own
        .chunk_by(|a, b| (a.kind, a.turn) == (b.kind, b.turn))
        .enumerate()
    {
        if i > 0 {
            s.push_str(w.comma);
        }
        let many = group.len() > 1;
        let (open, close) = w.quotes;
        let (noun, promoted) = match group[0].kind {
            Kind::Role(i) => (w.pieces[i].pick(many).to_string(), w.pieces[i].promoted),
            Kind::Letter(c) => (
                format!("{}{}{open}{c}{close}", w.lettered.pick(many), w.space),
                "",
            ),
            Kind::Marker(i) => (w.markers[i].pick(many).to_string(), ""),
        };
        s.push_str(&noun);
        s.push_str(turned(group[0].turn, w));
        s.push_str(w.space);
        let squares: Vec<String> = group
            .iter()
            .map(|e| {
                let mut name = e.sq.to_string();
                if e.turn == Turn::None && position.is_promoted(e.sq) {
                    name.push_str(promoted);
                }
                name
            })
            .collect();
        listed(&mut s, &squares, w);
    }
    s
}

/// What follows a turned figure's name; nothing for an upright one.
fn turned(turn: Turn, w: &Words) -> &'static str {
    match turn {
        Turn::None => "",
        Turn::Quarter => w.turns[0],
        Turn::Half => w.turns[1],
        Turn::ThreeQuarters => w.turns[2],
    }
}

fn side_index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// Where `role` comes in [`ROLES`].
fn role_order(role: Role) -> usize {
    ROLES
        .iter()
        .position(|&r| r == role)
        .unwrap_or(ROLES.len() - 1)
}

/// Add `body` as a sentence.
fn sentence(text: &mut String, w: &Words, body: &str) {
    if !text.is_empty() {
        text.push_str(w.gap);
    }
    text.push_str(body);
    text.push_str(w.stop);
}

/// `a, b and c`.
fn listed(text: &mut String, items: &[String], w: &Words) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 && i + 1 == items.len() {
            let i_sound = item.starts_with(['i', 'I', 'í']) || item.starts_with("hi");
            text.push_str(if i_sound { w.and_before_i } else { w.and });
        } else if i > 0 {
            text.push_str(w.comma);
        }
        text.push_str(item);
    }
}

/// A move's piece letters as `lang` writes them (its [`Letters`], which the SAN reader
/// reads): `Qxf2+` is `Dxf2+` in German; a language without spaces between words writes
/// `4.Qxf7#`.
fn move_letters(label: &str, lang: Lang) -> String {
    let spaced = !lang.words().space.is_empty();
    let label: String = label.chars().filter(|&c| c != ' ' || spaced).collect();
    lang.letters().from_english(&label)
}

/// What `color` holds in hand, if anything: `Knight and 2 Pawns`.
fn in_hand(position: &Position, color: Color, w: &Words) -> Option<String> {
    let pocket = position.pocket.as_ref()?;
    let items: Vec<String> = ROLES
        .iter()
        .zip(&w.pieces)
        .filter_map(|(&role, noun)| {
            let count = usize::from(pocket.count(Piece { color, role }));
            match (count, &w.count) {
                (0, _) => None,
                (1, _) => Some(noun.one.to_string()),
                (n, Count::Before) => Some(format!("{n}{}{}", w.space, noun.many)),
                (n, Count::After(counter)) => Some(format!("{}{n}{counter}", noun.many)),
            }
        })
        .collect();
    if items.is_empty() {
        return None;
    }
    let mut text = String::new();
    listed(&mut text, &items, w);
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen;

    fn text(fen: &str) -> String {
        describe(&fen::parse(fen).expect("valid FEN"))
    }

    #[test]
    fn the_start_position() {
        assert_eq!(
            text("start"),
            "White: King e1, Queen d1, Rooks a1 and h1, Bishops c1 and f1, Knights b1 and g1, \
             Pawns a2, b2, c2, d2, e2, f2, g2 and h2. \
             Black: King e8, Queen d8, Rooks a8 and h8, Bishops c8 and f8, Knights b8 and g8, \
             Pawns a7, b7, c7, d7, e7, f7, g7 and h7. White to move."
        );
    }

    #[test]
    fn sides_without_pieces_pockets_promotions_and_turn() {
        assert_eq!(text("empty"), "Empty board. White to move.");
        assert_eq!(
            text("8/8/8/4k3/8/8/8/8 b - - 0 1"),
            "White: no pieces. Black: King e5. Black to move."
        );
        assert_eq!(
            text("2Q~4k/8/8/8/8/8/8/K7[PPNr] w - - 0 1"),
            "White: King a1, Queen c8 (promoted). White in hand: Knight and 2 Pawns. \
             Black: King h8. Black in hand: Rook. White to move."
        );
        assert_eq!(
            text("rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1")
                .split(". ")
                .next()
                .map(|w| w.contains("Archbishop c1") && w.contains("Chancellor h1")),
            Some(true)
        );
    }

    #[test]
    fn codes_name_their_languages_and_regions_are_ignored() {
        for (lang, code) in Lang::ALL.into_iter().zip(LANG_CODES) {
            assert_eq!(lang.code(), code);
            assert_eq!(Lang::from_code(&code.to_uppercase()), Some(lang));
        }
        assert_eq!(Lang::from_code("de-CH"), Some(Lang::De));
        assert_eq!(Lang::from_code("pt"), None);
        assert_eq!(Lang::default(), Lang::En);
    }

    #[test]
    fn spanish_y_becomes_e_before_an_i_sound() {
        let position = fen::parse("10/10/10/10/10/10/10/K6RR1 w - - 0 1").expect("valid FEN");
        let words = describe_in(&position, Lang::Es);
        assert!(words.contains("torres h1 e i1"), "{words}");
        let position = fen::parse("start").expect("valid FEN");
        assert!(describe_in(&position, Lang::Es).contains("torres a1 y h1"));
    }

    #[test]
    fn moves_are_written_with_the_language_s_piece_letters() {
        let position = fen::parse("start").expect("valid FEN");
        let after = |lang| describe_after(&position, Some("23...Qxf2+"), lang);
        assert!(after(Lang::En).starts_with("After 23...Qxf2+. White: "));
        assert!(after(Lang::De).starts_with("Nach 23...Dxf2+. Weiß: "));
        assert!(after(Lang::Nl).starts_with("Na 23...Dxf2+. Wit: "));
        assert!(after(Lang::Ja).starts_with("23...Qxf2+の後。白："));
        assert_eq!(move_letters("5. O-O", Lang::Fr), "5. O-O");
        assert_eq!(move_letters("e8=N", Lang::De), "e8=S");
    }

    #[test]
    fn every_piece_is_named_once_by_its_square() {
        for fen in [
            "start",
            "r1bq1rk1/pp3ppp/3n4/2p1N3/2B5/7P/PPP2PP1/R1BQR1K1 w - - 0 1",
            "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
        ] {
            let position = fen::parse(fen).expect("valid FEN");
            let words = describe(&position);
            assert!(words.is_ascii(), "{words}");
            for (sq, _) in position.pieces() {
                let name = sq.to_string();
                let hits = words
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .filter(|w| *w == name)
                    .count();
                assert_eq!(hits, 1, "{fen}: {name} in {words}");
            }
        }
    }
}
