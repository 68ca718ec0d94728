//! Files a model reads with its eyes (spec 09, "Images, PDFs, notebooks, several files at
//! once"), through the real binary: images in text mode, `call --json` and over MCP with the
//! Python client; PDFs made by fpdf2 and a checked-in LaTeX paper; notebooks edited and
//! validated with the `nbformat` package; several files in one call.
//!
//! The Python is `AGTOOL_TEST_PYTHON` (`.ci/run` installs `mcp`, `fpdf2` and `nbformat` into
//! its venv), else `target/mcp-venv/bin/python`, else `python3`. When `AGTOOL_TEST_PYTHON` is
//! set the packages must be there; otherwise the tests that need them print SKIP.

mod common;

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use base64::Engine as _;
use common::*;
use serde_json::{Value, json};

fn python_with(modules: &str) -> Option<PathBuf> {
    let required = std::env::var_os("AGTOOL_TEST_PYTHON").map(PathBuf::from);
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/mcp-venv/bin/python");
    let candidates: Vec<PathBuf> = match &required {
        Some(p) => vec![p.clone()],
        None => vec![venv, PathBuf::from("python3")],
    };
    for py in candidates {
        let ok = Command::new(&py)
            .args(["-c", &format!("import {modules}")])
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            return Some(py);
        }
    }
    assert!(
        required.is_none(),
        "AGTOOL_TEST_PYTHON={required:?} cannot import {modules}"
    );
    println!("SKIP: no Python with {modules} (set AGTOOL_TEST_PYTHON)");
    None
}

/// Runs `code` with `py` in `dir`; panics with its output when it fails.
fn run_python(py: &Path, dir: &Path, code: &str) -> String {
    let out = Command::new(py)
        .current_dir(dir)
        .args(["-c", code])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "python failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A PNG of `w` x `h` that looks like a screenshot: flat blocks of colour with thin lines
/// (PNG beats JPEG on it, so it is sent as PNG).
fn png(w: u32, h: u32) -> Vec<u8> {
    let img = image::RgbImage::from_fn(w, h, |x, y| {
        if x % 97 == 0 || y % 41 == 0 {
            image::Rgb([0, 0, 0])
        } else {
            image::Rgb([(x / 97 * 40) as u8, (y / 41 * 20) as u8, 200])
        }
    });
    let mut out = Vec::new();
    image::DynamicImage::ImageRgb8(img)
        .write_to(&mut Cursor::new(&mut out), image::ImageFormat::Png)
        .unwrap();
    out
}

/// CRC-32 (ISO-HDLC) of `bytes`, for hand-made PNG chunks.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A PNG whose header claims `w` x `h` RGBA pixels, followed by a small IDAT: a
/// decompression bomb's header.
fn bomb_png(w: u32, h: u32) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut chunk = |kind: &[u8], data: &[u8]| {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let mut body = kind.to_vec();
        body.extend_from_slice(data);
        out.extend_from_slice(&body);
        out.extend_from_slice(&crc32(&body).to_be_bytes());
    };
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&w.to_be_bytes());
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    chunk(b"IHDR", &ihdr);
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(&mut z, &vec![0u8; 1 << 20]).unwrap();
    chunk(b"IDAT", &z.finish().unwrap());
    chunk(b"IEND", &[]);
    out
}

/// `agtool --groups all --json call TOOL` with `args` on stdin.
fn call_json(ws: &Ws, tool: &str, args: &Value) -> Run {
    let out = ws
        .cmd()
        .args(["--groups", "all", "--json", "call", tool])
        .write_stdin(args.to_string())
        .output()
        .unwrap();
    Run::from(out)
}

fn envelope(run: &Run) -> Value {
    serde_json::from_str(run.out.trim()).unwrap_or_else(|e| panic!("{e}: {}", run.out))
}

fn decode_image(v: &Value) -> (String, image::DynamicImage) {
    let mime = v["mime_type"].as_str().unwrap().to_owned();
    let data = base64::engine::general_purpose::STANDARD
        .decode(v["data"].as_str().unwrap())
        .unwrap();
    (mime, image::load_from_memory(&data).unwrap())
}

// ---- images ---------------------------------------------------------------------------------

