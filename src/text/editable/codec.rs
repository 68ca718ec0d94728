//! Bytes to text and back for [`super::EditableText`]: BOM sniffing, binary detection, the
//! decoding order of spec 01 (UTF-32/16 BOM, UTF-8 BOM, UTF-8, strict GBK) and the split of
//! terminators out of the decoded text.

use encoding_rs::{GB18030, GBK};

use super::{BINARY_SNIFF_BYTES, DecodeError, Eol, TextEncoding};

/// Whether `bytes` look binary: a NUL in the first 8 KiB (spec 01). Callers must not apply this
/// to UTF-16/32 text, which [`sniff_bom`] detects first.
pub fn looks_binary(bytes: &[u8]) -> bool {
    memchr::memchr(0, &bytes[..bytes.len().min(BINARY_SNIFF_BYTES)]).is_some()
}

/// The encoding announced by a byte-order mark at the start of `bytes`, if any. UTF-32 is
/// checked before UTF-16 because `FF FE 00 00` also starts with the UTF-16LE BOM.
pub fn sniff_bom(bytes: &[u8]) -> Option<TextEncoding> {
    if bytes.starts_with(b"\xFF\xFE\x00\x00") {
        Some(TextEncoding::Utf32Le)
    } else if bytes.starts_with(b"\x00\x00\xFE\xFF") {
        Some(TextEncoding::Utf32Be)
    } else if bytes.starts_with(b"\xFF\xFE") {
        Some(TextEncoding::Utf16Le)
    } else if bytes.starts_with(b"\xFE\xFF") {
        Some(TextEncoding::Utf16Be)
    } else if bytes.starts_with(b"\xEF\xBB\xBF") {
        Some(TextEncoding::Utf8Bom)
    } else {
        None
    }
}

pub(super) fn first_unmappable(text: &str, enc: &'static encoding_rs::Encoding) -> Option<char> {
    let mut buf = [0u8; 4];
    text.chars().find(|c| enc.encode(c.encode_utf8(&mut buf)).2)
}

/// Decodes `bytes` to a `String` (terminators untouched) and names the encoding.
pub(super) fn decode_bytes(bytes: &[u8]) -> Result<(TextEncoding, String), DecodeError> {
    match sniff_bom(bytes) {
        Some(enc @ (TextEncoding::Utf32Le | TextEncoding::Utf32Be)) => {
            decode_utf32(&bytes[4..], enc == TextEncoding::Utf32Le).map(|s| (enc, s))
        }
        Some(enc @ (TextEncoding::Utf16Le | TextEncoding::Utf16Be)) => {
            decode_utf16(&bytes[2..], enc == TextEncoding::Utf16Le).map(|s| (enc, s))
        }
        Some(TextEncoding::Utf8Bom) => {
            let rest = &bytes[3..];
            if looks_binary(rest) {
                return Err(DecodeError::Binary {
                    len: bytes.len() as u64,
                });
            }
            std::str::from_utf8(rest)
                .map(|s| (TextEncoding::Utf8Bom, s.to_owned()))
                .map_err(|_| DecodeError::Undecodable)
        }
        _ => {
            if looks_binary(bytes) {
                return Err(DecodeError::Binary {
                    len: bytes.len() as u64,
                });
            }
            match std::str::from_utf8(bytes) {
                Ok(s) => Ok((TextEncoding::Utf8, s.to_owned())),
                Err(_) => decode_gbk_strict(bytes),
            }
        }
    }
}

pub(super) fn decode_utf16(bytes: &[u8], le: bool) -> Result<String, DecodeError> {
    if !bytes.len().is_multiple_of(2) {
        return Err(DecodeError::Undecodable);
    }
    let units = bytes.chunks_exact(2).map(|c| {
        let pair = [c[0], c[1]];
        if le {
            u16::from_le_bytes(pair)
        } else {
            u16::from_be_bytes(pair)
        }
    });
    char::decode_utf16(units)
        .collect::<Result<String, _>>()
        .map_err(|_| DecodeError::Undecodable)
}

pub(super) fn decode_utf32(bytes: &[u8], le: bool) -> Result<String, DecodeError> {
    if !bytes.len().is_multiple_of(4) {
        return Err(DecodeError::Undecodable);
    }
    bytes
        .chunks_exact(4)
        .map(|c| {
            let quad = [c[0], c[1], c[2], c[3]];
            let v = if le {
                u32::from_le_bytes(quad)
            } else {
                u32::from_be_bytes(quad)
            };
            char::from_u32(v).ok_or(DecodeError::Undecodable)
        })
        .collect()
}

