//! Text layout against the length of the text: `cargo bench --bench text` (about a
//! minute). What a long player name, title or tag costs, from the bare measuring of one
//! name to reading and laying out a whole article:
//!
//! - `fit/N`: a name of N characters cut with `…` to a player bar's 300 px (each frame of
//!   an animation, `/image.gif`'s bars, an article's footer);
//! - `wrap/N`: the same text wrapped to three lines of a share card's title;
//! - `card/N`: a share card's text blocks laid out, its title N characters long;
//! - `article/N`: a PGN whose `White` and `Black` tags hold N characters each, read and
//!   laid out on pages (what the service does before an article's drawing is priced);
//! - `article/comments-64KiB`: the heaviest text an article holds, a POSTed PGN near the
//!   body limit, forty moves with long comments, read and laid out.
//!
//! Before the text work was made linear, `fit/4000` took about as long as `fit/100`
//! squared and scaled by 1,600; the book's Reliability chapter has both runs.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use staunton::Renderer;
use staunton::render::art::font::TextFace;
use staunton::render::article::Article;
use staunton::render::share_card::{Block, BlockRole, layout};
use staunton::request::Query;
use staunton::request::article::{ArticleFormat, ArticleRequest, marks};
use std::hint::black_box;
use std::time::Duration;

/// A name of `n` characters: words of a real name, repeated.
fn name(n: usize) -> String {
    "Kieseritzky Lionel Adalbert "
        .chars()
        .cycle()
        .take(n)
        .collect()
}

fn benches(c: &mut Criterion) {
    let face = TextFace::builtin(false).expect("the built-in font");
    let bold = TextFace::builtin(true).expect("the built-in font");
    let renderer = Renderer::default();
    let query = Query::parse("");
    let mut group = c.benchmark_group("text");
    group.measurement_time(Duration::from_secs(3));
    for n in [10, 100, 1_000, 4_000, 20_000] {
        let text = name(n);
        group.bench_with_input(BenchmarkId::new("fit", n), &text, |b, t| {
            b.iter(|| face.fit(black_box(t), 20.0, 300.0))
        });
        group.bench_with_input(BenchmarkId::new("wrap", n), &text, |b, t| {
            b.iter(|| bold.wrap(black_box(t), 50.0, 560.0, 3))
        });
        let blocks = vec![
            Block {
                role: BlockRole::Title,
                text: text.clone(),
            },
            Block {
                role: BlockRole::Subtitle,
                text: text.clone(),
            },
        ];
        group.bench_with_input(BenchmarkId::new("card", n), &blocks, |b, blocks| {
            b.iter(|| layout(black_box(blocks)))
        });
        let pgn = format!(
            "[White \"{text}\"]\n[Black \"{text}\"]\n[Event \"Casual\"]\n\n1. e4 e5 {{[#]}} 2. Nf3 Nc6 *\n"
        );
        group.bench_with_input(BenchmarkId::new("article", n), &pgn, |b, pgn| {
            b.iter(|| {
                let request = ArticleRequest::read(
                    &query,
                    Some(black_box(pgn)),
                    ArticleFormat::Pdf,
                    &Default::default(),
                )
                .expect("a valid article");
                Article::new(&renderer, &request.game, request.options, &marks).expect("laid out")
            })
        });
    }
    // The heaviest text an article can hold: a POSTed PGN near its 64 KiB limit, forty
    // moves each with a long comment.
    let comment = "The knight heads for d5, where no pawn can drive it away; ".repeat(27);
    let mut pgn = String::from("[White \"Anderssen\"]\n[Black \"Kieseritzky\"]\n\n");
    for (n, pair) in ["Nf3 Nf6", "Ng1 Ng8"].iter().cycle().take(40).enumerate() {
        pgn.push_str(&format!("{}. {pair} {{{comment}}} ", n + 1));
    }
    pgn.push('*');
    assert!(pgn.len() > 60_000 && pgn.len() <= 65_536, "{}", pgn.len());
    group.bench_function("article/comments-64KiB", |b| {
        b.iter(|| {
            let request = ArticleRequest::read(
                &query,
                Some(black_box(&pgn)),
                ArticleFormat::Pdf,
                &Default::default(),
            )
            .expect("a valid article");
            Article::new(&renderer, &request.game, request.options, &marks).expect("laid out")
        })
    });
    group.finish();
}

criterion_group!(text, benches);
criterion_main!(text);
