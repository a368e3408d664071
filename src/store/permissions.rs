//! Remembered permission rules, per workspace: the exact command the user chose to always allow
//! (or always deny) in that project. Never a whole category, never for every project.

use rusqlite::params;

use super::{Store, StoreError, now_ms};

/// A remembered decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PermissionRule {
    pub workspace: String,
    pub command: String,
    /// `allow` or `deny`.
    pub decision: String,
}

impl Store {
    /// Remembers (or replaces) a rule.
    pub async fn save_rule(&self, rule: PermissionRule) -> Result<(), StoreError> {
        self.call(move |conn| {
            conn.execute(
                "INSERT INTO permission_rules (workspace, command, decision, created_at) VALUES (?1, ?2, ?3, ?4) \
                 ON CONFLICT(workspace, command) DO UPDATE SET decision = excluded.decision, created_at = excluded.created_at",
                params![rule.workspace, rule.command, rule.decision, now_ms()],
            )?;
            Ok(())
        })
        .await
    }

    /// The rules of a workspace, oldest first.
    pub async fn rules(&self, workspace: &str) -> Result<Vec<PermissionRule>, StoreError> {
        let workspace = workspace.to_string();
        self.call(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT workspace, command, decision FROM permission_rules WHERE workspace = ?1 ORDER BY created_at, command",
            )?;
            let rows = stmt
                .query_map([&workspace], |r| Ok(PermissionRule { workspace: r.get(0)?, command: r.get(1)?, decision: r.get(2)? }))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(rows)
        })
        .await
    }

    /// Forgets a rule. Returns whether it existed.
    pub async fn remove_rule(&self, workspace: &str, command: &str) -> Result<bool, StoreError> {
        let (workspace, command) = (workspace.to_string(), command.to_string());
        self.call(move |conn| {
            Ok(conn.execute(
                "DELETE FROM permission_rules WHERE workspace = ?1 AND command = ?2",
                params![workspace, command],
            )? > 0)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn rules_are_per_workspace_and_revocable() {
        let store = Store::open_in_memory().unwrap();
        let rule = |ws: &str, cmd: &str, d: &str| PermissionRule {
            workspace: ws.into(),
            command: cmd.into(),
            decision: d.into(),
        };
        store.save_rule(rule("/a", "rm -rf build", "allow")).await.unwrap();
        store.save_rule(rule("/b", "rm -rf build", "deny")).await.unwrap();
        store.save_rule(rule("/a", "rm -rf build", "deny")).await.unwrap();
        assert_eq!(
            store.rules("/a").await.unwrap(),
            vec![rule("/a", "rm -rf build", "deny")]
        );
        assert!(store.remove_rule("/a", "rm -rf build").await.unwrap());
        assert!(store.rules("/a").await.unwrap().is_empty());
        assert_eq!(store.rules("/b").await.unwrap().len(), 1);
    }
}
