//! The tree reader (`chess::annotated::read`) and piece letters by language
//! (`Game::from_pgn_with`, `Game::from_san_with`): nested variations, comments, NAGs,
//! commands, diagram markers, limits, and every rejected form named.

use staunton::chess::annotated::{self, Annotated, DiagramMarker, Letters, Limits};
use staunton::chess::describe::Lang;
use staunton::chess::fen;
use staunton::chess::game::Game;
use staunton::chess::piece::Color;
use staunton::chess::position::{Position, Square};

fn tree(text: &str) -> Annotated {
    annotated::read(text, Letters::English, Limits::default()).expect(text)
}

fn tree_err(text: &str, letters: Letters, limits: Limits) -> String {
    match annotated::read(text, letters, limits) {
        Ok(_) => panic!("{text:?} should not be read"),
        Err(e) => e.to_string(),
    }
}

fn fen_of(text: &str) -> String {
    Game::from_pgn(text, 1000)
        .map(|g| g.position(g.len()).to_string())
        .expect(text)
}

/// The error of playing `moves` in `letters` from `start`.
fn san_err(start: &Position, moves: &str, letters: Letters) -> String {
    match Game::from_san_with(start, moves, 10, letters) {
        Ok(_) => panic!("{moves:?} should not play"),
        Err(e) => e.to_string(),
    }
}

fn sans(line: &[annotated::Node]) -> Vec<&str> {
    line.iter().map(|n| n.san.as_str()).collect()
}

#[test]
fn letters_of_each_language() {
    assert_eq!(Lang::En.letters(), Letters::English);
    assert_eq!(Lang::Ja.letters(), Letters::English);
    assert_eq!(Lang::De.letters(), Letters::German);
    assert_eq!(Lang::It.letters(), Letters::Italian);
    assert_eq!(Lang::Fr.letters(), Letters::French);
    assert_eq!(Lang::Es.letters(), Letters::Spanish);
    assert_eq!(Lang::Nl.letters(), Letters::Dutch);
}

#[test]
fn every_language_plays_the_same_opening() {
    let english = "1. e4 e5 2. Nf3 Nc6 3. Bb5 Qe7 4. O-O Kd8 5. Re1 a6";
    let cases = [
        (
            Letters::German,
            "1. e4 e5 2. Sf3 Sc6 3. Lb5 De7 4. O-O Kd8 5. Te1 a6",
        ),
        (
            Letters::Italian,
            "1. e4 e5 2. Cf3 Cc6 3. Ab5 De7 4. O-O Rd8 5. Te1 a6",
        ),
        (
            Letters::French,
            "1. e4 e5 2. Cf3 Cc6 3. Fb5 De7 4. O-O Rd8 5. Te1 a6",
        ),
        (
            Letters::Spanish,
            "1. e4 e5 2. Cf3 Cc6 3. Ab5 De7 4. O-O Rd8 5. Te1 a6",
        ),
        (
            Letters::Dutch,
            "1. e4 e5 2. Pf3 Pc6 3. Lb5 De7 4. O-O Kd8 5. Te1 a6",
        ),
    ];
    let expected = fen_of(english);
    for (letters, text) in cases {
        let game = Game::from_pgn_with(text, 100, letters).expect(text);
        assert_eq!(game.position(10).to_string(), expected, "{letters:?}");
        assert_eq!(
            game.san(3).as_deref(),
            Some("Nf3"),
            "written back in English"
        );
        let tree = annotated::read(text, letters, Limits::default()).expect(text);
        assert_eq!(tree.line[9].position.to_string(), expected, "{letters:?}");
    }
}

#[test]
fn italian_and_german_fixtures_play() {
    let it = include_str!("fixtures/games/letters/italian.pgn");
    let game = Game::from_pgn_with(it, 100, Letters::Italian).expect("Italian plays");
    assert_eq!(game.san(3).as_deref(), Some("Nf3"));
    assert_eq!(game.san(17).as_deref(), Some("Kh1"), "9. Rh1 is the king");
    let short = Game::from_pgn_with("1. e4 c5 2. Cf3", 10, Letters::Italian).expect("plays");
    assert_eq!(short.san(3).as_deref(), Some("Nf3"));
    let de = include_str!("fixtures/games/letters/german.pgn");
    let game = Game::from_pgn_with(de, 100, Letters::German).expect("German plays");
    assert_eq!(game.label(5).as_deref(), Some("3. Bb5"));
    assert_eq!(game.san(19).as_deref(), Some("Kh2"));
}