#[test]
fn an_image_in_text_mode_is_one_line_with_its_tag() {
    let ws = Ws::new();
    let bytes = png(2000, 1500);
    ws.write("shot.png", &bytes);
    let out = ws.run(&["read-file", "shot.png"]);
    let line = out.ok().trim_end();
    let prefix = "Image: shot.png (PNG, 2000x1500, sent as 1238x928, ";
    assert!(line.starts_with(prefix), "{line}");
    assert!(
        line.ends_with(&format!(" KB) [shot.png#{}]", tag(&bytes))),
        "{line}"
    );
    assert_eq!(out.lines().len(), 1);
}

#[test]
fn an_image_over_call_json_carries_the_pixels() {
    let ws = Ws::new();
    ws.write("small.png", png(300, 200));
    ws.write("big.png", png(2000, 1500));
    let env = envelope(&call_json(&ws, "read_file", &json!({"path": "small.png"})));
    assert_eq!(env["ok"], true);
    let (mime, img) = decode_image(&env["images"][0]);
    // Never scaled up.
    assert_eq!(
        (mime.as_str(), img.width(), img.height()),
        ("image/png", 300, 200)
    );
    let run = ws
        .cmd()
        .args(["--json", "read-file", "big.png"])
        .output()
        .unwrap();
    let env = envelope(&Run::from(run));
    let (_, img) = decode_image(&env["images"][0]);
    assert_eq!((img.width(), img.height()), (1238, 928));
    assert!(
        env["output"]
            .as_str()
            .unwrap()
            .starts_with("Image: big.png")
    );
}

#[test]
fn the_edge_limit_comes_from_config() {
    let ws = Ws::new();
    ws.write("a.png", png(1000, 500));
    ws.write(".agent-state/config.toml", "[read]\nimage_max_edge = 400\n");
    let out = ws.run(&["read-file", "a.png"]);
    assert!(out.ok().contains("sent as 400x200"), "{}", out.out);
}

#[test]
fn a_photo_is_sent_as_jpeg_when_smaller() {
    let ws = Ws::new();
    // Noise compresses badly as PNG: the JPEG is smaller.
    let img = image::RgbImage::from_fn(800, 600, |x, y| {
        let v = (x.wrapping_mul(2_654_435_761) ^ y.wrapping_mul(2_246_822_519)) >> 7;
        image::Rgb([v as u8, (v >> 8) as u8, (v >> 16) as u8])
    });
    let mut jpeg = Vec::new();
    image::DynamicImage::ImageRgb8(img)
        .write_to(&mut Cursor::new(&mut jpeg), image::ImageFormat::Jpeg)
        .unwrap();
    ws.write("photo.jpg", &jpeg);
    let env = envelope(&call_json(&ws, "read_file", &json!({"path": "photo.jpg"})));
    let (mime, img) = decode_image(&env["images"][0]);
    assert_eq!(
        (mime.as_str(), img.width(), img.height()),
        ("image/jpeg", 800, 600)
    );
    assert!(
        env["output"]
            .as_str()
            .unwrap()
            .contains("(JPEG, 800x600, sent as 800x600 JPEG, ")
    );
}

#[test]
fn broken_images_and_bombs_are_refused_and_svg_is_text() {
    let ws = Ws::new();
    let mut bytes = png(400, 300);
    bytes.truncate(bytes.len() / 2);
    ws.write("cut.png", &bytes);
    let out = ws.run(&["read-file", "cut.png"]);
    out.code(1);
    assert!(
        out.out
            .starts_with("Error: cut.png cannot be read as an image: the image decoder says:"),
        "{}",
        out.out
    );
    ws.write("bomb.png", bomb_png(30_000, 30_000));
    let out = ws.run(&["read-file", "bomb.png"]);
    out.code(1);
    assert!(
        out.out.contains("larger than agtool decodes"),
        "{}",
        out.out
    );
    ws.write("fake.png", "just text\n");
    let out = ws.run(&["read-file", "fake.png"]);
    out.code(1);
    assert!(out.out.contains("not a PNG, JPEG"), "{}", out.out);
    let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg>\n";
    ws.write("logo.svg", svg);
    let out = ws.run(&["read-file", "logo.svg"]);
    assert_eq!(
        out.ok(),
        format!("[logo.svg#{}]\nL1: {}", tag(svg.as_bytes()), svg)
    );
    // Text options do not apply to an image.
    ws.write("ok.png", png(10, 10));
    ws.run(&["read-file", "ok.png", "--offset", "3"]).code(2);
}

