//! Error messages never quote the text of files outside the workspace (issue 12, item 8): a
//! `--config` file or an `apply-patch --input` file is named with a line number (and the key),
//! never its lines or values.

mod common;

use common::Ws;

const SECRET: &str = "s3cr3t-TOKEN-4242";

/// A file beside the workspace whose lines all hold the secret.
fn secret_file(ws: &Ws) -> std::path::PathBuf {
    let p = ws.base.join("secret.txt");
    std::fs::write(
        &p,
        format!("root:{SECRET}:0:0\nfreshness = \"{SECRET}\"\n{SECRET}\n"),
    )
    .unwrap();
    p
}

#[test]
fn a_config_file_outside_is_not_quoted() {
    let ws = Ws::new();
    ws.write("a.txt", "a\n");
    let secret = secret_file(&ws);
    let run = ws.run(&["--config", secret.to_str().unwrap(), "read-file", "a.txt"]);
    run.code(2);
    assert!(run.err.contains("line 1"), "{run:?}");
    assert!(
        !run.err.contains(SECRET) && !run.out.contains(SECRET),
        "{run:?}"
    );
    // A value of the wrong type: the key and line, not the value.
    std::fs::write(&secret, format!("[exec]\ntimeout_ms = \"{SECRET}\"\n")).unwrap();
    let run = ws.run(&["--config", secret.to_str().unwrap(), "read-file", "a.txt"]);
    run.code(2);
    assert!(run.err.contains("line 2 (key `timeout_ms`)"), "{run:?}");
    assert!(!run.err.contains(SECRET), "{run:?}");
}

#[test]
fn a_patch_input_file_outside_is_not_quoted() {
    let ws = Ws::new();
    let secret = secret_file(&ws);
    let run = ws.run(&["apply-patch", "--input", secret.to_str().unwrap()]);
    run.code(1);
    assert!(run.out.contains("invalid patch at line 1"), "{run:?}");
    assert!(
        !run.out.contains(SECRET) && !run.err.contains(SECRET),
        "{run:?}"
    );
    // A patch file in the workspace is the caller's own text: quoted as before.
    ws.write("fix.patch", "hello\n");
    let run = ws.run(&["apply-patch", "--input", "fix.patch"]);
    run.code(1);
    assert!(
        run.out.contains("'hello' is not '*** Begin Patch'"),
        "{run:?}"
    );
}
