//! Descriptions of fairy figures and of boards other than 8×8 (`describe.rs`), in every
//! language: neutral, turned and letter pieces, markers, text, the board's size, and the
//! names of squares on ranks 10 to 16.

use staunton::BoardSize;
use staunton::chess::describe::{Lang, describe, describe_in};
use staunton::chess::fen;

fn text(fen: &str) -> String {
    describe(&fen::parse(fen).expect("valid FEN"))
}

fn fairy(fen: &str, lang: Lang) -> String {
    describe_in(
        &fen::parse_with(fen, fen::Dialect::Fairy).expect("valid Fairy FEN"),
        lang,
    )
}

/// A 10×10 board holding one figure of each kind: a neutral king on a10, a white queen
/// upside down on d1, black knights turned right (c1) and left (e1), a white circle on
/// c3 and the text "12" on d5.
const FIGURES: &str = "-k9/10/10/10/10/3''126/10/2C7/10/2*1n*2Q*3n5";

#[test]
fn figures_in_every_language() {
    let expected = [
        (
            Lang::En,
            "A 10×10 board. White: Queen (upside down) d1, Circle c3. \
             Black: Knight (turned a quarter to the right) c1, \
             Knight (turned a quarter to the left) e1. Neutral: King a10. \
             Text: \u{201c}12\u{201d} d5. White to move.",
        ),
        (
            Lang::De,
            "Brett mit 10×10 Feldern. Weiß: Dame (auf dem Kopf) d1, Kreis c3. \
             Schwarz: Springer (um 90° nach rechts gedreht) c1, \
             Springer (um 90° nach links gedreht) e1. Neutral: König a10. \
             Text: \u{201e}12\u{201c} d5. Weiß am Zug.",
        ),
        (
            Lang::It,
            "Scacchiera 10×10. Bianco: donna (a testa in giù) d1, cerchio c3. \
             Nero: cavallo (un quarto di giro a destra) c1, \
             cavallo (un quarto di giro a sinistra) e1. Neutrali: re a10. \
             Testo: «12» d5. Tratto al Bianco.",
        ),
        (
            Lang::Fr,
            "Échiquier de 10×10 cases. Blancs\u{a0}: dame (à l\u{2019}envers) d1, cercle c3. \
             Noirs\u{a0}: cavalier (quart de tour à droite) c1, \
             cavalier (quart de tour à gauche) e1. Neutres\u{a0}: roi a10. \
             Texte\u{a0}: «\u{a0}12\u{a0}» d5. Trait aux Blancs.",
        ),
        (
            Lang::Es,
            "Tablero de 10×10 casillas. Blancas: dama (boca abajo) d1, círculo c3. \
             Negras: caballo (un cuarto de vuelta a la derecha) c1, \
             caballo (un cuarto de vuelta a la izquierda) e1. Neutras: rey a10. \
             Texto: «12» d5. Juegan las blancas.",
        ),
        (
            Lang::Nl,
            "Bord van 10×10 velden. Wit: dame (ondersteboven) d1, cirkel c3. \
             Zwart: paard (kwartslag naar rechts) c1, paard (kwartslag naar links) e1. \
             Neutraal: koning a10. Tekst: \u{201c}12\u{201d} d5. Wit aan zet.",
        ),
        (
            Lang::Ja,
            "10×10の盤。白：クイーン（逆さ）d1、丸c3。\
             黒：ナイト（右に90度回転）c1、ナイト（左に90度回転）e1。中立：キングa10。\
             文字：「12」d5。白番。",
        ),
    ];
    for (lang, text) in expected {
        assert_eq!(fairy(FIGURES, lang), text, "{lang:?}");
    }
}

