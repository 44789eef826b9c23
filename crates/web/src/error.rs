//! Errors of the web shell, Chinese first.

use arbiter_store::StoreError;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

#[derive(Debug, thiserror::Error)]
pub enum WebError {
    #[error("无法监听 {0}: {1} (cannot listen on the address)")]
    Bind(String, String),
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("{0}")]
    Tls(String),
    #[error("未找到: {0} (not found)")]
    NotFound(String),
    #[error("请求有误: {0} (bad request)")]
    BadRequest(String),
    /// The director refused the account's role the action (its words, as they are).
    #[error("无权操作: {0}")]
    Forbidden(String),
    #[error("内部错误: {0} (internal error)")]
    Internal(String),
}

impl WebError {
    pub fn status(&self) -> StatusCode {
        match self {
            WebError::NotFound(_) | WebError::Store(StoreError::UnknownEvent(_)) => {
                StatusCode::NOT_FOUND
            }
            WebError::BadRequest(_) => StatusCode::BAD_REQUEST,
            WebError::Forbidden(_) => StatusCode::FORBIDDEN,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for WebError {
    fn into_response(self) -> Response {
        let status = self.status();
        let body = crate::page::error_page(status, &self.to_string());
        (
            status,
            [(axum::http::header::CONTENT_TYPE, "text/html; charset=utf-8")],
            body,
        )
            .into_response()
    }
}
