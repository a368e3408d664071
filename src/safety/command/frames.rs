//! One *frame* per simple command being classified: whether its command is harmless, whether
//! it needs the network, its argv for rule patterns. Frames of commands a script *host* runs (a
//! Makefile recipe, a `package.json` script, a shell script run by name) fold into the host:
//! "always allow `make …`" covers what the Makefile runs, except what the analysis recognises
//! as dangerous. What no literal simple command explains is `unresolved`: no rule covers it.

use super::RuleTarget;
use super::pattern::RulePattern;
use super::words::Arg;

/// One simple command being classified.
#[derive(Debug)]
struct Frame {
    /// The peeled argv, once the real program is reached.
    argv: Option<Vec<Arg>>,
    /// How many words of `argv` the rule pattern takes.
    pattern_len: usize,
    harmless: bool,
    network: Option<String>,
    unknown: bool,
    /// Runs a script whose commands fold into this frame.
    host: bool,
    /// Only carries another command text (`sh -c`, `eval`): nothing of its own to allow.
    carrier: bool,
    /// The first reason it is not harmless.
    why: Option<String>,
}

impl Frame {
    fn new() -> Self {
        Frame {
            argv: None,
            pattern_len: 1,
            harmless: true,
            network: None,
            unknown: false,
            host: false,
            carrier: false,
            why: None,
        }
    }

    fn not_harmless(&mut self, why: &str) {
        self.harmless = false;
        if self.why.is_none() {
            self.why = Some(why.to_owned());
        }
    }
}

/// The frames of one analysis and what closing them produced.
#[derive(Debug, Default)]
pub(super) struct Frames {
    stack: Vec<Frame>,
    pub simple_commands: Vec<Vec<String>>,
    pub targets: Vec<RuleTarget>,
    pub unresolved: Vec<String>,
}

impl Frames {
    pub fn open(&mut self) {
        self.stack.push(Frame::new());
    }

    /// Not harmless for a reason no rule can cover (inside a script host: the host's).
    pub fn opaque(&mut self, reason: &str) {
        if let Some(host) = self.stack.iter_mut().rev().find(|f| f.host) {
            host.not_harmless(reason);
        } else if !self.unresolved.iter().any(|r| r == reason) {
            self.unresolved.push(reason.to_owned());
        }
    }

    /// The current command is not harmless (a recognised danger, a write that is no plain
    /// creation inside the roots); without a frame, no rule can cover it.
    pub fn not_harmless(&mut self, why: &str) {
        match self.stack.last_mut() {
            Some(frame) => frame.not_harmless(why),
            None => self.opaque(why),
        }
    }

    /// The current program is not harmless, for a reason a rule naming it may cover.
    pub fn unvetted(&mut self, why: &str, unknown: bool) {
        match self.stack.last_mut() {
            Some(frame) => {
                frame.not_harmless(why);
                frame.unknown |= unknown;
            }
            None => self.opaque(why),
        }
    }

    pub fn network(&mut self, reason: &str) {
        if let Some(frame) = self.stack.last_mut()
            && frame.network.is_none()
        {
            frame.network = Some(reason.to_owned());
        }
    }

    /// The real program of the current frame is reached: `words` is its argv, the first
    /// `pattern_len` of them its rule pattern.
    pub fn program_words(&mut self, words: &[Arg], pattern_len: usize) {
        if let Some(frame) = self.stack.last_mut() {
            frame.argv = Some(words.to_vec());
            frame.pattern_len = pattern_len.clamp(1, words.len().max(1));
        }
    }

    /// The rule pattern of the current frame takes `len` words.
    pub fn pattern_len(&mut self, len: usize) {
        if let Some(frame) = self.stack.last_mut() {
            let words = frame.argv.as_ref().map_or(1, Vec::len);
            frame.pattern_len = len.clamp(1, words.max(1));
        }
    }

    pub fn carrier(&mut self) {
        if let Some(frame) = self.stack.last_mut() {
            frame.carrier = true;
        }
    }

    pub fn host(&mut self) {
        if let Some(frame) = self.stack.last_mut() {
            frame.host = true;
        }
    }

    pub fn close(&mut self) {
        let Some(frame) = self.stack.pop() else {
            return;
        };
        let argv = match frame.argv {
            Some(argv) if !frame.carrier => argv,
            _ => {
                if !frame.harmless {
                    self.opaque(frame.why.as_deref().unwrap_or("not harmless"));
                }
                return;
            }
        };
        let texts: Vec<String> = argv.iter().map(|w| w.text.clone()).collect();
        if let Some(host) = self.stack.iter_mut().rev().find(|f| f.host) {
            if !frame.harmless {
                host.not_harmless(frame.why.as_deref().unwrap_or("not harmless"));
            }
            host.unknown |= frame.unknown;
            if host.network.is_none() {
                host.network = frame.network;
            }
            self.simple_commands.push(texts);
            return;
        }
        self.simple_commands.push(texts.clone());
        if frame.harmless && frame.network.is_none() {
            return;
        }
        let prefix = &argv[..frame.pattern_len.min(argv.len())];
        match prefix.iter().map(Arg::lit).collect::<Option<Vec<&str>>>() {
            Some(words) => self.targets.push(RuleTarget {
                argv: texts,
                pattern: RulePattern::new(words.iter().map(|w| (*w).to_owned()).collect()),
                harmless: frame.harmless,
                network: frame.network,
                unknown: frame.unknown,
            }),
            None => self.opaque(&format!("the command is not literal: {}", texts.join(" "))),
        }
    }
}
