// `npm run bench -- <name>`: benchmarks, run on demand (never in CI). See docs/performance.md.
import { explainCustomerFilters } from './customers-explain.js';

const BENCHES: Record<string, () => Promise<void>> = {
  explain: explainCustomerFilters,
  wallet: async () => (await import('./wallet.js')).benchWallet(),
  engine: async () => (await import('./engine.js')).benchEngine(),
  orders: async () => (await import('./orders.js')).benchOrders(),
  players: async () => (await import('./players-search.js')).benchPlayerSearch(),
  products: async () => (await import('./products-search.js')).benchProductSearch(),
  campaigns: async () => (await import('./campaigns.js')).benchCampaigns(),
  bulk: async () => (await import('./bulk.js')).benchBulk(),
  events: async () => (await import('./events.js')).benchEvents(),
  reports: async () => (await import('./reports.js')).benchReports(),
  replica: async () => (await import('./replica.js')).benchReplica(),
  dashboard: async () => (await import('./dashboard.js')).benchDashboard(),
  scale: async () => (await import('./scale.js')).benchScale(),
  paired: async () => (await import('./paired.js')).benchPaired(),
};

const name = process.argv[2];
const bench = name ? BENCHES[name] : undefined;
if (!bench) {
  console.error(`usage: npm run bench -- <${Object.keys(BENCHES).join('|')}>`);
  process.exit(2);
}
await bench();
