//! Secrets for tests, in one place for the redaction tests here and for those of the layers
//! above that check results are redacted (`runtime::output`): a token the patterns recognise,
//! a key only the set of known values catches, and the set that knows it. Test builds only.

use super::SecretSet;

/// A GitHub token: pattern redaction masks it as `ghp_…[REDACTED]`, known or not.
pub const GITHUB_TOKEN: &str = "ghp_1234567890abcdefghijABCDEFGHIJklmnop";

/// An AWS secret key: bare, no pattern recognises its shape, so only a set that knows the
/// value masks it (as `[REDACTED:AWS_SECRET_ACCESS_KEY]`).
pub const AWS_SECRET_KEY: &str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

/// The set that knows [`AWS_SECRET_KEY`] as `AWS_SECRET_ACCESS_KEY`.
pub fn aws_secret_set() -> SecretSet {
    SecretSet::builder()
        .secret("AWS_SECRET_ACCESS_KEY", AWS_SECRET_KEY)
        .build()
}
