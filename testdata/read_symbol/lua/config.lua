-- A Neovim-style plugin spec: tables, few functions.
return {
  "plugin/name",
  config = function()
    require("plugin").setup({})
  end,
}
