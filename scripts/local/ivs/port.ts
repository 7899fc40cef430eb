/**
 * The IVS stand-in's port for `npm start` and `npm run broadcast`: IVS_PORT, else the API's
 * PORT (default 3000) plus one, so both commands agree without a file in between.
 */
export const ivsPortOf = (env: NodeJS.ProcessEnv): number =>
  Number(env.IVS_PORT ?? Number(env.PORT ?? 3000) + 1);
