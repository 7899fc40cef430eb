/**
 * The App Store stand-in's port for `npm start` and `npm run pay -- apple`: APP_STORE_PORT, else
 * the API's PORT (default 3000) plus six (IVS +1, Stripe +2, IVS Chat +3; +4 and +5 left free).
 */
export const appStorePortOf = (env: NodeJS.ProcessEnv): number =>
  Number(env.APP_STORE_PORT ?? Number(env.PORT ?? 3000) + 6);