#[test]
fn markers_letter_pieces_and_turned_text_in_every_language() {
    let markers = [
        (
            Lang::En,
            "White: Circle a8, Cross b8, Square c8, Triangle d8. Black: Circles e1 and f1.",
        ),
        (
            Lang::De,
            "Weiß: Kreis a8, Kreuz b8, Quadrat c8, Dreieck d8. Schwarz: Kreise e1 und f1.",
        ),
        (
            Lang::It,
            "Bianco: cerchio a8, croce b8, quadrato c8, triangolo d8. Nero: cerchi e1 e f1.",
        ),
        (
            Lang::Fr,
            "Blancs\u{a0}: cercle a8, croix b8, carré c8, triangle d8. Noirs\u{a0}: cercles e1 et f1.",
        ),
        (
            Lang::Es,
            "Blancas: círculo a8, cruz b8, cuadrado c8, triángulo d8. Negras: círculos e1 y f1.",
        ),
        (
            Lang::Nl,
            "Wit: cirkel a8, kruis b8, vierkant c8, driehoek d8. Zwart: cirkels e1 en f1.",
        ),
        (Lang::Ja, "白：丸a8、バツb8、四角c8、三角d8。黒：丸e1、f1。"),
    ];
    for (lang, text) in markers {
        let words = fairy("CXST4/8/8/8/8/8/8/4cc2", lang);
        assert!(words.starts_with(text), "{lang:?}: {words}");
    }
    let letters = [
        (
            Lang::En,
            "White: Piece \u{201c}E\u{201d} e4. Black: Pieces \u{201c}Z\u{201d} a1 and h8.",
        ),
        (
            Lang::De,
            "Weiß: Stein \u{201e}E\u{201c} e4. Schwarz: Steine \u{201e}Z\u{201c} a1 und h8.",
        ),
        (Lang::It, "Bianco: pezzo «E» e4. Nero: pezzi «Z» a1 e h8."),
        (
            Lang::Fr,
            "Blancs\u{a0}: pièce «\u{a0}E\u{a0}» e4. Noirs\u{a0}: pièces «\u{a0}Z\u{a0}» a1 et h8.",
        ),
        (
            Lang::Es,
            "Blancas: pieza «E» e4. Negras: piezas «Z» a1 y h8.",
        ),
        (
            Lang::Nl,
            "Wit: stuk \u{201c}E\u{201d} e4. Zwart: stukken \u{201c}Z\u{201d} a1 en h8.",
        ),
        (Lang::Ja, "白：駒「E」e4。黒：駒「Z」a1、h8。"),
    ];
    let position =
        fen::parse_with("7z/8/8/8/4E3/8/8/z7", fen::Dialect::Letters).expect("valid FEN");
    for (lang, text) in letters {
        let words = describe_in(&position, lang);
        assert!(words.starts_with(text), "{lang:?}: {words}");
    }
    assert_eq!(
        fairy("8/8/8/3*1'A4/8/8/8/8", Lang::En),
        "Text: \u{201c}A\u{201d} (turned a quarter to the right) d5. White to move."
    );
}

#[test]
fn boards_other_than_8x8_are_named_and_ranks_past_9_have_two_digits() {
    let big = fen::parse("k14K/16/16/16/16/16/R15/16/16/16/16/16/16/16/16/15r").expect("16×16");
    assert_eq!(
        describe(&big),
        "A 16×16 board. White: King p16, Rook a10. Black: King a16, Rook p1. White to move."
    );
    assert!(text("start").starts_with("White: "), "8×8 is not named");
    let capablanca = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";
    // The 10×8 board's words are as they always were (its SVG title is in the render-hash
    // record); a 12×8 board is named.
    assert!(text(capablanca).starts_with("White: King f1"));
    let wide = "12/12/12/12/12/12/12/K10k w - - 0 1";
    assert!(
        text(wide).starts_with("A 12×8 board. White: King a1"),
        "{}",
        text(wide)
    );
    let narrow =
        fen::parse_board("k/1/K", fen::Dialect::Standard, BoardSize::new(1, 3)).expect("1×3");
    assert_eq!(
        describe_in(&narrow, Lang::De),
        "Brett mit 1×3 Feldern. Weiß: König a1. Schwarz: König a3. Weiß am Zug."
    );
}
