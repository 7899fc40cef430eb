import { lookup as dnsLookup } from 'node:dns/promises';
import { isIPv4, isIPv6 } from 'node:net';

/**
 * The SSRF guard of webhook callbacks (docs/webhooks.md, "SSRF"). A callback may only reach a
 * public unicast address: private, loopback, link-local, shared, documentation, benchmarking,
 * multicast, reserved and protocol-assignment ranges (IANA's special-purpose registries) are
 * refused, for IPv4 and IPv6 alike, including IPv4 hidden in IPv6 (mapped `::ffff:a.b.c.d`,
 * 6to4, NAT64). Hosts are checked on the addresses they resolve to, at subscribe time and again
 * at every delivery, and a delivery connects to the very address it checked (`pinnedLookup`), so
 * a name that re-resolves to an internal address between check and connect (DNS rebinding) gets
 * nowhere. Decimal, octal and hex IPv4 spellings (`https://2130706433/`, `https://0177.0.0.1/`)
 * are normalised by the WHATWG URL parser before any check.
 */

/** `[prefix bytes, prefix length in bits]` */
type Range = readonly [readonly number[], number];

const v4 = (cidr: string): Range => {
  const [address, bits] = cidr.split('/') as [string, string];
  return [address.split('.').map(Number), Number(bits)];
};

/** IPv4 special-purpose ranges (RFC 6890 and its updates) a callback never reaches. */
const BLOCKED_V4: readonly Range[] = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.31.196.0/24',
  '192.52.193.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '192.175.48.0/24',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
].map(v4);

const inRange = (bytes: readonly number[], [prefix, bits]: Range): boolean => {
  for (let i = 0; i < bits; i += 8) {
    const take = Math.min(8, bits - i);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[i / 8] ?? 0) & mask) !== ((prefix[i / 8] ?? 0) & mask)) return false;
  }
  return true;
};

const parseV4 = (address: string): number[] => address.split('.').map(Number);