#[test]
fn promotions_take_the_language_s_queen_letter() {
    let start = fen::parse("8/P6k/8/8/8/8/8/K7 w - - 0 1").expect("a valid FEN");
    for letters in [
        Letters::German,
        Letters::Italian,
        Letters::French,
        Letters::Dutch,
    ] {
        let game = Game::from_san_with(&start, "a8=D", 10, letters).expect("promotes");
        assert_eq!(game.san(1).as_deref(), Some("a8=Q"), "{letters:?}");
    }
    let small = Game::from_san_with(&start, "a8=d", 10, Letters::French).expect("promotes");
    assert_eq!(small.san(1).as_deref(), Some("a8=Q"));
    let knight = Game::from_san_with(&start, "a8=S", 10, Letters::German).expect("promotes");
    assert_eq!(knight.san(1).as_deref(), Some("a8=N"));
    assert_eq!(
        san_err(&start, "a8=Q", Letters::Italian),
        "1. a8=Q is not a move in SAN with Italian piece letters (such as Cf3, exd5, O-O, e8=D) for White in the starting position"
    );
}

#[test]
fn english_letters_under_another_language_mean_its_pieces_or_nothing() {
    // Italian R is the king: `Rf1` moves the king, so needs f1 free and next to it.
    let start = fen::parse("4k3/8/8/8/8/8/8/4K2R w - - 0 1").expect("a valid FEN");
    let game = Game::from_san_with(&start, "Rf1", 10, Letters::Italian).expect("king move");
    assert_eq!(game.san(1).as_deref(), Some("Kf1"));
    assert_eq!(
        san_err(&start, "Rh2", Letters::Italian),
        "1. Rh2 is not a legal move for White in the starting position"
    );
    // English N is no German letter.
    let err = Game::from_pgn_with("1. Nf3", 10, Letters::German)
        .expect_err("N is not German")
        .to_string();
    assert!(
        err.starts_with("1. Nf3 is not a move in SAN with German piece letters (such as Sf3"),
        "{err}"
    );
    // Ambiguity names the candidates in the language's letters.
    let err = Game::from_pgn_with("1. Cf3 a6 2. Cc3 a5 3. Ce4 a4 4. Cg5", 10, Letters::Italian)
        .expect_err("ambiguous")
        .to_string();
    assert!(err.contains("Cfg5 or Ceg5"), "{err}");
}

#[test]
fn figurines_read_under_every_language() {
    for letters in [Letters::English, Letters::Italian, Letters::German] {
        let game = Game::from_pgn_with("1. e4 e5 2. ♘f3 ♞c6 3. ♗b5", 10, letters).expect("plays");
        assert_eq!(game.san(5).as_deref(), Some("Bb5"), "{letters:?}");
    }
    let tree = tree("1. e4 e5 2. ♘f3 (2. ♗c4 ♘f6) ♞c6 ½–½");
    assert_eq!(sans(&tree.line), ["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(sans(&tree.line[2].variations[0]), ["Bc4", "Nf6"]);
    assert_eq!(tree.result.as_deref(), Some("1/2-1/2"));
}

#[test]
fn ten_files_with_a_and_c_letters_name_the_clash() {
    let fen10 = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";
    let text = format!("[FEN \"{fen10}\"]\n\n1. e4 *");
    let err = Game::from_pgn_with(&text, 10, Letters::Italian)
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "Italian piece letters (lang=it) cannot be read on a 10×8 board, where A is the archbishop and C the chancellor"
    );
    let err = tree_err(&text, Letters::Spanish, Limits::default());
    assert!(err.starts_with("Spanish piece letters (lang=es)"), "{err}");
    let err = tree_err(&text, Letters::French, Limits::default());
    assert_eq!(
        err,
        "French piece letters (lang=fr) cannot be read on a 10×8 board, where C is the chancellor"
    );
    // Other letters meet the board's own refusal.
    let err = Game::from_pgn_with(&text, 10, Letters::German)
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("the FEN tag is not on an 8×8 board"),
        "{err}"
    );
    let start = fen::parse(fen10).expect("a valid FEN");
    let err = Game::from_san_with(&start, "e4", 10, Letters::Italian)
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("Italian piece letters"), "{err}");
}

