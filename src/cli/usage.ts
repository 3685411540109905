// What each admin command is and how it is called. Kept apart from the commands themselves (and
// free of imports) so `--help` and usage errors answer without loading the database code.

export type CommandHelp = { usage: string; summary: string };

export const USAGE = {
  'brand create': { usage: 'brand create --name NAME', summary: 'Create a brand.' },
  'brand list': { usage: 'brand list', summary: 'List brands, oldest first.' },
  'brand show': { usage: 'brand show ID', summary: 'Show a brand and its sub-brands.' },
  'sub-brand create': {
    usage: 'sub-brand create --brand ID --name NAME [--country XX] [--currency EUR] [--prepaid]',
    summary: 'Create a sub-brand (an establishment) under a brand.',
  },
  'sub-brand list': {
    usage: 'sub-brand list [--brand ID]',
    summary: "List sub-brands, all or one brand's.",
  },
  'sub-brand show': {
    usage: 'sub-brand show ID',
    summary: 'Show a sub-brand with its counts of keys, customers and event definitions.',
  },
  'key create': {
    usage:
      'key create --sub-brand ID --env test|live --scopes s1,s2|all [--allow-ip CIDR,...] [--read-limit N] [--write-limit N]\n' +
      '  key create --platform-admin --env test|live',
    summary: 'Mint an API key; the key is printed once and never stored.',
  },
  'key list': {
    usage: 'key list --sub-brand ID',
    summary: "List a sub-brand's keys by display prefix (the secrets are not stored).",
  },
  'key show': {
    usage: 'key show ID',
    summary: 'Show one key (prefix, scopes, limits, revocation).',
  },
  'key revoke': { usage: 'key revoke ID', summary: 'Revoke a key; it answers 401 from now on.' },
  'definition create': {
    usage:
      'definition create --sub-brand ID --code C --points N [--constraints JSON] [--player-id-field F]\n' +
      '      [--idempotency-key-field F] [--allow-points-override] [--verticals casino,sports,…] [--inactive]',
    summary: 'Create an engine event definition (docs/engine.md).',
  },
  'definition list': {
    usage: 'definition list --sub-brand ID [--active]',
    summary: "List a sub-brand's event definitions by code.",
  },
  'definition show': { usage: 'definition show ID', summary: 'Show one event definition.' },
  'definition update': {
    usage:
      'definition update ID [--points N] [--constraints JSON] [--player-id-field F] [--idempotency-key-field F]\n' +
      "      [--allow-points-override | --no-points-override] [--verticals V1,V2 | --verticals ''] [--active | --inactive]",
    summary: 'Edit an event definition; its version goes up by one.',
  },
  'definition deactivate': {
    usage: 'definition deactivate ID',
    summary: 'Deactivate an event definition; events for its code are refused.',
  },
  demo: {
    usage: 'demo',
    summary: 'Create the demo tenant if missing and mint a new all-scopes test key.',
  },
  'user create': {
    usage:
      'user create --email E --role platform-admin|brand-admin|establishment-operator|support\n' +
      '      [--brand ID | --sub-brand ID]   (password: $STAFF_PASSWORD or a prompt)',
    summary: 'Create a backoffice staff account (docs/backoffice.md).',
  },
  'user list': { usage: 'user list', summary: 'List the staff accounts.' },
  'user disable': {
    usage: 'user disable EMAIL|ID',
    summary: 'Disable a staff account and end its sessions; its history stays.',
  },
  'user reset-2fa': {
    usage: 'user reset-2fa EMAIL|ID',
    summary: 'Remove a staff account’s second factor (a lost authenticator) and end its sessions.',
  },
  'events list': {
    usage:
      'events list --sub-brand ID --env test|live [--type T1,T2] [--limit N (20; at most 100)]',
    summary: "List a tenant's outbound events, newest first (the relayed ones, docs/webhooks.md).",
  },
  'events show': {
    usage: 'events show ID --sub-brand ID --env test|live',
    summary: 'Show one event with its data.',
  },
  'webhooks list': {
    usage: 'webhooks list --sub-brand ID --env test|live',
    summary: "List a tenant's webhook endpoints: URL, status, event types.",
  },
  'webhooks create': {
    usage:
      'webhooks create --sub-brand ID --env test|live --url URL [--types T1,T2] [--description D]',
    summary: 'Add a webhook endpoint; its signing secret (whsec_…) is printed once.',
  },
  'webhooks disable': {
    usage: 'webhooks disable ID --sub-brand ID --env test|live',
    summary: 'Stop deliveries to an endpoint.',
  },
  'webhooks enable': {
    usage: 'webhooks enable ID --sub-brand ID --env test|live',
    summary: 'Resume deliveries to an endpoint (it forgets why it was disabled).',
  },
  'webhooks delete': {
    usage: 'webhooks delete ID --sub-brand ID --env test|live',
    summary: 'Delete an endpoint with its deliveries.',
  },
  'webhooks rotate': {
    usage: 'webhooks rotate ID --sub-brand ID --env test|live',
    summary: 'New signing secret, printed once; the old one also signs for 24 hours.',
  },
  'webhooks deliveries': {
    usage: 'webhooks deliveries ID --sub-brand ID --env test|live [--limit N (20; at most 100)]',
    summary: "List an endpoint's deliveries, newest first, with their last attempt.",
  },
  'rg show': {
    usage: 'rg show CUSTOMER_ID',
    summary:
      "Show a customer's responsible-gaming state and its last changes (docs/compliance.md).",
  },
  'rg set': {
    usage:
      'rg set CUSTOMER_ID --state none|cool_off|self_excluded|limit_reached [--until ISO] [--source operator|player|regulator] [--note TEXT] [--reason TEXT]',
    summary: 'Set it; shortening or lifting an active state needs --reason.',
  },
  'expiry show': {
    usage: 'expiry show SUB_BRAND_ID',
    summary: "Show a sub-brand's coin expiry policy (docs/expiry-and-holds.md).",
  },
  'expiry set': {
    usage:
      'expiry set SUB_BRAND_ID --policy none|rolling_days|fixed_date|inactivity_days [--days N] [--month M --day D]',
    summary: 'Set when its coins expire; applies to coins credited from then on.',
  },
  'jurisdiction show': {
    usage: 'jurisdiction show SUB_BRAND_ID',
    summary:
      "Show a sub-brand's jurisdiction and its live mixed-product incentives (docs/compliance.md).",
  },
  'jurisdiction set': {
    usage: 'jurisdiction set SUB_BRAND_ID --jurisdiction none|UKGC|MGA',
    summary: 'Set whose incentive rules apply; UKGC is refused while mixed-product incentives run.',
  },
  'webhooks replay': {
    usage: 'webhooks replay ID --sub-brand ID --env test|live --from ISO --to ISO',
    summary: "Send an endpoint again the window's events it receives.",
  },
} satisfies Record<string, CommandHelp>;

