//! The page around the board: labels keep 4.5:1 against every background, and the caption
//! stays inside the image.

use staunton::Renderer;
use staunton::render::theme::{MIN_LABEL_CONTRAST, THEME_NAMES};
use staunton::request::Request;

/// Every theme on backgrounds over the whole colour cube (16 steps a channel) and the
/// named pages: the labels drawn in the margin keep WCAG's 4.5:1 for text.
#[test]
fn labels_keep_their_contrast_on_every_background() {
    let renderer = Renderer::default();
    let mut backgrounds: Vec<String> = vec!["light".into(), "dark".into()];
    for r in (0..=255).step_by(17) {
        for g in (0..=255).step_by(17) {
            for b in (0..=255).step_by(17) {
                backgrounds.push(format!("{r:02x}{g:02x}{b:02x}"));
            }
        }
    }
    let mut worst = (f64::MAX, String::new());
    for theme in THEME_NAMES {
        for background in &backgrounds {
            let query = format!("fen=start&size=240&theme={theme}&background={background}");
            let request = Request::from_query(&query, None).expect("valid");
            let scene = renderer.scene(&request.position, &request.options);
            assert!(!scene.labels.is_empty());
            for label in &scene.labels {
                let ratio = label.color.contrast(scene.background);
                if ratio < worst.0 {
                    worst = (ratio, query.clone());
                }
            }
        }
    }
    assert!(
        worst.0 >= MIN_LABEL_CONTRAST,
        "{:.2}:1 for {}",
        worst.0,
        worst.1
    );
}

/// `auto`'s dark page keeps the contrast too, with the theme's ink or one asked for.
#[test]
fn the_dark_page_of_auto_keeps_its_contrast() {
    for labels in ["", "&labels=222222", "&labels=ffffff", "&labels=777777"] {
        for theme in THEME_NAMES {
            let query = format!("fen=start&theme={theme}&background=auto&format=svg{labels}");
            let request = Request::from_query(&query, None).expect("valid");
            let page = request
                .options
                .theme
                .dark_page
                .expect("auto has a dark page");
            let ratio = page.label.contrast(page.background);
            assert!(ratio >= MIN_LABEL_CONTRAST, "{ratio:.2} for {query}");
        }
    }
}

/// Captions of any length and any width stay inside the image, under the board.
#[test]
fn captions_stay_inside_the_image() {
    let renderer = Renderer::default();
    let words = "Ein sehr langer Kommentar über die Stellung, mit Umlauten: äöü ÄÖÜ ß – ";
    for size in [16, 40, 100, 240, 777, 2048] {
        for caption in ["x", "White to play", words, &"M".repeat(200)] {
            let query = format!(
                "fen=start&size={size}&caption={}",
                caption.replace(' ', "+")
            );
            let request = Request::from_query(&query, None).expect("valid");
            let scene = renderer.scene(&request.position, &request.options);
            let board_bottom = scene.board.y + scene.board.h;
            assert!(!scene.caption.is_empty(), "{query}");
            assert!(scene.caption.len() <= 3, "{query}");
            let pixmap = renderer
                .pixmap(&request.position, &request.options)
                .expect("renders");
            assert_eq!(pixmap.height(), scene.height);
            for line in &scene.caption {
                assert!(line.x >= 0.0, "{query}: {line:?}");
                assert!(line.baseline > board_bottom as f32, "{query}: {line:?}");
                assert!(
                    line.baseline + line.px * 0.25 <= scene.height as f32,
                    "{query}: {line:?}"
                );
            }
            // No ink in the last column or row but the page's colour (nothing cut off).
            let (w, h) = (pixmap.width(), pixmap.height());
            let edge = (0..h).map(|y| (w - 1, y)).chain((0..w).map(|x| (x, h - 1)));
            for (x, y) in edge {
                let p = pixmap.pixel(x, y).expect("inside");
                assert_eq!(
                    (p.red(), p.green(), p.blue()),
                    (255, 255, 255),
                    "{query} at {x},{y}"
                );
            }
        }
    }
}
