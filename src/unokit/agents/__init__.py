"""Outside players: the MCP server, the web bot-API client, the engine
protocol for bots in any language and the table that agents play at."""
