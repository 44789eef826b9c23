//! Sessions and the extractors every arbiter page uses:
//!
//! - [`Authed`]: the logged-in account (session cookie `arbiter_session`, HttpOnly,
//!   SameSite=Strict; the store keeps only the token's hash). No session: a `GET` is sent to
//!   the login page, anything else is answered `401`.
//! - [`RequireRole<R>`]: [`Authed`] whose role is one of `R::ALLOWED`, else `403`.
//! - [`Post<R, T>`]: a form `POST` by an account of a role in `R`, carrying the session's
//!   CSRF token in the hidden field `csrf` (compared in constant time), else `403`; the
//!   rest of the form decoded as `T`.

use super::token::{ct_eq, token_hash};
use crate::app::AppState;
use crate::error::WebError;
use arbiter_director::permission::Action;
use arbiter_director::DirectorError;
use arbiter_store::{AccountStore, Role};
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{header, Method, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::marker::PhantomData;

pub const SESSION_COOKIE: &str = "arbiter_session";
/// How long a session lasts (seconds): one long playing day.
pub const SESSION_TTL: i64 = 14 * 3600;
/// Largest form body accepted (a pasted regulation fits easily).
pub const MAX_FORM: usize = 1 << 20;

/// Unix seconds now (the shell's clock).
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// The value of cookie `name` in a request's headers.
pub fn cookie<'a>(headers: &'a axum::http::HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// The logged-in account of a request.
#[derive(Debug, Clone)]
pub struct Authed {
    pub user: arbiter_store::accounts::User,
    /// The session's CSRF token (every form carries it).
    pub csrf: String,
    pub token_hash: String,
    /// What the account may reach (events, a one-time password to change).
    pub access: arbiter_store::accounts::Access,
}

impl Authed {
    pub fn role(&self) -> Role {
        self.user.role
    }
    /// The `actor` recorded with the log entries this account makes.
    pub fn actor(&self) -> &str {
        &self.user.login
    }
    /// Whether the account's role may take the director's `action` ([`Action::allowed`]).
    pub fn may(&self, action: Action) -> bool {
        self.is(action.allowed())
    }

    pub fn is(&self, roles: &[Role]) -> bool {
        roles.contains(&self.user.role)
    }
}

/// Why a request to an arbiter page was refused.
#[derive(Debug)]
pub enum Refusal {
    /// No valid session; `GET` requests go to the login page, coming back to `back`.
    NoSession {
        get: bool,
        back: String,
    },
    /// The account's role may not do this; `action`, where the page is one of the director's
    /// actions (its roles are the action's), words it as the director does.
    Forbidden {
        role: Role,
        allowed: &'static [Role],
        action: Option<Action>,
    },
    /// The form's CSRF token is missing or wrong.
    BadCsrf,
    /// The form did not decode.
    BadForm(String),
    Error(WebError),
}

impl From<WebError> for Refusal {
    fn from(e: WebError) -> Self {
        Refusal::Error(e)
    }
}

fn page(status: StatusCode, msg: &str) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        crate::page::error_page(status, msg),
    )
        .into_response()
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        match self {
            Refusal::NoSession { get: true, back } => {
                let q: String = url_encode(&back);
                Redirect::to(&format!("/login?next={q}")).into_response()
            }
            Refusal::NoSession { get: false, .. } => page(
                StatusCode::UNAUTHORIZED,
                "请先登录 (please log in): /login",
            ),
            Refusal::Forbidden {
                role,
                action: Some(action),
                ..
            } => page(
                StatusCode::FORBIDDEN,
                &format!("无权操作: {}", DirectorError::NotAllowed { action, role }),
            ),
            Refusal::Forbidden {
                role,
                allowed,
                action: None,
            } => {
                let names: Vec<&str> = allowed.iter().map(|r| r.zh()).collect();
                page(
                    StatusCode::FORBIDDEN,
                    &format!(
                        "无权操作: 需要{}, 当前账户为{} (forbidden: needs {}, this account is {})",
                        names.join("或"),
                        role.zh(),
                        allowed
                            .iter()
                            .map(|r| r.as_str())
                            .collect::<Vec<_>>()
                            .join(" or "),
                        role.as_str()
                    ),
                )
            }
            Refusal::BadCsrf => page(
                StatusCode::FORBIDDEN,
                "表单已失效或来源不明, 请刷新页面后重试 (missing or wrong CSRF token; reload the page and try again)",
            ),
            Refusal::BadForm(e) => page(
                StatusCode::BAD_REQUEST,
                &format!("表单无法读取: {e} (malformed form)"),
            ),
            Refusal::Error(e) => e.into_response(),
        }
    }
}

/// Percent-encode a path for a query string.
pub fn url_encode(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                o.push(b as char)
            }
            _ => o.push_str(&format!("%{b:02X}")),
        }
    }
    o
}

