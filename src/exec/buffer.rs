//! Head/tail output buffer (spec 05, "exec (one shot)": head half and tail half of the budget).
//!
//! A command may print gigabytes; a model can read a few kilobytes. The buffer keeps the first
//! `budget / 2` bytes (the head) and the last `budget - budget / 2` bytes (the tail, so an odd
//! byte goes to the tail), drops everything in between and counts it. Memory never exceeds the
//! budget, whatever is pushed.

/// Bounded buffer keeping the head and the tail of a byte stream.
///
/// Units: every size here is in bytes; line counts count `\n` bytes, plus one for a last line
/// without a terminator.
#[derive(Debug, Clone)]
pub struct HeadTailBuffer {
    head_cap: usize,
    tail_cap: usize,
    head: Vec<u8>,
    /// Grows up to `tail_cap`, then is used as a ring starting at `tail_start`.
    tail: Vec<u8>,
    tail_start: usize,
    total_bytes: u64,
    newlines: u64,
    ends_with_newline: bool,
}

/// The buffer's content as text, ready to print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedOutput {
    /// Head, an omission marker line when bytes were dropped, and tail. UTF-8, with invalid
    /// bytes replaced by U+FFFD and cuts made only at char boundaries.
    pub text: String,
    /// Bytes of the stream not shown in `text` (0 when everything is shown).
    pub omitted_bytes: u64,
    /// Lines in the whole stream, shown or not.
    pub total_lines: u64,
    /// Bytes in the whole stream, shown or not.
    pub total_bytes: u64,
}

impl HeadTailBuffer {
    /// A buffer holding at most `budget` bytes: `budget / 2` of head, the rest of tail.
    pub fn new(budget: usize) -> Self {
        let head_cap = budget / 2;
        HeadTailBuffer {
            head_cap,
            tail_cap: budget - head_cap,
            head: Vec::new(),
            tail: Vec::new(),
            tail_start: 0,
            total_bytes: 0,
            newlines: 0,
            ends_with_newline: false,
        }
    }

    /// The budget this buffer was made with, in bytes.
    pub fn capacity(&self) -> usize {
        self.head_cap + self.tail_cap
    }

    /// Bytes pushed since creation (or the last [`take`](Self::take)).
    pub fn total_bytes(&self) -> u64 {
        self.total_bytes
    }

    /// Bytes pushed but no longer held (dropped from the middle).
    pub fn omitted_bytes(&self) -> u64 {
        self.total_bytes - (self.head.len() + self.tail.len()) as u64
    }

    /// Lines pushed: `\n` count, plus one when the last byte is not `\n`.
    pub fn total_lines(&self) -> u64 {
        if self.total_bytes == 0 {
            0
        } else {
            self.newlines + u64::from(!self.ends_with_newline)
        }
    }

    /// Appends bytes; fills the head first, then keeps only the last `tail` bytes.
    pub fn push(&mut self, mut data: &[u8]) {
        if data.is_empty() {
            return;
        }
        self.total_bytes += data.len() as u64;
        self.newlines += memchr::memchr_iter(b'\n', data).count() as u64;
        self.ends_with_newline = data.last() == Some(&b'\n');

        let room = self.head_cap - self.head.len();
        let take = room.min(data.len());
        self.head.extend_from_slice(&data[..take]);
        data = &data[take..];
        if data.is_empty() || self.tail_cap == 0 {
            return;
        }
        if data.len() >= self.tail_cap {
            self.tail.clear();
            self.tail
                .extend_from_slice(&data[data.len() - self.tail_cap..]);
            self.tail_start = 0;
            return;
        }
        if self.tail.len() < self.tail_cap {
            let room = self.tail_cap - self.tail.len();
            let take = room.min(data.len());
            self.tail.extend_from_slice(&data[..take]);
            data = &data[take..];
        }
        // The ring is full: overwrite the oldest bytes.
        while !data.is_empty() {
            let n = data.len().min(self.tail_cap - self.tail_start);
            self.tail[self.tail_start..self.tail_start + n].copy_from_slice(&data[..n]);
            self.tail_start = (self.tail_start + n) % self.tail_cap;
            data = &data[n..];
        }
    }

    /// Empties the buffer, returning what it held; the budget stays the same.
    pub fn take(&mut self) -> HeadTailBuffer {
        std::mem::replace(self, HeadTailBuffer::new(self.capacity()))
    }