/// How UTF-8 `bytes` is: (characters of two or more bytes, places that are not UTF-8, the
/// offset of the first such place).
pub fn utf8_census(bytes: &[u8]) -> (u64, u64, Option<u64>) {
    let wide = |valid: &[u8]| valid.iter().filter(|&&b| b >= 0xC0).count() as u64;
    let (mut chars, mut bad, mut first) = (0, 0, None);
    let mut at = 0;
    while at < bytes.len() {
        match std::str::from_utf8(&bytes[at..]) {
            Ok(_) => {
                chars += wide(&bytes[at..]);
                break;
            }
            Err(e) => {
                chars += wide(&bytes[at..at + e.valid_up_to()]);
                bad += 1;
                first.get_or_insert((at + e.valid_up_to()) as u64);
                // A sequence cut off by the end is one place, as a lossy decoding shows it.
                match e.error_len() {
                    Some(len) => at += e.valid_up_to() + len,
                    None => break,
                }
            }
        }
    }
    (chars, bad, first)
}

/// How GBK-like `bytes` are: (double-byte characters in the GB2312 area, lead 0xA1-0xF7 and
/// trail 0xA1-0xFE, where everyday simplified Chinese lies; other double-byte characters).
/// GB18030 four-byte sequences count as neither.
fn gbk_pairs(bytes: &[u8]) -> (u64, u64) {
    let (mut common, mut rare) = (0, 0);
    let mut i = 0;
    while i < bytes.len() {
        let lead = bytes[i];
        if lead < 0x80 {
            i += 1;
            continue;
        }
        let trail = bytes.get(i + 1).copied().unwrap_or(0);
        if trail.is_ascii_digit() {
            i += 4;
            continue;
        }
        if (0xA1..=0xF7).contains(&lead) && (0xA1..=0xFE).contains(&trail) {
            common += 1;
        } else {
            rare += 1;
        }
        i += 2;
    }
    (common, rare)
}

/// Bytes that are not UTF-8 but round-trip as GBK are taken for GBK only when they read as
/// GBK text: at most one double-byte character in six outside the GB2312 area. A Latin-1 byte
/// before an ASCII letter (`K\xf6ln`) and UTF-8 read as GBK land outside it; Chinese text
/// lands inside (new-user and attack findings: `Jos\xc3\xa9 ... K\xf6ln` read as GBK, and
/// an edit wrote GBK bytes into it; `# 注意：` in GBK, which a count of UTF-8 characters took
/// for UTF-8 with strays). Otherwise: where the bytes are not UTF-8.
fn not_gbk_text(bytes: &[u8]) -> Option<DecodeError> {
    let (common, rare) = gbk_pairs(bytes);
    (rare * 5 > common).then(|| {
        let (_, bad, first) = utf8_census(bytes);
        DecodeError::Utf8Strays {
            first: first.unwrap_or(0),
            count: bad,
        }
    })
}

/// Strict GBK: decodes without any replacement and must encode back to the identical bytes
/// (with GBK, or with GB18030 when the file used its four-byte sequences).
pub(super) fn decode_gbk_strict(bytes: &[u8]) -> Result<(TextEncoding, String), DecodeError> {
    let decoded = GBK
        .decode_without_bom_handling_and_without_replacement(bytes)
        .ok_or(DecodeError::Undecodable)?
        .into_owned();
    for (enc, label) in [(GBK, TextEncoding::Gbk), (GB18030, TextEncoding::Gb18030)] {
        let (back, _, unmappable) = enc.encode(&decoded);
        if !unmappable && back.as_ref() == bytes {
            return match not_gbk_text(bytes) {
                Some(not_gbk) => Err(not_gbk),
                None => Ok((label, decoded)),
            };
        }
    }
    Err(DecodeError::Undecodable)
}

/// Splits terminators out of `decoded`: returns the `\n`-normalised text and each break's
/// original terminator. Text without any `\r` is returned as is (the common case, no copy).
pub(super) fn normalise(decoded: String) -> (String, Vec<Eol>) {
    if memchr::memchr(b'\r', decoded.as_bytes()).is_none() {
        let n = memchr::memchr_iter(b'\n', decoded.as_bytes()).count();
        return (decoded, vec![Eol::Lf; n]);
    }
    let bytes = decoded.as_bytes();
    let mut text = String::with_capacity(decoded.len());
    let mut eols = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while let Some(off) = memchr::memchr2(b'\n', b'\r', &bytes[i..]) {
        let pos = i + off;
        text.push_str(&decoded[start..pos]);
        text.push('\n');
        if bytes[pos] == b'\n' {
            eols.push(Eol::Lf);
            i = pos + 1;
        } else if bytes.get(pos + 1) == Some(&b'\n') {
            eols.push(Eol::CrLf);
            i = pos + 2;
        } else {
            eols.push(Eol::Cr);
            i = pos + 1;
        }
        start = i;
    }
    text.push_str(&decoded[start..]);
    (text, eols)
}