/// The session of a request, if any.
pub async fn session_of(app: &AppState, parts: &Parts) -> Result<Option<Authed>, WebError> {
    let Some(token) = cookie(&parts.headers, SESSION_COOKIE) else {
        return Ok(None);
    };
    let hash = token_hash(token);
    let now = now();
    let found = app
        .with_store(move |st| {
            Ok(match st.session(&hash, now)? {
                Some((s, user)) => {
                    let access = st.access(&user.login)?;
                    Some((s, user, access))
                }
                None => None,
            })
        })
        .await?;
    // A disabled account has no session (disabling it ended them; this holds in between).
    Ok(found
        .filter(|(_, _, access)| !access.disabled)
        .map(|(s, user, access)| Authed {
            user,
            csrf: s.csrf,
            token_hash: s.token_hash,
            access,
        }))
}

impl FromRequestParts<AppState> for Authed {
    type Rejection = Refusal;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, Refusal> {
        if let Some(a) = parts.extensions.get::<Authed>() {
            return Ok(a.clone());
        }
        match session_of(app, parts).await? {
            Some(a) => {
                parts.extensions.insert(a.clone());
                Ok(a)
            }
            None => Err(Refusal::NoSession {
                get: parts.method == Method::GET || parts.method == Method::HEAD,
                back: parts
                    .uri
                    .path_and_query()
                    .map_or("/desk".into(), |p| p.as_str().to_string()),
            }),
        }
    }
}

/// The roles admitted to a page or action.
pub trait Roles: Send + Sync + 'static {
    const ALLOWED: &'static [Role];
    /// The director's action the page is, when its roles are that action's.
    const ACTION: Option<Action> = None;
}

