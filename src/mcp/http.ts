// The connector over HTTP: POST /api/mcp (Streamable HTTP, stateless, JSON answers) and the
// manifest at GET /api/mcp/tools. The caller's bearer key is checked and used per request and
// never stored. `?toolsets=`, `?read_only=true` and `?tools=a,b` choose the tools, on both.
import { Router } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AppError } from '../domain/errors.js';
import { requirePrincipal } from '../http/authenticate.js';
import { baseUrlOf } from '../http/base-url.js';
import { locals } from '../http/locals.js';
import type { Logger } from '../logger.js';
import type { RouteDeps } from '../rest/call-route.js';
import { buildMcpServer, INSTRUCTIONS, SERVER_INFO } from './server.js';
import { selectedTools, selectionOf } from './tools.js';
import { routesOf, TOOLSET_NAMES, TOOLSETS } from './toolsets.js';

import { MCP_PATH } from './path.js';

export function mcpRouter(deps: RouteDeps & { logger: Logger }): Router {
  const router = Router();

  router.get(`${MCP_PATH}/tools`, (req, res) => {
    res.json({
      server: SERVER_INFO,
      instructions: INSTRUCTIONS,
      tools: selectedTools(selectionOf(req.query)).map((t) => ({
        ...t.definition,
        scope: t.route.scope,
      })),
      // Every set, whichever were selected: what `?toolsets=` can name.
      toolsets: TOOLSET_NAMES.map((name) => ({
        name,
        description: TOOLSETS[name].description,
        tools: routesOf(name).map((r) => r.name),
      })),
    });
  });

  router.post(MCP_PATH, async (req, res) => {
    requirePrincipal(req, res);
    const l = locals(res);
    const message = req.body as { method?: unknown; params?: { name?: unknown } } | undefined;
    // The log line names the tool called, not just the endpoint.
    l.routePattern =
      message?.method === 'tools/call'
        ? `${MCP_PATH} tools/call ${String(message.params?.name)}`
        : `${MCP_PATH} ${String(message?.method ?? '')}`.trim();
    const server = buildMcpServer(
      {
        deps,
        logger: deps.logger,
        principal: l.principal!,
        requestId: l.requestId,
        baseUrl: baseUrlOf(req, deps.publicBaseUrl),
      },
      selectionOf(req.query),
    );
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });

  // Stateless: no server-initiated stream to GET and no session to DELETE.
  router.all(MCP_PATH, (_req, _res) => {
    throw new AppError(
      'method_not_allowed',
      'The MCP endpoint is stateless: send JSON-RPC messages with POST.',
      { headers: { allow: 'POST' } },
    );
  });
  return router;
}