const NESTED: &str = "[Event \"tree\"]\n[White \"W\"]\n\n\
    {Intro [%evp 0,10] [#]} 1. e4 {King's pawn} {second note} e5 $1 $14 $1304 \
    2. Nf3 (2. f4 {the gambit} exf4 (2... d5 {counter} 3. exd5) 3. Bc4) \
    (2. Bc4 $201) 2... Nc6 !? \
    3. Bb5 {[%cal Gb5c6] pin [%csl Rc6]} a6 ?! 4. Ba4 {#} Nf6 D 5. O-O $D \
    5... Be7 {[D] diagram} 6. Re1 {[# square_size=24] here} b5 {Diagramm # Stellung} \
    7. Bb3 $220 d6 $221 8. c3 ( {before} 8. a4 ) 1-0";

#[test]
fn nested_variations_start_from_the_position_before_the_move() {
    let t = tree(NESTED);
    assert_eq!(t.header("white"), Some("W"));
    assert_eq!(t.line.len(), 15);
    let nf3 = &t.line[2];
    assert_eq!(nf3.variations.len(), 2);
    let gambit = &nf3.variations[0];
    assert_eq!(sans(gambit), ["f4", "exf4", "Bc4"]);
    assert_eq!(
        gambit[1].position.to_string(),
        fen_of("1. e4 e5 2. f4 exf4")
    );
    let counter = &gambit[1].variations[0];
    assert_eq!(sans(counter), ["d5", "exd5"]);
    assert_eq!((counter[0].number, counter[0].color), (2, Color::Black));
    assert_eq!(
        counter[1].position.to_string(),
        fen_of("1. e4 e5 2. f4 d5 3. exd5")
    );
    assert_eq!(counter[0].comments, ["counter"]);
    assert_eq!(gambit[0].comments, ["the gambit"]);
    assert_eq!(nf3.variations[1][0].diagram, Some(DiagramMarker::Nag(201)));
    assert_eq!(
        t.line[3].position.to_string(),
        fen_of("1. e4 e5 2. Nf3 Nc6")
    );
    assert_eq!(t.line[14].variations[0][0].before, ["before"]);
    assert_eq!(t.line[14].variations[0][0].san, "a4");
    assert_eq!(t.result.as_deref(), Some("1-0"));
    // from/to as the main-line reader gives them, castling as the king's squares.
    // The main-line reader refuses `$1304` and `$D`: compare with the main line alone.
    let main: Vec<&str> = t.line.iter().map(|n| n.san.as_str()).collect();
    let game = Game::from_pgn(&main.join(" "), 100).expect("main line plays");
    for (i, node) in t.line.iter().enumerate() {
        assert_eq!(
            Some((node.from, node.to)),
            game.last_move(i + 1),
            "ply {}",
            i + 1
        );
        assert_eq!(node.position, game.position(i + 1), "ply {}", i + 1);
    }
    assert_eq!(
        (t.line[8].from, t.line[8].to),
        (Square::new(4, 0), Square::new(6, 0))
    );
}