/// The roles of the director's action `A` ([`Action::allowed`]): a page that is one of the
/// director's actions admits exactly the accounts the operation admits.
macro_rules! action_roles {
    ($($(#[$m:meta])* $name:ident => $action:ident;)*) => {$(
        $(#[$m])*
        pub struct $name;
        impl Roles for $name {
            const ALLOWED: &'static [Role] = Action::$action.allowed();
            const ACTION: Option<Action> = Some(Action::$action);
        }
    )*};
}

action_roles! {
    /// Pair a round.
    PairRound => PairRound;
    /// Publish a round's pairing.
    PublishRound => PublishRound;
    /// Undo a round's pairing.
    UndoRound => UndoRound;
    /// Close a round left open.
    CompleteRound => CompleteRound;
    /// Close the event (闭幕).
    CloseEvent => CloseEvent;
    /// Reopen a closed event, with a reason.
    Reopen => Reopen;
    /// Enter results (the grid, a knockout game).
    EnterResult => EnterResult;
    /// Take a team's line-up (出场名单).
    GiveLineup => GiveLineup;
    /// Confirm a round's results.
    ConfirmResults => ConfirmResults;
    /// Record a captain's confirmation of his team's match (队长确认).
    ConfirmMatch => ConfirmMatch;
    /// Withdraw a player.
    Withdraw => Withdraw;
    /// Reinstate a withdrawn player (the chief arbiter).
    Reinstate => Reinstate;
    /// Disqualify a player (the chief arbiter).
    Disqualify => Disqualify;
    /// Record an absence.
    RecordAbsence => RecordAbsence;
    /// Change the event's settings.
    ChangeSettings => ChangeSettings;
    /// Create an event.
    CreateEvent => CreateEvent;
    /// Register an entry.
    Register => Register;
    /// Refuse an entry by decision.
    RefuseEntry => RefuseEntry;
    /// Withdraw a refusal recorded by mistake (the chief arbiter).
    WithdrawRefusal => WithdrawRefusal;
    /// Merge a section too small into another before the draw (the chief arbiter).
    MergeSections => MergeSections;
    /// Manage the event's accounts (the chief arbiter).
    ManageAccounts => ManageAccounts;
    /// Edit an entry.
    EditEntry => EditEntry;
    /// Take a payment.
    TakePayment => TakePayment;
    /// Take back a fee.
    CancelFee => CancelFee;
    /// Refund a deposit.
    Refund => Refund;
    /// Refund every deposit due.
    RefundDue => RefundDue;
    /// Mark a refund condition.
    MarkRefundCondition => MarkRefundCondition;
    /// Check a player in (or take it back).
    CheckIn => CheckIn;
    /// Approve or refuse an online entry.
    DecideSubmission => DecideSubmission;
    /// Enter a team.
    EnterTeam => EnterTeam;
    /// Change a team's roster.
    ChangeRoster => ChangeRoster;
    /// Give an organiser's award.
    GiveSpecialAward => GiveSpecialAward;
    /// Record the event's officials.
    AppointOfficials => AppointOfficials;
    /// Correct a confirmed result.
    CorrectResult => CorrectResult;
    /// Record a game's moves.
    RecordGame => RecordGame;
    /// Decide a flagged foul.
    DecideFlag => DecideFlag;
    /// Record a refusal to record.
    RefuseRecord => RefuseRecord;
    /// Record who signed a slip.
    RecordSignatures => RecordSignatures;
    /// Decide a protest.
    DecideProtest => DecideProtest;
}

/// Every account (organiser, chief arbiter, arbiter, registration desk).
pub struct Staff;
/// Those who run the rounds: chief arbiter and arbiters.
pub struct Arbiters;
/// The registration desk: organiser, chief arbiter, desk.
pub struct Registrars;
/// Those who create events: organiser and chief arbiter.
pub struct Organisers;
/// The chief arbiter alone (corrections of confirmed results, the late-entry override,
/// settings after round 1).
pub struct ChiefArbiter;

impl Roles for Staff {
    const ALLOWED: &'static [Role] = &Role::ALL;
}
impl Roles for Arbiters {
    const ALLOWED: &'static [Role] = &[Role::ChiefArbiter, Role::Arbiter];
}
impl Roles for Registrars {
    const ALLOWED: &'static [Role] = &[Role::Organiser, Role::ChiefArbiter, Role::Desk];
}
impl Roles for Organisers {
    const ALLOWED: &'static [Role] = &[Role::Organiser, Role::ChiefArbiter];
}
impl Roles for ChiefArbiter {
    const ALLOWED: &'static [Role] = &[Role::ChiefArbiter];
}

fn admit<R: Roles>(a: &Authed) -> Result<(), Refusal> {
    if a.is(R::ALLOWED) {
        Ok(())
    } else {
        Err(Refusal::Forbidden {
            role: a.role(),
            allowed: R::ALLOWED,
            action: R::ACTION,
        })
    }
}

/// An account whose role is one of `R::ALLOWED`.
pub struct RequireRole<R: Roles>(pub Authed, pub PhantomData<R>);

impl<R: Roles> FromRequestParts<AppState> for RequireRole<R> {
    type Rejection = Refusal;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, Refusal> {
        let a = Authed::from_request_parts(parts, app).await?;
        admit::<R>(&a)?;
        Ok(RequireRole(a, PhantomData))
    }
}

#[derive(Deserialize)]
struct CsrfField {
    csrf: Option<String>,
}

/// A form `POST` with a valid CSRF token by an account of a role in `R`.
pub struct Post<R: Roles, T> {
    pub auth: Authed,
    pub form: T,
    _r: PhantomData<R>,
}

/// Check a urlencoded body's `csrf` field against the session's token.
pub fn check_csrf(auth: &Authed, body: &[u8]) -> Result<(), Refusal> {
    let field: CsrfField = serde_urlencoded::from_bytes(body).map_err(|_| Refusal::BadCsrf)?;
    match field.csrf {
        Some(t) if ct_eq(&t, &auth.csrf) => Ok(()),
        _ => Err(Refusal::BadCsrf),
    }
}

impl<R: Roles, T: DeserializeOwned + Send> FromRequest<AppState> for Post<R, T> {
    type Rejection = Refusal;

    async fn from_request(req: Request, app: &AppState) -> Result<Self, Refusal> {
        let (mut parts, body) = req.into_parts();
        let auth = Authed::from_request_parts(&mut parts, app).await?;
        let bytes = axum::body::to_bytes(body, MAX_FORM)
            .await
            .map_err(|e| Refusal::BadForm(e.to_string()))?;
        check_csrf(&auth, &bytes)?;
        admit::<R>(&auth)?;
        let form = decode(&bytes)?;
        Ok(Post {
            auth,
            form,
            _r: PhantomData,
        })
    }
}

fn decode<T: DeserializeOwned>(bytes: &Bytes) -> Result<T, Refusal> {
    serde_urlencoded::from_bytes(bytes).map_err(|e| Refusal::BadForm(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_found_by_exact_name() {
        let mut h = axum::http::HeaderMap::new();
        h.insert(
            header::COOKIE,
            "lang=en; xarbiter_session=bad; arbiter_session=abc"
                .parse()
                .unwrap(),
        );
        assert_eq!(cookie(&h, SESSION_COOKIE), Some("abc"));
        assert_eq!(cookie(&h, "lang"), Some("en"));
        assert_eq!(cookie(&h, "none"), None);
    }

    #[test]
    fn csrf_is_checked() {
        let a = Authed {
            user: arbiter_store::accounts::User {
                login: "wang".into(),
                display_name: "王".into(),
                role: Role::Arbiter,
                password_hash: String::new(),
                created: String::new(),
            },
            csrf: "tok123".into(),
            token_hash: "h".into(),
            access: Default::default(),
        };
        assert!(check_csrf(&a, b"x=1&csrf=tok123").is_ok());
        assert!(matches!(
            check_csrf(&a, b"x=1&csrf=tok124"),
            Err(Refusal::BadCsrf)
        ));
        assert!(matches!(check_csrf(&a, b"x=1"), Err(Refusal::BadCsrf)));
        assert!(admit::<Arbiters>(&a).is_ok());
        assert!(matches!(
            admit::<ChiefArbiter>(&a),
            Err(Refusal::Forbidden {
                role: Role::Arbiter,
                ..
            })
        ));
    }

    #[test]
    fn back_paths_are_encoded() {
        assert_eq!(url_encode("/desk/e/ev-1?x=1&y"), "/desk/e/ev-1%3Fx%3D1%26y");
    }
}
