//! The label files trainers read, made from the images' [`Labels`]: COCO (`coco.json`),
//! YOLO (`labels/NAME.txt` and `data.yaml`) and the image folder's `metadata.jsonl`
//! (Hugging Face `datasets`, written line by line by `run`).
//!
//! Owns the classes' numbering and names ([`CLASSES`]), and the COCO and YOLO texts. Ids
//! are fixed by the image's index (image `i` is COCO image `i + 1`, its annotations
//! `i × 128 + k + 1` for its `k`th piece from 0, and `i × 128 + 128` for the board), so the shards of a run merge by concatenating their lists.

use super::labels::{Labels, Point};
use serde_json::{Value, json};
use std::fmt::Write as _;

/// The classes, in order: the FEN letter and the name. YOLO numbers them from 0, COCO from
/// 1; the board is the last.
pub const CLASSES: [(char, &str); 13] = [
    ('P', "white-pawn"),
    ('N', "white-knight"),
    ('B', "white-bishop"),
    ('R', "white-rook"),
    ('Q', "white-queen"),
    ('K', "white-king"),
    ('p', "black-pawn"),
    ('n', "black-knight"),
    ('b', "black-bishop"),
    ('r', "black-rook"),
    ('q', "black-queen"),
    ('k', "black-king"),
    ('#', "board"),
];

/// The board's class number (from 0).
pub const BOARD: usize = 12;

/// Annotation ids an image may use: the board and up to 127 pieces.
const IDS_PER_IMAGE: u64 = 128;

/// A piece's class number (from 0), if it is one of chess's twelve.
pub fn class_of(letter: char) -> Option<usize> {
    CLASSES[..BOARD].iter().position(|(c, _)| *c == letter)
}

/// Every object of an image, in the files' order: its pieces, then the board. Each is its
/// class number (from 0), its box `[x_min, y_min, x_max, y_max]` and its outline.
pub fn objects(labels: &Labels) -> Vec<(usize, [f64; 4], Vec<Point>)> {
    let mut out: Vec<(usize, [f64; 4], Vec<Point>)> = labels
        .pieces
        .iter()
        .filter_map(|p| {
            let [x0, y0, x1, y1] = p.bbox;
            Some((
                class_of(p.class)?,
                p.bbox,
                vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
            ))
        })
        .collect();
    let c = labels.corners;
    let xs = c.map(|p| p[0]);
    let ys = c.map(|p| p[1]);
    let fold = |v: [f64; 4], f: fn(f64, f64) -> f64| v.into_iter().reduce(f).unwrap_or(0.0);
    let board = [
        fold(xs, f64::min),
        fold(ys, f64::min),
        fold(xs, f64::max),
        fold(ys, f64::max),
    ];
    out.push((BOARD, board, c.to_vec()));
    out
}

fn r2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// A box `[x_min, y_min, x_max, y_max]` as COCO writes it, `[x, y, width, height]` to
/// 1/100 pixel: YOLO's lines are made from these same numbers.
fn coco_box(b: [f64; 4]) -> [f64; 4] {
    [r2(b[0]), r2(b[1]), r2(b[2] - b[0]), r2(b[3] - b[1])]
}

/// The COCO categories.
pub fn coco_categories() -> Value {
    let categories: Vec<Value> = CLASSES
        .iter()
        .enumerate()
        .map(|(i, (letter, name))| {
            if i == BOARD {
                json!({"id": i + 1, "name": name, "supercategory": "board",
                       "keypoints": ["top-left", "top-right", "bottom-right", "bottom-left"],
                       "skeleton": [[1, 2], [2, 3], [3, 4], [4, 1]]})
            } else {
                json!({"id": i + 1, "name": name, "supercategory": "piece", "fen": letter.to_string()})
            }
        })
        .collect();
    Value::Array(categories)
}

/// The COCO image and annotations of one image.
pub fn coco_entries(labels: &Labels) -> (Value, Vec<Value>) {
    let image = json!({"id": labels.index + 1, "file_name": labels.file_name,
                       "width": labels.width, "height": labels.height});
    let objects = objects(labels);
    let (board, pieces) = objects.split_last().expect("the board is always there");
    let annotation = |k: u64, (class, b, outline): &(usize, [f64; 4], Vec<Point>)| {
        let [x, y, w, h] = coco_box(*b);
        let segmentation: Vec<f64> = outline.iter().flat_map(|p| [r2(p[0]), r2(p[1])]).collect();
        let mut a = json!({
            "id": labels.index * IDS_PER_IMAGE + k + 1,
            "image_id": labels.index + 1,
            "category_id": class + 1,
            "bbox": [x, y, w, h],
            "area": r2(w * h),
            "iscrowd": 0,
            "segmentation": [segmentation],
        });
        if *class == BOARD {
            let keypoints: Vec<f64> = outline
                .iter()
                .flat_map(|p| [r2(p[0]), r2(p[1]), 2.0])
                .collect();
            a["keypoints"] = json!(keypoints);
            a["num_keypoints"] = json!(4);
        }
        a
    };
    let mut annotations: Vec<Value> = pieces
        .iter()
        .enumerate()
        .map(|(k, o)| annotation(k as u64, o))
        .collect();
    annotations.push(annotation(IDS_PER_IMAGE - 1, board));
    (image, annotations)
}

/// The whole `coco.json` of images and their annotations.
pub fn coco(images: Vec<Value>, annotations: Vec<Value>, description: &str) -> Value {
    json!({
        "info": {"description": description, "version": env!("CARGO_PKG_VERSION")},
        "licenses": [],
        "images": images,
        "annotations": annotations,
        "categories": coco_categories(),
    })
}

/// One image's YOLO label file: `class cx cy w h` a line, normalised, pieces then the
/// board (the COCO annotations' boxes, in the same order).
pub fn yolo(labels: &Labels) -> String {
    let (w, h) = (
        f64::from(labels.width.max(1)),
        f64::from(labels.height.max(1)),
    );
    let mut text = String::new();
    for (class, b, _) in objects(labels) {
        let [x, y, bw, bh] = coco_box(b);
        let _ = writeln!(
            text,
            "{class} {:.6} {:.6} {:.6} {:.6}",
            (x + bw / 2.0) / w,
            (y + bh / 2.0) / h,
            bw / w,
            bh / h
        );
    }
    text
}

/// The YOLO `data.yaml` of a dataset folder at `path`.
pub fn data_yaml(path: &str) -> String {
    let names: Vec<&str> = CLASSES.iter().map(|(_, n)| *n).collect();
    let quoted = serde_json::to_string(path).unwrap_or_default();
    format!(
        "# YOLO dataset: images/ and labels/ of this folder (made by staunton dataset)\npath: {quoted}\ntrain: images\nval: images\nnc: {}\nnames: [{}]\n",
        CLASSES.len(),
        names.join(", ")
    )
}
