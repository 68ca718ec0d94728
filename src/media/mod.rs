//! Media readers (spec 09, "Images, PDFs, notebooks, several files at once"): files a model
//! reads with its eyes. [`image`] decodes and scales images, [`pdf`] extracts text page by
//! page, [`notebook`] reads Jupyter notebooks and finds each cell's bytes for in-place edits.
//! The tools (`read_file`, `notebook_edit`) call these; nothing here touches the workspace.

pub mod image;
pub mod notebook;
pub mod pdf;

/// What kind of file a path names, by its extension (any case).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `.png .jpg .jpeg .gif .webp .bmp`: sent as pixels.
    Image,
    /// `.pdf`: text per page.
    Pdf,
    /// `.ipynb`: cells.
    Notebook,
    /// Anything else (SVG too): read as text.
    Text,
}

/// The kind of the file `path` names.
pub fn kind_of(path: &std::path::Path) -> Kind {
    let Some(ext) = path.extension().and_then(|e| e.to_str()) else {
        return Kind::Text;
    };
    if image::is_image_extension(ext) {
        Kind::Image
    } else if ext.eq_ignore_ascii_case("pdf") {
        Kind::Pdf
    } else if ext.eq_ignore_ascii_case("ipynb") {
        Kind::Notebook
    } else {
        Kind::Text
    }
}
