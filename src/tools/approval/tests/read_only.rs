//! `is_read_only`: only commands that clearly just read.

use super::super::is_read_only;

#[test]
fn reading_commands_are_read_only() {
    for command in [
        "ls -la",
        "cat README.md | head -n 20",
        "tail -f app.log",
        "grep -rn 'fn main' src 2>/dev/null",
        "rg TODO src | wc -l",
        "find . -name '*.rs' -type f",
        "git status",
        "git log --oneline -5",
        "git diff HEAD~1 -- src/",
        "git show HEAD:Cargo.toml",
        "git -C sub status",
        "git branch -a",
        "pwd && ls",
        "echo hello; which cargo",
        "wc -l src/*.rs",
        "sed -n '10,20p' src/main.rs",
        "LC_ALL=C sort names.txt",
        "cat a.txt 2>&1 | head",
        "ls > /dev/null",
        "cd src && ls",
        "echo ${HOME}",
        "cat < input.txt",
    ] {
        assert!(is_read_only(command), "{command:?} should be read-only");
    }
}

#[test]
fn writing_or_unclear_commands_are_not_read_only() {
    for command in [
        "",
        "echo x > file.txt",
        "cat a >> b",
        "ls &> listing.txt",
        "ls | xargs rm",
        "cat x | sh",
        "find . -delete",
        "find . -name '*.o' -exec rm {} +",
        "rm x",
        "ls; rm x",
        "ls && touch x",
        "cat $(rm x)",
        "echo `whoami`",
        "echo \"$(id)\"",
        "(ls)",
        "git push",
        "git branch -D old",
        "git branch new-branch",
        "git diff --output=patch.diff",
        "git grep -Oless foo",
        "git -c core.pager=evil log",
        "git stash",
        "sort -o out.txt in.txt",
        "PAGER=evil git log",
        "./ls",
        "cat <<EOF\nhi\nEOF",
        "sed -i 's/a/b/' f",
        "sed 's/a/b/w out' f",
        "env rm x",
        "date -s 2020-01-01",
        "tree -o out.txt",
        "python3 -c 'print(1)'",
        "npm test",
        "echo 'unterminated",
    ] {
        assert!(!is_read_only(command), "{command:?} should not be read-only");
    }
}
