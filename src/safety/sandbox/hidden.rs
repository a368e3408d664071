//! What a sandboxed command must not read: Hermes' own folder (provider keys in `.env` and
//! `config.yaml`, `auth.json`, the session databases, memories, checkpoints) and the usual
//! credential stores under the home directory. The mount namespace hides them (an empty
//! read-only folder, or `/dev/null` over a file); skills stay readable, since the agent runs
//! their scripts. Computed once per process from the two folders.

use std::path::{Path, PathBuf};

/// Credential stores under the home directory: folders and files whose content is a secret.
const HOME_SECRETS: &[&str] = &[
    ".ssh",
    ".aws",
    ".azure",
    ".gnupg",
    ".kube",
    ".docker",
    ".password-store",
    ".config/gh",
    ".config/hub",
    ".config/gcloud",
    ".config/op",
    ".local/share/keyrings",
    ".netrc",
    ".git-credentials",
    ".pgpass",
    ".my.cnf",
    ".npmrc",
    ".pypirc",
    ".gem/credentials",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".terraform.d/credentials.tfrc.json",
    ".vault-token",
    ".config/git/credentials",
];

/// What stays readable inside Hermes' folder.
const HERMES_KEPT: &[&str] = &["skills"];

/// The folders and files to hide, and the read-only paths kept visible inside them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hidden {
    pub hidden: Vec<PathBuf>,
    pub kept: Vec<PathBuf>,
}

/// Hides `hermes_home` (all of it but skills) and the credential stores of `home`. A Hermes
/// folder that contains the home directory (or is `/`) is too broad to hide whole: then only
/// its key files are hidden.
pub fn secrets(home: &Path, hermes_home: &Path) -> Hidden {
    let mut out = Hidden::default();
    let canonical = |p: &Path| p.canonicalize().ok();
    if let Some(hermes) = canonical(hermes_home) {
        if hermes.parent().is_none() || canonical(home).is_some_and(|h| h.starts_with(&hermes)) {
            for file in [".env", "config.yaml", "auth.json", "state.db", "sessions.db"] {
                out.hidden.extend(canonical(&hermes.join(file)));
            }
        } else {
            out.kept
                .extend(HERMES_KEPT.iter().filter_map(|k| canonical(&hermes.join(k))));
            out.hidden.push(hermes);
        }
    }
    for name in HOME_SECRETS {
        if let Some(path) = canonical(&home.join(name))
            && !out.hidden.iter().any(|h| path.starts_with(h))
        {
            out.hidden.push(path);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hides_hermes_home_but_skills_and_the_credential_stores() {
        let home = tempfile::tempdir().unwrap();
        let home = home.path().canonicalize().unwrap();
        let hermes = home.join(".hermes");
        std::fs::create_dir_all(hermes.join("skills")).unwrap();
        std::fs::create_dir_all(home.join(".ssh")).unwrap();
        std::fs::write(home.join(".netrc"), "machine x").unwrap();
        let hidden = secrets(&home, &hermes);
        assert_eq!(
            hidden.hidden,
            vec![hermes.clone(), home.join(".ssh"), home.join(".netrc")]
        );
        assert_eq!(hidden.kept, vec![hermes.join("skills")]);
    }

    #[test]
    fn a_hermes_home_that_holds_the_home_only_hides_its_key_files() {
        let home = tempfile::tempdir().unwrap();
        let home = home.path().canonicalize().unwrap();
        std::fs::write(home.join(".env"), "KEY=x").unwrap();
        let hidden = secrets(&home, &home);
        assert_eq!(hidden.hidden, vec![home.join(".env")]);
        assert!(hidden.kept.is_empty());
    }
}
