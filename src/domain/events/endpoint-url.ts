// Where a webhook may be sent (docs/webhooks.md, "Endpoints"): a live endpoint is https and its
// host may not be, or resolve to, an address of this network or of a cloud's metadata service,
// so a partner cannot make us call our own infrastructure (SSRF). Checked when the endpoint is
// saved (the URL as written) and again at every send, on the addresses DNS answered then (the
// sender connects only to an address that passed). A test endpoint may also be plain http on
// loopback, for a receiver on the developer's own machine.
import { BlockList, isIP } from 'node:net';
import type { Environment } from '../../generated/prisma/enums.js';

/** Not a public address: private, loopback, link-local (metadata), shared, reserved, multicast. */
const INTERNAL = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT; Alibaba's metadata is 100.100.100.200
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local; AWS, GCP and Azure metadata is 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  INTERNAL.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local; AWS's IPv6 metadata fd00:ec2::254
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96], // NAT64 of an IPv4 address
] as const)
  INTERNAL.addSubnet(net, bits, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Names that are internal whatever DNS says. */
const INTERNAL_NAMES =
  /^(localhost|metadata|metadata\.google\.internal)$|\.(localhost|internal|local)$/i;

/** An IPv4-mapped IPv6 address is checked as the IPv4 address it is. */
function plain(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

const isLoopback = (address: string) => {
  const p = plain(address);
  return LOOPBACK.check(p.address, p.family);
};

/** Whether the sender may connect to this resolved address for an endpoint of `environment`. */
export function addressAllowed(address: string, environment: Environment): boolean {
  const p = plain(address);
  if (!INTERNAL.check(p.address, p.family)) return true;
  return environment === 'test' && isLoopback(address);
}

/** What is wrong with a URL as an endpoint of `environment`, or null. */
export function endpointUrlProblem(raw: string, environment: Environment): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not carry credentials';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host) !== 0;
  const loopbackHost = literal ? isLoopback(host) : /^localhost$/i.test(host);
  if (url.protocol === 'http:') {
    if (environment === 'test' && loopbackHost) return null;
    return environment === 'test'
      ? 'must be https (plain http only on loopback, for a local receiver)'
      : 'must be https';
  }
  if (url.protocol !== 'https:') return 'must be https';
  if (environment === 'test' && loopbackHost) return null;
  if (literal ? !addressAllowed(host, environment) : INTERNAL_NAMES.test(host))
    return 'must be a public address, not a private, loopback, link-local or metadata one';
  return null;
}
