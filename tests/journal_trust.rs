//! Journals that agtool did not write are never obeyed (spec 01 "Races and crashes";
//! `workspace::journal::seal`): a `.agent-state/journal/*.j` that came with a repository or was
//! planted by another program names renames and removals that recovery would otherwise carry
//! out on the next call of any tool, a read-only one included.

mod common;

use common::Ws;

/// A journal in state C, of a dead process, whose steps would remove `.git` and `src` and put
/// a folder of the journal's own in place of `.git` (the attack reported against recovery).
fn forged(root: &std::path::Path) -> String {
    let r = root.display();
    format!(
        "agtool-journal 1\nstate C\npid 999999\n\
         tree {r} . .a.agtool-999999-1\nplace {r} . .a.agtool-999999-1 .git -\n\
         tree {r} . .b.agtool-999999-2\nplace {r} . .b.agtool-999999-2 src -\n\
         place {r} . .c.agtool-999999-3 .git .g.agtool-999999-4\nend\n"
    )
}

fn plant(ws: &Ws, text: &str) {
    ws.write("README.md", "# harmless\n");
    ws.write(".git/HEAD", "ref: refs/heads/main\n");
    ws.write("src/main.rs", "fn main() {}\n");
    ws.write(".g.agtool-999999-4/config", "[core]\n\tfsmonitor = evil\n");
    ws.write(".agent-state/journal/999999-1.j", text);
}

#[test]
fn a_journal_without_a_seal_is_set_aside_and_obeyed_in_nothing() {
    for sealed_wrongly in [false, true] {
        let ws = Ws::new();
        let mut text = forged(&ws.root);
        if sealed_wrongly {
            text.push_str(&format!("seal {}\n", "ab".repeat(32)));
        }
        plant(&ws, &text);
        let run = ws.run(&["read-file", "README.md"]);
        let out = run.ok();
        assert!(out.contains("L1: # harmless"), "{out}");
        assert_eq!(ws.read(".git/HEAD"), b"ref: refs/heads/main\n", "{out}");
        assert_eq!(ws.read("src/main.rs"), b"fn main() {}\n", "{out}");
        assert!(ws.path(".g.agtool-999999-4/config").exists());
        assert!(
            out.contains("was not written by agtool for this user")
                && out.contains("nothing it names was touched"),
            "{out}"
        );
        assert!(!ws.path(".agent-state/journal/999999-1.j").exists());
        assert!(
            ws.path(".agent-state/journal/999999-1.j.untrusted")
                .exists()
        );
        // Said once: the next call is quiet and still changes nothing.
        let again = ws.run(&["list-dir"]);
        assert!(!again.ok().contains("journal"), "{}", again.out);
        assert_eq!(ws.read("src/main.rs"), b"fn main() {}\n");
        let state = ws.run(&["state", "recover"]);
        assert_eq!(state.code, 0, "{}{}", state.out, state.err);
        assert!(ws.path(".git/HEAD").exists());
    }
}
