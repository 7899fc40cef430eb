/**
 * Where `npm start` runs each stand-in, and where the commands that talk to them (`npm run
 * broadcast`, `npm run pay`, `npm run operator`, the demo scripts) find it: the stand-in's own
 * setting, else the API's PORT (default 3000) plus a fixed offset, so every command agrees
 * without a file in between. README.md lists the settings.
 */
const STAND_INS = {
  ivs: { setting: 'IVS_PORT', offset: 1 },
  stripe: { setting: 'STRIPE_PORT', offset: 2 },
  ivschat: { setting: 'IVSCHAT_PORT', offset: 3 },
  appsyncEvents: { setting: 'APPSYNC_EVENTS_PORT', offset: 4 },
  appStore: { setting: 'APP_STORE_PORT', offset: 6 },
  play: { setting: 'PLAY_PORT', offset: 7 },
} as const;

/** The port of the named stand-in under `env`'s settings. */
export const standInPort = (name: keyof typeof STAND_INS, env: NodeJS.ProcessEnv): number => {
  const { setting, offset } = STAND_INS[name];
  return Number(env[setting] ?? Number(env.PORT ?? 3000) + offset);
};
