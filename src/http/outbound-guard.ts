// The one guard for every URL the service fetches on someone else's say-so (webhook targets,
// identity providers, client metadata documents). URLs are checked before any lookup, and the
// address is checked again where it matters: in the DNS lookup the socket connects with, so an
// answer that changes between a check and the connection cannot slip through.
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

export interface TargetPolicy {
  allowHttp: boolean;
  allowPrivate: boolean;
  /**
   * When set, only these ports (the default port of the scheme counts as its number); ignored when private targets are
   * allowed.
   */
  ports?: readonly number[];
}

export class TargetRefused extends Error {}

// Never a target, whatever the configuration says.
const NEVER = new Set(['unspecified', 'multicast', 'broadcast']);

// ipaddr's range names (and ours, ipv4Compatible) as a person writes them; any other camelCase name
// is split into lower-case words (`amt`, `reserved`, `benchmarking` read as they are).
const RANGE_WORDS: Record<string, string> = {
  linkLocal: 'link-local',
  uniqueLocal: 'unique local',
  ipv4Mapped: 'IPv4-mapped',
  ipv4Compatible: 'IPv4-compatible',
  carrierGradeNat: 'carrier-grade NAT',
  '6to4': '6to4',
};
const wordsOf = (range: string) =>
  RANGE_WORDS[range] ?? range.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);
// Words that start with a vowel letter but not a vowel sound, and those that start with a vowel sound.
const articleOf = (words: string) => (/^(?:[aeio]|un(?!ique)|IPv4)/.test(words) ? 'an' : 'a');

/**
 * Why an address may not be a target, or null when it may. Only public unicast passes unless private targets are
 * allowed.
 */
export function addressRefusal(address: string, policy: Pick<TargetPolicy, 'allowPrivate'>): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  // IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it is.
  const parsed = ipaddr.process(address);
  // IPv4-compatible IPv6 (::127.0.0.1, written ::7f00:1 by URL parsers) is deprecated and
  // routes to the embedded IPv4 address on some stacks: never public.
  // (`::` and `::1` have ranges of their own, unspecified and loopback, and keep them.)
  const named = parsed.range();
  const range =
    named === 'unicast' &&
    parsed.kind() === 'ipv6' &&
    (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)
      ? 'ipv4Compatible'
      : named;
  if (range === 'unicast') return null;
  if (NEVER.has(range) || !policy.allowPrivate) {
    const words = wordsOf(range);
    return `${address} is ${articleOf(words)} ${words} address`;
  }
  return null;
}

const MAX_URL_LENGTH = 2048;

/** Problems with a URL before any DNS lookup, or null. */
export function urlRefusal(text: string, policy: TargetPolicy): string | null {
  if (text.length > MAX_URL_LENGTH) return `the URL is longer than ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not an absolute URL';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp))
    return policy.allowHttp ? 'the URL must use https or http' : 'the URL must use https';
  if (url.username || url.password) return 'the URL must not carry credentials';
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (policy.ports && !policy.allowPrivate && !policy.ports.includes(port)) return `port ${port} is not allowed`;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) return addressRefusal(host, policy);
  // A fully qualified name may end in a dot (`localhost.`): the same name to the resolver.
  const name = host.replace(/\.$/, '');
  if (!policy.allowPrivate && (name === 'localhost' || name.endsWith('.localhost')))
    return `${host} is a loopback name`;
  return null;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/** A dns.lookup for http.request that fails the connection when any resolved address is refused. */
export function guardedLookup(policy: Pick<TargetPolicy, 'allowPrivate'>) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      for (const { address } of addresses) {
        const refusal = addressRefusal(address, policy);
        if (refusal)
          return callback(
            Object.assign(new TargetRefused(`${hostname} resolves to ${refusal}`), { code: 'ETARGETREFUSED' }),
            '',
          );
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
