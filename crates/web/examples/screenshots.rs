//! Helper of `scripts/screenshots.sh`: screenshots of `arbiter serve --demo` through
//! chromedriver (WebDriver), so the arbiters' desk can be shown logged in.
//!
//! `screenshots WEBDRIVER_URL BASE_URL LOGIN PASSWORD OUT_DIR`
//!
//! Writes the public pages at a 360-px phone's width and the desk pages at a laptop's
//! (1280 px), each the whole page tall (up to 4,000 px), as PNG into OUT_DIR.

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;
use std::time::Duration;

type Error = Box<dyn std::error::Error>;

/// (file name, width, path); desk pages start with `/desk`.
const PUBLIC: &[(&str, u32, &str)] = &[
    ("events-360", 360, "/"),
    ("event-home-360", 360, "/e/ev-00000001"),
    ("pairings-360", 360, "/e/ev-00000001/s/men/r/5"),
    ("find-board-360", 360, "/e/ev-00000001/s/men/r/5?q=72"),
    ("standings-360", 360, "/e/ev-00000001/s/men/standings"),
    ("player-360", 360, "/e/ev-00000001/s/men/p/72"),
    ("crosstable-360", 360, "/e/ev-00000001/s/men/crosstable"),
    ("teams-360", 360, "/e/ev-00000001/teams"),
];

const DESK: &[(&str, u32, &str)] = &[
    ("desk-events", 1280, "/desk"),
    ("desk-event", 1280, "/desk/e/ev-00000001"),
    ("desk-entries", 1280, "/desk/e/ev-00000001/s/men/entries"),
    ("desk-round", 1280, "/desk/e/ev-00000001/s/men/round"),
    ("desk-results", 1280, "/desk/e/ev-00000001/s/men/results"),
    ("desk-log", 1280, "/desk/e/ev-00000001/log"),
    (
        "desk-results-tablet",
        768,
        "/desk/e/ev-00000001/s/men/results",
    ),
    // The organiser's awards (Suzhou, S10) and the game rules beside the results (Tianshui:
    // the boards that record, T6 flags, S6/S11 forms) on a phone.
    ("desk-awards-360", 360, "/desk/e/ev-00000002/awards"),
    (
        "desk-results-games-360",
        360,
        "/desk/e/ev-00000004/s/open/results",
    ),
];

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    if a.len() != 5 {
        eprintln!("usage: screenshots WEBDRIVER_URL BASE_URL LOGIN PASSWORD OUT_DIR");
        std::process::exit(2);
    }
    if let Err(e) = run(&a[0], &a[1], &a[2], &a[3], &a[4]).await {
        eprintln!("错误 error: {e}");
        std::process::exit(1);
    }
}

async fn run(wd: &str, base: &str, login: &str, pw: &str, out: &str) -> Result<(), Error> {
    for (name, width, path) in PUBLIC {
        phone_shot(wd, base, out, name, *width, path).await?;
    }
    let c = session(wd, 1280, 900).await?;
    let r = desk(&c, base, login, pw, out).await;
    c.close().await?;
    r
}

/// A headless Chromium session; narrower than 500 px (headless windows never are) a phone
/// by Chromium's mobile emulation with a `width`×`height` screen.
async fn session(wd: &str, width: u32, height: u32) -> Result<Client, Error> {
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), json!("chrome"));
    let mut options = json!({ "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
        "--disable-dev-shm-usage", "--hide-scrollbars", "--lang=zh-CN",
        format!("--window-size={},{height}", width.max(500))] });
    if width < 500 {
        options["mobileEmulation"] = json!({
            "deviceMetrics": { "width": width, "height": height, "pixelRatio": 1.0, "touch": true }
        });
    }
    caps.insert("goog:chromeOptions".into(), options);
    Ok(
        ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(wd)
            .await?,
    )
}

/// A public page on a phone, the whole page tall (up to 4,000 px): a first session finds
/// the page's height, a second one that tall takes the picture.
async fn phone_shot(
    wd: &str,
    base: &str,
    out: &str,
    name: &str,
    width: u32,
    path: &str,
) -> Result<(), Error> {
    let url = format!("{base}{path}");
    let c = session(wd, width, 800).await?;
    c.goto(&url).await?;
    let h = c
        .execute("return document.documentElement.scrollHeight;", vec![])
        .await?;
    c.close().await?;
    let h = (h.as_u64().unwrap_or(800) as u32).clamp(400, 4000);
    let c = session(wd, width, h).await?;
    c.goto(&url).await?;
    let r = save(&c, out, name).await;
    c.close().await?;
    r
}

async fn desk(c: &Client, base: &str, login: &str, pw: &str, out: &str) -> Result<(), Error> {
    c.goto(&format!("{base}/login")).await?;
    c.find(Locator::Css("input[name=login]"))
        .await?
        .send_keys(login)
        .await?;
    c.find(Locator::Css("input[name=password]"))
        .await?
        .send_keys(pw)
        .await?;
    c.find(Locator::Css("form.login button[type=submit]"))
        .await?
        .click()
        .await?;
    tokio::time::sleep(Duration::from_millis(500)).await;
    if c.current_url().await?.path() != "/desk" {
        return Err("登录失败 (login failed)".into());
    }
    for (name, width, path) in DESK {
        c.set_window_size(*width, 900).await?;
        c.goto(&format!("{base}{path}")).await?;
        // The window is a little wider than its viewport: correct to the wanted CSS width,
        // and as tall as the page (up to 4,000 px).
        let inner = c.execute("return window.innerWidth;", vec![]).await?;
        let inner = inner.as_u64().unwrap_or(u64::from(*width)) as u32;
        let outer = (2 * i64::from(*width) - i64::from(inner)).max(500) as u32;
        let h = c
            .execute("return document.documentElement.scrollHeight;", vec![])
            .await?;
        let h = (h.as_u64().unwrap_or(900) as u32).clamp(400, 4000);
        c.set_window_size(outer, h + 100).await?;
        tokio::time::sleep(Duration::from_millis(200)).await;
        save(c, out, name).await?;
    }
    Ok(())
}

/// Save a screenshot of the viewport; say if the page is wider than it.
async fn save(c: &Client, out: &str, name: &str) -> Result<(), Error> {
    let over = c
        .execute(
            "return document.documentElement.scrollWidth - window.innerWidth;",
            vec![],
        )
        .await?;
    let png = c.screenshot().await?;
    let file = format!("{out}/{name}.png");
    std::fs::write(&file, png)?;
    match over.as_i64().unwrap_or(0) {
        n if n > 0 => println!("{file}  注意: 页面超出宽度 {n} px (page wider than the viewport)"),
        _ => println!("{file}"),
    }
    Ok(())
}
