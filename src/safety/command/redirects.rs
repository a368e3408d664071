//! Redirections of a simple or compound command: output onto files (writes; truncating an
//! existing file is destructive; raw block devices are hardline), input from files (secrets,
//! and the stdin a shell might read its script from), here-documents and process
//! substitutions.

use brush_parser::ast::{IoFileRedirectKind, IoFileRedirectTarget, IoRedirect};

use super::analysis::{Analysis, Stdin};

impl Analysis<'_> {
    pub(super) fn redirect(&mut self, r: &IoRedirect, depth: usize, stdin: &mut Stdin) {
        let is_stdin = |fd: &Option<i32>| fd.is_none_or(|f| f == 0);
        match r {
            IoRedirect::File(fd, kind, target) => {
                let target = match target {
                    IoFileRedirectTarget::Filename(w) => self.word(w, depth),
                    IoFileRedirectTarget::Duplicate(w) => {
                        let arg = self.word(w, depth);
                        // `>&2`, `<&0`, `>&-`: descriptors, not files.
                        if arg.literal && arg.text.chars().all(|c| c.is_ascii_digit() || c == '-') {
                            return;
                        }
                        arg
                    }
                    IoFileRedirectTarget::Fd(_) => return,
                    IoFileRedirectTarget::ProcessSubstitution(_, sub) => {
                        self.list(&sub.list, depth + 1, Stdin::Pipe);
                        return;
                    }
                };
                match kind {
                    IoFileRedirectKind::Read | IoFileRedirectKind::DuplicateInput => {
                        if is_stdin(fd) {
                            *stdin = Stdin::File;
                        }
                        if super::paths::is_network_device(&target.text) {
                            self.network(format!("reads from {}", target.text));
                        }
                        super::secrets::check_read(self, &target, "<");
                    }
                    IoFileRedirectKind::Write | IoFileRedirectKind::Clobber | IoFileRedirectKind::DuplicateOutput => {
                        self.write(&target, true, ">");
                    }
                    IoFileRedirectKind::Append | IoFileRedirectKind::ReadAndWrite => {
                        self.write(&target, false, ">>");
                    }
                }
            }
            IoRedirect::HereDocument(fd, doc) => {
                if is_stdin(fd) {
                    *stdin = Stdin::Here;
                }
                if doc.requires_expansion {
                    self.text_word(&doc.doc.value, depth, true);
                }
            }
            IoRedirect::HereString(fd, w) => {
                if is_stdin(fd) {
                    *stdin = Stdin::Here;
                }
                self.word(w, depth);
            }
            IoRedirect::OutputAndError(w, append) => {
                let target = self.word(w, depth);
                self.write(&target, !append, "&>");
            }
        }
    }
}
