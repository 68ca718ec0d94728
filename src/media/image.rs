//! Images for a multimodal model (spec 09, "Images, PDFs, notebooks, several files at once"):
//! decoded under limits set before any pixel is allocated, scaled down (never up) to the pixel
//! budget, re-encoded as PNG (or JPEG when that is smaller for an opaque image), at most
//! [`MAX_SENT_BYTES`].

use std::io::Cursor;

use base64::Engine as _;
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::{CompressionType, FilterType as PngFilter, PngEncoder};
use image::{DynamicImage, ImageFormat, ImageReader, Limits};

use crate::text::tag::tag_ref;

/// The file extensions read as images (lower case, without the dot).
pub const EXTENSIONS: [&str; 6] = ["png", "jpg", "jpeg", "gif", "webp", "bmp"];
/// Default long-edge limit in pixels (`read.image_max_edge`).
pub const DEFAULT_MAX_EDGE: u32 = 1568;
/// Most pixels sent (1.15 megapixels).
pub const MAX_SENT_PIXELS: u64 = 1_150_000;
/// Most bytes of one encoded image sent.
pub const MAX_SENT_BYTES: usize = 5 << 20;
/// Largest image file read, in bytes: checked before the file is read into memory.
pub const MAX_FILE_BYTES: u64 = 64 << 20;
/// Widest and tallest image decoded, in pixels: a 30,000 x 30,000 PNG is refused from its
/// header, before any pixel buffer exists.
pub const MAX_DIMENSION: u32 = 20_000;
/// Most bytes the decoder may allocate (a 4000 x 3000 RGBA16 image needs 96 MB).
pub const MAX_DECODE_ALLOC: u64 = 128 << 20;

/// Whether `ext` (any case, no dot) names an image format read as pixels. SVG is not one: it
/// reads as text.
pub fn is_image_extension(ext: &str) -> bool {
    EXTENSIONS.iter().any(|e| e.eq_ignore_ascii_case(ext))
}

/// An image ready to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prepared {
    /// The file's own format, upper case (`PNG`, `JPEG`, ...).
    pub source_format: &'static str,
    /// The file's size in pixels (width, height).
    pub source_size: (u32, u32),
    /// The size sent (width, height): never larger than the source.
    pub sent_size: (u32, u32),
    /// `image/png` or `image/jpeg`.
    pub mime_type: &'static str,
    /// The encoded bytes sent.
    pub bytes: Vec<u8>,
}

impl Prepared {
    /// The encoded bytes in standard base64, as MCP's `image` content and `--json` carry them.
    pub fn base64(&self) -> String {
        base64::engine::general_purpose::STANDARD.encode(&self.bytes)
    }

    /// The one text line every face shows (spec 09): `Image: <path> (PNG, 4000x3000, sent as
    /// 1238x928, 245 KB) [<path>#TAG]`.
    pub fn line(&self, spelled: &str, tag: &str) -> String {
        let (w, h) = self.source_size;
        let (sw, sh) = self.sent_size;
        // What is sent (not the file's size); under 1 KB in bytes (308 bytes read "1 KB").
        let size = match self.bytes.len() {
            n if n < 1024 => crate::text::plural::count(n, "byte"),
            n => format!("{} KB", n.div_ceil(1024)),
        };
        let sent_as = if self.mime_type == "image/jpeg" {
            " JPEG"
        } else {
            ""
        };
        format!(
            "Image: {spelled} ({}, {w}x{h}, sent as {sw}x{sh}{sent_as}, {size}) {}",
            self.source_format,
            tag_ref(spelled, tag)
        )
    }
}

/// The size an image of `w` x `h` is sent at: scaled down (never up, aspect kept) so that the
/// long edge is at most `max_edge` and the area at most [`MAX_SENT_PIXELS`]; each side at
/// least 1.
pub fn target_size(w: u32, h: u32, max_edge: u32) -> (u32, u32) {
    let long = w.max(h).max(1) as f64;
    let area = (w as f64) * (h as f64);
    let mut scale = 1.0f64;
    scale = scale.min(max_edge.max(1) as f64 / long);
    if area > MAX_SENT_PIXELS as f64 {
        scale = scale.min((MAX_SENT_PIXELS as f64 / area).sqrt());
    }
    if scale >= 1.0 {
        return (w.max(1), h.max(1));
    }
    let sw = ((w as f64) * scale + 1e-6).floor().max(1.0) as u32;
    let sh = ((h as f64) * scale + 1e-6).floor().max(1.0) as u32;
    (sw, sh)
}

fn format_name(f: ImageFormat) -> &'static str {
    match f {
        ImageFormat::Png => "PNG",
        ImageFormat::Jpeg => "JPEG",
        ImageFormat::Gif => "GIF",
        ImageFormat::WebP => "WEBP",
        ImageFormat::Bmp => "BMP",
        _ => "image",
    }
}

