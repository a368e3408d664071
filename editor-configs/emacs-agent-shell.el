;; agent-shell (https://github.com/xenodium/agent-shell) for Emacs 29.1 or newer: its Hermes
;; agent starts `hermes acp` by default; point it at hermes-acp instead. Put this in your init
;; file, then M-x agent-shell-hermes-start-agent. Modes come from hermes-acp's config options;
;; Hermes' mode ids `accept_edits` and `dont_ask` are hermes-acp's too.
(setq agent-shell-hermes-acp-command '("hermes-acp"))
