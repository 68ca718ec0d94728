//! Unit tests of edit-lines' anchor parsing, overlap checks and ordering.

use super::*;

#[test]
fn anchors_parse() {
    let a = parse_anchor("f", "12:AB|  let x = 1;", false).unwrap();
    assert_eq!((a.line, a.hash.as_str()), (12, "ab"));
    assert_eq!(parse_anchor("f", "0", true).unwrap().line, 0);
    for bad in ["0", "12", "12:abc", "x:ab", "12:zz", ""] {
        assert!(parse_anchor("f", bad, false).is_err(), "{bad}");
    }
}

#[test]
fn lines_split() {
    assert_eq!(split_lines(""), Vec::<String>::new());
    assert_eq!(split_lines("\n"), vec![String::new()]);
    assert_eq!(
        split_lines("a\r\nb\n"),
        vec!["a".to_owned(), "b".to_owned()]
    );
}

fn rep(f: usize, t: usize) -> Op {
    let a = |n: usize| Anchor {
        line: n,
        hash: "00".into(),
        spelled: format!("{n}:00"),
    };
    Op::Replace {
        from: a(f),
        to: a(t),
        lines: vec![],
    }
}

fn ins(n: usize) -> Op {
    Op::Insert {
        after: Anchor {
            line: n,
            hash: "00".into(),
            spelled: format!("{n}:00"),
        },
        lines: vec!["x".into()],
    }
}

#[test]
fn overlaps() {
    let both = |x: &Op, y: &Op| overlap(x, y) || overlap(y, x);
    assert!(both(&rep(3, 5), &rep(5, 6)));
    assert!(!both(&rep(3, 5), &rep(6, 6)));
    assert!(both(&rep(3, 5), &ins(4)));
    assert!(
        !both(&rep(3, 5), &ins(5)),
        "after the block is a clear place"
    );
    assert!(!both(&rep(3, 5), &ins(2)));
    assert!(both(&ins(2), &ins(2)));
}

#[test]
fn bottom_up_order() {
    let mut ops = [rep(3, 3), ins(2), ins(3), rep(1, 1)];
    ops.sort_by_key(|op| std::cmp::Reverse(op.order_key()));
    let keys: Vec<_> = ops.iter().map(Op::order_key).collect();
    assert_eq!(keys, vec![(3, 0), (2, 1), (2, 0), (0, 1)]);
}