/// Decodes `bytes` (a whole image file) and prepares it to send with the long edge at most
/// `max_edge`. The format is taken from the bytes, not the name. Errors are the model-facing
/// reason: not an image format read here, the decoder's complaint (a truncated file), or a
/// size over [`MAX_DIMENSION`] / [`MAX_DECODE_ALLOC`] (a decompression bomb), refused before
/// pixels are allocated.
pub fn prepare(bytes: &[u8], max_edge: u32) -> Result<Prepared, String> {
    let reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| e.to_string())?;
    let Some(format) = reader.format() else {
        return Err("its bytes are not a PNG, JPEG, GIF, WebP or BMP image".to_owned());
    };
    if !matches!(
        format,
        ImageFormat::Png
            | ImageFormat::Jpeg
            | ImageFormat::Gif
            | ImageFormat::WebP
            | ImageFormat::Bmp
    ) {
        return Err(format!(
            "its bytes are a {format:?} image, which is not read here (PNG, JPEG, GIF, WebP, BMP)"
        ));
    }
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_DIMENSION);
    limits.max_image_height = Some(MAX_DIMENSION);
    limits.max_alloc = Some(MAX_DECODE_ALLOC);
    let mut reader = reader;
    reader.limits(limits);
    let img = reader.decode().map_err(|e| decode_reason(&e))?;
    let (w, h) = (img.width(), img.height());
    let (sw, sh) = target_size(w, h, max_edge);
    let mut img = if (sw, sh) == (w, h) {
        img
    } else {
        img.thumbnail_exact(sw, sh)
    };
    loop {
        let (bytes, mime) = encode(&img)?;
        if bytes.len() <= MAX_SENT_BYTES || img.width() <= 64 || img.height() <= 64 {
            return Ok(Prepared {
                source_format: format_name(format),
                source_size: (w, h),
                sent_size: (img.width(), img.height()),
                mime_type: mime,
                bytes,
            });
        }
        // Still too large encoded: three quarters of each side, again.
        let (nw, nh) = (img.width() * 3 / 4, img.height() * 3 / 4);
        img = img.thumbnail_exact(nw.max(1), nh.max(1));
    }
}

fn decode_reason(e: &image::ImageError) -> String {
    match e {
        image::ImageError::Limits(_) => format!(
            "it is larger than agtool decodes ({MAX_DIMENSION} px a side, {} MB of pixels): {e}",
            MAX_DECODE_ALLOC >> 20
        ),
        _ => format!("the image decoder says: {e}"),
    }
}

/// PNG, or JPEG (quality 85) when the image has no alpha channel and the JPEG is smaller.
fn encode(img: &DynamicImage) -> Result<(Vec<u8>, &'static str), String> {
    let opaque = !img.color().has_alpha();
    // 8 bits a channel: what both encoders take, and all a model sees.
    let img8: DynamicImage = if opaque {
        DynamicImage::ImageRgb8(img.to_rgb8())
    } else {
        DynamicImage::ImageRgba8(img.to_rgba8())
    };
    let mut png = Vec::new();
    img8.write_with_encoder(PngEncoder::new_with_quality(
        &mut png,
        CompressionType::Fast,
        PngFilter::Adaptive,
    ))
    .map_err(|e| format!("re-encoding as PNG failed: {e}"))?;
    if opaque {
        let mut jpeg = Vec::new();
        img8.write_with_encoder(JpegEncoder::new_with_quality(&mut jpeg, 85))
            .map_err(|e| format!("re-encoding as JPEG failed: {e}"))?;
        if jpeg.len() < png.len() {
            return Ok((jpeg, "image/jpeg"));
        }
    }
    Ok((png, "image/png"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_scale_down_never_up() {
        assert_eq!(target_size(800, 600, 1568), (800, 600));
        let (w, h) = target_size(4000, 3000, 1568);
        assert!(
            w <= 1568 && (w as u64) * (h as u64) <= MAX_SENT_PIXELS,
            "{w}x{h}"
        );
        assert!((w as f64 / h as f64 - 4.0 / 3.0).abs() < 0.01);
        assert_eq!(target_size(3000, 10, 1568), (1568, 5));
        assert_eq!(target_size(100_000, 1, 1568), (1568, 1));
        assert_eq!(target_size(2000, 1000, 500), (500, 250));
    }

    #[test]
    fn a_small_png_round_trips() {
        let img = DynamicImage::ImageRgba8(image::RgbaImage::from_pixel(
            20,
            10,
            image::Rgba([255, 0, 0, 128]),
        ));
        let mut png = Vec::new();
        img.write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
            .unwrap();
        let p = prepare(&png, 1568).unwrap();
        assert_eq!(p.source_size, (20, 10));
        assert_eq!(p.sent_size, (20, 10));
        assert_eq!(p.mime_type, "image/png");
        assert!(
            p.line("a.png", "TAG")
                .starts_with("Image: a.png (PNG, 20x10, sent as 20x10, ")
        );
        // A payload under 1 KB is said in bytes (308 bytes read "1 KB").
        let line = p.line("a.png", "TAG");
        assert!(
            line.contains(&format!(", {} bytes) [a.png#TAG]", p.bytes.len())),
            "{line}"
        );
    }

    #[test]
    fn truncated_and_not_images_are_refused() {
        let img =
            DynamicImage::ImageRgb8(image::RgbImage::from_pixel(50, 50, image::Rgb([1, 2, 3])));
        let mut png = Vec::new();
        img.write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
            .unwrap();
        png.truncate(png.len() / 2);
        assert!(prepare(&png, 1568).unwrap_err().contains("decoder"));
        assert!(prepare(b"hello", 1568).unwrap_err().contains("not a PNG"));
    }
}
