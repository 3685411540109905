// Where the MCP endpoint is and how its body is read: what the app needs before the first MCP
// request, kept apart from the endpoint itself (http.ts), which loads the MCP SDK only then.
import express from 'express';

export const MCP_PATH = '/api/mcp';

/** Parses the JSON-RPC body early, so the rate limiter can tell a read tool call from a write. */
export const mcpBodyParser = express.json({ limit: '256kb' });
