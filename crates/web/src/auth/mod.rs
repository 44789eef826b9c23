//! Accounts on the web: password hashes ([`password`], argon2id), session and CSRF tokens
//! ([`token`]), sessions and the role and CSRF extractors every arbiter page uses
//! ([`session`]), the login rate limit ([`limit`]) and the login/logout pages ([`login`]).
//!
//! Rules: every arbiter page needs a session; every `POST` carries the session's CSRF token;
//! each action names the roles allowed (`RequireRole<Arbiters>`, `Post<ChiefArbiter, _>` …);
//! the account's login name is the `actor` of every log entry it makes.

pub mod limit;
pub mod login;
pub mod password;
pub mod session;
pub mod token;

pub use session::{
    AppointOfficials, Arbiters, Authed, CancelFee, ChangeRoster, ChangeSettings, CheckIn,
    ChiefArbiter, CloseEvent, CompleteRound, ConfirmMatch, ConfirmResults, CorrectResult,
    CreateEvent, DecideFlag, DecideProtest, DecideSubmission, Disqualify, EditEntry, EnterResult,
    EnterTeam, GiveLineup, GiveSpecialAward, ManageAccounts, MarkRefundCondition, MergeSections,
    Organisers, PairRound, Post, PublishRound, RecordAbsence, RecordGame, RecordSignatures, Refund,
    RefundDue, Refusal, RefuseEntry, RefuseRecord, Register, Registrars, Reinstate, Reopen,
    RequireRole, Roles, Staff, TakePayment, UndoRound, Withdraw, WithdrawRefusal,
};

use crate::app::AppState;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/login",
            get(login::login_form)
                .post(login::login)
                .layer(DefaultBodyLimit::max(login::MAX_BODY)),
        )
        .route("/logout", post(login::logout))
}
