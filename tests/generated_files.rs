//! The committed completions/ and man/ files match what the binary generates (spec 07): a tool
//! or flag change without regenerating them fails here. Regenerate with
//! `cargo run -- completions --write completions && cargo run -- man --write man`.

use agtool::cli::command;
use agtool::faces::people::{SHELLS, completion_script, man_page};

fn committed(rel: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn completions_are_up_to_date() {
    for (shell, name) in SHELLS {
        assert!(
            committed(&format!("completions/{name}")) == completion_script(shell, command()),
            "completions/{name} is out of date: run `cargo run -- completions --write completions`"
        );
    }
}

#[test]
fn man_page_is_up_to_date() {
    assert!(
        committed("man/agtool.1") == man_page(command()),
        "man/agtool.1 is out of date: run `cargo run -- man --write man`"
    );
}
