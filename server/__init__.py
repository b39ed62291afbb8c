"""cbam's language server (``cbam lsp``)."""
