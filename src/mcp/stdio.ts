// `npm run mcp -- --base-url https://rewards.example.com`: the connector for desktop agents
// that start their tools as a local process speaking MCP on stdin/stdout. It is a bridge: every
// message goes to the server's POST /api/mcp with the key from REWARDS_API_KEY, so the tools,
// scopes and limits are the server's own. Options: --toolsets set,set (default partner),
// --read-only, --tools name,name.
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { INSTRUCTIONS, SERVER_INFO } from './server.js';

const USAGE =
  'usage: REWARDS_API_KEY=svc_… npm run mcp -- --base-url URL [--toolsets set,set] [--read-only] [--tools name,name]';

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`); // stdout carries the protocol only
  process.exit(2);
}

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        'base-url': { type: 'string' },
        toolsets: { type: 'string' },
        'read-only': { type: 'boolean', default: false },
        tools: { type: 'string' },
      },
    });
  } catch (error) {
    return fail((error as Error).message);
  }
})();
const key = process.env.REWARDS_API_KEY;
if (!values['base-url']) fail('--base-url is required.');
if (!key) fail('Set REWARDS_API_KEY to the API key the tools act as.');

const url = new URL('/api/mcp', values['base-url']);
if (values.toolsets) url.searchParams.set('toolsets', values.toolsets);
if (values['read-only']) url.searchParams.set('read_only', 'true');
if (values.tools) url.searchParams.set('tools', values.tools);

const upstream = new Client({ name: `${SERVER_INFO.name}-stdio`, version: SERVER_INFO.version });
await upstream.connect(
  new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  }),
);

const server = new Server(SERVER_INFO, {
  capabilities: { tools: { listChanged: false } },
  instructions: INSTRUCTIONS,
});
server.setRequestHandler(ListToolsRequestSchema, (request) => upstream.listTools(request.params));
server.setRequestHandler(CallToolRequestSchema, (request) => upstream.callTool(request.params));
await server.connect(new StdioServerTransport());
