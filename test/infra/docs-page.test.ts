import { afterAll, describe, expect, it } from 'vitest';
import { platformContracts } from '../../functions/platform/contracts.ts';
import { handler as getDocs } from '../../functions/platform/get-docs.ts';
import { apiEvent } from '../support/events.ts';
import { cleanUp, synthStack } from './synth.ts';

afterAll(cleanUp);

type Fn = { Properties: { Environment?: { Variables?: Record<string, unknown> } } };

/**
 * Issue 33 item 4, on AWS: the API reference page the deployed function serves loads no
 * third-party script. It used to take its Swagger UI from a public CDN on AWS (jsDelivr, through a
 * setting only the stack set), so the local page's `script-src 'self'` said nothing about AWS.
 */
describe('the API reference page as the stack deploys it', () => {
  const { template } = synthStack(platformContracts);
  const functions = Object.values(template.findResources('AWS::Lambda::Function') as Record<string, Fn>);
  const environmentOf = (key: string) =>
    functions.find((fn) => fn.Properties.Environment?.Variables?.ROUTE_KEY === key)?.Properties.Environment
      ?.Variables;

  it("loads its scripts and styles from this API only, with the /docs function's own environment", async () => {
    const env = environmentOf('GET /docs');
    expect(env).toBeDefined();
    const settings = Object.entries(env ?? {}).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    );
    // The only URL the function is given in plain text is the web app's origin (the CDN's is a token).
    expect(settings.filter(([, value]) => /^https?:\/\//.test(value)).map(([name]) => name)).toEqual([
      'SITE_URL',
    ]);
    const saved = { ...process.env };
    Object.assign(process.env, Object.fromEntries(settings));
    try {
      const res = await getDocs(apiEvent({ route: 'GET /docs' }));
      const csp = String(res.headers?.['content-security-policy']);
      expect(csp).toMatch(/(^|; )script-src 'self' 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
      expect(csp).toMatch(/(^|; )style-src 'self' 'unsafe-inline'(;|$)/);
      expect(csp).not.toMatch(/https?:|\*/);
      const sources = [...String(res.body).matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      expect(sources.length).toBe(2);
      for (const source of sources) expect(source).toMatch(/^\/docs\/assets\//);
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
    }
  });

  it('serves the assets from a route of its own, whose function ships the package files', () => {
    expect(environmentOf('GET /docs/assets/{name}')).toBeDefined();
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'GET /docs/assets/{name}' });
  });
});
