-- CodeCompanion.nvim (https://github.com/olimorris/codecompanion.nvim): an ACP adapter for
-- hermes-acp. Put this in your CodeCompanion setup, then pick the "hermes" adapter in a chat.
require("codecompanion").setup({
  adapters = {
    acp = {
      hermes = function()
        return require("codecompanion.adapters").extend("gemini_cli", {
          name = "hermes",
          formatted_name = "Hermes",
          commands = {
            default = { "hermes-acp" },
          },
          defaults = {
            auth_method = "custom",
          },
        })
      end,
    },
  },
  strategies = {
    chat = { adapter = "hermes" },
  },
})
