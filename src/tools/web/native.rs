//! The no-backend path of `web_extract`: the page is fetched here through the SSRF guard and
//! converted to Markdown (`crate::net::page`), head and tail kept within the budget and the
//! full text saved under `HERMES_HOME/cache/web`.

use std::path::Path;

use super::backends::Doc;
use crate::net::GuardedHttp;

/// One page fetched and converted; a failure (refused, unreachable, not a page) becomes the
/// page's `error`.
pub async fn extract(http: &GuardedHttp, url: &str, char_limit: usize, save_dir: &Path) -> Doc {
    match crate::net::page::extract(http, url, char_limit, save_dir).await {
        Ok(page) => Doc {
            url: page.url,
            title: page.title.unwrap_or_default(),
            content: page.content,
            error: None,
        },
        Err(e) => Doc::failed(url, e.to_string()),
    }
}
