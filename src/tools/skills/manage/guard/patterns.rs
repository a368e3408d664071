//! The skills-guard threat patterns (Hermes' `tools/skills_guard.py`, `skills-guard-v1`) as a
//! table: id, severity, category, regex (case-insensitive, matched per line), description.
//! Four of Hermes' regexes use lookahead, which the `regex` crate lacks: `read_secrets_file` is
//! rewritten into an equivalent lookahead-free form, and `python_os_environ`,
//! `unpinned_pip_install` and `unpinned_npm_install` match their prefix here and finish the test
//! in [`super::lookahead_holds`].

/// One row per line, tab-separated.
pub const TABLE: &str = r##"
env_exfil_curl	critical	exfiltration	curl\s+[^\n]*\$\{?\w*(KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|API)	curl command interpolating secret environment variable
env_exfil_wget	critical	exfiltration	wget\s+[^\n]*\$\{?\w*(KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|API)	wget command interpolating secret environment variable
env_exfil_fetch	critical	exfiltration	fetch\s*\([^\n]*\$\{?\w*(KEY|TOKEN|SECRET|PASSWORD|API)	fetch() call interpolating secret environment variable
env_exfil_httpx	critical	exfiltration	httpx?\.(get|post|put|patch)\s*\([^\n]*(KEY|TOKEN|SECRET|PASSWORD)	HTTP library call with secret variable
env_exfil_requests	critical	exfiltration	requests\.(get|post|put|patch)\s*\([^\n]*(KEY|TOKEN|SECRET|PASSWORD)	requests library call with secret variable
encoded_exfil	high	exfiltration	base64[^\n]*env	base64 encoding combined with environment access
ssh_dir_access	high	exfiltration	\$HOME/\.ssh|\~/\.ssh	references user SSH directory
aws_dir_access	high	exfiltration	\$HOME/\.aws|\~/\.aws	references user AWS credentials directory
gpg_dir_access	high	exfiltration	\$HOME/\.gnupg|\~/\.gnupg	references user GPG keyring
kube_dir_access	high	exfiltration	\$HOME/\.kube|\~/\.kube	references Kubernetes config directory
docker_dir_access	high	exfiltration	\$HOME/\.docker|\~/\.docker	references Docker config (may contain registry creds)
hermes_env_access	critical	exfiltration	\$HOME/\.hermes/\.env|\~/\.hermes/\.env	directly references Hermes secrets file
read_secrets_file	critical	exfiltration	cat\s+(?:[^>\n][^\n]*)?(\.env|credentials|\.netrc|\.pgpass|\.npmrc|\.pypirc)	reads known secrets file
dump_all_env	high	exfiltration	printenv|env\s*\|	dumps all environment variables
python_os_environ	high	exfiltration	os\.environ\b	accesses os.environ (potential env dump)
python_environ_get_secret	critical	exfiltration	os\.environ\s*\.get\s*\(\s*["\'][^"\']*(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)	reads secret via os.environ.get()
python_getenv_secret	critical	exfiltration	os\.getenv\s*\(\s*[^\)]*(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)	reads secret via os.getenv()
node_process_env	high	exfiltration	process\.env\[	accesses process.env (Node.js environment)
ruby_env_secret	critical	exfiltration	ENV\[.*(?:KEY|TOKEN|SECRET|PASSWORD)	reads secret via Ruby ENV[]
dns_exfil	critical	exfiltration	\b(dig|nslookup|host)\s+[^\n]*\$	DNS lookup with variable interpolation (possible DNS exfiltration)
tmp_staging	critical	exfiltration	>\s*/tmp/[^\s]*\s*&&\s*(curl|wget|nc|python)	writes to /tmp then exfiltrates
md_image_exfil	high	exfiltration	!\[.*\]\(https?://[^\)]*\$\{?	markdown image URL with variable interpolation (image-based exfil)
md_link_exfil	high	exfiltration	\[.*\]\(https?://[^\)]*\$\{?	markdown link with variable interpolation
prompt_injection_ignore	critical	injection	ignore\s+(?:\w+\s+)*(previous|all|above|prior)\s+instructions	prompt injection: ignore previous instructions
role_hijack	high	injection	you\s+are\s+(?:\w+\s+)*now\s+	attempts to override the agent's role
deception_hide	critical	injection	do\s+not\s+(?:\w+\s+)*tell\s+(?:\w+\s+)*the\s+user	instructs agent to hide information from user
sys_prompt_override	critical	injection	system\s+(?:\w+\s+)*prompt\s+(?:\w+\s+)*override	attempts to override the system prompt
role_pretend	high	injection	pretend\s+(?:\w+\s+)*(you\s+are|to\s+be)\s+	attempts to make the agent assume a different identity
disregard_rules	critical	injection	disregard\s+(?:\w+\s+)*(your|all|any)\s+(?:\w+\s+)*(instructions|rules|guidelines)	instructs agent to disregard its rules
leak_system_prompt	high	injection	output\s+(?:\w+\s+)*(system|initial)\s+prompt	attempts to extract the system prompt
conditional_deception	high	injection	(when|if)\s+no\s*one\s+is\s+(watching|looking)	conditional instruction to behave differently when unobserved
bypass_restrictions	critical	injection	act\s+as\s+(if|though)\s+(?:\w+\s+)*you\s+(?:\w+\s+)*(have\s+no|don\'t\s+have)\s+(?:\w+\s+)*(restrictions|limits|rules)	instructs agent to act without restrictions
translate_execute	critical	injection	translate\s+.*\s+into\s+.*\s+and\s+(execute|run|eval)	translate-then-execute evasion technique
html_comment_injection	high	injection	<!--[^>]*(?:ignore|override|system|secret|hidden)[^>]*-->	hidden instructions in HTML comments
hidden_div	high	injection	<\s*div\s+style\s*=\s*["\'][\s\S]*?display\s*:\s*none	hidden HTML div (invisible instructions)
destructive_root_rm	critical	destructive	rm\s+-rf\s+/	recursive delete from root
destructive_home_rm	critical	destructive	rm\s+(-[^\s]*)?r.*\$HOME|\brmdir\s+.*\$HOME	recursive delete targeting home directory
insecure_perms	medium	destructive	chmod\s+777	sets world-writable permissions
system_overwrite	critical	destructive	>\s*/etc/	overwrites system configuration file
format_filesystem	critical	destructive	\bmkfs\b	formats a filesystem
disk_overwrite	critical	destructive	\bdd\s+.*if=.*of=/dev/	raw disk write operation
python_rmtree	high	destructive	shutil\.rmtree\s*\(\s*[\"\'/]	Python rmtree on absolute or root-relative path
truncate_system	critical	destructive	truncate\s+-s\s*0\s+/	truncates system file to zero bytes
persistence_cron	medium	persistence	\bcrontab\b	modifies cron jobs
shell_rc_mod	medium	persistence	\.(bashrc|zshrc|profile|bash_profile|bash_login|zprofile|zlogin)\b	references shell startup file
ssh_backdoor	critical	persistence	authorized_keys	modifies SSH authorized keys
ssh_keygen	medium	persistence	ssh-keygen	generates SSH keys
systemd_service	medium	persistence	systemd.*\.service|systemctl\s+(enable|start)	references or enables systemd service
init_script	medium	persistence	/etc/init\.d/	references init.d startup script
macos_launchd	medium	persistence	launchctl\s+load|LaunchAgents|LaunchDaemons	macOS launch agent/daemon persistence
sudoers_mod	critical	persistence	/etc/sudoers|visudo	modifies sudoers (privilege escalation)
git_config_global	medium	persistence	git\s+config\s+--global\s+	modifies global git configuration
reverse_shell	critical	network	\bnc\s+-[lp]|ncat\s+-[lp]|\bsocat\b	potential reverse shell listener
tunnel_service	high	network	\bngrok\b|\blocaltunnel\b|\bserveo\b|\bcloudflared\b	uses tunneling service for external access
hardcoded_ip_port	medium	network	\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}:\d{2,5}	hardcoded IP address with port
bind_all_interfaces	high	network	0\.0\.0\.0:\d+|INADDR_ANY	binds to all network interfaces
bash_reverse_shell	critical	network	/bin/(ba)?sh\s+-i\s+.*>/dev/tcp/	bash interactive reverse shell via /dev/tcp
python_socket_oneliner	critical	network	python[23]?\s+-c\s+["\']import\s+socket	Python one-liner socket connection (likely reverse shell)
python_socket_connect	high	network	socket\.connect\s*\(\s*\(	Python socket connect to arbitrary host
exfil_service	high	network	webhook\.site|requestbin\.com|pipedream\.net|hookbin\.com	references known data exfiltration/webhook testing service
paste_service	medium	network	pastebin\.com|hastebin\.com|ghostbin\.	references paste service (possible data staging)
base64_decode_pipe	high	obfuscation	base64\s+(-d|--decode)\s*\|	base64 decodes and pipes to execution
hex_encoded_string	medium	obfuscation	\\x[0-9a-fA-F]{2}.*\\x[0-9a-fA-F]{2}.*\\x[0-9a-fA-F]{2}	hex-encoded string (possible obfuscation)
eval_string	high	obfuscation	\beval\s*\(\s*["\']	eval() with string argument
exec_string	high	obfuscation	\bexec\s*\(\s*["\']	exec() with string argument
echo_pipe_exec	critical	obfuscation	echo\s+[^\n]*\|\s*(bash|sh|python|perl|ruby|node)	echo piped to interpreter for execution
python_compile_exec	high	obfuscation	compile\s*\(\s*[^\)]+,\s*["\'].*["\']\s*,\s*["\']exec["\']\s*\)	Python compile() with exec mode
python_getattr_builtins	high	obfuscation	getattr\s*\(\s*__builtins__	dynamic access to Python builtins (evasion technique)
python_import_os	high	obfuscation	__import__\s*\(\s*["\']os["\']\s*\)	dynamic import of os module
python_codecs_decode	medium	obfuscation	codecs\.decode\s*\(\s*["\']	codecs.decode (possible ROT13 or encoding obfuscation)
js_char_code	medium	obfuscation	String\.fromCharCode|charCodeAt	JavaScript character code construction (possible obfuscation)
js_base64	medium	obfuscation	atob\s*\(|btoa\s*\(	JavaScript base64 encode/decode
string_reversal	low	obfuscation	\[::-1\]	string reversal (possible obfuscated payload)
chr_building	high	obfuscation	chr\s*\(\s*\d+\s*\)\s*\+\s*chr\s*\(\s*\d+	building string from chr() calls (obfuscation)
unicode_escape_chain	medium	obfuscation	\\u[0-9a-fA-F]{4}.*\\u[0-9a-fA-F]{4}.*\\u[0-9a-fA-F]{4}	chain of unicode escapes (possible obfuscation)
python_subprocess	medium	execution	subprocess\.(run|call|Popen|check_output)\s*\(	Python subprocess execution
python_os_system	high	execution	os\.system\s*\(	os.system() — unguarded shell execution
python_os_popen	high	execution	os\.popen\s*\(	os.popen() — shell pipe execution
node_child_process	high	execution	child_process\.(exec|spawn|fork)\s*\(	Node.js child_process execution
java_runtime_exec	high	execution	Runtime\.getRuntime\(\)\.exec\(	Java Runtime.exec() — shell execution
backtick_subshell	medium	execution	`[^`]*\$\([^)]+\)[^`]*`	backtick string with command substitution
path_traversal_deep	high	traversal	\.\./\.\./\.\.	deep relative path traversal (3+ levels up)
path_traversal	medium	traversal	\.\./\.\.	relative path traversal (2+ levels up)
system_passwd_access	critical	traversal	/etc/passwd|/etc/shadow	references system password files
proc_access	high	traversal	/proc/self|/proc/\d+/	references /proc filesystem (process introspection)
dev_shm	medium	traversal	/dev/shm/	references shared memory (common staging area)
crypto_mining	critical	mining	xmrig|stratum\+tcp|monero|coinhive|cryptonight	cryptocurrency mining reference
mining_indicators	medium	mining	hashrate|nonce.*difficulty	possible cryptocurrency mining indicators
curl_pipe_shell	critical	supply_chain	curl\s+[^\n]*\|\s*(ba)?sh	curl piped to shell (download-and-execute)
wget_pipe_shell	critical	supply_chain	wget\s+[^\n]*-O\s*-\s*\|\s*(ba)?sh	wget piped to shell (download-and-execute)
curl_pipe_python	critical	supply_chain	curl\s+[^\n]*\|\s*python	curl piped to Python interpreter
pep723_inline_deps	medium	supply_chain	#\s*///\s*script.*dependencies	PEP 723 inline script metadata with dependencies (verify pinning)
unpinned_pip_install	medium	supply_chain	pip\s+install\s+	pip install without version pinning
unpinned_npm_install	medium	supply_chain	npm\s+install\s+	npm install without version pinning
uv_run	medium	supply_chain	uv\s+run\s+	uv run (may auto-install unpinned dependencies)
remote_fetch	medium	supply_chain	(curl|wget|httpx?\.get|requests\.get|fetch)\s*[\(]?\s*["\']https?://	fetches remote resource at runtime
git_clone	medium	supply_chain	git\s+clone\s+	clones a git repository at runtime
docker_pull	medium	supply_chain	docker\s+pull\s+	pulls a Docker image at runtime
allowed_tools_field	low	privilege_escalation	^allowed-tools\s*:	skill declares allowed-tools (standard frontmatter; informational)
sudo_usage	high	privilege_escalation	\bsudo\b	uses sudo (privilege escalation)
setuid_setgid	critical	privilege_escalation	setuid|setgid|cap_setuid	setuid/setgid (privilege escalation mechanism)
nopasswd_sudo	critical	privilege_escalation	NOPASSWD	NOPASSWD sudoers entry (passwordless privilege escalation)
suid_bit	critical	privilege_escalation	chmod\s+[u+]?s	sets SUID/SGID bit on a file
agent_config_mod	critical	persistence	AGENTS\.md|CLAUDE\.md|\.cursorrules|\.clinerules	references agent config files (could persist malicious instructions across sessions)
hermes_config_mod	critical	persistence	\.hermes/config\.yaml|\.hermes/SOUL\.md	references Hermes configuration files directly
other_agent_config	high	persistence	\.claude/settings|\.codex/config	references other agent configuration files
hardcoded_secret	critical	credential_exposure	(?:api[_-]?key|token|secret|password)\s*[=:]\s*["\'][A-Za-z0-9+/=_-]{20,}	possible hardcoded API key, token, or secret
embedded_private_key	critical	credential_exposure	-----BEGIN\s+(RSA\s+)?PRIVATE\s+KEY-----	embedded private key
github_token_leaked	critical	credential_exposure	ghp_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{80,}	GitHub personal access token in skill content
openai_key_leaked	critical	credential_exposure	sk-[A-Za-z0-9]{20,}	possible OpenAI API key in skill content
anthropic_key_leaked	critical	credential_exposure	sk-ant-[A-Za-z0-9_-]{90,}	possible Anthropic API key in skill content
aws_access_key_leaked	critical	credential_exposure	AKIA[0-9A-Z]{16}	AWS access key ID in skill content
jailbreak_dan	critical	injection	\bDAN\s+mode\b|Do\s+Anything\s+Now	DAN (Do Anything Now) jailbreak attempt
jailbreak_dev_mode	critical	injection	\bdeveloper\s+mode\b.*\benabled?\b	developer mode jailbreak attempt
hypothetical_bypass	high	injection	hypothetical\s+scenario.*(?:ignore|bypass|override)	hypothetical scenario used to bypass restrictions
educational_pretext	medium	injection	for\s+educational\s+purposes?\s+only	educational pretext often used to justify harmful content
remove_filters	critical	injection	(respond|answer|reply)\s+without\s+(?:\w+\s+)*(restrictions|limitations|filters|safety)	instructs agent to respond without safety filters
fake_update	high	injection	you\s+have\s+been\s+(?:\w+\s+)*(updated|upgraded|patched)\s+to	fake update/patch announcement (social engineering)
fake_policy	medium	injection	new\s+(?:\w+\s+)*policy|updated\s+(?:\w+\s+)*guidelines|revised\s+(?:\w+\s+)*instructions	claims new policy/guidelines (may be social engineering)
context_exfil	high	exfiltration	(include|output|print|send|share)\s+(?:\w+\s+)*(conversation|chat\s+history|previous\s+messages|context)	instructs agent to output/share conversation history
send_to_url	high	exfiltration	(send|post|upload|transmit)\s+.*\s+(to|at)\s+https?://	instructs agent to send data to a URL
"##;
