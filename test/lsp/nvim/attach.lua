-- Neovim as a real LSP client of `agentmark lsp` (Neovim 0.7+, built-in client only):
-- opens a prompt, attaches the server, and writes the first non-empty diagnostics it
-- publishes for the prompt to $AGENTMARK_NVIM_OUT as JSON, then quits.
local root = os.getenv('AGENTMARK_NVIM_ROOT')
local out = os.getenv('AGENTMARK_NVIM_OUT')
local client_id = vim.lsp.start_client({
  name = 'agentmark',
  cmd = { os.getenv('AGENTMARK_NODE'), os.getenv('AGENTMARK_BIN'), 'lsp', '--stdio' },
  root_dir = root,
  handlers = {
    ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
      vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
      if result and #result.diagnostics > 0 and result.uri:match('%.prompt%.mdx$') then
        local file = io.open(out, 'w')
        file:write(vim.fn.json_encode(result))
        file:close()
        vim.cmd('qall!')
      end
    end,
  },
})
vim.cmd('edit ' .. root .. '/prompts/greet.prompt.mdx')
vim.lsp.buf_attach_client(0, client_id)
