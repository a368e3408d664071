//! `/undo` of commands that delete the project's own git objects, end to end through the real
//! binary (in `yolo` mode): a script that deletes `.git` whole, and a reset whose commit a
//! pruning gc then deletes. The checkpoint kept the object files by hard links, so every
//! commit comes back and `git fsck` is clean.

use crate::support::TestHome;
use crate::support::mock_llm::MockLlm;
use crate::undo_git::{agent, files, git, repository, run, undo};

#[tokio::test]
async fn undo_brings_back_the_project_commits_after_dot_git_is_deleted_and_after_a_pruning_gc() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let cwd = home.cwd();
    repository(&cwd);
    git(&cwd, &["gc", "-q"]);
    let log = git(&cwd, &["log", "--format=%H %s"]);
    let before = files(&cwd);
    let (mut agent, session) = agent(&home, false).await;

    run(
        &mut agent,
        &mock,
        &session,
        "drop the history",
        &["python3 -c \"import shutil; shutil.rmtree('.git')\" || rm -rf .git"],
    )
    .await;
    assert!(!cwd.join(".git").exists());
    let reply = undo(&mut agent, &session).await;
    assert!(reply.contains("recreated .git/objects ("), "{reply}");
    assert_eq!(files(&cwd), before, "work tree, refs, index, configuration and hooks");
    assert_eq!(git(&cwd, &["log", "--format=%H %s"]), log, "every commit is back");
    git(&cwd, &["fsck", "--full", "--no-progress"]);

    run(
        &mut agent,
        &mock,
        &session,
        "forget the last commit",
        &["git reset -q --hard HEAD~1 && git reflog expire --expire=now --all && git gc -q --prune=now"],
    )
    .await;
    assert_eq!(git(&cwd, &["log", "--format=%s"]), "one");
    let reply = undo(&mut agent, &session).await;
    assert!(reply.contains("recreated .git/objects ("), "{reply}");
    assert_eq!(files(&cwd), before);
    assert_eq!(git(&cwd, &["log", "--format=%H %s"]), log, "the pruned commit is back");
    git(&cwd, &["fsck", "--full", "--no-progress"]);
    assert_eq!(agent.shutdown().await, Some(0));
}
