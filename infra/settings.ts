import type { StageName } from './stage.ts';

/**
 * The deploy-time settings of a stage, read from CDK context (`-c key=value`, infra/app.ts) and
 * checked here, in one place. Prod needs a real value for each; dev falls back to working
 * placeholders (the same defaults the local platform uses).
 */
export interface DeploySettings {
  /** OAuth client id the Google sign-in function accepts tokens for (env `GOOGLE_CLIENT_ID`). */
  googleClientId: string;
  /** Address subscribed to the alarm topic; dev may have none. */
  alarmEmail?: string;
  /** Public web origin (`{site_url}`): `handle_url` is `<siteUrl>/@<handle>` (env `SITE_URL`). */
  siteUrl: string;
  /**
   * The IVS playback key generations kept imported, oldest first, comma-separated; the last one
   * signs playback tokens (infra/playback-keys.ts; rotation in docs/live.md).
   */
  playbackKeys: string;
  /**
   * The From address of the platform's mail (env `MAIL_FROM`): its domain is the SES sending
   * identity, verified in the account and region (docs/identity.md "E-mail delivery").
   */
  mailFrom: string;
  /** `<account id>/<region>` this stage deploys to (prod: required; checked against `devTargets`). */
  target?: string;
  /**
   * Where dev stacks of this project are deployed, `<account>/<region>` comma-separated, or
   * `none`. Prod refuses a `target` among them: IVS's 3 playback key pairs per account and region
   * cannot hold prod's generations, a dev stack's and a rotation (docs/operations.md "Quotas").
   */
  devTargets?: string;
  /**
   * `required`: creators must sign in with a second factor to use the studio (env
   * `CREATOR_SECOND_FACTOR` of the studio functions and `GET /me`); `prompt`: they are only
   * prompted to enrol one (docs/accounts.md "Second factor").
   */
  creatorSecondFactor?: 'prompt' | 'required';
}

export type SettingName = keyof DeploySettings;

/** `<12-digit account id>/<region>`. */
const TARGET = /^\d{12}\/[a-z]{2}(-[a-z]+)+-\d$/;

/**
 * Prod's account and region, checked against dev's (the IVS playback key slots: 3 per account
 * and region; MAX_PLAYBACK_KEY_GENERATIONS) and, when the CDK CLI knows them (`cdk deploy` with
 * credentials sets CDK_DEFAULT_ACCOUNT and CDK_DEFAULT_REGION), against where it really deploys.
 */
const targetProblems = (
  resolved: Partial<Record<SettingName, string>>,
  actual: { account?: string; region?: string },
): string[] => {
  const { target, devTargets } = resolved;
  if (!target) return [];
  const problems: string[] = [];
  if (devTargets?.split(',').includes(target))
    problems.push(
      `target: ${target} is also where dev deploys (devTargets): IVS holds 3 playback key pairs per account and region, prod keeps up to ${MAX_PLAYBACK_KEY_GENERATIONS} and each dev stack 1, so a prod rotation would find no free slot. Deploy prod to an account (or region) of its own (docs/operations.md, Quotas)`,
    );
  if (actual.account && actual.region && `${actual.account}/${actual.region}` !== target)
    problems.push(
      `target: ${target} is not where this deploy goes (${actual.account}/${actual.region}, from the CDK CLI's credentials)`,
    );
  return problems;
};

interface SettingRule {
  /** What it is, for the error message. */
  meaning: string;
  /** A value of the right shape, for the error message. */
  example: string;
  /** dev's value when none is given (undefined: dev goes without). */
  placeholder?: string;
  /** The normalized value, or undefined when the value has the wrong shape. */
  parse: (value: string) => string | undefined;
}

/**
 * IVS holds 3 playback key pairs per account and region: the stack keeps at most 2 imported, so a
 * rotation (a third generation) never has to wait for a slot (docs/live.md "Rotating the key").
 */
export const MAX_PLAYBACK_KEY_GENERATIONS = 2;

