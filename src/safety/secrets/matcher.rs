//! Finding every form of every secret in one pass over a text's view. Each form is cut into
//! short seeds (one Aho-Corasick automaton over all of them, so the cost does not grow with
//! the number of secrets); a seed found in the view is extended character by character
//! against its form into a piece, and a piece is chained to the pieces before and after it
//! across short gaps (the offset and hex columns of a dump, a line number): a chain that
//! covers enough of the form ([`Form::min_run`]) is a match, and all its pieces are masked,
//! down to [`Form::min_edge`] characters at a line's edge.

use std::collections::HashMap;

use aho_corasick::{AhoCorasick, MatchKind};

use super::forms::{Form, seed_layout};

/// Most characters between two pieces of one chain (`xxd -b` puts 57 between the pieces of
/// its ASCII column, `xxd` 41, `hexdump -C` 42).
const GAP: usize = 64;

/// A masked range of the view and the secret it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    pub start: usize,
    pub end: usize,
    pub secret: usize,
}

#[derive(Debug)]
pub struct Matcher {
    forms: Vec<Form>,
    seeds: AhoCorasick,
    /// For each seed pattern: every (form, offset in the form) it was cut from.
    sites: Vec<Vec<(usize, usize)>>,
}

impl Matcher {
    pub fn new(forms: Vec<Form>) -> Option<Matcher> {
        let mut patterns: Vec<&[u8]> = Vec::new();
        let mut sites: Vec<Vec<(usize, usize)>> = Vec::new();
        let mut index = HashMap::new();
        for (f, form) in forms.iter().enumerate() {
            let (width, stride) = seed_layout(form);
            for offset in (0..=form.text.len().saturating_sub(width)).step_by(stride) {
                let seed = &form.text[offset..offset + width];
                let id = *index.entry(seed).or_insert_with(|| {
                    patterns.push(seed);
                    sites.push(Vec::new());
                    sites.len() - 1
                });
                sites[id].push((f, offset));
            }
        }
        if patterns.is_empty() {
            return None;
        }
        let seeds = AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .build(&patterns)
            .expect("literal seeds always build");
        Some(Matcher { forms, seeds, sites })
    }

    /// Every masked piece of `view`, in no particular order (pieces may overlap).
    pub fn find(&self, view: &[u8]) -> Vec<Piece> {
        let mut found = Vec::new();
        // The view range last chained per form: later seeds inside it add nothing. Seeds come
        // in order of position, so the last range is the only one a later seed can fall in.
        let mut explored: HashMap<usize, (usize, usize)> = HashMap::new();
        for hit in self.seeds.find_overlapping_iter(view) {
            for &(f, offset) in &self.sites[hit.pattern().as_usize()] {
                let at = hit.start();
                if explored.get(&f).is_some_and(|&(s, e)| s <= at && at < e) {
                    continue;
                }
                let form = &self.forms[f];
                let chain = chain_from(view, form, at, offset);
                let (Some(first), Some(last)) = (chain.first(), chain.last()) else {
                    continue;
                };
                explored.insert(f, (first.view_start, last.view_end));
                if confirms(form, &chain) {
                    found.extend(chain.iter().map(|link| Piece {
                        start: link.view_start,
                        end: link.view_end,
                        secret: form.secret,
                    }));
                }
            }
        }
        found
    }
}

/// One piece of a chain: where it lies in the view and which characters of the form it shows.
#[derive(Debug, Clone, Copy)]
struct Link {
    view_start: usize,
    view_end: usize,
    form_start: usize,
    form_end: usize,
}

impl Link {
    fn new(view_start: usize, form_start: usize, len: usize) -> Link {
        Link {
            view_start,
            view_end: view_start + len,
            form_start,
            form_end: form_start + len,
        }
    }
}

/// The piece through the seed at view `at` / form `offset`, with the pieces chained before and
/// after it; empty when the seed's own piece is shorter than the form's `min_piece`.
fn chain_from(view: &[u8], form: &Form, at: usize, offset: usize) -> Vec<Link> {
    let (min_piece, min_edge, form) = (form.min_piece, form.min_edge, form.text.as_slice());
    let back = common_suffix(&view[..at], &form[..offset]);
    let ahead = common_prefix(&view[at..], &form[offset..]);
    let seed = Link::new(at - back, offset - back, back + ahead);
    if back + ahead < min_piece {
        return Vec::new();
    }
    let mut chain = vec![seed];
    // Backwards: the piece that ends a short gap before, continuing the form to the left.
    let (mut view_at, mut form_at) = (seed.view_start, seed.form_start);
    while form_at >= min_edge {
        let found = (1..=GAP.min(view_at)).find_map(|gap| {
            let end = view_at - gap;
            let len = common_suffix(&view[..end], &form[..form_at]);
            (len >= min_edge).then(|| Link::new(end - len, form_at - len, len))
        });
        let Some(link) = found else { break };
        chain.insert(0, link);
        (view_at, form_at) = (link.view_start, link.form_start);
    }
    // Forwards, the same to the right.
    let (mut view_at, mut form_at) = (seed.view_end, seed.form_end);
    while form.len() - form_at >= min_edge {
        let found = (1..=GAP.min(view.len().saturating_sub(view_at))).find_map(|gap| {
            let start = view_at + gap;
            let len = common_prefix(&view[start..], &form[form_at..]);
            (len >= min_edge).then(|| Link::new(start, form_at, len))
        });
        let Some(link) = found else { break };
        chain.push(link);
        (view_at, form_at) = (link.view_end, link.form_end);
    }
    chain
}

/// Whether a chain shows enough of its form, and varied enough, to be the secret.
fn confirms(form: &Form, chain: &[Link]) -> bool {
    let covered: usize = chain.iter().map(|l| l.form_end - l.form_start).sum();
    if form.literal && chain.len() == 1 && covered == form.text.len() {
        return true;
    }
    if covered < form.min_run {
        return false;
    }
    let mut seen = [false; 256];
    for link in chain {
        for &b in &form.text[link.form_start..link.form_end] {
            seen[usize::from(b)] = true;
        }
    }
    seen.iter().filter(|&&s| s).count() >= form.min_distinct
}

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    a.iter().rev().zip(b.iter().rev()).take_while(|(x, y)| x == y).count()
}
