/**
 * The AppSync Events stand-in's port for `npm start`: APPSYNC_EVENTS_PORT, else the API's PORT
 * (default 3000) plus four (IVS has plus one, Stripe plus two, IVS Chat plus three).
 */
export const appsyncEventsPortOf = (env: NodeJS.ProcessEnv): number =>
  Number(env.APPSYNC_EVENTS_PORT ?? Number(env.PORT ?? 3000) + 4);