#[test]
fn an_image_over_mcp_is_an_image_content_item() {
    let Some(py) = python_with("mcp, anyio") else {
        return;
    };
    let ws = Ws::new();
    ws.write("shot.png", png(2000, 1500));
    let mut broken = png(100, 100);
    broken.truncate(60);
    ws.write("broken.png", broken);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/client.py");
    let out = assert_cmd::Command::new(py)
        .arg(script)
        .args(["image"])
        .arg(bin())
        .arg(&ws.root)
        .args(["1238", "928"])
        .timeout(Duration::from_secs(90))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("ok image"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

// ---- PDFs -----------------------------------------------------------------------------------

const FPDF_PAGES: &str = "
import sys
from fpdf import FPDF
n, name = int(sys.argv[1]), sys.argv[2]
pdf = FPDF()
pdf.set_font('helvetica', size=12)
for i in range(1, n + 1):
    pdf.add_page()
    pdf.cell(text=f'This is page {i} of the generated document.')
pdf.output(name)
";

fn fpdf(py: &Path, dir: &Path, pages: usize, name: &str) {
    let out = Command::new(py)
        .current_dir(dir)
        .args(["-c", FPDF_PAGES, &pages.to_string(), name])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn pdf_pages_are_chosen_and_headed() {
    let Some(py) = python_with("fpdf") else {
        return;
    };
    let ws = Ws::new();
    fpdf(&py, &ws.root, 5, "five.pdf");
    let bytes = ws.read("five.pdf");
    let out = ws.run(&["read-file", "five.pdf", "--pages", "2-3"]);
    assert_eq!(
        out.ok(),
        format!(
            "[five.pdf#{}] (PDF, 5 pages)\n--- page 2 of 5 ---\nThis is page 2 of the generated \
             document.\n--- page 3 of 5 ---\nThis is page 3 of the generated document.\n(2 more \
             pages; continue with pages=\"4-5\")\n",
            tag(&bytes)
        )
    );
    let all = ws.run(&["read-file", "five.pdf"]);
    assert_eq!(all.ok().matches("--- page ").count(), 5);
    assert!(!all.out.contains("more pages"));
    let env = envelope(&call_json(
        &ws,
        "read_file",
        &json!({"path": "five.pdf", "pages": "5"}),
    ));
    assert_eq!(env["total_pages"], 5);
    assert!(
        env["output"]
            .as_str()
            .unwrap()
            .contains("This is page 5 of")
    );
    let past = ws.run(&["read-file", "five.pdf", "--pages", "9"]);
    past.code(1);
    assert!(
        past.out
            .contains("page 9 is past the end of five.pdf (5 pages)"),
        "{}",
        past.out
    );
    ws.run(&["read-file", "five.pdf", "--pages", "3-1"]).code(2);
    ws.run(&["read-file", "five.pdf", "--pages", "x"]).code(2);
}

#[test]
fn only_the_asked_pages_of_a_long_pdf_are_read() {
    let Some(py) = python_with("fpdf") else {
        return;
    };
    let ws = Ws::new();
    fpdf(&py, &ws.root, 5000, "long.pdf");
    let started = std::time::Instant::now();
    let out = ws.run(&["read-file", "long.pdf", "--pages", "4321"]);
    let took = started.elapsed();
    assert!(
        out.ok()
            .contains("--- page 4321 of 5000 ---\nThis is page 4321 of"),
        "{}",
        out.out
    );
    // Generous for a debug build on a busy machine; bench/media.sh measures the release build.
    assert!(took < Duration::from_secs(30), "{took:?}");
}

fn data(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/media")
            .join(name),
    )
    .unwrap()
}

#[test]
fn a_real_latex_paper_reads_page_by_page() {
    let ws = Ws::new();
    ws.write("paper.pdf", data("paper.pdf"));
    let out = ws.run(&["read-file", "paper.pdf", "--pages", "1"]);
    let text = out.ok();
    assert!(
        text.contains("(PDF, 2 pages)\n--- page 1 of 2 ---\n"),
        "{text}"
    );
    assert!(
        text.contains("Efficient Differential Flow Analysis"),
        "{text}"
    );
    // Ligatures (fi, ffi, fl) come back as letters, and the page keeps its lines.
    assert!(
        text.contains("\nWe study the efficient offloading of difficult work-\nflows; the first field of official figures shows a fluffy\neffect.\n"),
        "{text}"
    );
    assert!(text.contains("continue with pages=\"2-2\""), "{text}");
    let out = ws.run(&["read-file", "paper.pdf", "--pages", "2"]);
    assert!(out.ok().contains("Results"), "{}", out.out);
}

#[test]
fn scanned_encrypted_and_fake_pdfs_are_named() {
    let ws = Ws::new();
    ws.write("scan.pdf", data("scanned.pdf"));
    let out = ws.run(&["read-file", "scan.pdf"]);
    assert!(
        out.ok().contains(
            "--- page 1 of 2 ---\n(no text: scanned?)\n--- page 2 of 2 ---\nOnly page two has text."
        ),
        "{}",
        out.out
    );
    ws.write("locked.pdf", data("encrypted.pdf"));
    let out = ws.run(&["read-file", "locked.pdf"]);
    out.code(1);
    assert_eq!(
        out.out,
        "Error: locked.pdf is an encrypted PDF; agtool does not read encrypted PDFs\n"
    );
    let mut zip = b"PK\x03\x04".to_vec();
    zip.extend_from_slice(&[0; 100]);
    ws.write("archive.pdf", zip);
    let out = ws.run(&["read-file", "archive.pdf"]);
    out.code(1);
    assert_eq!(
        out.out,
        "Error: archive.pdf is not a PDF: its bytes are a ZIP archive\n"
    );
    ws.write("notes.txt", "x\n");
    ws.run(&["read-file", "notes.txt", "--pages", "2"]).code(2);
}

// ---- notebooks ------------------------------------------------------------------------------

const MAKE_NOTEBOOK: &str = r##"
import nbformat
from nbformat.v4 import new_notebook, new_code_cell, new_markdown_cell, new_output
nb = new_notebook()
nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
a = new_markdown_cell("# Title\nSome *text*.")
b = new_code_cell("x = 1\nprint(x)", execution_count=1,
    outputs=[new_output("stream", name="stdout", text="1\n")])
c = new_code_cell("plot()", execution_count=2, outputs=[
    new_output("display_data", data={"image/png": "iVBORw0KGgo=", "text/plain": "<Figure>"}),
    new_output("error", ename="ValueError", evalue="bad", traceback=["Traceback", "ValueError: bad value"])])
d = new_code_cell("y = 2")
for cell, i in zip([a, b, c, d], ["m1", "c2", "c3", "c4"]):
    cell["id"] = i
nb.cells = [a, b, c, d]
nbformat.write(nb, "nb.ipynb")
"##;

const VALIDATE: &str = r#"
import sys, nbformat
nb = nbformat.read(sys.argv[1], as_version=nbformat.NO_CONVERT)
nbformat.validate(nb)
print(len(nb.cells), [c.cell_type for c in nb.cells], [c.get("id") for c in nb.cells])
"#;

fn validate(py: &Path, ws: &Ws) -> String {
    let out = Command::new(py)
        .current_dir(&ws.root)
        .args(["-c", VALIDATE, "nb.ipynb"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "nbformat says the notebook is invalid:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

#[test]
fn a_notebook_reads_as_cells_with_outputs_summarised() {
    let Some(py) = python_with("nbformat") else {
        return;
    };
    let ws = Ws::new();
    run_python(&py, &ws.root, MAKE_NOTEBOOK);
    let bytes = ws.read("nb.ipynb");
    let out = ws.run(&["read-file", "nb.ipynb"]);
    assert_eq!(
        out.ok(),
        format!(
            "[nb.ipynb#{}] (notebook: 4 cells, python)\n\
             [cell 1 · markdown · id=m1]\nL1: # Title\nL2: Some *text*.\n\
             [cell 2 · code · id=c2]\nL1: x = 1\nL2: print(x)\noutputs [1]:\n(stdout)\n1\n\
             [cell 3 · code · id=c3]\nL1: plot()\noutputs [2]:\n(image/png output)\n<Figure>\n\
             (error) ValueError: bad\n  ValueError: bad value\n\
             [cell 4 · code · id=c4]\nL1: y = 2\n",
            tag(&bytes)
        )
    );
}

/// The bytes of `before` and `after` outside one differing region are the same: returns the
/// differing middle parts.
fn differing_middle<'a>(before: &'a [u8], after: &'a [u8]) -> (&'a [u8], &'a [u8]) {
    let prefix = before.iter().zip(after).take_while(|(a, b)| a == b).count();
    let suffix = before[prefix..]
        .iter()
        .rev()
        .zip(after[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    (
        &before[prefix..before.len() - suffix],
        &after[prefix..after.len() - suffix],
    )
}

#[test]
fn notebook_edit_changes_only_the_cell() {
    let Some(py) = python_with("nbformat") else {
        return;
    };
    let ws = Ws::new();
    run_python(&py, &ws.root, MAKE_NOTEBOOK);
    let before = ws.read("nb.ipynb");
    let text = String::from_utf8(before.clone()).unwrap();
    // The freshness gate: no read, no edit.
    let edit = ["--groups", "all", "notebook-edit", "nb.ipynb"];
    let run = ws.run(&[&edit[..], &["--cell", "c3", "--source", "plot(2)"]].concat());
    run.code(1);
    assert_eq!(ws.read("nb.ipynb"), before);
    ws.run(&["read-file", "nb.ipynb"]).code(0);
    let run = ws.run(&[&edit[..], &["--cell", "c3", "--source", "plot(2)\nshow()"]].concat());
    let out = run.ok();
    assert!(out.starts_with("Edited [nb.ipynb#"), "{out}");
    assert!(
        out.contains(
            "(cell 3 replaced; outputs cleared)\n[cell 3 · code · id=c3]\nL1: plot(2)\nL2: show()\n"
        ),
        "{out}"
    );
    let after = ws.read("nb.ipynb");
    // Only cell 3's bytes changed: everything before and after it is identical.
    let c3_start = text.find("\"id\": \"c3\"").unwrap();
    let c4_start = text.find("\"id\": \"c4\"").unwrap();
    let (old_mid, new_mid) = differing_middle(&before, &after);
    let old_mid = String::from_utf8_lossy(old_mid);
    let prefix = before
        .iter()
        .zip(&after)
        .take_while(|(a, b)| a == b)
        .count();
    assert!(
        prefix > text[..c3_start].rfind('{').unwrap() - 1,
        "{old_mid}"
    );
    assert!(prefix + old_mid.len() < c4_start);
    let new_mid = String::from_utf8_lossy(new_mid);
    assert!(
        !new_mid.contains("ValueError") && !new_mid.contains("image/png"),
        "{new_mid}"
    );
    assert_eq!(
        validate(&py, &ws),
        "4 ['markdown', 'code', 'code', 'code'] ['m1', 'c2', 'c3', 'c4']"
    );
    let nb: Value = serde_json::from_slice(&after).unwrap();
    assert_eq!(nb["cells"][2]["outputs"], json!([]));
    assert_eq!(nb["cells"][2]["execution_count"], Value::Null);
    assert_eq!(nb["cells"][2]["source"], json!(["plot(2)\n", "show()"]));
    // The edit's own result is the new read: a second edit needs no read in between.
    let run = ws.run(
        &[
            &edit[..],
            &[
                "--cell",
                "2",
                "--action",
                "insert_after",
                "--cell-type",
                "markdown",
                "--source",
                "## Notes",
            ],
        ]
        .concat(),
    );
    assert!(
        run.ok().contains("(new markdown cell 3 inserted)"),
        "{}",
        run.out
    );
    let inserted = ws.read("nb.ipynb");
    let (old_mid, _) = differing_middle(&after, &inserted);
    assert!(
        old_mid.is_empty(),
        "an insert removed bytes: {:?}",
        String::from_utf8_lossy(old_mid)
    );
    let summary = validate(&py, &ws);
    assert!(
        summary.starts_with("5 ['markdown', 'code', 'markdown', 'code', 'code']"),
        "{summary}"
    );
    let run = ws.run(&[&edit[..], &["--cell", "m1", "--action", "delete"]].concat());
    assert!(
        run.ok().contains("(cell 1 deleted; 4 cells left)"),
        "{}",
        run.out
    );
    let summary = validate(&py, &ws);
    assert!(
        summary.starts_with("4 ['code', 'markdown', 'code', 'code']"),
        "{summary}"
    );
    let run = ws.run(
        &[
            &edit[..],
            &[
                "--cell",
                "c4",
                "--action",
                "insert_before",
                "--source",
                "z = 3",
            ],
        ]
        .concat(),
    );
    run.code(0);
    let summary = validate(&py, &ws);
    assert!(
        summary.starts_with("5 ['code', 'markdown', 'code', 'code', 'code']"),
        "{summary}"
    );
    // A code cell turned into markdown loses outputs and execution_count.
    let run = ws.run(
        &[
            &edit[..],
            &[
                "--cell",
                "c2",
                "--cell-type",
                "markdown",
                "--source",
                "text",
            ],
        ]
        .concat(),
    );
    run.code(0);
    validate(&py, &ws);
}

#[test]
fn notebook_edit_refuses_bad_input_and_changes_nothing() {
    let Some(py) = python_with("nbformat") else {
        return;
    };
    let ws = Ws::new();
    run_python(&py, &ws.root, MAKE_NOTEBOOK);
    ws.run(&["read-file", "nb.ipynb"]).code(0);
    let before = ws.read("nb.ipynb");
    let edit = ["--groups", "all", "notebook-edit", "nb.ipynb"];
    let out = ws.run(&[&edit[..], &["--cell", "9", "--source", "x"]].concat());
    out.code(1);
    assert!(
        out.out
            .contains("cell 9 is out of range: nb.ipynb has 4 cells"),
        "{}",
        out.out
    );
    let out = ws.run(&[&edit[..], &["--cell", "nope", "--source", "x"]].concat());
    out.code(1);
    assert!(out.out.contains("no cell with id \"nope\""), "{}", out.out);
    let out = ws.run(
        &[
            &edit[..],
            &["--cell", "c2", "--source", "x = 1\n# ... existing code ..."],
        ]
        .concat(),
    );
    out.code(1);
    assert!(out.out.contains("omission placeholder"), "{}", out.out);
    ws.run(&[&edit[..], &["--cell", "c2"]].concat()).code(2);
    ws.run(
        &[
            &edit[..],
            &["--cell", "c2", "--action", "delete", "--source", "x"],
        ]
        .concat(),
    )
    .code(2);
    assert_eq!(ws.read("nb.ipynb"), before);
    // Not JSON, and not nbformat 4: read and edit both refuse.
    ws.write("bad.ipynb", "{\"cells\": [");
    let out = ws.run(&["read-file", "bad.ipynb"]);
    out.code(1);
    assert!(
        out.out
            .contains("bad.ipynb is not a notebook: it is not valid JSON"),
        "{}",
        out.out
    );
    ws.write(
        "old.ipynb",
        "{\"nbformat\": 3, \"nbformat_minor\": 0, \"worksheets\": []}\n",
    );
    let out = ws.run(&["read-file", "old.ipynb"]);
    out.code(1);
    assert!(out.out.contains("old.ipynb is nbformat 3"), "{}", out.out);
    let out = ws.run(&[
        "--groups",
        "all",
        "notebook-edit",
        "old.ipynb",
        "--cell",
        "1",
        "--source",
        "x",
    ]);
    out.code(1);
    assert!(out.out.contains("nbformat 3"), "{}", out.out);
}

// ---- several files --------------------------------------------------------------------------

#[test]
fn several_files_each_with_header_and_freshness() {
    let ws = Ws::new();
    ws.write("a.txt", "alpha\n");
    ws.write("b.txt", "beta\n");
    ws.write("src/x.rs", "fn x() {}\n");
    ws.write("src/y.rs", "fn y() {}\n");
    let run = call_json(
        &ws,
        "read_file",
        &json!({"paths": ["a.txt", "missing.txt", "b.txt", "src/*.rs", "../outside.txt"]}),
    );
    let env = envelope(&run);
    let out = env["output"].as_str().unwrap();
    assert_eq!(
        out,
        format!(
            "[a.txt#{}]\nL1: alpha\n\nError: missing.txt does not exist\n\n[b.txt#{}]\nL1: beta\n\n\
             [src/x.rs#{}]\nL1: fn x() {{}}\n\n[src/y.rs#{}]\nL1: fn y() {{}}\n\nError: {}\n",
            tag(b"alpha\n"),
            tag(b"beta\n"),
            tag(b"fn x() {}\n"),
            tag(b"fn y() {}\n"),
            env["files"][5]["error"].as_str().unwrap()
        )
    );
    assert!(
        env["files"][5]["error"]
            .as_str()
            .unwrap()
            .contains("outside"),
        "{out}"
    );
    assert_eq!(
        (env["read"].clone(), env["failed"].clone()),
        (json!(4), json!(2))
    );
    // The second file was read in that call: editing it needs no new read.
    ws.run(&[
        "--groups",
        "all",
        "edit-file",
        "b.txt",
        "--old",
        "beta",
        "--new",
        "gamma",
    ])
    .code(0);
    assert_eq!(ws.read("b.txt"), b"gamma\n");
    // Command line: --paths takes several values.
    let out = ws.run(&["read-file", "--paths", "a.txt", "b.txt"]);
    assert!(out.ok().contains("L1: gamma"), "{}", out.out);
    // path and paths together, or neither: argument errors.
    ws.call("read_file", &json!({"path": "a.txt", "paths": ["b.txt"]}))
        .code(2);
    ws.call("read_file", &json!({})).code(2);
    // Every file failing is a refusal.
    let run = ws.call("read_file", &json!({"paths": ["nope1", "nope2"]}));
    run.code(1);
    assert!(
        run.out.contains("nope1 does not exist") && run.out.contains("nope2"),
        "{}",
        run.out
    );
}

#[test]
fn a_huge_path_list_is_capped_with_the_count() {
    let ws = Ws::new();
    for i in 0..60 {
        ws.write(&format!("f{i:02}.txt"), format!("{i}\n"));
    }
    let mut list: Vec<String> = (0..60).map(|i| format!("f{i:02}.txt")).collect();
    list.extend((0..9_940).map(|i| format!("g{i}.txt")));
    let env = envelope(&call_json(&ws, "read_file", &json!({"paths": list})));
    let out = env["output"].as_str().unwrap();
    assert_eq!(env["read"], 50);
    assert!(
        out.contains("(9950 more files not read: at most 50 files per call"),
        "{}",
        &out[out.len() - 300..]
    );
    assert!(out.contains("[f49.txt#") && !out.contains("[f50.txt#"));
    // Over the schema's 10,000 entries: an argument error, nothing read.
    let too_many: Vec<String> = (0..10_001).map(|i| format!("h{i}")).collect();
    ws.call("read_file", &json!({"paths": too_many})).code(2);
}

#[test]
fn several_files_mix_images_and_text() {
    let ws = Ws::new();
    ws.write("a.png", png(50, 40));
    ws.write("b.txt", "text\n");
    let env = envelope(&call_json(
        &ws,
        "read_file",
        &json!({"paths": ["a.png", "b.txt"]}),
    ));
    let out = env["output"].as_str().unwrap();
    assert!(
        out.starts_with("Image: a.png (PNG, 50x40, sent as 50x40, "),
        "{out}"
    );
    assert!(out.contains("\n\n[b.txt#"), "{out}");
    assert_eq!(env["images"].as_array().unwrap().len(), 1);
}

/// An nbformat 4.5 notebook with `cells` (already JSON cells).
fn notebook_of(cells: Vec<Value>) -> String {
    json!({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).to_string()
}

fn code_cell(id: &str, source: &str, outputs: Vec<Value>) -> Value {
    json!({"cell_type": "code", "execution_count": 1, "id": id, "metadata": {},
           "outputs": outputs, "source": source})
}

/// A notebook read has the output budget a text read has (2000 lines, about 1 MB), and
/// offset/limit page it by cells, the last line saying where to continue.
#[test]
fn a_huge_notebook_is_read_a_page_of_cells_at_a_time() {
    let ws = Ws::new();
    // One cell with 5,000 outputs of 1,000 characters: cut inside the cell.
    let outputs: Vec<Value> = (0..5000)
        .map(|_| json!({"output_type": "stream", "name": "stdout", "text": "x".repeat(1000)}))
        .collect();
    ws.write(
        "big.ipynb",
        notebook_of(vec![
            code_cell("a", "print()", outputs),
            code_cell("b", "y = 2", vec![]),
        ]),
    );
    let out = ws.run(&["read-file", "big.ipynb"]);
    let text = out.ok();
    assert!(text.len() < 1_100_000, "{} bytes", text.len());
    assert!(
        text.lines().count() <= 2002,
        "{} lines",
        text.lines().count()
    );
    assert!(
        text.contains("(cell 1 cut at the output limit: "),
        "{}",
        &text[text.len() - 300..]
    );
    assert!(
        text.ends_with("(1 more cell; continue with offset=2)\n"),
        "{}",
        &text[text.len() - 300..]
    );
    let out = ws.run(&["read-file", "big.ipynb", "--offset", "2"]);
    assert!(
        out.ok().ends_with("[cell 2 · code · id=b]\nL1: y = 2\n"),
        "{}",
        out.out
    );
    // 20,000 small cells: whole cells up to the budget, then where to continue.
    let cells: Vec<Value> = (1..=20_000)
        .map(|i| code_cell(&format!("c{i}"), &format!("x = {i}"), vec![]))
        .collect();
    ws.write("many.ipynb", notebook_of(cells));
    let out = ws.run(&["read-file", "many.ipynb"]);
    let text = out.ok();
    assert!(
        text.lines().count() <= 2002,
        "{} lines",
        text.lines().count()
    );
    let last = text.lines().last().unwrap();
    let next: usize = last
        .strip_suffix(')')
        .and_then(|l| l.rsplit_once("continue with offset="))
        .map(|(_, n)| n.parse().unwrap())
        .unwrap_or_else(|| panic!("{last}"));
    assert!(
        text.contains(&format!("[cell {} · code", next - 1)),
        "{last}"
    );
    assert!(!text.contains(&format!("[cell {next} · code")), "{last}");
    let out = ws.run(&["read-file", "many.ipynb", "--offset", &next.to_string()]);
    assert!(
        out.ok()
            .contains(&format!("[cell {next} · code · id=c{next}]"))
    );
    // limit counts cells.
    let out = ws.run(&["read-file", "many.ipynb", "--offset", "2", "--limit", "2"]);
    assert_eq!(
        out.ok().split_once('\n').unwrap().1,
        "[cell 2 · code · id=c2]\nL1: x = 2\n[cell 3 · code · id=c3]\nL1: x = 3\n\
         (19997 more cells; continue with offset=4)\n"
    );
    let out = ws.run(&["read-file", "many.ipynb", "--offset", "20001"]);
    out.code(1);
    assert!(
        out.out
            .contains("offset 20001 is past the end of many.ipynb (20000 cells)"),
        "{}",
        out.out
    );
}

/// A notebook with a key twice (serde keeps the last, the byte-level edit would change the
/// first) is refused by read and edit alike, and is left as it was.
#[test]
fn a_notebook_with_a_key_twice_is_refused_by_read_and_edit() {
    let ws = Ws::new();
    let cell = |id: &str, src: &str| code_cell(id, src, vec![]).to_string();
    let top = format!(
        "{{\"cells\": [{}], \"metadata\": {{}}, \"nbformat\": 4, \"nbformat_minor\": 5, \
         \"cells\": [{}]}}",
        cell("a", "x = 1"),
        cell("b", "y = 2")
    );
    let in_cell = format!(
        "{{\"cells\": [{}, {{\"cell_type\": \"code\", \"execution_count\": null, \"id\": \"d\", \
         \"metadata\": {{}}, \"outputs\": [], \"source\": \"shown\", \"source\": \"hidden\"}}], \
         \"metadata\": {{}}, \"nbformat\": 4, \"nbformat_minor\": 5}}",
        cell("c", "z = 3")
    );
    for (name, text, why) in [
        (
            "top.ipynb",
            &top,
            "the key \"cells\" appears twice at its top level",
        ),
        (
            "cell.ipynb",
            &in_cell,
            "cell.ipynb: cell 2: the key \"source\" appears twice",
        ),
    ] {
        ws.write(name, text);
        let out = ws.run(&["read-file", name]);
        out.code(1);
        assert!(
            out.out.starts_with("Error: ") && out.out.contains(why),
            "{}",
            out.out
        );
        let out = ws.run(&[
            "--groups",
            "all",
            "--no-freshness",
            "notebook-edit",
            name,
            "--cell",
            "1",
            "--source",
            "q = 0",
        ]);
        out.code(1);
        assert!(out.out.contains(why), "{}", out.out);
        assert_eq!(ws.read(name), text.as_bytes());
    }
}