/** The 16 bytes of an IPv6 address (`net.isIPv6` already said it is one, without a zone). */
const parseV6 = (address: string): number[] => {
  let text = address.toLowerCase();
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    tail.push(...parseV4(dotted[1]!));
    text = `${text.slice(0, -dotted[1]!.length)}0:0`;
  }
  const [head = '', rest] = text.split('::') as [string, string | undefined];
  const groups = (part: string) => (part ? part.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const words = [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  const bytes = words.flatMap((word) => [(word >> 8) & 0xff, word & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
};

const v6 = (hex: string, bits: number): Range => [parseV6(hex), bits];

/** Only global unicast (2000::/3) is ever public; within it, these are not. */
const GLOBAL_UNICAST = v6('2000::', 3);
const BLOCKED_V6: readonly Range[] = [
  v6('2001::', 23), // IETF protocol assignments: Teredo, benchmarking, ORCHID...
  v6('2001:db8::', 32), // documentation
  v6('3fff::', 20), // documentation (RFC 9637)
];
const SIX_TO_FOUR = v6('2002::', 16);

/** Is `address` (an IP literal) one a webhook may be delivered to? */
export const isPublicAddress = (address: string): boolean => {
  if (isIPv4(address)) {
    const bytes = parseV4(address);
    return !BLOCKED_V4.some((range) => inRange(bytes, range));
  }
  // A zone id (`fe80::1%eth0`) only exists on link-local addresses.
  if (!isIPv6(address) || address.includes('%')) return false;
  const bytes = parseV6(address);
  // IPv4-mapped (::ffff:0:0/96) and the deprecated IPv4-compatible (::/96): the IPv4 inside.
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (mapped) return isPublicAddress(bytes.slice(12).join('.'));
  if (!inRange(bytes, GLOBAL_UNICAST)) return false;
  if (BLOCKED_V6.some((range) => inRange(bytes, range))) return false;
  // 6to4 carries an IPv4 address in bits 16-47.
  if (inRange(bytes, SIX_TO_FOUR)) return isPublicAddress(bytes.slice(2, 6).join('.'));
  return true;
};

/** Why a callback URL was refused (the API's 422 message, the sender's log reason). */
export class CallbackRefusedError extends Error {
  override name = 'CallbackRefusedError';
}

export interface CallbackPolicy {
  /**
   * `LOCAL_WEBHOOK_CALLBACKS=private`, a setting no stack sets (only the local platform passes it
   * through, when the tests or the developer set it; never by default, issue 33): plain http,
   * any port and private or loopback addresses are allowed, so receivers on this machine get deliveries. No
   * branch on the stage (issue 35): what a function may do follows from its settings alone.
   */
  allowPrivate: boolean;
}

/** The policy of this function: private callbacks only by the explicit local setting. */
export const callbackPolicy = (env: NodeJS.ProcessEnv = process.env): CallbackPolicy => ({
  allowPrivate: env.LOCAL_WEBHOOK_CALLBACKS === 'private',
});

/** The URL's host as an address or a name: `[::1]` → `::1`. */
const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * What a callback URL must be before any address is looked at: https on its default port, 443
 * (locally also http, and any port), no credentials, at most 2,048 characters. Returns the parsed
 * URL (hosts normalised; the parser drops a spelt-out `:443`, so `port` is empty for it). The port
 * rule keeps the sender from reaching a public host's other services (SMTP, databases, admin
 * ports): docs/webhooks.md "SSRF". Messages never quote the URL (the sender logs them).
 */
export const parseCallback = (callback: string, policy: CallbackPolicy): URL => {
  if (callback.length > 2048) throw new CallbackRefusedError('callback must be at most 2048 characters');
  let url: URL;
  try {
    url = new URL(callback);
  } catch {
    throw new CallbackRefusedError('callback must be an absolute URL');
  }
  const schemes = policy.allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) throw new CallbackRefusedError('callback must use https');
  if (url.username || url.password) throw new CallbackRefusedError('callback must not carry credentials');
  if (!url.hostname) throw new CallbackRefusedError('callback must name a host');
  if (url.port !== '' && !policy.allowPrivate)
    throw new CallbackRefusedError('callback must use the default https port (443)');
  return url;
};

export type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * The addresses `host` resolves to, every one of them allowed by `policy` (else
 * CallbackRefusedError): one internal address among public ones is enough to refuse, since the
 * connection could use any of them.
 */
export const allowedAddresses = async (
  host: string,
  policy: CallbackPolicy,
  resolve: Resolver = systemResolver,
): Promise<Array<{ address: string; family: number }>> => {
  const literal = isIPv4(host) || isIPv6(host);
  let addresses: Array<{ address: string; family: number }>;
  if (literal) addresses = [{ address: host, family: isIPv4(host) ? 4 : 6 }];
  else {
    addresses = await resolve(host).catch(() => {
      throw new CallbackRefusedError('callback host does not resolve');
    });
  }
  if (addresses.length === 0) throw new CallbackRefusedError('callback host does not resolve');
  if (!policy.allowPrivate && addresses.some(({ address }) => !isPublicAddress(address)))
    throw new CallbackRefusedError('callback must resolve to public addresses only');
  return addresses;
};

/** Subscribe-time check: the URL's form, then every address its host resolves to. */
export const checkCallback = async (
  callback: string,
  policy: CallbackPolicy,
  resolve: Resolver = systemResolver,
): Promise<URL> => {
  const url = parseCallback(callback, policy);
  await allowedAddresses(hostOf(url), policy, resolve);
  return url;
};

type LookupCallback = (
  error: Error | null,
  address: string | Array<{ address: string; family: number }>,
  family?: number,
) => void;

/**
 * A `lookup` for `http.request` that resolves, checks every address, and hands the socket only
 * what it checked: the connection goes to a checked address whatever the name resolves to a
 * moment later. (IP-literal hosts never reach a lookup: check them with `allowedAddresses`.)
 */
export const pinnedLookup =
  (policy: CallbackPolicy, resolve: Resolver = systemResolver) =>
  (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    allowedAddresses(hostname, policy, resolve).then(
      (addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: Error) => callback(error, ''),
    );
  };

export { hostOf as callbackHost };
