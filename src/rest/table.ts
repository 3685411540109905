// The route table: every REST route of both API families. Express routes, /openapi.json and the
// MCP tools are all derived from this list.
import type { Route } from './route.js';
import { getHealth } from './routes/partner/system.js';

export const ROUTES: Route[] = [getHealth];
