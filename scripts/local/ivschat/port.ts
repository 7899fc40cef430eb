/**
 * The IVS Chat stand-in's port for `npm start`: IVSCHAT_PORT, else the API's PORT (default 3000)
 * plus three (IVS has plus one, Stripe plus two).
 */
export const ivschatPortOf = (env: NodeJS.ProcessEnv): number =>
  Number(env.IVSCHAT_PORT ?? Number(env.PORT ?? 3000) + 3);
