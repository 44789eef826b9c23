//! `arbiter serve --public-url URL`: the QR code players scan encodes the public address the
//! server was given; without it, the address the browser reached the server at (as before).
//! The QR code served is compared with the code of the expected text made here.

use crate::common::TestServer;
use arbiter_store::{EventStore, SqliteStore};

const KUNSHAN: &str = include_str!("../../../../regulations/kunshan-2026.toml");

/// An event (Kunshan 2026, created, nothing else): its id.
fn event(store: &SqliteStore) -> String {
    let (name, entries) =
        arbiter_director::api::event::create(KUNSHAN, "kunshan-2026.toml", None).expect("reg");
    let ev = store.create_event(&name).expect("event");
    store
        .append(&ev, 0, &entries, "裁判长", "2026-09-01T10:00:00+08:00")
        .expect("append");
    ev.0
}

/// The SVG QR code of `text`, made the way the server makes it (the same size and margin).
fn qr_of(text: &str) -> String {
    qrcode::QrCode::new(text.as_bytes())
        .expect("qr")
        .render::<qrcode::render::svg::Color>()
        .min_dimensions(200, 200)
        .quiet_zone(true)
        .build()
}

#[test]
fn the_qr_code_encodes_the_public_url_the_server_was_given() {
    let mut ev = String::new();
    let srv = TestServer::start_with(|store| ev = event(store));
    srv.app.set_public_url(
        arbiter_web::parse_public_url("https://xiangqi.example.cn/tianshui/").expect("url"),
    );
    let r = srv.get(&format!("/e/{ev}/qr.svg"));
    assert_eq!(r.status, 200);
    let want = format!("https://xiangqi.example.cn/tianshui/e/{ev}");
    assert_eq!(r.text(), qr_of(&want), "the QR code is not of {want}");
    // Not the address the request came to.
    assert_ne!(r.text(), qr_of(&format!("http://{}/e/{ev}", srv.addr)));
}

#[test]
fn without_a_public_url_the_qr_code_encodes_the_address_the_browser_reached() {
    let mut ev = String::new();
    let srv = TestServer::start_with(|store| ev = event(store));
    assert_eq!(srv.app.public_url(), None);
    let r = srv.get(&format!("/e/{ev}/qr.svg"));
    assert_eq!(r.status, 200);
    assert_eq!(r.text(), qr_of(&format!("http://{}/e/{ev}", srv.addr)));
}

#[test]
fn a_public_url_must_be_an_http_address() {
    assert_eq!(
        arbiter_web::parse_public_url(" http://192.168.1.20:8080/ ").as_deref(),
        Ok("http://192.168.1.20:8080")
    );
    for bad in [
        "192.168.1.20:8080",
        "ftp://x.cn",
        "http://",
        "http://a b.cn",
        "http://x.cn/?a=1",
        "https://x.cn/#top",
    ] {
        let e = arbiter_web::parse_public_url(bad).expect_err(bad);
        assert!(e.starts_with("公开地址"), "{bad}: {e}");
    }
}
