//! A run written to a folder: the shards together are the whole run, a stopped run resumes
//! to the same bytes, a folder of another run is refused, counts are bounded, and the
//! COCO and YOLO files say what `metadata.jsonl` says.

use super::common::scratch;
use serde_json::{Value, json};
use staunton::dataset::run::{self, Formats, Run, RunError, Shard};
use staunton::dataset::{Dataset, Settings, Variety};
use std::path::Path;

fn dataset(seed: u64) -> Dataset {
    Dataset::new(Settings {
        seed,
        variety: Variety::full(),
        ..Settings::default()
    })
    .unwrap()
}

fn run_of(dir: &Path, count: u64, shard: Shard, seed: u64) -> Run {
    Run {
        dir: dir.to_path_buf(),
        count,
        shard,
        formats: Formats {
            coco: true,
            yolo: true,
        },
        jobs: 2,
        settings: json!({"seed": seed, "count": count, "shard": format!("{}/{}", shard.index, shard.of)}),
    }
}

fn write(dir: &Path, count: u64, shard: Shard, seed: u64) -> Result<run::Report, RunError> {
    run::write(
        &dataset(seed),
        &run_of(dir, count, shard, seed),
        &mut |_, _| {},
    )
}

fn lines(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("metadata.jsonl"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn image(dir: &Path, line: &str) -> Vec<u8> {
    let v: Value = serde_json::from_str(line).unwrap();
    std::fs::read(dir.join(v["file_name"].as_str().unwrap())).unwrap()
}

#[test]
fn the_shards_together_are_the_whole_run() {
    let whole = scratch("whole");
    write(&whole, 14, Shard::ALL, 5).unwrap();
    let all = lines(&whole);
    assert_eq!(all.len(), 14);
    let mut merged = Vec::new();
    for k in 0..3 {
        let dir = scratch(&format!("shard-{k}"));
        let report = write(&dir, 14, Shard { index: k, of: 3 }, 5).unwrap();
        assert_eq!(report.made, (14 - k).div_ceil(3));
        for line in lines(&dir) {
            assert_eq!(image(&dir, &line), image(&whole, &line), "{line}");
            merged.push(line);
        }
    }
    let index = |l: &String| {
        serde_json::from_str::<Value>(l).unwrap()["index"]
            .as_u64()
            .unwrap()
    };
    merged.sort_by_key(index);
    assert_eq!(merged, all);
}

#[test]
fn a_stopped_run_resumes_to_the_same_bytes() {
    let straight = scratch("straight");
    write(&straight, 9, Shard::ALL, 8).unwrap();
    let stopped = scratch("stopped");
    write(&stopped, 9, Shard::ALL, 8).unwrap();
    // As a run killed while writing: four whole lines, a fifth cut short, image 6 gone,
    // a temporary left behind, and no COCO file yet.
    let text = std::fs::read_to_string(stopped.join("metadata.jsonl")).unwrap();
    let cut: usize = text
        .split_inclusive('\n')
        .take(4)
        .map(str::len)
        .sum::<usize>()
        + 20;
    std::fs::write(stopped.join("metadata.jsonl"), &text[..cut]).unwrap();
    std::fs::remove_file(stopped.join("coco.json")).unwrap();
    for entry in std::fs::read_dir(stopped.join("images")).unwrap().flatten() {
        if entry.file_name().to_string_lossy().starts_with("00000006") {
            std::fs::remove_file(entry.path()).unwrap();
        }
    }
    std::fs::write(
        stopped.join("images/.00000005.png.0123456789abcdef.tmp"),
        b"half",
    )
    .unwrap();
    let report = write(&stopped, 9, Shard::ALL, 8).unwrap();
    assert_eq!((report.kept, report.made), (4, 5));
    assert_eq!(lines(&stopped), lines(&straight));
    for line in lines(&straight) {
        assert_eq!(image(&stopped, &line), image(&straight, &line));
    }
    let coco = |d: &Path| std::fs::read(d.join("coco.json")).unwrap();
    assert_eq!(coco(&stopped), coco(&straight));
    assert!(
        !stopped
            .join("images/.00000005.png.0123456789abcdef.tmp")
            .exists()
    );
}

#[test]
fn a_folder_of_another_run_and_bad_counts_are_refused() {
    let dir = scratch("other");
    write(&dir, 3, Shard::ALL, 1).unwrap();
    let refused = write(&dir, 3, Shard::ALL, 2).unwrap_err().to_string();
    assert!(
        refused.contains("other settings (seed 2, not 1)"),
        "{refused}"
    );
    for count in [0, run::MAX_COUNT + 1] {
        let e = write(&scratch("count"), count, Shard::ALL, 1)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            format!("--count {count}: a run makes from 1 to 10000000 images")
        );
    }
    assert_eq!(
        Shard::parse("3/3").unwrap_err(),
        "--shard 3/3: shards are numbered from 0 to 2"
    );
    assert!(Shard::parse("1/0").unwrap_err().contains("give K/N"));
    assert_eq!(Shard::parse(" 2 / 4").unwrap(), Shard { index: 2, of: 4 });
}

#[test]
fn coco_and_yolo_say_what_the_metadata_says() {
    let dir = scratch("formats");
    write(&dir, 6, Shard::ALL, 3).unwrap();
    let coco: Value =
        serde_json::from_slice(&std::fs::read(dir.join("coco.json")).unwrap()).unwrap();
    let names: Vec<&str> = coco["categories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names[0], "white-pawn");
    assert_eq!(names[12], "board");
    for line in lines(&dir) {
        let meta: Value = serde_json::from_str(&line).unwrap();
        let index = meta["index"].as_u64().unwrap();
        let (w, h) = (
            meta["width"].as_f64().unwrap(),
            meta["height"].as_f64().unwrap(),
        );
        let ours: Vec<&Value> = coco["annotations"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["image_id"] == index + 1)
            .collect();
        let pieces = meta["pieces"].as_array().unwrap();
        assert_eq!(
            ours.len(),
            pieces.len() + 1,
            "a box for each piece and the board"
        );
        for (a, p) in ours.iter().zip(pieces) {
            let b: Vec<f64> = p["box"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            let bbox: Vec<f64> = a["bbox"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            assert!(
                (bbox[0] - b[0]).abs() < 0.011 && (bbox[2] - (b[2] - b[0])).abs() < 0.011,
                "{a} {p}"
            );
            let class = staunton::dataset::formats::class_of(
                p["class"].as_str().unwrap().chars().next().unwrap(),
            );
            assert_eq!(a["category_id"].as_u64(), class.map(|c| c as u64 + 1));
        }
        let yolo = std::fs::read_to_string(dir.join(format!("labels/{index:08}.txt"))).unwrap();
        let rows: Vec<Vec<f64>> = yolo
            .lines()
            .map(|l| l.split(' ').map(|v| v.parse().unwrap()).collect())
            .collect();
        assert_eq!(rows.len(), ours.len());
        for (row, a) in rows.iter().zip(&ours) {
            let b: Vec<f64> = a["bbox"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            assert_eq!(row[0] as u64 + 1, a["category_id"].as_u64().unwrap());
            let expected = [
                (b[0] + b[2] / 2.0) / w,
                (b[1] + b[3] / 2.0) / h,
                b[2] / w,
                b[3] / h,
            ];
            for (got, want) in row[1..].iter().zip(expected) {
                assert!((got - want).abs() < 2e-6, "{row:?} against {a}");
            }
        }
    }
    let yaml = std::fs::read_to_string(dir.join("data.yaml")).unwrap();
    assert!(
        yaml.contains("nc: 13") && yaml.contains("names: [white-pawn,"),
        "{yaml}"
    );
}