#[test]
fn comments_nags_commands_and_markers() {
    let t = tree(NESTED);
    assert_eq!(t.intro, ["Intro"]);
    assert_eq!(t.intro_diagram, Some(DiagramMarker::Bracket));
    assert_eq!(t.line[0].comments, ["King's pawn", "second note"]);
    assert_eq!(t.line[1].nags, [1, 14], "$1304 is a marker, not a NAG");
    assert_eq!(t.line[1].diagram, Some(DiagramMarker::Nag(1304)));
    assert_eq!(t.line[3].nags, [5], "a suffix standing apart");
    assert_eq!(t.line[4].comments, ["pin"]);
    assert_eq!(t.line[4].commands, ["[%cal Gb5c6]", "[%csl Rc6]"]);
    assert_eq!(t.line[5].nags, [6]);
    assert_eq!(t.line[6].diagram, Some(DiagramMarker::Hash));
    assert!(t.line[6].comments.is_empty(), "a lone # leaves no comment");
    assert_eq!(
        t.line[7].diagram,
        Some(DiagramMarker::Nag(201)),
        "Scid's lone D"
    );
    assert_eq!(
        t.line[8].diagram,
        Some(DiagramMarker::Nag(201)),
        "xskak's $D"
    );
    assert_eq!(t.line[9].diagram, Some(DiagramMarker::D));
    assert_eq!(t.line[9].comments, ["diagram"]);
    assert_eq!(t.line[10].diagram, Some(DiagramMarker::Bracket));
    assert_eq!(t.line[10].comments, ["here"]);
    assert_eq!(t.line[11].diagram, Some(DiagramMarker::Bracket));
    assert_eq!(t.line[11].comments, ["Stellung"]);
    assert_eq!(t.line[12].diagram, Some(DiagramMarker::Nag(220)));
    assert_eq!(t.line[13].diagram, Some(DiagramMarker::Nag(221)));
    assert_eq!(t.line[2].diagram, None);
    let glued = tree("1. e4!! e5?? 2. Nf3!? Nc6?! 3. Bb5! a6? $3 $255 $1000");
    let nags: Vec<Vec<u16>> = glued.line.iter().map(|n| n.nags.clone()).collect();
    assert_eq!(
        nags,
        [
            vec![3],
            vec![4],
            vec![5],
            vec![6],
            vec![1],
            vec![2, 3, 255, 1000]
        ]
    );
}

#[test]
fn main_line_reader_is_unchanged_by_the_tree() {
    let err = staunton::chess::pgn::read(NESTED).expect_err("$1304 is no u8 NAG");
    assert_eq!(err.to_string(), "\"$1304\" is not a NAG ($0 to $255)");
    let plain = NESTED.replace(" $1304", "").replace(" $D", "");
    let pgn = staunton::chess::pgn::read(&plain).expect("reads");
    assert_eq!(pgn.moves.len(), 16, "Scid's lone D is a move to it");
    assert_eq!(pgn.moves[4].comment, "[%cal Gb5c6] pin [%csl Rc6]");
    assert_eq!(pgn.moves[1].nag, Some(1));
}

#[test]
fn limits_on_moves_and_depth() {
    let small = Limits { nodes: 4, depth: 1 };
    assert!(annotated::read("1. e4 e5 (1... c5) 2. Nf3", Letters::English, small).is_ok());
    let err = tree_err("1. e4 e5 (1... c5 2. Nf3) 2. Nf3", Letters::English, small);
    assert_eq!(err, "the game has more than 4 moves with its variations");
    let err = tree_err(
        "1. e4 e5 (1... c5 (1... c6)) 2. Nf3",
        Letters::English,
        small,
    );
    assert_eq!(err, "variations nest deeper than 1 levels");
    let mut deep = String::from("1. e4 e5");
    for _ in 0..9 {
        deep.push_str(" (1... e5");
    }
    deep.push_str(&")".repeat(9));
    let err = tree_err(&deep, Letters::English, Limits::default());
    assert_eq!(err, "variations nest deeper than 8 levels");
    let many = "1. Nf3 Nf6 2. Ng1 Ng8 ".repeat(501);
    let err = tree_err(&many, Letters::English, Limits::default());
    assert_eq!(err, "the game has more than 2000 moves with its variations");
}

