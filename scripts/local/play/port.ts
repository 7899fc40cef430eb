/**
 * The Google Play stand-in's port for `npm start` and `npm run pay -- google`: PLAY_PORT, else the
 * API's PORT (default 3000) plus seven (the App Store stand-in has plus six).
 */
export const playPortOf = (env: NodeJS.ProcessEnv): number =>
  Number(env.PLAY_PORT ?? Number(env.PORT ?? 3000) + 7);
