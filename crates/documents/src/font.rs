//! The CJK font to print with: found in the usual folders, `ARBITER_FONT`, or given by the
//! caller; the Simplified Chinese face of a collection chosen; loaded fonts cached so a
//! server reads the file once.

use skrifa::raw::FileRef;
use skrifa::string::StringId;
use skrifa::{FontRef, MetadataProvider};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The CJK font to print with: the file, the face in a collection, its data (shared: a
/// clone costs nothing).
#[derive(Clone)]
pub struct PrintFont {
    pub path: PathBuf,
    pub index: u32,
    pub(crate) data: Arc<Vec<u8>>,
}

/// Well-known places of a CJK font (Debian `fonts-noto-cjk`, `fonts-wqy-*`, macOS, Windows).
const CANDIDATES: &[&str] = &[
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/truetype/arphic/uming.ttc",
    "/System/Library/Fonts/PingFang.ttc",
    "/System/Library/Fonts/STHeiti Medium.ttc",
    "C:\\Windows\\Fonts\\msyh.ttc",
    "C:\\Windows\\Fonts\\simsun.ttc",
];

/// The environment variable naming the font file.
pub const FONT_ENV: &str = "ARBITER_FONT";

fn no_font_message() -> String {
    format!(
        "找不到中文字体: 请安装 Noto CJK 字体 (Debian/Ubuntu: apt-get install fonts-noto-cjk), \
         或用 --font 文件 或环境变量 {FONT_ENV} 指定一个 .ttf/.otf/.ttc 中文字体 \
         (no CJK font found: install fonts-noto-cjk, or give --font FILE or {FONT_ENV})"
    )
}

/// Find the font: `--font`, else `$ARBITER_FONT`, else the well-known places, else any font
/// file under the usual font folders whose name says CJK. The face of a collection is the
/// Simplified Chinese one when there is one.
pub fn find_font(explicit: Option<&Path>) -> Result<PrintFont, String> {
    let env = std::env::var_os(FONT_ENV)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    if let Some(p) = explicit.map(Path::to_path_buf).or(env) {
        return load_font(&p);
    }
    for c in CANDIDATES {
        let p = Path::new(c);
        if p.is_file() {
            if let Ok(f) = load_font(p) {
                return Ok(f);
            }
        }
    }
    let mut dirs = vec![
        PathBuf::from("/usr/share/fonts"),
        PathBuf::from("/usr/local/share/fonts"),
    ];
    if let Some(h) = std::env::var_os("HOME") {
        dirs.push(PathBuf::from(&h).join(".fonts"));
        dirs.push(PathBuf::from(&h).join(".local/share/fonts"));
    }
    let mut found = Vec::new();
    for d in dirs {
        walk(&d, 0, &mut found);
    }
    found.sort();
    for p in found {
        if let Ok(f) = load_font(&p) {
            return Ok(f);
        }
    }
    Err(no_font_message())
}

fn walk(dir: &Path, depth: u32, out: &mut Vec<PathBuf>) {
    if depth > 4 {
        return;
    }
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, depth + 1, out);
            continue;
        }
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        let font = [".ttf", ".otf", ".ttc", ".otc"]
            .iter()
            .any(|x| name.ends_with(x));
        let cjk = [
            "cjk",
            "wqy",
            "sourcehan",
            "droidsansfallback",
            "uming",
            "ukai",
        ]
        .iter()
        .any(|k| name.contains(k));
        if font && cjk {
            out.push(p);
        }
    }
}

/// Read a font file and choose its face: the first face named Simplified Chinese (`SC`), else
/// the first that has the glyphs of 中文.
pub fn load_font(path: &Path) -> Result<PrintFont, String> {
    let data = std::fs::read(path).map_err(|e| {
        format!(
            "{}: 无法读取字体文件 (cannot read the font): {e}",
            path.display()
        )
    })?;
    let count = match FileRef::new(&data) {
        Ok(FileRef::Collection(c)) => c.len(),
        Ok(FileRef::Font(_)) => 1,
        Err(_) => {
            return Err(format!(
                "{}: 不是字体文件 (.ttf/.otf/.ttc) (not a font file)",
                path.display()
            ))
        }
    };
    let mut with_cjk = None;
    for i in 0..count {
        let Ok(f) = FontRef::from_index(&data, i) else {
            continue;
        };
        let cmap = f.charmap();
        if !"中文名次".chars().all(|c| cmap.map(c).is_some()) {
            continue;
        }
        let family = f
            .localized_strings(StringId::FAMILY_NAME)
            .english_or_first()
            .map(|s| s.to_string())
            .unwrap_or_default();
        if family.ends_with(" SC") || family.contains("SC ") {
            with_cjk = Some(i);
            break;
        }
        if with_cjk.is_none() {
            with_cjk = Some(i);
        }
    }
    match with_cjk {
        Some(index) => Ok(PrintFont {
            path: path.to_path_buf(),
            index,
            data: Arc::new(data),
        }),
        None => Err(format!(
            "{}: 字体不含中文字形 (the font has no Chinese glyphs); {}",
            path.display(),
            no_font_message()
        )),
    }
}

/// [`find_font`] once per explicit path / `ARBITER_FONT` value: the font found is kept for
/// the life of the process (a CJK collection is 20 MB or more, read once); a failure is not
/// kept, so a font installed later is found on the next call.
pub fn find_font_cached(explicit: Option<&Path>) -> Result<PrintFont, String> {
    type Key = (Option<PathBuf>, Option<std::ffi::OsString>);
    static CACHE: Mutex<Vec<(Key, PrintFont)>> = Mutex::new(Vec::new());
    let key: Key = (
        explicit.map(Path::to_path_buf),
        std::env::var_os(FONT_ENV).filter(|v| !v.is_empty()),
    );
    if let Ok(c) = CACHE.lock() {
        if let Some((_, f)) = c.iter().find(|(k, _)| *k == key) {
            return Ok(f.clone());
        }
    }
    let f = find_font(explicit)?;
    if let Ok(mut c) = CACHE.lock() {
        c.push((key, f.clone()));
    }
    Ok(f)
}
