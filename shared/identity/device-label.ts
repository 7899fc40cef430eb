/**
 * A short, human label for the device a sign-in came from, made from its `User-Agent` header
 * ("Chrome on macOS", "iPhone app", "Unknown device"): shown in `GET /me/sessions` so a person can
 * recognise their devices. A label, not a fingerprint: only the browser or app family and the
 * operating system are kept, never the full header (it can carry versions that identify a device).
 */
const SYSTEMS: ReadonlyArray<[RegExp, string]> = [
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/CrOS/, 'ChromeOS'],
  [/Mac OS X|Macintosh|Darwin/, 'macOS'],
  [/Linux/, 'Linux'],
];

const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Version\/[\d.]+.*Safari\//, 'Safari'],
];

/** Native clients' HTTP stacks (iOS, Android): they mean "the app" rather than a browser. */
const NATIVE_APP = /CFNetwork|Alamofire|okhttp|Dalvik/i;

const first = (table: ReadonlyArray<[RegExp, string]>, ua: string) =>
  table.find(([pattern]) => pattern.test(ua))?.[1];

/** The label for a `User-Agent` header (any string, or none). */
export const deviceLabel = (userAgent: string | undefined): string => {
  const ua = (userAgent ?? '').slice(0, 512);
  if (!ua.trim()) return 'Unknown device';
  const system = first(SYSTEMS, ua);
  if (NATIVE_APP.test(ua)) return `${system ?? 'Mobile'} app`;
  const browser = first(BROWSERS, ua);
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  if (system) return `${system} device`;
  return 'Unknown device';
};