#[test]
fn rejected_forms_are_named() {
    let any = |text: &str| tree_err(text, Letters::English, Limits::default());
    assert_eq!(
        any("1. e4 (1. d4 e5"),
        "the variation opened at character 7 is never closed with )"
    );
    assert_eq!(
        any("1. e4 ) e5"),
        "the ) at character 7 closes no variation"
    );
    assert_eq!(
        any("1. e4 {open"),
        "the comment opened at character 7 is never closed with }"
    );
    assert_eq!(
        any("1. e4 $65536"),
        "\"$65536\" is not a NAG ($0 to $65535)"
    );
    assert_eq!(any("1. e4 $"), "\"$\" is not a NAG ($0 to $65535)");
    assert_eq!(
        any("(1. d4) 1. e4"),
        "the variation opened at character 1 follows no move it could replace"
    );
    assert_eq!(
        any("1. e4 ( ) e5"),
        "the variation opened at character 7 has no moves"
    );
    assert_eq!(any("1. e4 e5 !!!"), "\"!!!\" is not a move");
    assert_eq!(
        any("[White Morphy]\n1. e4"),
        "the tag pair \"[White Morphy]\" is not [Name \"value\"]"
    );
    // Moves in variations are named with their number, as written, and side.
    assert_eq!(
        any("1. e4 e5 2. Nf3 (2. Ke3) Nc6"),
        "2. Ke3 is not a legal move for White after 1...e5"
    );
    assert_eq!(
        any("1. e4 e5 (1... c5 2. Nf3 Kd5) 2. Nf3"),
        "2... Kd5 is not a legal move for Black after 2. Nf3"
    );
    assert_eq!(
        any("1. e4 e5 2. Nf3 (2. f4 exf4 (2... d5 3. e6)) Nc6"),
        "3. e6 is not a legal move for White after 2...d5"
    );
}

#[test]
fn fen_setup_and_chess960_are_respected() {
    let text = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 0 30\"]\n\n30... Kd7 (30... Kf7 31. O-O) 31. Rh7+ *";
    let t = tree(text);
    assert_eq!(t.start.to_string(), "4k3/8/8/8/8/8/8/4K2R b K - 0 30");
    assert_eq!((t.line[0].number, t.line[0].color), (30, Color::Black));
    assert_eq!(
        t.line[0].variations[0][1].san, "O-O+",
        "the rook checks on f1"
    );
    assert_eq!(t.line[1].san, "Rh7+");
    let fischer = "[Variant \"Chess960\"]\n[FEN \"nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w KQkq - 0 1\"]\n1. e4 e5 2. Bc4 Bc5 3. Qe2 d6 4. O-O (4. Bd5) *";
    let t = tree(fischer);
    assert_eq!(t.line[6].san, "O-O");
    assert_eq!(
        (t.line[6].from, t.line[6].to),
        (Square::new(3, 0), Square::new(6, 0))
    );
    let err = tree_err(
        "[Variant \"Crazyhouse\"] 1. e4",
        Letters::English,
        Limits::default(),
    );
    assert!(err.contains("is not supported"), "{err}");
}

/// A Chess960 game as typeset text (figurines, `11. 0–0` with a zero and an en dash,
/// `½–½`), standing in for the German article's game: it reads to the end, and the
/// position before `11. 0–0` and the last one are python-chess's X-FENs (the fixture's
/// README says how they were made).
#[test]
fn a_typeset_chess960_game_castles_with_zero_and_en_dash() {
    let text = include_str!("fixtures/games/typeset/chess960.pgn");
    let game = tree(text);
    assert_eq!(game.line.len(), 22, "reads to the end");
    assert_eq!(game.result.as_deref(), Some("1/2-1/2"));
    let castle = &game.line[20];
    assert_eq!(
        (castle.number, castle.color, castle.san.as_str()),
        (11, Color::White, "O-O")
    );
    let before =
        fen::parse("b2brkrn/ppq3pp/2pn4/3ppp2/2P1P3/PP1N1PP1/3P1N1P/BQ1BRKR1 w KQkq - 0 11")
            .expect("X-FEN");
    assert_eq!(
        game.line[19].position, before,
        "the position before 11. 0–0"
    );
    let end = fen::parse("b2brkrn/ppq3pp/2pn4/3pp3/2P1p3/PP1N1PP1/3P1N1P/BQ1BRRK1 w kq - 0 12")
        .expect("X-FEN");
    assert_eq!(game.line[21].position, end, "the last position");
    assert_eq!(fen_of(text), end.to_string(), "the main-line reader agrees");
}
