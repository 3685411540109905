// MCP clients for tests: the official SDK client over real HTTP against the test server.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Harness } from '../support/harness.js';

export async function mcpClient(h: Harness, key: string, query = '') {
  const client = new Client({ name: 'rewards-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${h.url}/api/mcp${query}`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

/** A tool call's structured result, or its error text. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const blocks = result.content as { type: string; text: string }[];
  const text = blocks[0]?.text ?? '';
  return {
    blocks,
    structured: result.structuredContent,
    isError: result.isError === true,
    data: (result.structuredContent as { data?: any } | undefined)?.data,
    page: (result.structuredContent as { page?: any } | undefined)?.page,
    text,
    /** The API error code of a failed call. */
    code: /^Error \d+ (\w+):/.exec(text)?.[1],
  };
}
