//! Every command of README.md's "Try it" runs as written on a fresh clone: the ```sh blocks
//! of that section are run in an empty directory holding only the repository's
//! `regulations/` and `examples/`, with `B` set to the binary under test (the `cargo`
//! lines are what built it).

use crate::common;

use common::*;
use std::path::Path;
use std::process::Command;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn readme_try_it_runs_as_written() {
    let root = root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let section = readme
        .split("\n## Try it")
        .nth(1)
        .expect("README.md has a `## Try it` section");
    let section = section.split("\n## ").next().unwrap_or(section);
    let mut script = String::from("set -e\n");
    let mut in_block = false;
    let mut set_b = false;
    for line in section.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block && line.trim_start() == "```sh";
            continue;
        }
        if !in_block || line.trim_start().starts_with("cargo ") {
            continue;
        }
        if line.trim() == "B=target/release/arbiter" {
            script.push_str(&format!("B='{BIN}'\n"));
            set_b = true;
        } else {
            script.push_str(line);
            script.push('\n');
        }
    }
    assert!(set_b, "the Try it block sets B=target/release/arbiter");
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root.join("regulations"), &dir.path().join("regulations"));
    copy_dir(&root.join("examples"), &dir.path().join("examples"));
    let o = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "README's Try it failed:\n{script}\n--- stdout\n{}\n--- stderr\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8_lossy(&o.stdout);
    // The roster registers its players and the pairing prints pairs, not a refusal.
    assert!(
        out.contains("已报名 registered: examples/players.csv:2"),
        "{out}"
    );
    assert!(out.contains("抽签完成"), "{out}");
    // Lines an arbiter reads name the section as the regulation does (公开组), not by the
    // id typed after --section.
    assert!(out.contains("组别 公开组 抽签完成"), "{out}");
    assert!(out.contains("第7行 陈刚 [公开组]"), "{out}");
    assert!(
        !out.contains("行 陈刚 [open]") && !out.contains("组别 open"),
        "{out}"
    );
}
