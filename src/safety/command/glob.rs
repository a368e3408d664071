//! Shell glob matching (`*`, `?`, `[…]`, `[!…]`), enough to tell whether a pattern an argument
//! spells could name a secret file (`.en?`, `.e*`, `*.yaml`). A leading dot is matched only
//! explicitly unless `dotglob` is on, as in bash.

/// Whether `pattern` matches the whole `name`.
pub(super) fn matches(pattern: &str, name: &str, dotglob: bool) -> bool {
    if name.starts_with('.') && !pattern.starts_with('.') && !dotglob {
        return false;
    }
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    match_from(&p, &n)
}

fn match_from(p: &[char], n: &[char]) -> bool {
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ni));
                pi += 1;
                continue;
            }
            Some('?') => {
                pi += 1;
                ni += 1;
                continue;
            }
            Some('[') => {
                if let Some((matched, next)) = class(p, pi, n[ni])
                    && matched
                {
                    pi = next;
                    ni += 1;
                    continue;
                }
            }
            Some('\\') if p.get(pi + 1) == Some(&n[ni]) => {
                pi += 2;
                ni += 1;
                continue;
            }
            Some(c) if *c == n[ni] => {
                pi += 1;
                ni += 1;
                continue;
            }
            _ => {}
        }
        match star {
            Some((sp, sn)) => {
                pi = sp + 1;
                ni = sn + 1;
                star = Some((sp, sn + 1));
            }
            None => return false,
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

/// A bracket expression at `p[start]`: whether `c` is in it, and the index after it.
fn class(p: &[char], start: usize, c: char) -> Option<(bool, usize)> {
    let mut i = start + 1;
    let negated = matches!(p.get(i), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut found = false;
    let mut first = true;
    while let Some(&ch) = p.get(i) {
        if ch == ']' && !first {
            return Some((found != negated, i + 1));
        }
        first = false;
        if p.get(i + 1) == Some(&'-') && p.get(i + 2).is_some_and(|e| *e != ']') {
            if ch <= c && c <= p[i + 2] {
                found = true;
            }
            i += 3;
        } else {
            found |= ch == c;
            i += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn globs_match_like_bash() {
        assert!(matches(".en?", ".env", false));
        assert!(matches(".e*", ".env", false));
        assert!(matches("*.yaml", "config.yaml", false));
        assert!(matches(".[e]nv", ".env", false));
        assert!(matches(".[!x]nv", ".env", false));
        assert!(matches(".[a-f]nv", ".env", false));
        assert!(!matches("*", ".env", false));
        assert!(matches("*", ".env", true));
        assert!(!matches("*.rs", "config.yaml", false));
        assert!(matches("c*g.y*", "config.yaml", false));
        assert!(!matches(".env?", ".env", false));
    }
}