/** Every setting, its dev placeholder and its shape. docs/operations.md (Context) lists the same. */
export const SETTINGS: Record<SettingName, SettingRule> = {
  googleClientId: {
    meaning: 'the Google OAuth client id Google sign-in accepts',
    example: '123456789-abc.apps.googleusercontent.com',
    placeholder: 'unset.apps.googleusercontent.com',
    parse: (value) => (/^[\w-]+\.apps\.googleusercontent\.com$/.test(value) ? value : undefined),
  },
  alarmEmail: {
    meaning: 'the e-mail address the alarm topic notifies',
    example: 'oncall@example.com',
    parse: (value) => (/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value) ? value : undefined),
  },
  siteUrl: {
    meaning: 'the public web origin handle_url is built on',
    example: 'https://watch.example.org',
    placeholder: 'https://creators.example.com',
    parse: (value) => {
      const url = URL.canParse(value) ? new URL(value) : undefined;
      // An origin only: `${siteUrl}/@handle` must not gain a second slash, a path or a query.
      return url?.protocol === 'https:' && `${url.origin}/` === url.href.replace(/\/?$/, '/')
        ? url.origin
        : undefined;
    },
  },
  playbackKeys: {
    meaning:
      "the IVS playback key generations to keep imported, oldest first (the last signs; at most 2, so one of IVS's 3 key slots stays free)",
    example: '2026-11',
    placeholder: 'dev-1',
    parse: (value) => {
      const generations = value.split(',').map((g) => g.trim());
      const valid =
        generations.length <= MAX_PLAYBACK_KEY_GENERATIONS &&
        new Set(generations).size === generations.length &&
        generations.every((g) => /^[a-z0-9][a-z0-9-]{0,19}$/i.test(g));
      return valid ? generations.join(',') : undefined;
    },
  },
  mailFrom: {
    meaning: 'the From address of verification mail; its domain must be a verified SES identity',
    example: 'no-reply@mail.example.org',
    placeholder: 'no-reply@creators.example.com',
    parse: (value) =>
      /^[^@\s<>]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(value) ? value.toLowerCase() : undefined,
  },
  target: {
    meaning: 'the AWS account and region this stage deploys to, <account id>/<region>',
    example: '123456789012/eu-west-1',
    parse: (value) => (TARGET.test(value) ? value : undefined),
  },
  creatorSecondFactor: {
    meaning:
      'whether creators must use a second factor in the studio (required) or are only prompted to enrol one (prompt)',
    example: 'required',
    parse: (value) => (value === 'prompt' || value === 'required' ? value : undefined),
  },
  devTargets: {
    meaning:
      'every <account id>/<region> where dev stacks of this project are deployed, comma-separated, or none (prod may not share one: IVS playback key slots)',
    example: '210987654321/eu-west-1',
    parse: (value) => {
      if (value === 'none') return value;
      const targets = value.split(',').map((t) => t.trim());
      return targets.every((t) => TARGET.test(t)) ? targets.join(',') : undefined;
    },
  },
};

const NAMES = Object.keys(SETTINGS) as SettingName[];

/** Reads every setting from CDK context (`-c googleClientId=...`); empty values count as missing. */
export const settingsFromContext = (
  tryGetContext: (key: string) => unknown,
): Partial<Record<SettingName, string>> =>
  Object.fromEntries(
    NAMES.flatMap((name) => {
      const value = tryGetContext(name);
      return value === undefined || value === null || String(value).trim() === ''
        ? []
        : [[name, String(value).trim()]];
    }),
  );

/**
 * The settings a stage deploys with. Prod: every setting is required and no dev placeholder is
 * accepted; one error names each missing or malformed setting. Dev: a missing setting takes its
 * placeholder, a given one must still have the right shape.
 */
export const resolveSettings = (
  stage: StageName,
  given: Partial<Record<SettingName, string | undefined>>,
  actual: { account?: string; region?: string } = {},
): DeploySettings => {
  const problems: string[] = [];
  const resolved: Partial<Record<SettingName, string>> = {};
  for (const name of NAMES) {
    const rule = SETTINGS[name];
    const value = given[name]?.trim() || undefined;
    const hint = `${rule.meaning}, e.g. -c ${name}=${rule.example}`;
    if (value === undefined) {
      if (stage === 'prod') problems.push(`${name}: missing (${hint})`);
      else if (rule.placeholder !== undefined) resolved[name] = rule.placeholder;
      continue;
    }
    const parsed = rule.parse(value);
    if (parsed === undefined) problems.push(`${name}: ${JSON.stringify(value)} is not valid (${hint})`);
    else if (stage === 'prod' && parsed === rule.placeholder) {
      problems.push(`${name}: ${JSON.stringify(value)} is the dev placeholder (${hint})`);
    } else resolved[name] = parsed;
  }
  if (stage === 'prod') problems.push(...targetProblems(resolved, actual));
  if (problems.length > 0) {
    throw new Error(
      `Stage ${stage} cannot be synthesized: ${problems.length} setting(s) missing or invalid. ` +
        `Pass each with -c <name>=<value> (docs/operations.md, Context):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  }
  return resolved as DeploySettings;
};
