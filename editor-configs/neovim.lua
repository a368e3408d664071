-- CodeCompanion.nvim (https://github.com/olimorris/codecompanion.nvim): an ACP adapter for
-- hermes-acp. Put this in your CodeCompanion setup, then pick the "hermes" adapter in a chat.
-- It extends the built-in "goose" ACP adapter because that one sets no auth method: CodeCompanion
-- then authenticates with the first method hermes-acp offers (your configured provider). Do not
-- set `defaults.auth_method`: its id depends on your provider (openrouter, custom, anthropic…).
-- CodeCompanion versions before `interactions` call that table `strategies`.
require("codecompanion").setup({
  adapters = {
    acp = {
      hermes = function()
        return require("codecompanion.adapters").extend("goose", {
          name = "hermes",
          formatted_name = "Hermes",
          commands = {
            default = { "hermes-acp" },
          },
        })
      end,
    },
  },
  interactions = {
    chat = { adapter = "hermes" },
  },
})