    fn tail_in_order(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.tail.len());
        out.extend_from_slice(&self.tail[self.tail_start..]);
        out.extend_from_slice(&self.tail[..self.tail_start]);
        out
    }

    /// Renders with the buffer's own budget.
    pub fn render(&self) -> RenderedOutput {
        self.render_within(self.capacity())
    }

    /// Renders cut to `budget` bytes (head `budget / 2`, tail the rest). A budget above the
    /// buffer's capacity is treated as the capacity: bytes already dropped cannot come back.
    pub fn render_within(&self, budget: usize) -> RenderedOutput {
        let budget = budget.min(self.capacity());
        let tail = self.tail_in_order();
        let head_budget = budget / 2;
        let tail_budget = budget - head_budget;
        if self.omitted_bytes() > 0 {
            let head = &self.head[..head_budget.min(self.head.len())];
            return self.assemble(head, &tail[tail.len() - tail_budget.min(tail.len())..]);
        }
        // Head and tail are contiguous: nothing was dropped yet.
        let mut all = self.head.clone();
        all.extend_from_slice(&tail);
        if all.len() <= budget {
            return RenderedOutput {
                text: String::from_utf8_lossy(&all).into_owned(),
                omitted_bytes: 0,
                total_lines: self.total_lines(),
                total_bytes: self.total_bytes,
            };
        }
        self.assemble(&all[..head_budget], &all[all.len() - tail_budget..])
    }

    fn assemble(&self, head: &[u8], tail: &[u8]) -> RenderedOutput {
        let head = trim_incomplete_end(head);
        let tail = skip_continuation_start(tail);
        let shown = (head.len() + tail.len()) as u64;
        let omitted = self.total_bytes - shown;
        let mut text = String::from_utf8_lossy(head).into_owned();
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!(
            "[... {} omitted ...]\n",
            crate::text::plural::count(omitted, "byte")
        ));
        text.push_str(&String::from_utf8_lossy(tail));
        RenderedOutput {
            text,
            omitted_bytes: omitted,
            total_lines: self.total_lines(),
            total_bytes: self.total_bytes,
        }
    }
}

/// Drops a multi-byte sequence cut short at the end of `bytes` (the cut, not the data, made it
/// incomplete).
fn trim_incomplete_end(bytes: &[u8]) -> &[u8] {
    let len = bytes.len();
    for back in 1..=len.min(3) {
        let b = bytes[len - back];
        if is_continuation(b) {
            continue;
        }
        if b >= 0xC0 {
            let needed = if b >= 0xF0 {
                4
            } else if b >= 0xE0 {
                3
            } else {
                2
            };
            if needed > back {
                return &bytes[..len - back];
            }
        }
        break;
    }
    bytes
}

/// Skips the continuation bytes of a char whose start was cut off (at most 3).
fn skip_continuation_start(bytes: &[u8]) -> &[u8] {
    let skip = bytes
        .iter()
        .take(3)
        .take_while(|b| is_continuation(**b))
        .count();
    &bytes[skip..]
}

