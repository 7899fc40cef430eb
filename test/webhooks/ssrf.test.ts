import { describe, expect, it } from 'vitest';
import {
  allowedAddresses,
  CallbackRefusedError,
  checkCallback,
  isPublicAddress,
  parseCallback,
  pinnedLookup,
  type Resolver,
} from '../../shared/webhooks/ssrf.ts';

const aws = { allowPrivate: false };
const local = { allowPrivate: true };
const resolvesTo =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('the SSRF guard of webhook callbacks', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254', // instance metadata
    '100.64.0.1', // carrier-grade NAT
    '0.0.0.0',
    '198.18.0.1',
    '192.0.2.10',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1', // IPv4-mapped loopback
    '::ffff:7f00:1', // the same, in hex
    '::ffff:169.254.169.254',
    '::127.0.0.1', // IPv4-compatible
    '64:ff9b::a9fe:a9fe', // NAT64 of the metadata address
    '2002:7f00:1::', // 6to4 of 127.0.0.1
    '2001:db8::1', // documentation
    '2001::1', // Teredo
    'fe80::1%eth0',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '2002:808:808::1'])(
    'allows the public address %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it.each([
    ['https://2130706433/hook', 'decimal'],
    ['https://0177.0.0.1/hook', 'octal'],
    ['https://0x7f.0.0.1/hook', 'hex'],
    ['https://127.1/hook', 'short form'],
    ['https://[::ffff:127.0.0.1]/hook', 'IPv6-mapped literal'],
    ['https://[::1]/hook', 'IPv6 loopback literal'],
  ])('refuses %s (%s spelling of loopback) on AWS', async (url) => {
    await expect(checkCallback(url, aws, resolvesTo('93.184.215.14'))).rejects.toThrow(
      'callback must resolve to public addresses only',
    );
  });

  it('refuses a name if ANY address it resolves to is internal; allows all-public names', async () => {
    await expect(
      checkCallback('https://hooks.example.com/x', aws, resolvesTo('93.184.215.14', '10.0.0.5')),
    ).rejects.toBeInstanceOf(CallbackRefusedError);
    await expect(
      checkCallback('https://hooks.example.com/x', aws, resolvesTo('93.184.215.14')),
    ).resolves.toBeInstanceOf(URL);
  });

  it('refuses http, credentials and non-URLs on AWS; the local setting allows http on loopback', async () => {
    expect(() => parseCallback('http://hooks.example.com/x', aws)).toThrow('callback must use https');
    expect(() => parseCallback('https://user:pw@hooks.example.com/x', aws)).toThrow('credentials');
    expect(() => parseCallback('not a url', aws)).toThrow('absolute URL');
    expect(() => parseCallback('file:///etc/passwd', local)).toThrow('https');
    await expect(checkCallback('http://127.0.0.1:4000/x', local)).resolves.toBeInstanceOf(URL);
  });

  it("refuses any port but https's default on AWS (443, spelt or not); the local setting allows any", async () => {
    for (const url of [
      'https://hooks.example.com:8443/x',
      'https://hooks.example.com:25/x',
      'https://hooks.example.com:80/x',
      'https://[2606:4700::1111]:444/x',
    ])
      expect(() => parseCallback(url, aws), url).toThrow('callback must use the default https port (443)');
    expect(parseCallback('https://hooks.example.com:443/x', aws).port).toBe('');
    await expect(
      checkCallback('https://hooks.example.com/x', aws, resolvesTo('93.184.215.14')),
    ).resolves.toBeInstanceOf(URL);
    expect(parseCallback('https://hooks.example.com:8443/x', local).port).toBe('8443');
  });

  it('a name that does not resolve is refused', async () => {
    const fails: Resolver = async () => {
      throw new Error('ENOTFOUND');
    };
    await expect(allowedAddresses('nowhere.invalid', aws, fails)).rejects.toThrow('does not resolve');
  });

  it('DNS rebinding: the delivery-time lookup checks what it resolves NOW and hands the socket only that', async () => {
    let answers = ['93.184.215.14'];
    const rebinding: Resolver = async () => answers.map((address) => ({ address, family: 4 }));
    const lookup = pinnedLookup(aws, rebinding);
    const call = (all: boolean) =>
      new Promise<{ error: Error | null; address: unknown }>((resolve) =>
        lookup('hooks.example.com', { all }, (error, address) => resolve({ error, address })),
      );
    expect(await call(false)).toEqual({ error: null, address: '93.184.215.14' });
    answers = ['169.254.169.254'];
    const rebound = await call(true);
    expect(rebound.error).toBeInstanceOf(CallbackRefusedError);
  });
});
