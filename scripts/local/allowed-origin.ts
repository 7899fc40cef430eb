/**
 * IVS's `aws:access-control-allow-origin` rule, which the playback and media CDN stand-ins both
 * apply: a comma-separated list of origins, each exact or with a hostname starting `*.`
 * (`https://*.example.com`), `*` for any. Answers the origin to echo in
 * `Access-Control-Allow-Origin` when `origin` is allowed, undefined when it is not.
 */
export const allowedOrigin = (list: string, origin: string): string | undefined => {
  const entries = list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const matches = (entry: string) => {
    if (entry === '*' || entry === origin) return true;
    const wildcard = /^([a-z]+:\/\/)\*(\.[^/:]+)(:\d+)?$/.exec(entry);
    if (!wildcard) return false;
    const [, scheme, domain, port = ''] = wildcard;
    const parsed = /^([a-z]+:\/\/)([^/:]+)(:\d+)?$/.exec(origin);
    return (
      parsed !== null && parsed[1] === scheme && parsed[2]!.endsWith(domain!) && (parsed[3] ?? '') === port
    );
  };
  return entries.some(matches) ? origin : undefined;
};