fn is_continuation(b: u8) -> bool {
    (0x80..0xC0).contains(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pushed(budget: usize, chunks: &[&[u8]]) -> HeadTailBuffer {
        let mut b = HeadTailBuffer::new(budget);
        for c in chunks {
            b.push(c);
        }
        b
    }

    #[test]
    fn small_output_is_shown_whole() {
        let b = pushed(100, &[b"hello\n", b"world"]);
        let r = b.render();
        assert_eq!(r.text, "hello\nworld");
        assert_eq!(r.omitted_bytes, 0);
        assert_eq!(r.total_lines, 2);
        assert_eq!(r.total_bytes, 11);
    }

    #[test]
    fn exactly_the_budget_is_not_cut() {
        let b = pushed(10, &[b"0123456789"]);
        assert_eq!(b.render().text, "0123456789");
        assert_eq!(b.omitted_bytes(), 0);
    }

    #[test]
    fn odd_budget_gives_the_odd_byte_to_the_tail() {
        let b = pushed(5, &[b"abcdefghij"]);
        let r = b.render();
        assert_eq!(r.text, "ab\n[... 5 bytes omitted ...]\nhij");
        assert_eq!(r.omitted_bytes, 5);
    }

    #[test]
    fn many_small_pushes_equal_one_big_push() {
        let data: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        let whole = pushed(301, &[&data]);
        let mut pieces = HeadTailBuffer::new(301);
        for chunk in data.chunks(7) {
            pieces.push(chunk);
        }
        assert_eq!(whole.head, pieces.head);
        assert_eq!(whole.tail_in_order(), pieces.tail_in_order());
        assert_eq!(pieces.tail_in_order(), data[data.len() - 151..].to_vec());
        assert_eq!(pieces.head, data[..150].to_vec());
        assert_eq!(pieces.omitted_bytes(), 10_000 - 301);
    }

    #[test]
    fn zero_budget_omits_everything() {
        let b = pushed(0, &[b"abc\ndef\n"]);
        let r = b.render();
        assert_eq!(r.text, "[... 8 bytes omitted ...]\n");
        assert_eq!(r.omitted_bytes, 8);
        assert_eq!(r.total_lines, 2);
    }

    #[test]
    fn empty_buffer_renders_empty() {
        let r = HeadTailBuffer::new(10).render();
        assert_eq!(r.text, "");
        assert_eq!(r.total_lines, 0);
    }

    #[test]
    fn line_count_includes_an_unterminated_last_line() {
        assert_eq!(pushed(4, &[b"a\nb\nc"]).total_lines(), 3);
        assert_eq!(pushed(4, &[b"a\nb\nc\n"]).total_lines(), 3);
        assert_eq!(pushed(4, &[b"\n\n"]).total_lines(), 2);
    }

    #[test]
    fn cuts_never_split_a_char() {
        // "é" is 2 bytes, "€" 3, "😀" 4: place them across both cut points. The text has no
        // newline, so the renderer adds one after a non-empty head.
        let text = "aé€😀".repeat(50);
        for budget in 1..40 {
            let r = pushed(budget, &[text.as_bytes()]).render();
            assert!(
                !r.text.contains('\u{FFFD}'),
                "budget {budget}: {:?}",
                r.text
            );
            let marker = format!(
                "[... {} omitted ...]\n",
                crate::text::plural::count(r.omitted_bytes, "byte")
            );
            let (head, tail) = r.text.split_once(&marker).expect("marker");
            let head = head.strip_suffix('\n').unwrap_or(head);
            assert!(
                text.starts_with(head) && text.ends_with(tail),
                "budget {budget}"
            );
            let shown = (head.len() + tail.len()) as u64;
            assert_eq!(
                shown + r.omitted_bytes,
                text.len() as u64,
                "budget {budget}"
            );
            assert!(shown <= budget as u64);
        }
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        let b = pushed(100, &[b"ok \xff\xfe end"]);
        assert_eq!(b.render().text, "ok \u{FFFD}\u{FFFD} end");
    }

    #[test]
    fn invalid_bytes_at_the_cut_points_do_not_panic() {
        let data = [0xffu8; 64];
        let r = pushed(9, &[&data]).render();
        assert!(r.text.contains("bytes omitted"));
        // Lone continuation bytes at the start of the tail are skipped as a cut char.
        let data = [0x80u8; 64];
        let r = pushed(9, &[&data]).render();
        assert_eq!(r.omitted_bytes, 64 - 4 - 2);
    }

    #[test]
    fn render_within_recuts_a_larger_buffer() {
        let data: Vec<u8> = (b'a'..=b'z').collect();
        let b = pushed(20, &[&data]);
        let r = b.render_within(6);
        assert_eq!(r.text, "abc\n[... 20 bytes omitted ...]\nxyz");
        // Contiguous case: nothing dropped by the buffer yet.
        let b = pushed(100, &[&data]);
        let r = b.render_within(4);
        assert_eq!(r.text, "ab\n[... 22 bytes omitted ...]\nyz");
        // A budget above the capacity renders the capacity.
        let b = pushed(10, &[&data]);
        assert_eq!(b.render_within(1000), b.render());
    }

    #[test]
    fn take_resets_counts_but_keeps_the_budget() {
        let mut b = pushed(10, &[b"0123456789abc\n"]);
        let old = b.take();
        assert_eq!(old.total_bytes(), 14);
        assert_eq!(b.total_bytes(), 0);
        assert_eq!(b.capacity(), 10);
        b.push(b"x");
        assert_eq!(b.render().text, "x");
    }

    #[test]
    fn fifty_megabytes_stay_within_the_budget() {
        let mut b = HeadTailBuffer::new(30_000);
        let chunk = vec![b'x'; 65_536];
        for _ in 0..800 {
            b.push(&chunk);
        }
        assert!(b.head.capacity() + b.tail.capacity() <= 2 * 30_000);
        assert_eq!(b.total_bytes(), 800 * 65_536);
        assert_eq!(b.omitted_bytes(), 800 * 65_536 - 30_000);
    }
}
