//! Durations read from outside (config.yaml, provider headers) as seconds: checked before they
//! reach `Duration::from_secs_f64`, which panics on NaN, infinity, negative and huge values.

use std::time::Duration;

/// Longest duration any setting may ask for: a day (anything longer is a typo).
pub const MAX_SETTING: Duration = Duration::from_secs(24 * 60 * 60);

/// Why a number of seconds was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DurationError {
    #[error("must be a number of seconds, got NaN")]
    NotANumber,
    #[error("must be a finite number of seconds, got {0}")]
    Infinite(f64),
    #[error("must be more than 0 seconds, got {0}")]
    NotPositive(f64),
    #[error("must be at most {max} seconds, got {value}", max = .max.as_secs())]
    TooLarge { value: f64, max: Duration },
}

/// `secs` as a duration in `(0, max]`, or why it is not acceptable.
pub fn positive_seconds(secs: f64, max: Duration) -> Result<Duration, DurationError> {
    if secs.is_nan() {
        return Err(DurationError::NotANumber);
    }
    if secs.is_infinite() {
        return Err(DurationError::Infinite(secs));
    }
    if secs <= 0.0 {
        return Err(DurationError::NotPositive(secs));
    }
    if secs > max.as_secs_f64() {
        return Err(DurationError::TooLarge { value: secs, max });
    }
    Ok(Duration::from_secs_f64(secs))
}

/// `secs` clamped into `[0, max]`; `None` for NaN and negative values. For values a remote
/// party sends (Retry-After), where a huge value means "a long time", not an error.
pub fn clamped_seconds(secs: f64, max: Duration) -> Option<Duration> {
    if secs.is_nan() || secs < 0.0 {
        return None;
    }
    Some(if secs >= max.as_secs_f64() {
        max
    } else {
        Duration::from_secs_f64(secs)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_numbers_are_refused_or_clamped_never_panic() {
        let max = MAX_SETTING;
        assert_eq!(positive_seconds(5.0, max), Ok(Duration::from_secs(5)));
        assert_eq!(positive_seconds(f64::NAN, max), Err(DurationError::NotANumber));
        assert!(matches!(
            positive_seconds(f64::INFINITY, max),
            Err(DurationError::Infinite(_))
        ));
        assert!(matches!(
            positive_seconds(-1.0, max),
            Err(DurationError::NotPositive(_))
        ));
        assert!(matches!(positive_seconds(0.0, max), Err(DurationError::NotPositive(_))));
        assert!(matches!(
            positive_seconds(1e20, max),
            Err(DurationError::TooLarge { .. })
        ));
        assert_eq!(clamped_seconds(1e20, max), Some(max));
        assert_eq!(clamped_seconds(f64::INFINITY, max), Some(max));
        assert_eq!(clamped_seconds(f64::NAN, max), None);
        assert_eq!(clamped_seconds(-3.0, max), None);
        assert_eq!(clamped_seconds(0.5, max), Some(Duration::from_millis(500)));
    }
}
