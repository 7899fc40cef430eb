import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { eventPublisherRow } from '../../functions/events/worker.ts';
import { workers } from '../../functions/workers.ts';
import { paymentWorkers } from '../../functions/payments/workers.ts';
import { webhookWorkers } from '../../functions/webhooks/workers.ts';
import { mailWorkers } from '../../functions/mail/workers.ts';
import { accountWorkers } from '../../functions/accounts/workers.ts';
import { realtimeWorkers } from '../../functions/realtime/workers.ts';
import { resolveSettings, SETTINGS, settingsFromContext } from '../../infra/settings.ts';
import { ApiStack } from '../../infra/stack.ts';
import { functionKey } from '../../shared/routing/function-row.ts';
import { cleanUp, newApp, PROD_SETTINGS, placeholderCode, SYNTH_TIMEOUT, synthStack } from './synth.ts';

afterAll(cleanUp);

const REQUIRED = [
  'googleClientId',
  'alarmEmail',
  'siteUrl',
  'playbackKeys',
  'mailFrom',
  'target',
  'creatorSecondFactor',
  'devTargets',
] as const;

/** The message synth fails with, or undefined when the stack builds. */
const prodSynthError = (settings: Partial<Record<(typeof REQUIRED)[number], string>>): string | undefined => {
  const { app } = newApp();
  try {
    new ApiStack(app, 'Prod', {
      stage: 'prod',
      routes: routes.slice(0, 1),
      code: placeholderCode,
      ...settings,
    });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('prod settings are required', () => {
  it('fails without any, naming every missing setting in one message', () => {
    const message = prodSynthError({});
    expect(message).toMatch(/^Stage prod cannot be synthesized: 8 setting\(s\) missing or invalid/);
    for (const name of REQUIRED) expect(message).toContain(`  - ${name}: missing (`);
    // Each line says how to pass it.
    expect(message).toContain('-c googleClientId=123456789-abc.apps.googleusercontent.com');
  });

  it('names only what is missing', () => {
    for (const name of REQUIRED) {
      const { [name]: _, ...rest } = PROD_SETTINGS;
      const message = prodSynthError(rest);
      expect(message, name).toContain('1 setting(s)');
      expect(message, name).toContain(`  - ${name}: missing`);
      for (const other of REQUIRED.filter((n) => n !== name)) expect(message).not.toContain(`  - ${other}:`);
    }
  });

  it('rejects malformed values and the dev placeholders', () => {
    const message = prodSynthError({
      googleClientId: SETTINGS.googleClientId.placeholder,
      alarmEmail: 'oncall',
      siteUrl: 'http://site.example.org/app',
      playbackKeys: '2026-11,2027-02,2027-05',
    });
    expect(message).toContain('googleClientId: "unset.apps.googleusercontent.com" is the dev placeholder');
    expect(message).toContain('alarmEmail: "oncall" is not valid');
    expect(message).toContain('siteUrl: "http://site.example.org/app" is not valid');
    // A third generation would fill IVS's three key slots: no room left to rotate.
    expect(message).toContain('playbackKeys: "2026-11,2027-02,2027-05" is not valid');
    expect(prodSynthError({ ...PROD_SETTINGS, playbackKeys: 'dev-1' })).toContain(
      'playbackKeys: "dev-1" is the dev placeholder',
    );
  });

  it(
    'builds with every setting, and puts each where it is used',
    () => {
      expect(prodSynthError(PROD_SETTINGS)).toBeUndefined();
      const { template } = synthStack(routes, { stage: 'prod' });
      const fns = Object.values(template.findResources('AWS::Lambda::Function')) as Array<{
        Properties: { Environment?: { Variables?: Record<string, unknown> } };
      }>;
      const apiFns = fns.filter((f) => f.Properties.Environment?.Variables?.ROUTE_KEY !== undefined);
      // Every row's function: the routes', the workers' (projector, recompute, rebuild) and the
      // event publisher's (infra/events.ts), the webhook fan-out's and sender's (infra/webhooks.ts).
      expect(apiFns).toHaveLength(
        routes.length +
          workers.length +
          1 +
          webhookWorkers.length +
          mailWorkers.length +
          paymentWorkers.length +
          accountWorkers.length +
          realtimeWorkers.length,
      );
      // handle_url is `${SITE_URL}/@<handle>`: every function gets the site origin.
      for (const fn of apiFns)
        expect(fn.Properties.Environment!.Variables!.SITE_URL).toBe(PROD_SETTINGS.siteUrl);
      const signers = apiFns.filter(
        (f) => f.Properties.Environment!.Variables!.GOOGLE_CLIENT_ID !== undefined,
      );
      expect(signers.length).toBeGreaterThan(0);
      for (const fn of signers) {
        expect(fn.Properties.Environment!.Variables!.GOOGLE_CLIENT_ID).toBe(PROD_SETTINGS.googleClientId);
      }
      template.hasResourceProperties('AWS::SNS::Subscription', {
        Protocol: 'email',
        Endpoint: PROD_SETTINGS.alarmEmail,
      });
      // One key pair per generation; the signers read the newest generation's secret.
      const pairs = Object.values(template.findResources('Custom::IvsPlaybackKeyPair')) as Array<{
        Properties: { Name: unknown; SecretArn: { Ref: string } };
      }>;
      expect(pairs.map((p) => JSON.stringify(p.Properties.Name))).toEqual([
        expect.stringContaining('-2026-11'),
        expect.stringContaining('-2027-02'),
      ]);
      const playbackSigners = apiFns.filter(
        (f) => f.Properties.Environment!.Variables!.PLAYBACK_KEY_SECRET_ARN,
      );
      expect(playbackSigners.length).toBeGreaterThan(0);
      for (const fn of playbackSigners) {
        expect(fn.Properties.Environment!.Variables!.PLAYBACK_KEY_SECRET_ARN).toEqual({
          Ref: pairs[1]!.Properties.SecretArn.Ref,
        });
        expect(fn.Properties.Environment!.Variables!.PLAYBACK_ALLOW_ORIGIN).toBe(PROD_SETTINGS.siteUrl);
      }
      // creatorSecondFactor: every studio function and GET/PATCH /me, and nothing else.
      const policy = apiFns.filter((f) => f.Properties.Environment!.Variables!.CREATOR_SECOND_FACTOR);
      expect(policy.map((f) => String(f.Properties.Environment!.Variables!.ROUTE_KEY)).sort()).toEqual(
        routes
          .filter((row) => row.path.startsWith('/studio/') || row.needs?.includes('second-factor-policy'))
          .map((row) => `${row.method} ${row.path}`)
          .sort(),
      );
      for (const fn of policy)
        expect(fn.Properties.Environment!.Variables!.CREATOR_SECOND_FACTOR).toBe(
          PROD_SETTINGS.creatorSecondFactor,
        );
    },
    SYNTH_TIMEOUT,
  );

  it('normalizes a site URL given with a trailing slash (no `//@handle`)', () => {
    expect(resolveSettings('prod', { ...PROD_SETTINGS, siteUrl: 'https://site.example.org/' }).siteUrl).toBe(
      'https://site.example.org',
    );
  });
});

describe('prod does not share IVS playback key slots with dev', () => {
  it('refuses a prod target that is also a dev target, naming the quota', () => {
    const message = prodSynthError({
      ...PROD_SETTINGS,
      devTargets: `210987654321/eu-west-1,${PROD_SETTINGS.target}`,
    });
    expect(message).toContain('1 setting(s)');
    expect(message).toMatch(
      /target: 123456789012\/eu-west-1 is also where dev deploys.*3 playback key pairs per account and region/,
    );
    // Another region of the same account has slots of its own; `none` says no dev stack exists.
    expect(prodSynthError({ ...PROD_SETTINGS, devTargets: '123456789012/us-east-1' })).toBeUndefined();
    expect(prodSynthError({ ...PROD_SETTINGS, devTargets: 'none' })).toBeUndefined();
  });

  it('refuses to deploy where the CLI says it is not the target', () => {
    expect(() =>
      resolveSettings('prod', PROD_SETTINGS, { account: '999999999999', region: 'eu-west-1' }),
    ).toThrow(/is not where this deploy goes \(999999999999\/eu-west-1/);
    expect(
      resolveSettings('prod', PROD_SETTINGS, { account: '123456789012', region: 'eu-west-1' }).target,
    ).toBe(PROD_SETTINGS.target);
    // Dev checks neither.
    expect(() =>
      resolveSettings('dev', { target: '123456789012/eu-west-1', devTargets: '123456789012/eu-west-1' }),
    ).not.toThrow();
  });
});

describe('dev keeps working placeholders', () => {
  it(
    'builds with no setting, with the same defaults the local platform uses',
    () => {
      expect(resolveSettings('dev', {})).toEqual({
        googleClientId: 'unset.apps.googleusercontent.com',
        siteUrl: 'https://creators.example.com',
        playbackKeys: 'dev-1',
        mailFrom: 'no-reply@creators.example.com',
      });
      const { app } = newApp();
      const stack = new ApiStack(app, 'Dev', {
        stage: 'dev',
        routes: routes.slice(0, 1),
        code: placeholderCode,
      });
      expect(stack.functions).toHaveLength(1);
    },
    SYNTH_TIMEOUT,
  );

  it('still checks the shape of a value it is given', () => {
    expect(() => resolveSettings('dev', { siteUrl: 'creators.example.com' })).toThrow(
      /siteUrl: "creators.example.com" is not valid/,
    );
  });

  it(
    'gives the handle_url builders the placeholder site origin',
    () => {
      const { template } = synthStack(routes.filter((r) => r.handler.startsWith('identity/')));
      const fns = Object.values(template.findResources('AWS::Lambda::Function')) as Array<{
        Properties: { Environment?: { Variables?: Record<string, unknown> } };
      }>;
      const identity = fns.filter((f) => f.Properties.Environment?.Variables?.ROUTE_KEY !== undefined);
      expect(identity.map((f) => f.Properties.Environment!.Variables!.ROUTE_KEY).sort()).toEqual(
        [
          ...routes.filter((r) => r.handler.startsWith('identity/')),
          ...workers,
          eventPublisherRow,
          ...webhookWorkers,
          ...paymentWorkers,
          ...mailWorkers,
          ...accountWorkers,
          ...realtimeWorkers,
        ]
          .map(functionKey)
          .sort(),
      );
      for (const fn of identity)
        expect(fn.Properties.Environment!.Variables!.SITE_URL).toBe('https://creators.example.com');
    },
    SYNTH_TIMEOUT,
  );
});

describe('settings come from CDK context', () => {
  it('reads each setting by its name, trimmed; empty values count as missing', () => {
    const app = new App({
      context: {
        googleClientId: ' a.apps.googleusercontent.com ',
        alarmEmail: '',
        siteUrl: 'https://s.example.org',
      },
    });
    expect(settingsFromContext((key) => app.node.tryGetContext(key))).toEqual({
      googleClientId: 'a.apps.googleusercontent.com',
      siteUrl: 'https://s.example.org',
    });
  });

  it(
    'makes the CDK app (infra/app.ts) fail for prod without them, naming each',
    () => {
      let output = '';
      try {
        execFileSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../../infra/app.ts')], {
          env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify({ stage: 'prod', bundle: 'false' }) },
          encoding: 'utf8',
          stdio: 'pipe',
        });
      } catch (error) {
        output = String((error as { stderr: string }).stderr);
      }
      expect(output).toContain('Stage prod cannot be synthesized: 8 setting(s) missing or invalid');
      for (const name of REQUIRED) expect(output).toContain(`  - ${name}: missing`);
    },
    SYNTH_TIMEOUT,
  );
});

describe('the prod command of docs/operations.md', () => {
  it('passes every required setting (copied as it is, synth must not stop on a missing one)', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../docs/operations.md'), 'utf8');
    const prod = /^PROD='([^']*)'/m.exec(doc)?.[1];
    expect(prod, "docs/operations.md has no PROD='...' line").toBeDefined();
    const given = [...prod!.matchAll(/-c (\w+)=/g)].map((match) => match[1]);
    expect(given).toContain('stage');
    expect(REQUIRED.filter((name) => !given.includes(name))).toEqual([]);
  });
});