export type CommandName = keyof typeof USAGE;
const HELP: Record<string, CommandHelp> = USAGE;

/** The command an argument list names ("key create"), or undefined. */
export function commandName(args: string[]): CommandName | undefined {
  const two = `${args[0]} ${args[1]}`;
  if (HELP[two]) return two as CommandName;
  return args[0] && HELP[args[0]] ? (args[0] as CommandName) : undefined;
}

export function generalHelp(): string {
  const width = Math.max(...Object.keys(USAGE).map((n) => n.length));
  return [
    'Usage: npm run admin -- <command> [options] [--json]',
    '',
    'Commands:',
    ...Object.entries(USAGE).map(([name, h]) => `  ${name.padEnd(width)}  ${h.summary}`),
    '',
    "`npm run admin -- <command> --help` shows a command's options. With --json every command",
    'prints one JSON object (on failure {"error":{"code","message"}}; exit 1, or 2 for usage).',
    'On the embedded database, a running server executes the commands for the CLI.',
  ].join('\n');
}

export function commandHelp(name: CommandName): string {
  const h = HELP[name]!;
  return `${h.summary}\n\nUsage: npm run admin -- ${h.usage} [--json]`;
}

export type AdminResult = { code: number; out: string; stream: 'stdout' | 'stderr' };

export function unknownCommand(args: string[]): string {
  return args.length ? `Unknown command: ${args.slice(0, 2).join(' ')}` : 'No command given.';
}

/**
 * A failed command: with --json one error object on stdout, else the message on stderr; a usage
 * error (exit 2) also shows how to call the command, or the command list.
 */
export function failure(
  json: boolean,
  code: string,
  message: string,
  exit: number,
  command?: CommandName,
): AdminResult {
  if (json)
    return { code: exit, stream: 'stdout', out: JSON.stringify({ error: { code, message } }) };
  const help = exit !== 2 ? '' : `\n\n${command ? commandHelp(command) : generalHelp()}`;
  return { code: exit, stream: 'stderr', out: `${message}${help}` };
}
